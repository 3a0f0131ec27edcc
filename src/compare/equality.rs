//! The equality probability of two nodes of different trees
//! (thesis Def. 3.2.2, with the weights tuned in §5.2.3).

use std::borrow::Cow;

use crate::base::config::Equality;
use crate::compare::state_marker::StateMarkers;
use crate::page::dom::{is_unique_in_document, NodeId, Tree};

/// |a ∩ b| / |a ∪ b| of two sorted, deduplicated sets.
fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let common = crate::page::dom::common_count(a, b);
    common as f64 / (a.len() + b.len() - common) as f64
}

/// P_c and P_a: set similarity, or `none` when both sets are empty.
fn set_probability(a: &[u64], b: &[u64], none: f64) -> f64 {
    if a.is_empty() && b.is_empty() {
        none
    } else {
        jaccard(a, b)
    }
}

/// `set` without the `ignored` hashes (both sorted); borrowed when none is in it.
fn without<'a>(set: &'a [u64], ignored: &[u64]) -> Cow<'a, [u64]> {
    if ignored.is_empty() || crate::page::dom::common_count(set, ignored) == 0 {
        return Cow::Borrowed(set);
    }
    Cow::Owned(set.iter().copied().filter(|h| ignored.binary_search(h).is_err()).collect())
}

/// P_ch: ratio of the child counts, or `none` when both are leaves.
fn children_probability(c1: usize, c2: usize, none: f64) -> f64 {
    if c1 == 0 && c2 == 0 {
        none
    } else {
        c1.min(c2) as f64 / c1.max(c2) as f64
    }
}

/// P_p: how well the child positions agree, counted from the left (i) and
/// from the right (j) of parents with c and c' children. When one parent has
/// more children, a node may have moved right by the extra children without
/// losing anything, so only the shift beyond that is penalised.
pub fn position_probability(i: usize, c: usize, i2: usize, c2: usize) -> f64 {
    let (i, i2) = (i as f64, i2 as f64);
    let j = c as f64 - 1.0 - i;
    let j2 = c2 as f64 - 1.0 - i2;
    let cmin = c.min(c2).max(1) as f64;
    let shift = match c2.cmp(&c) {
        std::cmp::Ordering::Equal => (i - i2).abs(),
        std::cmp::Ordering::Greater => 0f64.max(i - i2).max(j - j2),
        std::cmp::Ordering::Less => 0f64.max(i2 - i).max(j2 - j),
    };
    (1.0 - shift / cmin).max(0.0)
}

/// What P_= reads of one node, its state tokens left out: made once per
/// node of a sibling list, not once per pair the node is compared in.
pub struct Side<'t> {
    tag: &'t str,
    id: Option<&'t str>,
    text: u64,
    classes: Cow<'t, [u64]>,
    attributes: Cow<'t, [u64]>,
    children: usize,
    index: usize,
    siblings: usize,
}

impl<'t> Side<'t> {
    pub fn of(t: &'t Tree, n: NodeId, ignored: &StateMarkers) -> Self {
        let node = t.node(n);
        Side {
            tag: &node.tag,
            id: node.id.as_deref(),
            text: node.text,
            classes: without(&node.classes, &ignored.classes),
            attributes: without(&node.attributes, &ignored.attributes),
            children: node.children.len(),
            index: node.child_index as usize,
            siblings: node.parent.map_or(1, |q| t.children(q).len()),
        }
    }

    pub fn tag(&self) -> &'t str {
        self.tag
    }
}

/// P_=(n1, n2): 0 for different tags, 1 for equal ids (or the same
/// document-unique element), otherwise the weighted sum of the class,
/// attribute, children and position probabilities. The state tokens in
/// `ignored` (a menu's current item, `state_marker`) are left out of both
/// nodes' classes and attributes.
pub fn probability(p: &Equality, t1: &Tree, n1: NodeId, t2: &Tree, n2: NodeId, ignored: &StateMarkers) -> f64 {
    if t1.node(n1).tag != t2.node(n2).tag {
        return 0.0;
    }
    between(p, &Side::of(t1, n1, ignored), &Side::of(t2, n2, ignored))
}

/// [`probability`] of two nodes read as [`Side`]s under the same markers.
pub fn between(p: &Equality, a: &Side, b: &Side) -> f64 {
    if a.tag != b.tag {
        return 0.0;
    }
    if is_unique_in_document(a.tag) {
        return 1.0;
    }
    match (a.id, b.id) {
        (Some(x), Some(y)) if x == y => return 1.0,
        (None, None) if p.absent_ids_equal => return 1.0,
        _ => {}
    }
    let text = if a.text != 0 && b.text != 0 && a.text != b.text { p.differing_text } else { 1.0 };
    text * (p.w_classes * set_probability(&a.classes, &b.classes, p.no_classes)
        + p.w_attributes * set_probability(&a.attributes, &b.attributes, p.no_attributes)
        + p.w_children * children_probability(a.children, b.children, p.no_children)
        + p.w_position * position_probability(a.index, a.siblings, b.index, b.siblings))
}

/// The most [`between`] can give for `a` and any side `b`, read from `a`
/// alone: every term at its best for `a` (a set or child count `a` lacks
/// can at most match `b`'s lack; 1 where `a` has one), summed with the same
/// weights in the same order. Floating-point products and sums never
/// decrease when a term grows, so no `b` gives more. Infinite (no bound)
/// for a weight that is not a finite non-negative number.
pub fn ceiling(p: &Equality, a: &Side) -> f64 {
    let weights = [p.w_classes, p.w_attributes, p.w_children, p.w_position];
    if !weights.iter().all(|w| w.is_finite() && *w >= 0.0) {
        return f64::INFINITY;
    }
    let best = |lacks: bool, none: f64| if lacks { none.max(0.0) } else { 1.0 };
    let text = p.differing_text.max(1.0);
    let weighted = text
        * (p.w_classes * best(a.classes.is_empty(), p.no_classes)
            + p.w_attributes * best(a.attributes.is_empty(), p.no_attributes)
            + p.w_children * best(a.children == 0, p.no_children)
            + p.w_position * 1.0);
    let equal_at_once = is_unique_in_document(a.tag) || a.id.is_some() || p.absent_ids_equal;
    if equal_at_once {
        weighted.max(1.0)
    } else {
        weighted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    /// Ex. 3.2.5 with its weights (0.4, 0.1, 0.1, 0.4): equal classes, two
    /// of three attributes, 2 vs 3 children, positions 11 and 9 of 40
    /// siblings (P_p = 0.95). The thesis rounds 2/3 to 0.66 and gets 0.912.
    #[test]
    fn example_3_2_5_gives_0_912() {
        let params =
            Equality { w_classes: 0.4, w_attributes: 0.1, w_children: 0.1, w_position: 0.4, ..Equality::default() };
        let row = |pos: usize, attrs: &str, kids: usize| {
            let mut spec = String::from("html( body( ");
            for i in 0..40 {
                if i == pos {
                    spec += &format!("div.Author[{attrs}]( {}) ", "p ".repeat(kids));
                } else {
                    spec += "span ";
                }
            }
            spec += ") )";
            tree(&spec)
        };
        let (t1, t2) = (row(11, "float,color,background", 2), row(9, "float,background", 3));
        let n = |t: &Tree| t.nodes().find(|(_, n)| &*n.tag == "div").unwrap().0;
        assert!((position_probability(11, 40, 9, 40) - 0.95).abs() < 1e-9);
        let p = probability(&params, &t1, n(&t1), &t2, n(&t2), &StateMarkers::NONE);
        assert!((p - 0.912).abs() < 0.002, "{p}");
    }

    #[test]
    fn tags_and_ids_decide_first() {
        let t1 = tree("html( body( div#main.a p ) )");
        let t2 = tree("html( body( div#main.b section ) )");
        let p = Equality::default();
        assert_eq!(probability(&p, &t1, NodeId(2), &t2, NodeId(2), &StateMarkers::NONE), 1.0);
        assert_eq!(probability(&p, &t1, NodeId(3), &t2, NodeId(3), &StateMarkers::NONE), 0.0);
        let plain = tree("html( body( div ) )");
        assert!(probability(&p, &plain, NodeId(2), &plain, NodeId(2), &StateMarkers::NONE) < 1.0);
        let lax = Equality { absent_ids_equal: true, ..Equality::default() };
        assert_eq!(probability(&lax, &plain, NodeId(2), &plain, NodeId(2), &StateMarkers::NONE), 1.0);
        let b1 = tree("html( body.page-1 )");
        let b2 = tree("html( body.page-2[data-x] )");
        assert_eq!(probability(&p, &b1, NodeId(1), &b2, NodeId(1), &StateMarkers::NONE), 1.0);
    }

    #[test]
    fn differing_own_text_lowers_the_probability() {
        let t1 =
            crate::page::html::snapshot(&crate::page::html::parse("<h1 class=t>Trails</h1><p class=x></p>")).unwrap();
        let t2 =
            crate::page::html::snapshot(&crate::page::html::parse("<h1 class=t>News</h1><p class=x>now</p>")).unwrap();
        let (h1, p) = (crate::page::dom::NodeId(3), crate::page::dom::NodeId(4));
        let ignore = Equality { differing_text: 1.0, ..Equality::default() };
        let strict = Equality { differing_text: 0.0, ..Equality::default() };
        assert!(probability(&ignore, &t1, h1, &t2, h1, &StateMarkers::NONE) > 0.8);
        assert_eq!(probability(&strict, &t1, h1, &t2, h1, &StateMarkers::NONE), 0.0);
        assert_eq!(
            probability(&strict, &t1, p, &t2, p, &StateMarkers::NONE),
            probability(&ignore, &t1, p, &t2, p, &StateMarkers::NONE),
            "one side without text"
        );
    }

    #[test]
    fn an_ignored_state_class_does_not_count() {
        let t1 = tree("html( body( ul( li.item.on li.item ) ) )");
        let t2 = tree("html( body( ul( li.item li.item.on ) ) )");
        let (p, li) = (Equality::default(), NodeId(3));
        let on: Vec<u64> = t1.node(li).classes.iter().copied().filter(|c| !t2.node(li).classes.contains(c)).collect();
        let state = StateMarkers { classes: on, attributes: vec![] };
        let same = probability(&p, &t2, li, &t2, li, &StateMarkers::NONE);
        assert!(probability(&p, &t1, li, &t2, li, &StateMarkers::NONE) < same, "the state class tells the items apart");
        assert_eq!(probability(&p, &t1, li, &t2, li, &state), same, "left out, it does not");
    }

    #[test]
    fn position_probability_forgives_inserted_siblings_only() {
        assert_eq!(position_probability(3, 4, 3, 6), 1.0);
        assert_eq!(position_probability(3, 4, 5, 6), 1.0);
        assert!(position_probability(0, 4, 5, 6) < 1.0);
        assert_eq!(position_probability(0, 1, 0, 1), 1.0);
    }
}
