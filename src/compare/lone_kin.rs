//! Lone kin: the one element of a tag among two mapped nodes' children.
//!
//! Pages of one layout saved at different times differ in a wrapper's
//! classes or attributes (a theme update renames `wrapper` to
//! `site-wrapper container`, a build adds `data-build` to a `<div>`):
//! the equality probability of the two wrappers falls below the threshold,
//! and the top-down mapping, which descends only into mapped pairs, loses
//! everything below them — the whole frame. When no child of the two
//! `<body>`s pairs, so the mapping would stop there, and a tag occurs exactly
//! once among the children on each side with their own children built of
//! mostly the same tags (counted with repeats, or, for wrappers of pages of
//! unlike lengths, as kinds), the two are the same place of the layout whatever
//! their names say: they are paired, and the mapping goes on below them,
//! where each node must still pass the threshold.
//!
//! Where other children of the `<body>`s pair (a header and a footer) and
//! the renamed wrapper lies between two pairs, one unpaired child on each
//! side, the two are paired when, besides alike children, they hold at
//! least two of the same link targets (a sidebar's, a menu's): without the
//! links, a message's body between its header lines and its footer paired
//! too (a mailing-list archive lost 51 points of self-agreement). Before
//! the first pair or after the last, the one unpaired child on each side
//! is paired so only when it holds most of its page (a manual's section
//! wrapper before the closing rule and footer); alike by kinds is enough
//! there, not between pairs, where a message's quoted lines share a
//! list's footer links with another message's. Deeper in
//! the page, the mapping has found the layout and a lone unpaired element
//! is more often the page's own block (tried: pairing those cost a docs site
//! ten points of template F1, and lost elsewhere; pairing between pairs at
//! any depth, even with shared links, lost on a documentation site and
//! gained nothing overall on the robustness corpus).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::page::dom::{NodeId, Tree};

/// Pairs (as positions in `s1`, `s2`) of lone kin among the children of
/// two `<body>`s, when `accepted` (the pairs the probabilities selected) is
/// empty.
pub fn lone_kin(
    t1: &Tree,
    s1: &[NodeId],
    t2: &Tree,
    s2: &[NodeId],
    accepted: &BTreeMap<u32, u32>,
    preserve_order: bool,
) -> Vec<(u32, u32)> {
    if !accepted.is_empty() || !under_body(t1, s1) || !under_body(t2, s2) {
        return Vec::new();
    }
    let lone2 = lone_by_tag(t2, s2);
    let mut kin: Vec<(u32, u32)> = lone_by_tag(t1, s1)
        .into_iter()
        .filter_map(|(tag, i)| Some((i, *lone2.get(tag)?)))
        .filter(|&(i, j)| {
            let (a, b) = (s1[i as usize], s2[j as usize]);
            kin_children(t1, a, t2, b)
        })
        .collect();
    kin.sort_unstable();
    let mut last = None;
    kin.retain(|&(_, j)| {
        let keep = !preserve_order || last.is_none_or(|l| j > l);
        if keep {
            last = Some(j);
        }
        keep
    });
    kin
}

/// Pairs (as positions in `s1`, `s2`) of the one unpaired child on each
/// side between two consecutive pairs of `accepted`, or before the first
/// pair or after the last, among the children of two `<body>`s, when the
/// two have the same tag, alike children, and at least [`SHARED_LINKS`]
/// link targets below both. The edges count as pairs for a child that
/// holds most of its page: a page held whole in one wrapper before a
/// closing rule and footer (a manual's section, its class naming the
/// section's level) is the same place on both pages.
pub fn between_pairs(
    t1: &Tree,
    s1: &[NodeId],
    t2: &Tree,
    s2: &[NodeId],
    accepted: &BTreeMap<u32, u32>,
) -> Vec<(u32, u32)> {
    if accepted.is_empty() || !under_body(t1, s1) || !under_body(t2, s2) {
        return Vec::new();
    }
    let edges = [(-1, -1), (s1.len() as i64, s2.len() as i64)];
    let mut pairs: Vec<(i64, i64)> = accepted.iter().map(|(&i, &j)| (i as i64, j as i64)).collect();
    pairs.insert(0, edges[0]);
    pairs.push(edges[1]);
    pairs
        .windows(2)
        .filter(|w| w[1].0 == w[0].0 + 2 && w[1].1 == w[0].1 + 2)
        .filter_map(|w| {
            let (i, j) = ((w[0].0 + 1) as u32, (w[0].1 + 1) as u32);
            let (a, b) = (s1[i as usize], s2[j as usize]);
            let alike = if edges.contains(&w[0]) || edges.contains(&w[1]) {
                holds_most(t1, a) && holds_most(t2, b) && kin_children(t1, a, t2, b)
            } else {
                alike_children(t1, a, t2, b)
            };
            let kin = alike && t1.node(a).tag == t2.node(b).tag && shared_links(t1, a, t2, b) >= SHARED_LINKS;
            kin.then_some((i, j))
        })
        .collect()
}

/// Whether `n` holds at least half of its parent's elements: at an edge,
/// only a wrapper of the page is taken for the frame's place (a header
/// line or a list at the edge of a message page is as likely the page's).
fn holds_most(t: &Tree, n: NodeId) -> bool {
    let parent = t.node(n).parent.expect("a child of <body>");
    2 * t.subtree(n).len() >= t.subtree(parent).len()
}

/// Link targets below both of two elements between pairs that make them
/// one place of the frame: a sidebar's, a menu's. A block of the page's
/// own (a message's quoted lines, an article) shares none or one.
const SHARED_LINKS: usize = 2;

/// Whether `siblings` are children of `<body>`.
fn under_body(t: &Tree, siblings: &[NodeId]) -> bool {
    siblings.first().and_then(|&n| t.node(n).parent).is_some_and(|p| &*t.node(p).tag == "body")
}

/// Link targets found below both `a` and `b`, each counted once.
fn shared_links(t1: &Tree, a: NodeId, t2: &Tree, b: NodeId) -> usize {
    fn links(t: &Tree, n: NodeId) -> HashSet<&str> {
        t.subtree(n).filter_map(|i| t.node(NodeId(i as u32)).href.as_deref()).collect()
    }
    links(t1, a).intersection(&links(t2, b)).count()
}

/// Each tag that occurs once in `siblings`, with its position.
fn lone_by_tag<'t>(tree: &'t Tree, siblings: &[NodeId]) -> HashMap<&'t str, u32> {
    let mut seen: HashMap<&str, Option<u32>> = HashMap::new();
    for (k, &n) in siblings.iter().enumerate() {
        seen.entry(&tree.node(n).tag).and_modify(|e| *e = None).or_insert(Some(k as u32));
    }
    seen.into_iter().filter_map(|(tag, k)| Some((tag, k?))).collect()
}

/// Both have children, and at least half of the larger child list's tags
/// (counted with repeats) occur in the other too.
fn alike_children(t1: &Tree, a: NodeId, t2: &Tree, b: NodeId) -> bool {
    let (c1, c2) = (t1.children(a), t2.children(b));
    if c1.is_empty() || c2.is_empty() {
        return false;
    }
    let mut tags: HashMap<&str, i64> = HashMap::new();
    c1.iter().for_each(|&c| *tags.entry(&t1.node(c).tag).or_default() += 1);
    let common = c2
        .iter()
        .filter(|&&c| {
            tags.get_mut(&*t2.node(c).tag).is_some_and(|k| {
                *k -= 1;
                *k >= 0
            })
        })
        .count();
    2 * common >= c1.len().max(c2.len())
}

/// Children alike by their tags counted with repeats or by their kinds.
fn kin_children(t1: &Tree, a: NodeId, t2: &Tree, b: NodeId) -> bool {
    alike_children(t1, a, t2, b) || alike_kinds(t1, a, t2, b)
}

/// Both have children, and at least half of the larger set of child tags
/// (each tag once) occurs in the other: a wrapper that holds a whole page
/// (its header line, heading, paragraphs) has as many children as the page
/// has paragraphs, so two pages of one layout and unlike lengths differ
/// in the counts, not in the kinds.
fn alike_kinds(t1: &Tree, a: NodeId, t2: &Tree, b: NodeId) -> bool {
    let kinds = |t: &Tree, n: NodeId| t.children(n).iter().map(|&c| t.node(c).tag.clone()).collect::<HashSet<_>>();
    let (k1, k2) = (kinds(t1, a), kinds(t2, b));
    !k1.is_empty() && !k2.is_empty() && 2 * k1.intersection(&k2).count() >= k1.len().max(k2.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    fn body_children(t: &Tree) -> Vec<NodeId> {
        let body = t.nodes().find(|(_, n)| &*n.tag == "body").unwrap().0;
        t.children(body).to_vec()
    }

    #[test]
    fn a_renamed_wrapper_of_alike_children_is_kin() {
        let a = tree("html( body( div.site-wrapper( header nav main footer ) script ) )");
        let b = tree("html( body( div.wrapper( header nav main aside footer ) script ) )");
        let (s1, s2) = (body_children(&a), body_children(&b));
        assert_eq!(lone_kin(&a, &s1, &b, &s2, &BTreeMap::new(), true), vec![(0, 0)], "a script holds nothing to map");
        let script = BTreeMap::from([(1, 1)]);
        assert!(lone_kin(&a, &s1, &b, &s2, &script, true).is_empty(), "where others pair, the layout is found");
        let long = tree("html( body( div.subsection( header h4 p p p p p p p ) ) )");
        let short = tree("html( body( div.section( header h3 p p ) ) )");
        let (s3, s4) = (body_children(&long), body_children(&short));
        assert_eq!(lone_kin(&long, &s3, &short, &s4, &BTreeMap::new(), true), vec![(0, 0)], "pages of unlike lengths");
    }

    #[test]
    fn between_two_pairs_kin_share_links() {
        let page = |wrapper: &str, links: &str| {
            let html = format!("<body><header>h</header><div class='{wrapper}'><main>m</main><aside>{links}</aside></div><footer>f</footer>");
            crate::page::html::snapshot(&crate::page::html::parse(&html)).unwrap()
        };
        let sidebar = "<a href=/x.html>x</a><a href=/y.html>y</a>";
        let (a, b) = (page("wrap v2", sidebar), page("wrap v1", sidebar));
        let (s1, s2) = (body_children(&a), body_children(&b));
        let header_and_footer = BTreeMap::from([(0, 0), (2, 2)]);
        assert_eq!(between_pairs(&a, &s1, &b, &s2, &header_and_footer), vec![(1, 1)]);
        let one_link = page("wrap v1", "<a href=/x.html>x</a><a href=/z.html>z</a>");
        let s3 = body_children(&one_link);
        assert!(between_pairs(&a, &s1, &one_link, &s3, &header_and_footer).is_empty(), "one link in common");
        assert!(between_pairs(&a, &s1, &b, &s2, &BTreeMap::from([(0, 0)])).is_empty(), "not between two pairs");
    }

    #[test]
    fn a_wrapper_of_the_whole_page_before_the_first_pair_is_kin() {
        let page = |level: &str, body: &str| {
            let html = format!(
                "<body><div class={level}><div class=nav><a href=/toc.html>Contents</a><a href=/ix.html>Index</a></div>\
                 {body}</div><hr><p class=foot>f</p>"
            );
            crate::page::html::snapshot(&crate::page::html::parse(&html)).unwrap()
        };
        let a = page("subsection", "<h4>a</h4><p>1</p><p>2</p><p>3</p><p>4</p><p>5</p><pre>x</pre>");
        let b = page("section", "<h3>b</h3><p>1</p><dl><dt>d</dt></dl><pre>y</pre>");
        let (s1, s2) = (body_children(&a), body_children(&b));
        let rule_and_footer = BTreeMap::from([(1, 1), (2, 2)]);
        assert!(!alike_children(&a, s1[0], &b, s2[0]), "their children differ in number");
        assert_eq!(between_pairs(&a, &s1, &b, &s2, &rule_and_footer), vec![(0, 0)]);
        let lead = |name: &str| {
            let html = format!(
                "<body><div class={name}><a href=/toc.html>Contents</a><a href=/ix.html>Index</a></div>\
                 <main><p>1</p><p>2</p><p>3</p></main><hr><p>f</p>"
            );
            crate::page::html::snapshot(&crate::page::html::parse(&html)).unwrap()
        };
        let (c, d) = (lead("lead v2"), lead("lead v1"));
        let (s3, s4) = (body_children(&c), body_children(&d));
        let after_the_lead = BTreeMap::from([(1, 1), (2, 2), (3, 3)]);
        assert!(
            between_pairs(&c, &s3, &d, &s4, &after_the_lead).is_empty(),
            "a small block at the edge is not a wrapper"
        );
    }

    #[test]
    fn deeper_than_the_body_nothing_is_kin() {
        let a = tree("html( body( div#page( div.site-wrapper( header main ) ) ) )");
        let b = tree("html( body( div#page( div.wrapper( header main ) ) ) )");
        let page = |t: &Tree| t.children(body_children(t)[0]).to_vec();
        assert!(lone_kin(&a, &page(&a), &b, &page(&b), &BTreeMap::new(), true).is_empty());
    }

    #[test]
    fn repeated_tags_unlike_children_and_crossing_pairs_are_not() {
        let a = tree("html( body( div.x( p p ) div.y( p ) ) )");
        let b = tree("html( body( div.z( p p ) ) )");
        assert!(lone_kin(&a, &body_children(&a), &b, &body_children(&b), &BTreeMap::new(), true).is_empty());

        let a = tree("html( body( section.a( h1 p p p ) ) )");
        let b = tree("html( body( section.b( table ul ) ) )");
        assert!(lone_kin(&a, &body_children(&a), &b, &body_children(&b), &BTreeMap::new(), true).is_empty());

        let a = tree("html( body( div.a( p ) footer.x( p ) ) )");
        let b = tree("html( body( footer.y( p ) div.b( p ) ) )");
        let (s1, s2) = (body_children(&a), body_children(&b));
        assert_eq!(lone_kin(&a, &s1, &b, &s2, &BTreeMap::new(), true), vec![(0, 1)], "pairs never cross");
        assert_eq!(lone_kin(&a, &s1, &b, &s2, &BTreeMap::new(), false), vec![(0, 1), (1, 0)]);
    }
}
