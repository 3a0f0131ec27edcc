//! Fuzz target for the parser's bounds (issue 24): hostile markup repeated
//! far past the limits (deep and misnested tags, tables, templates, foreign
//! content, formatting elements with distinct attributes) must parse without
//! panic, never nest deeper than the open-element bound, and create a number
//! of elements linear in the tags read. `PROPTEST_CASES` raises the budget
//! (default 32 cases). Time per byte is measured, not asserted, by
//! `cargo run --release --example parse_growth`.

use proptest::prelude::*;
use template_extractor::page::html::{parse, snapshot, MAX_ACTIVE_FORMATTING, MAX_OPEN_ELEMENTS};

/// One hostile unit; `{i}` makes attributes distinct so the Noah's Ark
/// clause does not merge formatting elements.
fn unit() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "<div>",
        "</div>",
        "<b id={i}>",
        "</b>",
        "<a href=#{i}>",
        "<p>",
        "</p>",
        "<table>",
        "<tr>",
        "<td>",
        "</table>",
        "<template>",
        "</template>",
        "<svg><g>",
        "<math><mi>",
        "<foreignObject>",
        "</svg>",
        "<select><option>",
        "<object>",
        "<li>",
        "<font color=c{i}>",
        "<button>",
        "text",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(32), ..ProptestConfig::default() })]
    #[test]
    fn hostile_repetitions_stay_within_the_bounds(units in prop::collection::vec(unit(), 1..6), times in 600usize..1500) {
        let source: String = (0..times)
            .flat_map(|i| units.iter().map(move |u| u.replace("{i}", &i.to_string())))
            .collect();
        let tree = snapshot(&parse(&source)).unwrap();
        let mut depth: Vec<usize> = Vec::with_capacity(tree.len());
        for (_, n) in tree.nodes() {
            depth.push(n.parent.map_or(1, |p| depth[p.index()] + 1));
        }
        let deepest = depth.iter().copied().max().unwrap_or(0);
        // The bound is on open elements; the adoption agency may still move
        // an open subtree under a deeper node, so the tree can nest past it
        // (767 for `<a href=#i><math><mi>` repeated): checked to stay under twice.
        prop_assert!(deepest <= 2 * MAX_OPEN_ELEMENTS, "depth {deepest}");
        let tags = source.matches('<').count();
        prop_assert!(tree.len() <= 3 + tags * (MAX_ACTIVE_FORMATTING + 2), "{} elements from {tags} tags", tree.len());
    }
}
