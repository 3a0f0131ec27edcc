//! RTDM-TD (Vieira et al. 2006, Figs. 3–4): the minimum-cost *restricted*
//! top-down mapping of the key page onto one other page, and the recovery of
//! the nodes it leaves unchanged, which the paper regards as template.
//!
//! Node labels are the tag plus the `id` plus the class set: two nodes have
//! the same label iff all three are equal; `<html>`, `<head>` and `<body>`
//! are labelled by their tag alone (see `dom::is_unique_in_document`). Attributes and text are ignored,
//! so two `<a class="x">` with different links are still "identical" nodes.
//!
//! Costs are the paper's unit costs (Def. 2): delete, insert and replace one
//! node cost 1 each. In a restricted mapping (Def. 4) a replaced node keeps
//! none of its descendants, so aligning two sibling subtrees costs
//! - 0 when they are identical (Fig. 3, `ident`, l. 24);
//! - the distance between their children when only the root labels agree
//!   (`no_op`, recursive call of l. 27);
//! - `1 + |desc(a)| + |desc(b)|` otherwise (`update`, l. 30–35: Fig. 3 only
//!   spells out the cases where one node is a leaf, and its l. 30 drops
//!   `M[i-1, j-1]`, which is evidently a misprint);
//!
//! and deleting / inserting a sibling subtree costs its size (l. 7, 11, 18–21).
//! Recovery (Fig. 4) keeps exactly the `ident` subtrees (whole) and the
//! `no_op` nodes (recursing into them); replaced, deleted and inserted nodes
//! and their descendants stay unmapped. Fig. 4 swaps `i` and `j` in its
//! delete / insert steps; we backtrack the way the matrix was filled.
//!
//! Fig. 3 never compares the two roots (it aligns their children), so the
//! roots are mapped whenever both are the same element, even if, say, their
//! classes differ.

use std::collections::HashMap;

use crate::base::config::Config;
use crate::compare::mapping::Mapping;
use crate::page::dom::{is_unique_in_document, NodeId, Tree};

type Pairs = Vec<(NodeId, NodeId)>;

/// The operation chosen for a DP cell (Fig. 3's `B[i, j].op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Delete,
    Insert,
    /// `update` with a changed cost: the pair is relabelled, not template.
    Replace,
    /// `update` at zero cost: identical subtrees, all template.
    Ident,
    /// Fig. 3's `no_op`: same label, different subtrees; template, and the
    /// recovery recurses into the children.
    Recurse,
}

/// Maps every key node that RTDM-TD finds unchanged in `other` to its
/// counterpart; see the module documentation for the model.
pub fn rtdm_mapping(cfg: &Config, key: &Tree, other: &Tree) -> Mapping {
    let mut m = Mapping::empty(key.len());
    let root = NodeId::ROOT;
    if key.is_empty() || other.is_empty() || key.node(root).tag != other.node(root).tag {
        return m;
    }
    let mut r = Rtdm::new(cfg, key, other);
    r.ensure(root, root);
    let mut work = vec![(root, root)];
    while let Some((x, y)) = work.pop() {
        if r.ident(x, y) {
            // Identical subtrees have the same pre-order shape.
            for k in 0..r.size[0][x.index()] {
                m.set(NodeId(x.0 + k), NodeId(y.0 + k));
            }
            continue;
        }
        m.set(x, y);
        let (_, pairs) = r.align(x, y, true).expect("ensure() memoised every pair the alignment needs");
        work.extend(pairs);
    }
    m
}

/// Pre-processed trees plus the memo of restricted top-down distances.
struct Rtdm<'a> {
    trees: [&'a Tree; 2],
    /// Interned label of every node of each tree.
    label: [Vec<u32>; 2],
    /// Interned subtree shape (label plus children's shapes), shared by both
    /// trees: equal shapes iff identical subtrees. This is the paper's linear
    /// pre-processing into "sets of equivalent subtrees" for `ident`.
    shape: [Vec<u32>; 2],
    size: [Vec<u32>; 2],
    /// Distance between the children lists of two same-label subtrees, keyed
    /// by their shapes. Keying by shape (not by node) is our addition: pages
    /// repeat the same structures (rows, menu items) thousands of times, and
    /// each distinct pair of shapes is then aligned only once.
    memo: HashMap<(u32, u32), u32>,
    max_pairs: usize,
}

impl<'a> Rtdm<'a> {
    fn new(cfg: &Config, key: &'a Tree, other: &'a Tree) -> Self {
        let mut labels: HashMap<(&'a str, Option<&'a str>, &'a [u64]), u32> = HashMap::new();
        let mut shapes: HashMap<(u32, Vec<u32>), u32> = HashMap::new();
        let mut out = Self {
            trees: [key, other],
            label: Default::default(),
            shape: Default::default(),
            size: Default::default(),
            memo: HashMap::new(),
            max_pairs: cfg.max_sibling_pairs.max(1),
        };
        for (t, tree) in [key, other].into_iter().enumerate() {
            let n = tree.len();
            let label: Vec<u32> = tree
                .nodes()
                .map(|(_, node)| {
                    let next = labels.len() as u32;
                    let label = if is_unique_in_document(&node.tag) {
                        (&*node.tag, None, &[][..])
                    } else {
                        (&*node.tag, node.id.as_deref(), &*node.classes)
                    };
                    *labels.entry(label).or_insert(next)
                })
                .collect();
            let (mut shape, mut size) = (vec![0u32; n], vec![1u32; n]);
            // Pre-order: children come after their parent, so go backwards.
            for i in (0..n).rev() {
                let kids = &tree.node(NodeId(i as u32)).children;
                size[i] += kids.iter().map(|c| size[c.index()]).sum::<u32>();
                let key = (label[i], kids.iter().map(|c| shape[c.index()]).collect());
                let next = shapes.len() as u32;
                shape[i] = *shapes.entry(key).or_insert(next);
            }
            (out.label[t], out.shape[t], out.size[t]) = (label, shape, size);
        }
        out
    }

    fn ident(&self, a: NodeId, b: NodeId) -> bool {
        self.shape[0][a.index()] == self.shape[1][b.index()]
    }

    fn memo_key(&self, a: NodeId, b: NodeId) -> (u32, u32) {
        (self.shape[0][a.index()], self.shape[1][b.index()])
    }

    /// Cost and operation of aligning sibling `a` (key) with `b` (other), or
    /// `Err` with the pair when its recursive distance is not memoised yet.
    fn pair(&self, a: NodeId, b: NodeId) -> Result<(u32, Op), (NodeId, NodeId)> {
        if self.ident(a, b) {
            Ok((0, Op::Ident))
        } else if self.label[0][a.index()] == self.label[1][b.index()] {
            self.memo.get(&self.memo_key(a, b)).map(|&c| (c, Op::Recurse)).ok_or((a, b))
        } else {
            Ok((self.size[0][a.index()] + self.size[1][b.index()] - 1, Op::Replace))
        }
    }

    /// Memoises the distance of (`u`, `v`) and of every pair its alignment
    /// needs, depth first with an explicit stack: real DOMs can be thousands
    /// of levels deep, and the wasm build has a small stack.
    fn ensure(&mut self, u: NodeId, v: NodeId) {
        let mut stack = vec![(u, v)];
        while let Some(&(x, y)) = stack.last() {
            let key = self.memo_key(x, y);
            if self.memo.contains_key(&key) {
                stack.pop();
                continue;
            }
            match self.align(x, y, false) {
                Ok((cost, _)) => {
                    self.memo.insert(key, cost);
                    stack.pop();
                }
                Err(missing) => stack.extend(missing),
            }
        }
    }

    /// Fig. 3 on the children of `u` and `v`: the string-edit DP over the two
    /// sibling lists. Returns the distance and, with `trace`, the sibling
    /// pairs kept by the recovery of Fig. 4 (`Ident` and `Recurse`). `Err` lists
    /// every child pair whose distance must be memoised first.
    ///
    /// Identical siblings at both ends are matched before the DP. That is
    /// exact: deleting a subtree costs at most re-aligning it with any other
    /// (size(a) <= size(b) + cost(a, b)), so some optimal alignment matches
    /// an identical first (or last) pair. It makes the usual case (same
    /// template, a few changed children) nearly linear.
    fn align(&self, u: NodeId, v: NodeId, trace: bool) -> Result<(u32, Pairs), Pairs> {
        let (a, b) = (self.trees[0].children(u), self.trees[1].children(v));
        let mut pre = 0;
        while pre < a.len().min(b.len()) && self.ident(a[pre], b[pre]) {
            pre += 1;
        }
        let mut suf = 0;
        while suf < a.len().min(b.len()) - pre && self.ident(a[a.len() - 1 - suf], b[b.len() - 1 - suf]) {
            suf += 1;
        }
        let (a, b, ends) = (
            &a[pre..a.len() - suf],
            &b[pre..b.len() - suf],
            (&a[..pre], &b[..pre], &a[a.len() - suf..], &b[b.len() - suf..]),
        );
        let (m, n) = (a.len(), b.len());
        let band = Band::new(m, n, self.max_pairs);
        let mut cost = vec![u32::MAX; band.cells()];
        let mut ops = vec![Op::Delete; if trace { band.cells() } else { 0 }];
        let mut missing = Vec::new();
        let at = |cost: &[u32], i: usize, j: usize| band.index(i, j).map_or(u32::MAX, |k| cost[k]);
        for i in 0..=m {
            let (lo, hi) = band.cols(i);
            for j in lo..=hi {
                let mut best = (if i == 0 && j == 0 { 0 } else { u32::MAX }, Op::Delete);
                let diag =
                    if i > 0 && j > 0 { self.pair(a[i - 1], b[j - 1]).map_err(|p| missing.push(p)).ok() } else { None };
                let diag = diag.map(|(c, op)| (at(&cost, i - 1, j - 1).saturating_add(c), op));
                let del =
                    (i > 0).then(|| (at(&cost, i - 1, j).saturating_add(self.size[0][a[i - 1].index()]), Op::Delete));
                let ins =
                    (j > 0).then(|| (at(&cost, i, j - 1).saturating_add(self.size[1][b[j - 1].index()]), Op::Insert));
                // Ties go to keeping an unchanged pair (more template), then
                // to Fig. 3's order: delete, insert, update.
                let keep = diag.filter(|d| d.1 != Op::Replace);
                let replace = diag.filter(|d| d.1 == Op::Replace);
                for cand in [keep, del, ins, replace].into_iter().flatten() {
                    if cand.0 < best.0 {
                        best = cand;
                    }
                }
                let k = band.index(i, j).expect("cell inside its row's band");
                cost[k] = best.0;
                if trace {
                    ops[k] = best.1;
                }
            }
        }
        if !missing.is_empty() {
            return Err(missing);
        }
        let mut pairs = Vec::new();
        if trace {
            pairs.extend(ends.0.iter().copied().zip(ends.1.iter().copied()));
            pairs.extend(ends.2.iter().copied().zip(ends.3.iter().copied()));
            let (mut i, mut j) = (m, n);
            while i > 0 || j > 0 {
                match ops[band.index(i, j).expect("backtracking stays in the band")] {
                    Op::Delete => i -= 1,
                    Op::Insert => j -= 1,
                    op => {
                        if op != Op::Replace {
                            pairs.push((a[i - 1], b[j - 1]));
                        }
                        i -= 1;
                        j -= 1;
                    }
                }
            }
        }
        Ok((at(&cost, m, n), pairs))
    }
}

/// The cells of an (m+1)×(n+1) DP matrix that are computed: all of them, or,
/// when m·n exceeds `max_sibling_pairs` (pathological fan-out), a diagonal
/// band of half-width w around the proportional diagonal, wide enough to
/// keep (0, 0) connected to (m, n). Time and memory then stay
/// O(max_sibling_pairs + m + n) per list; below the limit the DP is exact.
struct Band {
    /// Per row: first computed column and index of that cell; one extra
    /// entry holds the total cell count.
    rows: Vec<(usize, usize)>,
}

impl Band {
    fn new(m: usize, n: usize, max_pairs: usize) -> Self {
        let w =
            if m.saturating_mul(n) <= max_pairs { n } else { (max_pairs / (2 * (m + 1))).max(n.div_ceil(m)).max(1) };
        let mut rows = Vec::with_capacity(m + 2);
        let mut total = 0;
        for i in 0..=m {
            let c = if w >= n { 0 } else { (i as u64 * n as u64 / m as u64) as usize };
            let lo = c.saturating_sub(w);
            rows.push((lo, total));
            total += (c + w).min(n) - lo + 1;
        }
        rows.push((0, total));
        Self { rows }
    }

    fn cells(&self) -> usize {
        self.rows[self.rows.len() - 1].1
    }

    /// Columns `lo..=hi` computed in row `i`.
    fn cols(&self, i: usize) -> (usize, usize) {
        let ((lo, start), (_, end)) = (self.rows[i], self.rows[i + 1]);
        (lo, lo + end - start - 1)
    }

    fn index(&self, i: usize, j: usize) -> Option<usize> {
        let ((lo, start), (_, end)) = (self.rows[i], self.rows[i + 1]);
        (j >= lo && j - lo < end - start).then(|| start + j - lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;
    use std::collections::HashSet;

    /// The restricted top-down distance between the roots' children.
    fn distance(key: &Tree, other: &Tree) -> u32 {
        let mut r = Rtdm::new(&Config::default(), key, other);
        r.ensure(NodeId::ROOT, NodeId::ROOT);
        r.memo[&r.memo_key(NodeId::ROOT, NodeId::ROOT)]
    }

    fn tags(t: &Tree, m: &Mapping) -> Vec<String> {
        m.pairs().map(|(a, _)| t.node(a).tag.to_string()).collect()
    }

    /// One-to-one, top-down, order-preserving, and only equal labels below the root.
    fn assert_valid(key: &Tree, other: &Tree, m: &Mapping) {
        let mut images = HashSet::new();
        for (a, b) in m.pairs() {
            assert!(images.insert(b), "{b:?} is the image of two nodes");
            match (key.node(a).parent, other.node(b).parent) {
                (None, None) => {}
                (Some(pa), Some(pb)) => assert_eq!(m.image(pa), Some(pb), "not top-down at {a:?}"),
                _ => panic!("root mapped to a non-root"),
            }
            if !is_unique_in_document(&key.node(a).tag) {
                let (x, y) = (key.node(a), other.node(b));
                assert!(x.tag == y.tag && x.id == y.id && x.classes == y.classes, "relabelled pair {a:?}->{b:?}");
            }
        }
        for (a, _) in key.nodes() {
            let idx: Vec<u32> =
                key.children(a).iter().filter_map(|&c| m.image(c)).map(|b| other.node(b).child_index).collect();
            assert!(idx.windows(2).all(|w| w[0] < w[1]), "sibling order broken under {a:?}: {idx:?}");
        }
    }

    #[test]
    fn identical_trees_map_completely() {
        let t = tree("html( head( title ) body( div.cls#id( p p ) ul( li li ) footer ) )");
        let m = rtdm_mapping(&Config::default(), &t, &t);
        assert_eq!(m.len(), t.len());
        assert!(m.pairs().all(|(a, b)| a == b));
        assert_eq!(distance(&t, &t), 0);
    }

    #[test]
    fn relabelled_subtree_and_its_descendants_stay_unmapped() {
        let key = tree("html( body( div.a( p p ) div.b( ul( li li ) ) section#s( p ) ) )");
        let other = tree("html( body( div.a( p p ) div.c( ul( li li ) ) section#t( p ) ) )");
        let m = rtdm_mapping(&Config::default(), &key, &other);
        assert_valid(&key, &other, &m);
        assert_eq!(tags(&key, &m), ["html", "body", "div", "p", "p"]);
        // Two replacements of a node with descendants: 1 + 3 + 3 and 1 + 1 + 1.
        assert_eq!(distance(&key, &other), 10);
        let other_root = tree("svg( body( div.a( p p ) ) )");
        assert!(rtdm_mapping(&Config::default(), &key, &other_root).is_empty());
    }

    #[test]
    fn worked_example_follows_fig3_costs() {
        // Root children [b(c d), e] vs [b(c f), g(h)]: b–b is a no_op whose
        // children cost 1 (c identical, d→f replaced); e→g(h) is an update
        // costing 1 + 1 inserted descendant. Total 3; c, b and the root stay.
        let key = tree("r( b( c d ) e )");
        let other = tree("r( b( c f ) g( h ) )");
        assert_eq!(distance(&key, &other), 3);
        let m = rtdm_mapping(&Config::default(), &key, &other);
        assert_valid(&key, &other, &m);
        assert_eq!(tags(&key, &m), ["r", "b", "c"]);
        assert_eq!(m.image(NodeId(2)), Some(NodeId(2)));
    }

    #[test]
    fn minimum_cost_picks_the_larger_common_subtree_among_swapped_ones() {
        // Keeping div.x (4 nodes) costs 2 (div.y deleted and inserted);
        // keeping div.y would cost 8, and a greedy left-to-right match picks it.
        let key = tree("html( body( div.y div.x( p p p ) ) )");
        let other = tree("html( body( div.x( p p p ) div.y ) )");
        let m = rtdm_mapping(&Config::default(), &key, &other);
        assert_valid(&key, &other, &m);
        assert_eq!(distance(&key, &other), 2);
        assert_eq!(m.len(), 6);
        assert!(!m.is_mapped(NodeId(2)), "div.y must not be kept");
    }

    #[test]
    fn mappings_are_one_to_one_top_down_and_ordered() {
        let cases = [
            ("html( body( div.a div.b div.c ) )", "html( body( div.c div.b div.a ) )"),
            ("html( body( ul( li li li ) p ul( li ) ) )", "html( body( ul( li li ) ul( li li li ) p ) )"),
            (
                "html( body( nav( a a a ) main( h1 p p ) footer ) )",
                "html( body( nav( a a ) aside main( h2 p ) footer( p ) ) )",
            ),
            ("html( body( div( div( div( p span ) ) ) div ) )", "html( body( div div( div( div( span p ) ) ) ) )"),
        ];
        for (k, o) in cases {
            let (key, other) = (tree(k), tree(o));
            for (x, y) in [(&key, &other), (&other, &key)] {
                let m = rtdm_mapping(&Config::default(), x, y);
                assert_valid(x, y, &m);
                assert!(m.is_mapped(NodeId(1)), "{k} / {o}: body lost");
            }
        }
        let key = tree(cases[2].0);
        let m = rtdm_mapping(&Config::default(), &key, &tree(cases[2].1));
        assert_eq!(tags(&key, &m), ["html", "body", "nav", "a", "a", "main", "p", "footer"]);
    }

    #[test]
    fn huge_fan_out_stays_fast_and_the_band_finds_the_diagonal() {
        // A list of `n` items, every tenth one replaced in `other`.
        let list = |n: usize, edit: bool| {
            let item = |i: usize| if edit && i % 10 == 5 { "span( a )".to_string() } else { format!("li.c{i}( a )") };
            tree(&format!("html( body( ul( {} ) ) )", (0..n).map(item).collect::<Vec<_>>().join(" ")))
        };
        let full = Config { max_sibling_pairs: usize::MAX, ..Config::default() };
        for (n, configs) in [(3000, vec![Config::default()]), (1000, vec![Config::default(), full])] {
            let (key, other) = (list(n, false), list(n, true));
            for cfg in configs {
                let m = rtdm_mapping(&cfg, &key, &other);
                assert_valid(&key, &other, &m);
                assert_eq!(m.len(), 3 + 2 * (n - n / 10));
            }
            assert_eq!(rtdm_mapping(&Config::default(), &key, &key).len(), key.len());
        }
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let deep = |leaf: &str| format!("html( {}{leaf}{} )", "div( ".repeat(20_000), " )".repeat(20_000));
        let (key, other) = (tree(&deep("p")), tree(&deep("span")));
        let m = rtdm_mapping(&Config::default(), &key, &other);
        assert_eq!(m.len(), key.len() - 1);
    }
}
