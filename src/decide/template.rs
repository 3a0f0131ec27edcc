//! Template extraction with votes (2016 paper, Alg. 1) and the 2013
//! intersection mode, over whichever mapping the configuration selects.

use crate::base::config::{Algorithm, Config, Voting};
use crate::compare::mapping::{etdm, Mapping};
use crate::compare::rtdm::rtdm_mapping;
use crate::page::dom::{NodeId, Tree};

/// Maps the key page onto one candidate with the configured algorithm.
pub fn map_page(cfg: &Config, key: &Tree, candidate: &Tree) -> Mapping {
    match cfg.algorithm {
        Algorithm::Etdm => etdm(cfg, key, candidate),
        Algorithm::Rtdm => rtdm_mapping(cfg, key, candidate),
    }
}

/// Votes needed with `candidates` pages: `votes`, or all pages when there
/// are fewer (a node cannot collect more votes than there are pages), or
/// all pages in intersection mode.
pub fn votes_needed(cfg: &Config, candidates: usize) -> usize {
    match cfg.voting {
        Voting::Votes => cfg.votes.min(candidates).max(1),
        Voting::Intersection => candidates.max(1),
    }
}

/// For every key node, in how many candidates it is mapped.
pub fn vote_counts(key: &Tree, mappings: &[Mapping]) -> Vec<u32> {
    let mut votes = vec![0u32; key.len()];
    for m in mappings {
        for (n, _) in m.pairs() {
            votes[n.index()] += 1;
        }
    }
    votes
}

/// The template as a membership flag per key node.
///
/// The paper unions, over every v-subset of candidates, the nodes mapped
/// top-down into all v pages at once. Each candidate's mapping is top-down
/// on its own, so a node mapped into v pages has its parent mapped into the
/// same v pages: counting pairwise mappings and keeping nodes with at least
/// v votes gives that union, and the result is top-down closed.
pub fn template(cfg: &Config, key: &Tree, mappings: &[Mapping]) -> Vec<bool> {
    template_of_votes(cfg, &vote_counts(key, mappings), mappings.len())
}

/// [`template`] from [`vote_counts`] over `pages` candidates, for callers
/// that read the counts too.
pub fn template_of_votes(cfg: &Config, votes: &[u32], pages: usize) -> Vec<bool> {
    if pages == 0 {
        return vec![false; votes.len()];
    }
    let need = votes_needed(cfg, pages) as u32;
    votes.iter().map(|&v| v >= need).collect()
}

/// `template` without the subtree of each element of `<body>` that `pick`
/// picks (given its index and the template so far), topmost first: the
/// elements under a picked one are not asked. Stays top-down closed.
pub fn release_subtrees(tree: &Tree, mut template: Vec<bool>, pick: impl Fn(usize, &[bool]) -> bool) -> Vec<bool> {
    let Some(body) = tree.body() else { return template };
    let mut i = body.index() + 1;
    let end = tree.subtree(body).end;
    while i < end {
        if pick(i, &template) {
            let subtree = tree.subtree(NodeId(i as u32));
            template[subtree.clone()].iter_mut().for_each(|t| *t = false);
            i = subtree.end;
        } else {
            i += 1;
        }
    }
    template
}

/// Number of template nodes.
pub fn count(template: &[bool]) -> usize {
    template.iter().filter(|&&t| t).count()
}

/// Whether every template node's parent is template too.
pub fn is_top_down_closed(key: &Tree, template: &[bool]) -> bool {
    key.nodes().all(|(id, n)| !template[id.index()] || n.parent.is_none_or(|p: NodeId| template[p.index()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    fn pages() -> (Tree, Vec<Tree>) {
        let key = tree("html( body( nav.m( a a ) aside.s( p ) article( h1 ) ) )");
        let c1 = tree("html( body( nav.m( a a ) aside.s( p ) section ) )");
        let c2 = tree("html( body( nav.m( a a ) table ) )");
        let c3 = tree("html( body( nav.m( a a ) aside.s( p ) ) )");
        (key, vec![c1, c2, c3])
    }

    fn tags(key: &Tree, t: &[bool]) -> Vec<String> {
        key.nodes().filter(|(id, _)| t[id.index()]).map(|(_, n)| n.tag.to_string()).collect()
    }

    #[test]
    fn two_votes_keep_what_two_pages_share() {
        let (key, cands) = pages();
        let cfg = Config::default();
        let ms: Vec<Mapping> = cands.iter().map(|c| map_page(&cfg, &key, c)).collect();
        let t = template(&cfg, &key, &ms);
        assert_eq!(tags(&key, &t), ["html", "body", "nav", "a", "a", "aside", "p"]);
        assert!(is_top_down_closed(&key, &t));
    }

    #[test]
    fn intersection_keeps_what_every_page_shares() {
        let (key, cands) = pages();
        let cfg = Config { voting: Voting::Intersection, ..Config::default() };
        let ms: Vec<Mapping> = cands.iter().map(|c| map_page(&cfg, &key, c)).collect();
        assert_eq!(tags(&key, &template(&cfg, &key, &ms)), ["html", "body", "nav", "a", "a"]);
    }

    #[test]
    fn votes_are_capped_by_the_number_of_pages() {
        let cfg = Config::default();
        assert_eq!(votes_needed(&cfg, 1), 1);
        assert_eq!(votes_needed(&cfg, 3), 2);
        let inter = Config { voting: Voting::Intersection, ..cfg };
        assert_eq!(votes_needed(&inter, 3), 3);
    }
}
