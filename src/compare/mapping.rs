//! The equal (exact) top-down mapping of a key page onto one other page,
//! driven by the equality probability (thesis Def. 3.3.1, Alg. 3).

use std::collections::BTreeMap;

use crate::base::config::Config;
use crate::compare::equality::{between, ceiling, Side};
use crate::compare::lone_kin::{between_pairs, lone_kin};
use crate::compare::moved_items::pair_moved_items;
use crate::compare::state_marker::{moving, StateMarkers};
use crate::page::dom::{NodeId, Tree};

/// A one-to-one, top-down mapping from the nodes of a key tree into another
/// tree: `image(n)` is the node `n` is mapped to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    image: Vec<Option<NodeId>>,
}

impl Mapping {
    pub fn empty(key_len: usize) -> Self {
        Self { image: vec![None; key_len] }
    }

    pub fn image(&self, n: NodeId) -> Option<NodeId> {
        self.image[n.index()]
    }

    pub fn set(&mut self, n: NodeId, m: NodeId) {
        self.image[n.index()] = Some(m);
    }

    pub fn unset(&mut self, n: NodeId) {
        self.image[n.index()] = None;
    }

    pub fn is_mapped(&self, n: NodeId) -> bool {
        self.image[n.index()].is_some()
    }

    pub fn len(&self) -> usize {
        self.image.iter().filter(|m| m.is_some()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn pairs(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.image.iter().enumerate().filter_map(|(i, m)| m.map(|m| (NodeId(i as u32), m)))
    }
}

/// mapping(N1, N2) of Def. 3.3.1 on two sibling lists: repeatedly take the
/// most probable pair above the threshold, then continue separately before
/// and after it (with order preservation) or among the rest (without).
///
/// Taking pairs globally in decreasing probability and accepting each one
/// that is still compatible with the accepted ones gives the same pairs as
/// the recursive definition, because the before/after sub-problems never
/// interact; it costs O(P log P) for P candidate pairs instead of O(k·P).
/// Ties go to the leftmost pair, as a left-to-right reading would pick it.
///
/// Fan-out guard: when |N1|·|N2| exceeds `max_sibling_pairs`, only pairs
/// within a diagonal band around the proportional position are scored, so a
/// list of thousands of siblings costs linear time. Below the limit (every
/// page of the dev set) the band is as wide as N2, so a node is compared
/// with all of N2 except, past the middle, the nodes more than |N2|/2
/// before its proportional position.
///
/// Tokens in `markers` (a menu's current item) are left out of every comparison.
pub fn map_siblings(
    cfg: &Config,
    t1: &Tree,
    s1: &[NodeId],
    t2: &Tree,
    s2: &[NodeId],
    markers: &StateMarkers,
) -> Vec<(NodeId, NodeId)> {
    let mut list = SiblingMatch::new(cfg, s1, s2, markers.clone());
    list.score(cfg, t1, t2, usize::MAX);
    list.select(cfg, t1, t2)
}

/// [`map_siblings`] on one pair of sibling lists, its candidate pairs scored
/// a few rows of `s1` at a time: one list of 100,000 siblings is a few
/// hundred thousand comparisons, too many for one step in a browser.
struct SiblingMatch<'a> {
    s1: &'a [NodeId],
    s2: &'a [NodeId],
    markers: StateMarkers,
    band: usize,
    /// The next row of `s1` to score.
    row: usize,
    candidates: Vec<u128>,
    /// What each node of `s2` shows to a comparison, read on the first row
    /// when every pair is scored; in a band, read per pair.
    sides: Option<Vec<Side<'a>>>,
    /// The same of each node of `s1`, read with `sides` (empty in a band,
    /// where each row reads its own).
    key_sides: Vec<Side<'a>>,
    /// The candidates are the pairs [`SiblingMatch::paired_in_order`]
    /// found, which the selection takes as they are.
    in_order: bool,
}

impl<'a> SiblingMatch<'a> {
    fn new(cfg: &Config, s1: &'a [NodeId], s2: &'a [NodeId], markers: StateMarkers) -> Self {
        let total = s1.len().saturating_mul(s2.len());
        let band =
            if total > cfg.max_sibling_pairs { (cfg.max_sibling_pairs / s1.len().max(1)).max(1) } else { s2.len() };
        Self {
            s1,
            s2,
            markers,
            band,
            row: 0,
            candidates: Vec::new(),
            sides: None,
            key_sides: Vec::new(),
            in_order: false,
        }
    }

    /// Scores whole rows until about `budget` comparisons are made (at least
    /// one row); returns how many were made.
    fn score(&mut self, cfg: &Config, t1: &'a Tree, t2: &'a Tree, budget: usize) -> usize {
        if self.sides.is_none() && self.band >= self.s2.len() {
            self.sides = Some(self.s2.iter().map(|&b| Side::of(t2, b, &self.markers)).collect());
            self.key_sides = self.s1.iter().map(|&a| Side::of(t1, a, &self.markers)).collect();
        }
        if self.row == 0 {
            if let Some(pairs) = self.paired_in_order(cfg, t1, t2) {
                self.candidates = pairs;
                self.in_order = true;
                self.row = self.s1.len();
                return self.s1.len() + self.s2.len();
            }
        }
        self.score_rows(cfg, t1, t2, budget)
    }

    /// The nodes of `s2` row `i` is scored against: `band` of them around
    /// the position proportional to `i`'s, fewer near the end of the list.
    fn window(&self, i: usize) -> std::ops::Range<usize> {
        let centre = proportional(i, self.s1.len(), self.s2.len());
        let lo = centre.saturating_sub(self.band / 2);
        lo..lo.saturating_add(self.band).min(self.s2.len())
    }

    /// [`SiblingMatch::score`] pair by pair.
    fn score_rows(&mut self, cfg: &Config, t1: &'a Tree, t2: &'a Tree, budget: usize) -> usize {
        let threshold = cfg.equality.threshold;
        let mut made = 0;
        while self.row < self.s1.len() && (made == 0 || made < budget) {
            let (i, a) = (self.row, self.s1[self.row]);
            let std::ops::Range { start: lo, end: hi } = self.window(i);
            let own;
            let side = match self.key_sides.get(i) {
                Some(side) => side,
                None => {
                    own = Side::of(t1, a, &self.markers);
                    &own
                }
            };
            for (j, &b) in self.s2.iter().enumerate().take(hi).skip(lo) {
                let p = match &self.sides {
                    Some(sides) if sides[j].tag() != side.tag() => continue,
                    Some(sides) => between(&cfg.equality, side, &sides[j]),
                    None if &*t2.node(b).tag != side.tag() => continue,
                    None => between(&cfg.equality, side, &Side::of(t2, b, &self.markers)),
                };
                if p > threshold {
                    self.candidates.push(candidate_key(p, i as u32, j as u32));
                }
            }
            made += 1 + hi.saturating_sub(lo);
            self.row += 1;
        }
        made
    }

    /// The only candidates the selection needs, when every node of the
    /// shorter list pairs, in order, with a node of the longer one as
    /// probable as any pair of its row or its column can be ([`ceiling`])
    /// and above the threshold, and no node left out of the longer list
    /// ties such a pair before it: the selection takes exactly these pairs
    /// from all the pairs [`SiblingMatch::window`] scores too (every pair
    /// named below is one it scores). By induction over its order, only
    /// such pairs are accepted before a pair (i, j) outside them. If i and
    /// j are both paired, (i, j(i)) is at least as probable, so it came
    /// first unless tied with j < j(i), and then j's own pair, at least as
    /// probable and from an earlier row, came first: either takes a node of
    /// (i, j). If j is left out, (i, j) is less probable than (i, j(i)) or
    /// comes after it (and symmetrically for a row left out). Once every
    /// node of the shorter list is taken nothing else can be. So a list a
    /// template repeats, a menu or a footer, or the list of a page whose
    /// content adds a few nodes to its skeleton's, costs about n
    /// comparisons, not n².
    fn paired_in_order(&self, cfg: &Config, t1: &'a Tree, t2: &'a Tree) -> Option<Vec<u128>> {
        let (sides1, sides2) = match &self.sides {
            Some(sides) => (Sides::Read(&self.key_sides), Sides::Read(sides)),
            None => (Sides::Live(t1, self.s1, &self.markers), Sides::Live(t2, self.s2, &self.markers)),
        };
        let e = &cfg.equality;
        let rows_shorter = self.s1.len() <= self.s2.len();
        let (short, long) = if rows_shorter { (self.s1.len(), self.s2.len()) } else { (self.s2.len(), self.s1.len()) };
        // (row, column) of the k-th node of the shorter list and the l-th of the longer.
        let at = |k: usize, l: usize| if rows_shorter { (k, l) } else { (l, k) };
        let p = |(i, j): (usize, usize)| sides1.with(i, |a| sides2.with(j, |b| between(e, a, b)));
        let scored = |(i, j): (usize, usize)| self.window(i).contains(&j);
        // The pair's probability when it is as probable as its row and column can be.
        let perfect = |(i, j): (usize, usize)| {
            sides1.with(i, |a| {
                sides2.with(j, |b| {
                    let q = between(e, a, b);
                    (scored((i, j)) && q > e.threshold && q >= ceiling(e, a) && q >= ceiling(e, b)).then_some(q)
                })
            })
        };
        let mut pairs: Vec<(usize, f64)> = Vec::with_capacity(short);
        let mut l = 0;
        for k in 0..short {
            loop {
                if long - l < short - k {
                    return None;
                }
                l += 1;
                if let Some(q) = perfect(at(k, l - 1)) {
                    pairs.push((l - 1, q));
                    break;
                }
            }
        }
        let mut paired = vec![false; long];
        pairs.iter().for_each(|&(l, _)| paired[l] = true);
        let left_out: Vec<usize> = (0..long).filter(|&l| !paired[l]).collect();
        // The nodes of the longer list scored with the k-th of the shorter are
        // one run of it (windows move forward with the row): of those left
        // out, only the run's before l are read, so a list in a band costs
        // its band's comparisons, not one per node left out.
        let run = |k: usize, l: usize| {
            let (from, to) = if rows_shorter {
                let w = self.window(k);
                (left_out.partition_point(|&x| x < w.start), left_out.partition_point(|&x| x < l.min(w.end)))
            } else {
                let from = left_out.partition_point(|&x| self.window(x).end <= k);
                (from, left_out.partition_point(|&x| x < l && self.window(x).start <= k))
            };
            &left_out[from..to.max(from)]
        };
        for (k, &(l, q)) in pairs.iter().enumerate() {
            if run(k, l).iter().any(|&x| scored(at(k, x)) && p(at(k, x)) >= q) {
                return None;
            }
        }
        let key = |(k, &(l, q)): (usize, &(usize, f64))| {
            let (i, j) = at(k, l);
            candidate_key(q, i as u32, j as u32)
        };
        Some(pairs.iter().enumerate().map(key).collect())
    }

    fn scored(&self) -> bool {
        self.row >= self.s1.len()
    }

    /// The accepted pairs, in order of `s1`.
    ///
    /// Once every node of the shorter list is paired no candidate can be
    /// accepted, and in most lists (a template's, identical on both pages)
    /// that happens among the best few: so the best `2 · shorter` are
    /// selected and sorted first, and the rest only when they are needed.
    fn select(mut self, cfg: &Config, t1: &Tree, t2: &Tree) -> Vec<(NodeId, NodeId)> {
        // Pairs found in order pair every node of the shorter list, and lone
        // kin pair only where nothing did: they are taken as they are.
        let mut accepted = if self.in_order {
            self.candidates.iter().map(|key| ((key >> 32) as u32, *key as u32)).collect()
        } else {
            let mut accepted = self.accepted(cfg);
            if cfg.equality.lone_kin {
                let kin = lone_kin(t1, self.s1, t2, self.s2, &accepted, cfg.preserve_order);
                accepted.extend(kin);
                let between = between_pairs(t1, self.s1, t2, self.s2, &accepted);
                accepted.extend(between);
            }
            accepted
        };
        if cfg.equality.moved_items && cfg.preserve_order {
            pair_moved_items(&cfg.equality, t1, self.s1, t2, self.s2, &mut accepted, &self.markers);
        }
        accepted.into_iter().map(|(i, j)| (self.s1[i as usize], self.s2[j as usize])).collect()
    }

    /// The pairs the probabilities select, as positions in `s1` and `s2`.
    fn accepted(&mut self, cfg: &Config) -> BTreeMap<u32, u32> {
        let shorter = self.s1.len().min(self.s2.len());
        let mut accepted: BTreeMap<u32, u32> = BTreeMap::new();
        let (mut used1, mut used2) = (vec![false; self.s1.len()], vec![false; self.s2.len()]);
        let mut rest: &mut [u128] = &mut self.candidates;
        // The best 2 · shorter first, then, while still needed, all the rest.
        let mut head = 2 * shorter;
        while !rest.is_empty() && accepted.len() < shorter {
            let (best, others) = if head < rest.len() {
                rest.select_nth_unstable(head);
                rest.split_at_mut(head)
            } else {
                (rest, &mut [][..])
            };
            head = usize::MAX;
            // (i, j) is unique, so the order is total and an unstable sort gives the same one, without a buffer.
            best.sort_unstable();
            for &mut key in best {
                let (i, j) = ((key >> 32) as u32, key as u32);
                if used1[i as usize] || used2[j as usize] {
                    continue;
                }
                if cfg.preserve_order {
                    let before_ok = accepted.range(..i).next_back().is_none_or(|(_, &bj)| bj < j);
                    let after_ok = accepted.range(i + 1..).next().is_none_or(|(_, &aj)| aj > j);
                    if !(before_ok && after_ok) {
                        continue;
                    }
                }
                accepted.insert(i, j);
                used1[i as usize] = true;
                used2[j as usize] = true;
                if accepted.len() == shorter {
                    break;
                }
            }
            rest = others;
        }
        accepted
    }
}

/// What the nodes of one sibling list show to a comparison: read once for
/// the list, or, in a band, where a list of 200,000 siblings is compared
/// with a few nodes each, read per pair without holding them all.
enum Sides<'s, 'a> {
    Read(&'s [Side<'a>]),
    Live(&'a Tree, &'a [NodeId], &'s StateMarkers),
}

impl Sides<'_, '_> {
    fn with<R>(&self, i: usize, f: impl FnOnce(&Side) -> R) -> R {
        match self {
            Sides::Read(sides) => f(&sides[i]),
            Sides::Live(t, list, markers) => f(&Side::of(t, list[i], markers)),
        }
    }
}

/// A candidate pair as one integer whose ascending order is decreasing
/// probability, then increasing `i`, then increasing `j`: sorting integers
/// is several times faster than comparing tuples of floats, and a crawl's
/// pages are mapped by the thousand. A probability above the threshold is
/// positive, and positive floats order as their bit patterns do.
fn candidate_key(p: f64, i: u32, j: u32) -> u128 {
    debug_assert!(p > 0.0);
    (u128::from(!p.to_bits()) << 64) | (u128::from(i) << 32) | u128::from(j)
}

/// Position in a list of `to` items proportional to position `i` of `from`.
/// Computed in 64 bits: `i * (to - 1)` overflows a 32-bit `usize` (wasm32)
/// from about 65,536 siblings on.
fn proportional(i: usize, from: usize, to: usize) -> usize {
    if from > 1 {
        (i as u64 * (to.saturating_sub(1)) as u64 / (from - 1) as u64) as usize
    } else {
        0
    }
}

/// Whether a mapped pair has children on both sides to map: most mapped
/// pairs are leaves (a list's 200,000 items), which have no lists to compare
/// nor markers to find.
pub fn has_lists(t1: &Tree, a: NodeId, t2: &Tree, b: NodeId) -> bool {
    !t1.children(a).is_empty() && !t2.children(b).is_empty()
}

/// ETDM(T1, T2): the roots are mapped when their tags are equal (both are
/// `<html>` for any two documents), then children are mapped level by level
/// with [`map_siblings`], descending only into mapped pairs. With
/// `state_markers`, tokens that move between two sibling lists are left out
/// below them.
pub fn etdm(cfg: &Config, key: &Tree, other: &Tree) -> Mapping {
    let mut steps = EtdmSteps::new(cfg, key, other);
    while steps.step(usize::MAX) {}
    steps.finish()
}

/// [`etdm`] a bounded number of comparisons at a time, in the same order,
/// so the same mapping: in a browser the page runs between two steps of
/// comparing two pages of 100,000 elements.
pub struct EtdmSteps<'a> {
    cfg: &'a Config,
    key: &'a Tree,
    other: &'a Tree,
    mapping: Mapping,
    /// Mapped pairs whose children are still to map, with the state
    /// markers their ancestors' lists leave out.
    stack: Vec<(NodeId, NodeId, StateMarkers)>,
    /// The children of the pair taken last, still being scored.
    list: Option<SiblingMatch<'a>>,
}

impl<'a> EtdmSteps<'a> {
    pub fn new(cfg: &'a Config, key: &'a Tree, other: &'a Tree) -> Self {
        let mut mapping = Mapping::empty(key.len());
        let mut stack = Vec::new();
        if !key.is_empty() && !other.is_empty() && key.node(NodeId::ROOT).tag == other.node(NodeId::ROOT).tag {
            mapping.set(NodeId::ROOT, NodeId::ROOT);
            stack.push((NodeId::ROOT, NodeId::ROOT, StateMarkers::NONE));
        }
        Self { cfg, key, other, mapping, stack, list: None }
    }

    /// Maps children of mapped pairs until about `budget` comparisons of
    /// two siblings are made (a pair's lists count one more, and a long list
    /// is split between steps); whether any are left.
    pub fn step(&mut self, budget: usize) -> bool {
        let (key, other): (&'a Tree, &'a Tree) = (self.key, self.other);
        let mut made = 0;
        while made < budget {
            let list = match &mut self.list {
                Some(list) => list,
                None => {
                    let Some((a, b, inherited)) = self.stack.pop() else { break };
                    let (s1, s2) = (key.children(a), other.children(b));
                    let markers = if self.cfg.equality.state_markers {
                        moving(key, s1, other, s2, &inherited)
                    } else {
                        inherited
                    };
                    made += 1 + s1.len() + s2.len();
                    self.list.insert(SiblingMatch::new(self.cfg, s1, s2, markers))
                }
            };
            made += list.score(self.cfg, key, other, budget.saturating_sub(made));
            if list.scored() {
                let list = self.list.take().expect("scored above");
                let markers = list.markers.clone();
                for (c1, c2) in list.select(self.cfg, key, other) {
                    self.mapping.set(c1, c2);
                    if has_lists(key, c1, other, c2) {
                        self.stack.push((c1, c2, markers.clone()));
                    }
                }
            }
        }
        !self.stack.is_empty() || self.list.is_some()
    }

    pub fn finish(self) -> Mapping {
        self.mapping
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    #[test]
    fn identical_trees_map_completely() {
        let t = tree("html( head( title ) body( div#h( ul( li li li ) ) div.main( p p ) footer ) )");
        let m = etdm(&Config::default(), &t, &t);
        assert_eq!(m.len(), t.len());
        assert!(m.pairs().all(|(a, b)| a == b));
    }

    #[test]
    fn unmatched_content_stays_unmapped_and_descendants_follow_parents() {
        let key = tree("html( body( nav.menu( a a a ) article( h1 p p ) footer.foot ) )");
        let other = tree("html( body( nav.menu( a a a ) table( tr ) footer.foot ) )");
        let m = etdm(&Config::default(), &key, &other);
        let tags: Vec<&str> = m.pairs().map(|(a, _)| &*key.node(a).tag).collect();
        assert!(tags.contains(&"nav") && tags.contains(&"footer"));
        assert!(!tags.contains(&"article") && !tags.contains(&"h1"));
        assert_eq!(m.len(), 7);
    }

    #[test]
    fn order_preservation_forbids_crossing_pairs() {
        let key = tree("html( body( div.a div.b ) )");
        let other = tree("html( body( div.b div.a ) )");
        let mut cfg = Config::default();
        let crossed = etdm(&cfg, &key, &other);
        assert_eq!(crossed.len(), 3, "only one of the two swapped divs can map in order");
        cfg.preserve_order = false;
        assert_eq!(etdm(&cfg, &key, &other).len(), 4);
    }

    #[test]
    fn candidate_keys_order_by_probability_then_position() {
        let mut keys = [(0.6, 0, 1), (0.9, 2, 0), (0.6, 0, 0), (1.0, 5, 5), (0.9, 1, 3), (0.51, 0, 0)]
            .map(|(p, i, j)| (candidate_key(p, i, j), (p, i, j)));
        keys.sort_by_key(|k| k.0);
        let order: Vec<(f64, u32, u32)> = keys.iter().map(|k| k.1).collect();
        assert_eq!(order, [(1.0, 5, 5), (0.9, 1, 3), (0.9, 2, 0), (0.6, 0, 0), (0.6, 0, 1), (0.51, 0, 0)]);
    }

    /// The greedy choice over every candidate in sorted order, as the
    /// definition reads.
    fn greedy_over_all(mut keys: Vec<u128>, n1: usize, n2: usize, preserve_order: bool) -> Vec<(u32, u32)> {
        keys.sort_unstable();
        let mut accepted: BTreeMap<u32, u32> = BTreeMap::new();
        for key in keys {
            let (i, j) = ((key >> 32) as u32, key as u32);
            let free = !accepted.contains_key(&i) && !accepted.values().any(|&b| b == j);
            let in_order = !preserve_order
                || (accepted.range(..i).next_back().is_none_or(|(_, &bj)| bj < j)
                    && accepted.range(i + 1..).next().is_none_or(|(_, &aj)| aj > j));
            if free && in_order {
                accepted.insert(i, j);
            }
        }
        assert!(accepted.len() <= n1.min(n2));
        accepted.into_iter().collect()
    }

    proptest::proptest! {
        #[test]
        fn selecting_the_best_first_accepts_what_sorting_all_accepts(
            n1 in 1usize..12,
            n2 in 1usize..12,
            scores in proptest::collection::vec(0u8..8, 144),
            preserve_order: bool,
        ) {
            // A score of 0 is no candidate; the others are a few probabilities, so ties are common.
            let keys: Vec<u128> = (0..n1 * n2)
                .filter(|&k| scores[k] > 0)
                .map(|k| candidate_key(0.5 + f64::from(scores[k]) / 16.0, (k / n2) as u32, (k % n2) as u32))
                .collect();
            let (s1, s2): (Vec<NodeId>, Vec<NodeId>) =
                ((0..n1 as u32).map(NodeId).collect(), (0..n2 as u32).map(NodeId).collect());
            let cfg = Config { preserve_order, ..Config::default() };
            let mut list = SiblingMatch::new(&cfg, &s1, &s2, StateMarkers::NONE);
            list.candidates = keys.clone();
            let got: Vec<(u32, u32)> = list.accepted(&cfg).into_iter().collect();
            proptest::prop_assert_eq!(got, greedy_over_all(keys, n1, n2, preserve_order));
        }
    }

    /// Sibling lists of one random layout, the second edited (items added,
    /// removed, reclassed, given ids or children, up to fifteen times): the
    /// pairs taken in order without scoring the rest are the pairs selected
    /// from every pair scored, over the whole list or in a band.
    #[test]
    fn pairs_taken_in_order_are_what_selecting_from_every_pair_takes() {
        let mut next = crate::page::dom::test_trees::random(0x2545_f491_4f6c_dd1d_u64);
        let mut taken = [0; 2];
        let cases = 3000;
        for case in 0..cases {
            let item = |next: &mut dyn FnMut(u64) -> usize| {
                let tag = ["li", "li", "p", "div"][next(4)];
                let class = ["", "", ".a", ".b"][next(4)];
                let id = if next(8) == 0 { "#x" } else { "" };
                let attrs = if next(5) == 0 { "[href]" } else { "" };
                let kids = " a".repeat(next(3));
                if kids.is_empty() {
                    format!("{tag}{class}{id}{attrs}")
                } else {
                    format!("{tag}{class}{id}{attrs}({kids} )")
                }
            };
            let first: Vec<String> = (0..1 + next(9)).map(|_| item(&mut next)).collect();
            let mut second = first.clone();
            // A few edits, or many: a list much longer than the other is scored in a band.
            let edits = if next(3) == 0 { 4 + next(12) } else { next(4) };
            for _ in 0..edits {
                let (at, last) = (next(second.len() as u64 + 1), second.len() - 1);
                match next(4) {
                    0 if last > 0 => {
                        second.remove(at.min(last));
                    }
                    1 => second[at.min(last)] = item(&mut next),
                    _ => second.insert(at, item(&mut next)),
                }
            }
            let (key, other) = if case % 2 == 0 { (first, second) } else { (second, first) };
            let t1 = tree(&format!("html( body( ul( {} ) ) )", key.join(" ")));
            let t2 = tree(&format!("html( body( ul( {} ) ) )", other.join(" ")));
            let (s1, s2) = (t1.children(NodeId(2)), t2.children(NodeId(2)));
            // One case in four compares in a narrow band, as a list of thousands does.
            let max_sibling_pairs = if case % 4 == 1 { 1 + next(2 * s1.len().max(s2.len()) as u64) } else { 250_000 };
            let cfg = Config { preserve_order: case % 3 != 0, max_sibling_pairs, ..Config::default() };
            let mut quick = SiblingMatch::new(&cfg, s1, s2, StateMarkers::NONE);
            let banded = quick.band < s2.len();
            quick.score(&cfg, &t1, &t2, usize::MAX);
            let in_order = quick.in_order && quick.candidates.len() > 1;
            taken[usize::from(banded)] += usize::from(in_order);
            let mut full = SiblingMatch::new(&cfg, s1, s2, StateMarkers::NONE);
            full.sides = Some(s2.iter().map(|&b| Side::of(&t2, b, &full.markers)).collect());
            full.score_rows(&cfg, &t1, &t2, usize::MAX);
            assert_eq!(
                quick.select(&cfg, &t1, &t2),
                full.select(&cfg, &t1, &t2),
                "{key:?} onto {other:?}, band {banded}"
            );
        }
        let [whole, banded] = taken;
        assert!(whole > cases / 5, "the pairs in order were taken in {whole} of {cases} cases");
        assert!(banded > cases / 50, "in a band, the pairs in order were taken in {banded} cases");
    }

    #[test]
    fn proportional_position_does_not_overflow_32_bits() {
        assert_eq!(proportional(99_999, 100_000, 100_000), 99_999);
        assert_eq!(proportional(70_000, 100_001, 100_001), 70_000);
        assert_eq!(proportional(3, 1, 10), 0);
    }

    #[test]
    fn etdm_in_steps_gives_the_same_mapping_as_in_one_go() {
        let key = tree("html( body( nav.menu( a a a ) article( h1 p( b i ) p ) div( div( div( p ) ) ) footer.foot ) )");
        let other =
            tree("html( body( nav.menu( a a ) article( h1 p( i ) ) div( div( p ) ) table( tr ) footer.foot ) )");
        let cfg = Config::default();
        let whole = etdm(&cfg, &key, &other);
        for budget in [1, 2, 3, 10] {
            let mut steps = EtdmSteps::new(&cfg, &key, &other);
            let mut count = 1;
            while steps.step(budget) {
                count += 1;
            }
            assert!(budget > 1 || count > 5, "one comparison a step takes several steps");
            assert_eq!(steps.finish(), whole, "{budget} comparisons a step");
        }
        assert!(whole.len() > 5 && whole.len() < key.len());
    }

    #[test]
    fn a_long_sibling_list_is_scored_over_several_steps_with_the_same_mapping() {
        let key = tree(&format!("html( body( ul( {} ) ) )", "li( a ) p ".repeat(500)));
        let other = tree(&format!("html( body( ul( {} ) ) )", "li( a ) li( b ) p ".repeat(400)));
        let cfg = Config { max_sibling_pairs: 20_000, ..Config::default() };
        let whole = etdm(&cfg, &key, &other);
        let mut steps = EtdmSteps::new(&cfg, &key, &other);
        // The root's and body's lists, then the list of 1,000 siblings, which alone is over 20 steps.
        let mut count = 0;
        while steps.step(500) {
            count += 1;
        }
        assert!(count > 20, "{count} steps");
        assert_eq!(steps.finish(), whole);
        assert!(whole.len() > 1_000);
    }

    #[test]
    fn fan_out_guard_keeps_the_diagonal() {
        let spec = format!("html( body( ul( {} ) ) )", "li ".repeat(3000));
        let t = tree(&spec);
        let cfg = Config { max_sibling_pairs: 30_000, ..Config::default() };
        let m = etdm(&cfg, &t, &t);
        assert_eq!(m.len(), t.len());
    }
}
