//! What a cluster's representatives agree on, added to a page's own
//! extraction.
//!
//! A page's own extraction (the full method with the collection as page
//! source) sees how its layout's parts recur on the pages it links to, but
//! misses a part its candidates happen to lack or show differently (a
//! section's menu, a footer line that names the page). The templates learnt
//! on the cluster's representatives see other neighbourhoods of the same
//! layout: a node most of their skeletons map onto is template on this page
//! too. Two limits keep that evidence honest:
//!
//! * a majority, not any one skeleton: one representative whose neighbours
//!   showed the same mini-cart or the same related products would otherwise
//!   make them template everywhere;
//! * a list the page's own comparison found to vary (an item it kept as
//!   content) stays as it judged: the representatives cannot see how this
//!   page's replies, products or cart items differ from its neighbours'.

use crate::base::config::Config;
use crate::decide::text_recurrence::lists;
use crate::memory::template_memory::{node_paths, PreparedCluster, ServedPage};
use crate::page::dom::Tree;

/// Among the nodes the page's own template `own` leaves out, those onto
/// which the skeletons of more than half of the representatives map (a node
/// of `own` is template whatever they say, so its vote is not finished);
/// each cluster comes with the number of representatives that learnt its
/// skeleton.
///
/// Most of a page is content no skeleton maps, or template all of them map:
/// once every node left out by `own` has a majority, or can no longer get
/// one, the remaining skeletons are not mapped. The heaviest go first.
pub fn majority(cfg: &Config, clusters: &[(PreparedCluster, usize)], tree: &Tree, own: &[bool]) -> Vec<bool> {
    let representatives: usize = clusters.iter().map(|(_, n)| n).sum();
    let open = |v: &usize, left: usize| 2 * v <= representatives && 2 * (v + left) > representatives;
    let votes = tally(cfg, clusters, tree, |votes, left| votes.iter().zip(own).any(|(v, &o)| !o && open(v, left)));
    Votes { votes, representatives }.majority()
}

/// How many representatives' skeletons map onto each node of the page,
/// every skeleton mapped (as a page served with `fast` needs them all).
pub fn votes(cfg: &Config, clusters: &[(PreparedCluster, usize)], tree: &Tree) -> Votes {
    let representatives = clusters.iter().map(|(_, n)| n).sum();
    Votes { votes: tally(cfg, clusters, tree, |_, _| true), representatives }
}

/// Each skeleton mapped onto the page, heaviest first, its votes weighted
/// by the representatives that learnt it, while `go_on(votes, left)` says
/// the votes still to come (`left` of them) can change what is wanted.
fn tally(
    cfg: &Config,
    clusters: &[(PreparedCluster, usize)],
    tree: &Tree,
    go_on: impl Fn(&[usize], usize) -> bool,
) -> Vec<usize> {
    let mut order: Vec<&(PreparedCluster, usize)> = clusters.iter().collect();
    order.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let mut votes = vec![0usize; tree.len()];
    let mut left: usize = clusters.iter().map(|(_, n)| n).sum();
    let page = &mut ServedPage::new(tree);
    for (c, learnt_by) in order {
        if !go_on(&votes, left) {
            break;
        }
        for (v, mapped) in votes.iter_mut().zip(c.serve(cfg, page)) {
            *v += learnt_by * usize::from(mapped);
        }
        left -= learnt_by;
    }
    votes
}

/// The representatives' votes on each node of one page.
pub struct Votes {
    votes: Vec<usize>,
    representatives: usize,
}

impl Votes {
    /// Every node some skeleton maps onto (each mapping is top-down closed,
    /// so their union is too).
    pub fn union(&self) -> Vec<bool> {
        self.votes.iter().map(|&v| v > 0).collect()
    }

    /// Every node the skeletons of more than half of the representatives map onto.
    pub fn majority(&self) -> Vec<bool> {
        self.votes.iter().map(|&v| 2 * v > self.representatives).collect()
    }

    /// Words of text on nodes some skeleton maps but not a majority: what
    /// serving the union drops that the page's own comparison, joined with
    /// the majority, might keep (one representative's mini-cart).
    pub fn disputed_words(&self, tree: &Tree) -> u32 {
        let disputed = |&(v, _): &(&usize, _)| *v > 0 && 2 * v <= self.representatives;
        self.votes.iter().zip(tree.nodes()).filter(disputed).map(|(_, (_, n))| n.words).sum()
    }
}

/// Disputed words ([`Votes::disputed_words`]) past which a `selective`
/// page is compared rather than served the union: a few paragraphs. On the
/// dev set 100 cut the words `selective` loses against the default by
/// two thirds at the same F1; 20 or 50 compared more key pages that the
/// union serves better (docs/collection.md, Words lost).
pub const MAX_DISPUTED_WORDS: u32 = 100;

/// Whether the page shows a part of its frame no representative's page
/// had: an element the skeletons leave out, directly under an element they
/// map, whose root-to-element path of tags none of the representatives'
/// layouts (`seen`) holds. The skeletons cannot know such a part (an
/// article's tabs the representatives' talk pages lack); only the page's
/// own neighbours can say whether it recurs. A part that is new deeper in
/// the content (a table in one article) says nothing of the template.
///
/// `layout` is the page's own layout signature: when a representative's
/// page holds every one of its paths, no element can be unseen, and the
/// page's paths node by node are not needed (most pages of a regular site).
pub fn unseen_frame(tree: &Tree, layout: &[u64], union: &[bool], seen: &[&[u64]]) -> bool {
    let known = |path: &u64| seen.iter().any(|l| l.binary_search(path).is_ok());
    if layout.iter().all(known) {
        return false;
    }
    let paths = node_paths(tree);
    tree.nodes()
        .any(|(id, n)| n.parent.is_some_and(|p| union[p.index()]) && !union[id.index()] && !known(&paths[id.index()]))
}

/// The page's own template with what the majority adds, except inside a
/// list one of whose items the page's own extraction kept as content.
pub fn joined(tree: &Tree, own: &[bool], mut majority: Vec<bool>) -> Vec<bool> {
    for list in lists(tree) {
        if list.iter().any(|n| !own[n.index()]) {
            for item in list {
                majority[tree.subtree(item)].iter_mut().for_each(|m| *m = false);
            }
        }
    }
    own.iter().zip(majority).map(|(&o, m)| o || m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::NodeId;
    use crate::page::html::{parse, snapshot};

    #[test]
    fn disputed_words_are_those_some_but_not_most_skeletons_map() {
        let t = snapshot(&parse(
            "<html><body><nav><a href=/x>Home page</a></nav><aside><p>three cart words</p></aside>\
             <main><p>five words of the article</p></main></body></html>",
        ))
        .unwrap();
        let at = |tag: &str| t.nodes().position(|(_, n)| &*n.tag == tag).unwrap();
        // Five representatives: all map the frame, two the aside and its paragraph, none the main.
        let mut votes = vec![5; t.len()];
        votes[t.subtree(NodeId(at("main") as u32))].iter_mut().for_each(|v| *v = 0);
        votes[at("aside")] = 2;
        votes[at("p")] = 2;
        let v = Votes { votes, representatives: 5 };
        assert_eq!(v.disputed_words(&t), 3, "the aside's words, not the menu's nor the article's");
    }

    #[test]
    fn the_majority_adds_nodes_but_not_into_a_list_the_page_found_varying() {
        let t = snapshot(&parse(
            "<html><body><header><a href=/x>X</a><span>tagline</span></header>\
             <ul><li class=i>one</li><li class=i>two</li><li class=i>three</li></ul>\
             <footer><p>f</p></footer></body></html>",
        ))
        .unwrap();
        let find = |tag: &str| t.nodes().filter(|(_, n)| &*n.tag == tag).map(|(id, _)| id.index()).collect::<Vec<_>>();
        let (lis, ps, spans) = (find("li"), find("p"), find("span"));
        let mut own = vec![true; t.len()];
        own[lis[0]] = false; // the page's own comparison kept one item as content
        own[ps[0]] = false; // and missed the footer's line
        own[spans[0]] = false; // and the header's tagline
        let result = joined(&t, &own, vec![true; t.len()]);
        assert!(result[ps[0]] && result[spans[0]], "what the majority agrees on is added");
        assert!(!result[lis[0]], "the varying list stays as the page judged it");
        assert!(result[lis[1]] && result[lis[2]], "items the page kept stay template");
        let nothing = joined(&t, &own, vec![false; t.len()]);
        assert_eq!(nothing, own, "without agreement the page's own template stands");
    }

    #[test]
    fn the_majority_is_that_of_every_skeleton_on_the_nodes_the_page_left_out() {
        use crate::memory::template_memory::Cluster;
        use crate::page::dom::test_trees::tree;
        let cfg = Config::default();
        let page = tree("html( body( nav( a a ) aside.s( p ) main( h1 p ) footer( p ) ) )");
        let url = url::Url::parse("http://s.org/a.html").unwrap();
        // Each representative's template: html and body, and the listed sections with all below them.
        let learnt = |sections: &[&str]| {
            let flags: Vec<bool> = page
                .nodes()
                .map(|(id, _)| {
                    let mut top = id;
                    while page.node(top).depth > 3 {
                        top = page.node(top).parent.unwrap();
                    }
                    page.node(id).depth < 3 || sections.contains(&&*page.node(top).tag)
                })
                .collect();
            Cluster::learn(&cfg, &url, &page, &flags)
        };
        // The aside gets its majority only from the last three skeletons, the footer never.
        let clusters = [
            learnt(&["nav"]),
            learnt(&["nav", "footer"]),
            learnt(&["nav", "aside"]),
            learnt(&["nav", "aside"]),
            learnt(&["nav", "aside"]),
        ];
        let prepared: Vec<(PreparedCluster, usize)> = clusters.iter().map(|c| (c.prepare().unwrap(), 1)).collect();
        let mut votes = vec![0; page.len()];
        for (c, _) in &prepared {
            votes.iter_mut().zip(c.apply(&cfg, &page)).for_each(|(v, m)| *v += usize::from(m));
        }
        let every: Vec<bool> = votes.iter().map(|&v| 2 * v > prepared.len()).collect();
        let tagged = |tag: &str| page.nodes().find(|(_, n)| &*n.tag == tag).unwrap().0.index();
        assert!(every[tagged("aside")] && every[tagged("nav")] && !every[tagged("footer")] && !every[tagged("main")]);
        for own in [vec![false; page.len()], page.nodes().map(|(_, n)| n.depth < 3).collect(), vec![true; page.len()]] {
            let got = majority(&cfg, &prepared, &page, &own);
            for i in (0..page.len()).filter(|&i| !own[i]) {
                assert_eq!(got[i], every[i], "node {i}");
            }
        }
    }
}
