//! DOM distance between two nodes of one tree (thesis Defs. 2.2.8, 2.2.10).

use crate::page::dom::{NodeId, Tree};

/// |path(n)|: the number of nodes from the root down to `n`, both included.
pub fn path_len(tree: &Tree, n: NodeId) -> u32 {
    tree.node(n).depth
}

/// dDistance(n, n'): 0 for the same node, otherwise the number of nodes of
/// both paths below their longest common prefix.
pub fn d_distance(tree: &Tree, a: NodeId, b: NodeId) -> u32 {
    if a == b {
        return 0;
    }
    let (da, db) = (tree.node(a).depth, tree.node(b).depth);
    let (mut x, mut y) = (a, b);
    while tree.node(x).depth > tree.node(y).depth {
        x = tree.node(x).parent.expect("deeper node has a parent");
    }
    while tree.node(y).depth > tree.node(x).depth {
        y = tree.node(y).parent.expect("deeper node has a parent");
    }
    while x != y {
        x = tree.node(x).parent.expect("nodes of one tree share the root");
        y = tree.node(y).parent.expect("nodes of one tree share the root");
    }
    let common = tree.node(x).depth;
    (da - common) + (db - common)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    /// Figure 2.15: BODY CONTENT DIV P SPAN and BODY CONTENT DIV DIV IMG,
    /// where the two third-level DIVs are different nodes.
    fn figure_2_15() -> Tree {
        tree("body( content( div( p( span ) ) div( div( img ) ) ) )")
    }

    #[test]
    fn path_length_of_example_2_2_9() {
        let t = figure_2_15();
        assert_eq!(path_len(&t, NodeId(4)), 5);
    }

    #[test]
    fn dom_distance_of_example_2_2_11() {
        let t = figure_2_15();
        let (span, img) = (NodeId(4), NodeId(7));
        assert_eq!(&*t.node(span).tag, "span");
        assert_eq!(&*t.node(img).tag, "img");
        assert_eq!(d_distance(&t, span, img), 6);
        assert_eq!(d_distance(&t, img, span), 6);
        assert_eq!(d_distance(&t, span, span), 0);
    }
}
