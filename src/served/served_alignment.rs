//! Which element of the live page (scripts have run) is which element of the
//! same page as served (before any script), so that a template found on the
//! served page, the one the linked pages are compared like with like, can be
//! carried over to what the user sees.
//!
//! The two trees mostly coincide; scripts insert nodes (a cookie banner, a
//! chat bubble, a menu filled from JSON), wrap parts in new elements (a
//! sticky header's wrapper) and rewrite attributes (`data-src` → `src`,
//! `lazyload` → `lazyloaded`). The alignment is top-down: children of two
//! aligned nodes are paired in order by tag, the best of a short window of
//! live siblings chosen by what scripts rarely change (id, the served
//! classes, the text, the number of children); a live sibling that holds the
//! served child a level or two down is a wrapper, and its children are
//! paired instead. Each served child looks at a bounded number of live
//! nodes, and each live node enters a row of candidates once, so the
//! alignment is linear in the size of the pages (`benches/served_alignment.rs`).

use std::collections::VecDeque;

use crate::page::dom::{common_count, Node, NodeId, Tree};

/// Live siblings looked at ahead for one served child: a script inserts a
/// few elements among siblings, not dozens; the bound keeps the work linear.
const WINDOW: usize = 16;
/// Levels a wrapper may add above a served element (a sticky header's
/// wrapper and its inner box).
const WRAP_DEPTH: u32 = 2;
/// Below this score a same-tag live sibling is another element (its id and
/// its classes both differ from the served one's).
const MIN_SCORE: i32 = -2;

/// The served counterpart of every live node, if any.
#[derive(Clone, Debug)]
pub struct Alignment {
    served_of: Vec<Option<NodeId>>,
}

impl Alignment {
    /// The served node a live node is, or `None` for a node added by scripts.
    pub fn served_of(&self, live: NodeId) -> Option<NodeId> {
        self.served_of[live.index()]
    }

    /// Per live node: it has no served counterpart, a script added it.
    pub fn added(&self) -> Vec<bool> {
        self.served_of.iter().map(Option::is_none).collect()
    }

    /// Live nodes with a served counterpart.
    pub fn aligned(&self) -> usize {
        self.served_of.iter().filter(|s| s.is_some()).count()
    }

    /// Share of the live page's elements the served page holds.
    pub fn live_share(&self) -> f64 {
        if self.served_of.is_empty() {
            return 0.0;
        }
        self.aligned() as f64 / self.served_of.len() as f64
    }

    /// The served page's template carried over to the live page. An aligned
    /// node is what its served node is. A node added by scripts is template
    /// when its parent is and either it holds aligned template nodes (a
    /// wrapper around a template part) or its nearest aligned ancestor is
    /// template through and through on the served page (an empty `<ul>` of
    /// the header that a script fills from JSON): a script that fills a part
    /// of the frame fills it on every page. Anything else a script added (a
    /// cookie banner, a chat bubble in the body) is not template. Parents
    /// are decided before children, so the result stays top-down closed.
    pub fn carry(&self, served: &Tree, live: &Tree, served_template: &[bool]) -> Vec<bool> {
        let pure = pure_template(served, served_template);
        let n = live.len();
        let mut holds_template = vec![false; n];
        for i in (0..n).rev() {
            holds_template[i] = live.children(NodeId(i as u32)).iter().any(|c| {
                holds_template[c.index()] || self.served_of[c.index()].is_some_and(|s| served_template[s.index()])
            });
        }
        let mut template = vec![false; n];
        // The served node of each live node's nearest aligned ancestor-or-self.
        let mut anchor: Vec<Option<NodeId>> = vec![None; n];
        for (id, node) in live.nodes() {
            let i = id.index();
            let parent = node.parent.map(NodeId::index);
            anchor[i] = self.served_of[i].or_else(|| parent.and_then(|p| anchor[p]));
            template[i] = match self.served_of[i] {
                Some(s) => served_template[s.index()],
                None => {
                    let parent_template = parent.is_none_or(|p| template[p]);
                    let fills_frame = parent.and_then(|p| anchor[p]).is_some_and(|s| pure[s.index()]);
                    parent_template && (holds_template[i] || fills_frame)
                }
            };
        }
        template
    }
}

/// Per served node: it and its whole subtree are template.
fn pure_template(tree: &Tree, template: &[bool]) -> Vec<bool> {
    let mut pure = template.to_vec();
    for i in (0..tree.len()).rev() {
        pure[i] = template[i] && tree.children(NodeId(i as u32)).iter().all(|c| pure[c.index()]);
    }
    pure
}

/// Aligns the live page with the served page.
pub fn align(served: &Tree, live: &Tree) -> Alignment {
    let mut served_of = vec![None; live.len()];
    if served.is_empty() || live.is_empty() || served.node(NodeId::ROOT).tag != live.node(NodeId::ROOT).tag {
        return Alignment { served_of };
    }
    served_of[0] = Some(NodeId::ROOT);
    let mut pairs = vec![(NodeId::ROOT, NodeId::ROOT)];
    while let Some((s, l)) = pairs.pop() {
        align_children(served, live, s, l, &mut served_of, &mut pairs);
    }
    Alignment { served_of }
}

/// Pairs the children of served `s` with those of live `l`, in order.
fn align_children(
    served: &Tree,
    live: &Tree,
    s: NodeId,
    l: NodeId,
    served_of: &mut [Option<NodeId>],
    pairs: &mut Vec<(NodeId, NodeId)>,
) {
    let mut pending: VecDeque<NodeId> = live.children(l).iter().copied().collect();
    for &sc in served.children(s) {
        let want = served.node(sc);
        loop {
            let direct = best_match(want, live, &pending);
            // A wrapper before the best sibling, holding as good a match: the
            // served child is inside it (a sticky header's wrapper in a row
            // of same-tag siblings).
            let before = direct.map_or(WINDOW, |(k, _)| k);
            let wrapper = pending.iter().take(before).position(|&lc| {
                wrapped_score(want, live, lc, WRAP_DEPTH).is_some_and(|s| direct.is_none_or(|(_, d)| s >= d))
            });
            if let Some(w) = wrapper {
                pending.drain(..w);
                let wrapper = pending.pop_front().expect("found");
                for &c in live.children(wrapper).iter().rev() {
                    pending.push_front(c);
                }
                continue;
            }
            if let Some((k, _)) = direct {
                pending.drain(..k);
                let lc = pending.pop_front().expect("matched");
                served_of[lc.index()] = Some(sc);
                pairs.push((sc, lc));
            }
            break;
        }
    }
}

/// The position in the window of the live sibling that best matches the
/// served node, the earliest of equals, and its score.
fn best_match(want: &Node, live: &Tree, pending: &VecDeque<NodeId>) -> Option<(usize, i32)> {
    let mut best: Option<(usize, i32)> = None;
    for (k, &lc) in pending.iter().take(WINDOW).enumerate() {
        let node = live.node(lc);
        if node.tag != want.tag {
            continue;
        }
        let score = score(want, node);
        if score >= MIN_SCORE && best.is_none_or(|(_, b)| score > b) {
            best = Some((k, score));
        }
    }
    best
}

/// How well a live element matches a served one of the same tag, on what
/// scripts rarely change: the id, the served classes (scripts add classes
/// more than they remove them), the text, the number of children.
fn score(served: &Node, live: &Node) -> i32 {
    let mut score = 0;
    match (&served.id, &live.id) {
        (Some(a), Some(b)) if a == b => score += 4,
        (Some(_), Some(_)) => score -= 4,
        _ => {}
    }
    if !served.classes.is_empty() {
        match common_count(&served.classes, &live.classes) {
            c if c == served.classes.len() => score += 2,
            0 => score -= 1,
            _ => {}
        }
    }
    if served.text != 0 && served.text == live.text {
        score += 2;
    }
    if served.children.len() == live.children.len() {
        score += 1;
    }
    score
}

/// The best score of an element of the served node's tag at most `depth`
/// levels below a live node, among the first [`WINDOW`] children of each
/// level (a wrapper wraps a few elements; the bound keeps a served element
/// that scripts removed from costing a scan of every long list beside it).
fn wrapped_score(want: &Node, live: &Tree, node: NodeId, depth: u32) -> Option<i32> {
    if depth == 0 {
        return None;
    }
    live.children(node)
        .iter()
        .take(WINDOW)
        .filter_map(|&c| {
            let here = (live.node(c).tag == want.tag).then(|| score(want, live.node(c))).filter(|&s| s >= MIN_SCORE);
            here.max(wrapped_score(want, live, c, depth - 1))
        })
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    fn tags(t: &Tree, flags: &[bool]) -> Vec<String> {
        t.nodes().filter(|(id, _)| flags[id.index()]).map(|(_, n)| n.tag.to_string()).collect()
    }

    #[test]
    fn identical_pages_align_node_for_node() {
        let page = "html( head body( header( nav( a a ) ) main( p p ) footer ) )";
        let a = align(&tree(page), &tree(page));
        assert_eq!(a.live_share(), 1.0);
        assert!((0..tree(page).len()).all(|i| a.served_of(NodeId(i as u32)) == Some(NodeId(i as u32))));
    }

    #[test]
    fn inserted_banner_and_bubble_are_added_and_the_rest_aligns() {
        let served = tree("html( body( div.a( p ) div.b( p ) div.c ) )");
        let live = tree("html( body( div#cookie.banner( p button ) div.a( p ) div.b( p ) div.c div#chat ) )");
        let a = align(&served, &live);
        assert_eq!(tags(&live, &a.added()), ["div", "p", "button", "div"], "banner, its children, the bubble");
        let classes = |t: &Tree, id: NodeId| t.node(id).classes.clone();
        for (l, n) in live.nodes() {
            if let Some(s) = a.served_of(l) {
                assert_eq!(n.tag, served.node(s).tag);
                assert_eq!(classes(&live, l), classes(&served, s));
            }
        }
    }

    #[test]
    fn a_wrapper_around_the_header_is_looked_through() {
        let served = tree("html( body( header( nav( a a ) ) main footer ) )");
        let live = tree("html( body( div.sticky( div.inner( header( nav( a a ) ) ) ) main footer ) )");
        let a = align(&served, &live);
        assert_eq!(tags(&live, &a.added()), ["div", "div"]);
        assert_eq!(a.aligned(), served.len());
    }

    #[test]
    fn a_wrapper_in_a_row_of_same_tag_siblings_is_looked_through() {
        let served = tree("html( body( section.row( h2 ) section.row( h2 p ) section.row( h2 p p ) ) )");
        let live = tree("html( body( div.wrap( section.row( h2 ) ) section.row( h2 p ) section.row( h2 p p ) ) )");
        let a = align(&served, &live);
        assert_eq!(tags(&live, &a.added()), ["div"]);
        for (l, n) in live.nodes().filter(|(_, n)| &*n.tag == "section") {
            let s = a.served_of(l).expect("aligned");
            assert_eq!(n.children.len(), served.children(s).len(), "each row with its own");
        }
    }

    #[test]
    fn rewritten_attributes_and_classes_still_align() {
        let served = tree("html( body( footer( img.lazyload[data-src] img.lazyload[data-src] ) ) )");
        let live = tree("html( body( footer( img.lazyloaded[src] img.lazyloaded[src] ) ) )");
        assert_eq!(align(&served, &live).live_share(), 1.0);
    }

    #[test]
    fn an_app_shell_holds_almost_none_of_the_rendered_page() {
        let served = tree("html( head body( div#root script ) )");
        let live = tree("html( head body( div#root( header( nav( a a a a ) ) aside( a a ) main( h1 p p p ) footer( p ) ) script ) )");
        assert!(align(&served, &live).live_share() < 0.3);
    }

    #[test]
    fn script_filled_template_parts_and_wrappers_are_template_overlays_are_not() {
        let served = tree("html( body( header( ul.menu ) main( article( p ) ) footer ) )");
        let live = tree(
            "html( body( div.wrap( header( ul.menu( li( a ) li( a ) ) ) ) main( article( p ) div.ad ) footer div.banner( p ) ) )",
        );
        // Template on the served page: everything but the article.
        let served_template: Vec<bool> = served.nodes().map(|(_, n)| !matches!(&*n.tag, "article" | "p")).collect();
        let a = align(&served, &live);
        let t = a.carry(&served, &live, &served_template);
        let not_template: Vec<String> = tags(&live, &t.iter().map(|x| !x).collect::<Vec<_>>());
        assert_eq!(not_template, ["article", "p", "div", "div", "p"], "article, the ad in main, the banner");
        let wrap = live
            .nodes()
            .find(|(_, n)| n.classes.contains(&crate::page::generated_names::token_hash("wrap")))
            .unwrap()
            .0;
        assert!(t[wrap.index()], "the wrapper holds the header");
        assert!(crate::decide::template::is_top_down_closed(&live, &t));
        assert_eq!(tags(&live, &t).iter().filter(|x| *x == "li" || *x == "a").count(), 4, "the filled menu");
    }

    #[test]
    fn pages_with_different_roots_do_not_align() {
        let a = align(&tree("svg( g )"), &tree("html( body )"));
        assert_eq!(a.aligned(), 0);
    }
}
