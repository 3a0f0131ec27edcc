//! Scoring against the gold marks (../shared/bench/FORMAT.md): recall,
//! precision and F1 over the elements of the key page's `<body>` subtree,
//! for the template class and for its complement, the content. On real
//! pages the template is often 80–90 % of the nodes, so "everything is
//! template" already scores a high template F1; what a reader of the
//! Content view sees is the content F1.

use serde::{Deserialize, Serialize};

use crate::page::dom::{NodeId, Tree};

/// Gold template membership per node: a node is template iff neither it nor
/// any ancestor carries `notTemplate`. Pre-order numbering puts parents
/// first, so one forward pass suffices.
pub fn gold_template(tree: &Tree) -> Vec<bool> {
    let mut gold = vec![false; tree.len()];
    for (id, node) in tree.nodes() {
        let parent_ok = node.parent.is_none_or(|p| gold[p.index()]);
        gold[id.index()] = parent_ok && !node.gold.not_template;
    }
    gold
}

/// Whether a page carries gold marks at all.
pub fn has_gold(tree: &Tree) -> bool {
    tree.nodes().any(|(_, n)| n.gold.not_template)
}

/// Scores of one page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Elements of the `<body>` subtree, `<body>` included.
    pub nodes: usize,
    pub gold: usize,
    pub retrieved: usize,
    pub correct: usize,
    pub recall: f64,
    pub precision: f64,
    pub f1: f64,
    /// F1 of the not-template class: gold content = nodes − gold template,
    /// retrieved content = nodes − retrieved template.
    pub content_f1: f64,
}

/// F1 from counts; 0 when nothing was claimed or nothing was to be found.
fn f1_of(correct: usize, gold: usize, retrieved: usize) -> (f64, f64, f64) {
    let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let (recall, precision) = (ratio(correct, gold), ratio(correct, retrieved));
    let f1 = if recall + precision == 0.0 { 0.0 } else { 2.0 * recall * precision / (recall + precision) };
    (recall, precision, f1)
}

/// Scores a retrieved template against the gold marks of the same tree.
/// An empty retrieval has precision 0 (nothing correct was claimed).
pub fn score(tree: &Tree, retrieved: &[bool]) -> Score {
    let gold = gold_template(tree);
    let mut s = Score::default();
    if let Some(body) = tree.body() {
        for i in tree.subtree(body) {
            s.nodes += 1;
            s.gold += gold[i] as usize;
            s.retrieved += retrieved[i] as usize;
            s.correct += (gold[i] && retrieved[i]) as usize;
        }
    }
    (s.recall, s.precision, s.f1) = f1_of(s.correct, s.gold, s.retrieved);
    // Content is what neither side calls template: the complement counts.
    let content_correct = s.nodes + s.correct - s.gold - s.retrieved;
    s.content_f1 = f1_of(content_correct, s.nodes - s.gold, s.nodes - s.retrieved).2;
    s
}

/// The score of calling every node template, from a page's counts: the
/// baseline a method must beat (content F1 0 by construction).
pub fn everything_is_template(s: &Score) -> Score {
    let mut all = Score { nodes: s.nodes, gold: s.gold, retrieved: s.nodes, correct: s.gold, ..Score::default() };
    (all.recall, all.precision, all.f1) = f1_of(all.correct, all.gold, all.retrieved);
    all
}

/// Where a retrieved template disagrees with the gold: the topmost nodes of
/// each wrongly retrieved subtree (false hits) and of each missed one
/// (misses), within `<body>`. Topmost only, so a reader sees blocks, not
/// every descendant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Disagreement {
    pub false_hits: Vec<NodeId>,
    pub misses: Vec<NodeId>,
}

pub fn disagreement(tree: &Tree, retrieved: &[bool]) -> Disagreement {
    let gold = gold_template(tree);
    let mut d = Disagreement::default();
    let Some(body) = tree.body() else { return d };
    let wrong = |i: usize| gold[i] != retrieved[i];
    for i in tree.subtree(body) {
        let id = NodeId(i as u32);
        let parent_wrong_alike = tree
            .node(id)
            .parent
            .is_some_and(|p| i != body.index() && wrong(p.index()) && retrieved[p.index()] == retrieved[i]);
        if wrong(i) && !parent_wrong_alike {
            if retrieved[i] {
                d.false_hits.push(id)
            } else {
                d.misses.push(id)
            }
        }
    }
    d
}

/// Macro averages (the mean of per-site figures, as in the papers' tables).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct MacroAverage {
    pub sites: usize,
    pub recall: f64,
    pub precision: f64,
    pub f1: f64,
    pub content_f1: f64,
}

pub fn macro_average<'a>(scores: impl IntoIterator<Item = &'a Score>) -> MacroAverage {
    let mut m = MacroAverage::default();
    for s in scores {
        m.sites += 1;
        m.recall += s.recall;
        m.precision += s.precision;
        m.f1 += s.f1;
        m.content_f1 += s.content_f1;
    }
    if m.sites > 0 {
        let n = m.sites as f64;
        m.recall /= n;
        m.precision /= n;
        m.f1 /= n;
        m.content_f1 /= n;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    #[test]
    fn counts_body_elements_and_inherits_not_template() {
        let t = tree("html( head( title ) body( nav( a a ) main.notTemplate.mainContent( p( b ) ) ) )");
        let gold = gold_template(&t);
        assert_eq!(gold.iter().filter(|&&g| g).count(), 7, "html head title body nav a a");
        let mut retrieved = vec![false; t.len()];
        for i in [0, 3, 4, 7] {
            retrieved[i] = true;
        }
        let s = score(&t, &retrieved);
        assert_eq!((s.nodes, s.gold, s.retrieved, s.correct), (7, 4, 3, 2));
        assert!((s.recall - 0.5).abs() < 1e-12);
        assert!((s.precision - 2.0 / 3.0).abs() < 1e-12);
        assert!((s.f1 - 4.0 / 7.0).abs() < 1e-12);
        // Content: gold {main, p, b}; retrieved {a, a, p, b}; correct {p, b}.
        assert!((s.content_f1 - 2.0 * (2.0 / 3.0 * 0.5) / (2.0 / 3.0 + 0.5)).abs() < 1e-12);
        let everything = score(&t, &vec![true; t.len()]);
        assert_eq!((everything.recall, everything.content_f1), (1.0, 0.0), "claiming it all finds no content");
        assert_eq!(everything_is_template(&s), everything, "the baseline follows from the counts alone");
        assert!(has_gold(&t));
    }

    #[test]
    fn disagreement_lists_topmost_blocks() {
        let t = tree("html( body( nav( a a ) main.notTemplate( p( b ) ) footer( p ) ) )");
        let mut retrieved = vec![true; t.len()];
        retrieved[8] = false;
        retrieved[9] = false;
        let d = disagreement(&t, &retrieved);
        assert_eq!(d.false_hits, [NodeId(5)]);
        assert_eq!(d.misses, [NodeId(8)]);
    }

    #[test]
    fn macro_average_is_the_mean_of_sites() {
        let a = Score { recall: 1.0, precision: 0.5, f1: 0.6, ..Score::default() };
        let b = Score { recall: 0.0, precision: 0.5, f1: 0.2, ..Score::default() };
        let m = macro_average([&a, &b]);
        assert_eq!(m.sites, 2);
        assert!((m.recall - 0.5).abs() < 1e-12 && (m.f1 - 0.4).abs() < 1e-12);
    }
}
