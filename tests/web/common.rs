//! Fixtures shared by the native check (`tests/web.rs`) and the browser
//! tests (`src/wasm/tests.rs`): HTML pages and, for each, the description of
//! the snapshot html5ever builds natively.

use super::Tree;

/// Fixture pages: the demo site, a file of parser corner cases and one of
/// declarative shadow roots.
pub const FIXTURES: &[(&str, &str)] = &[
    ("tricky", include_str!("fixtures/tricky.html")),
    ("home", include_str!("../../www/index.html")),
    ("news", include_str!("../../www/news/index.html")),
    ("news-boardwalk", include_str!("../../www/news/heron-lake-boardwalk.html")),
    ("trails", include_str!("../../www/trails/index.html")),
    ("trails-loop", include_str!("../../www/trails/heron-lake-loop.html")),
    ("events", include_str!("../../www/events/index.html")),
    ("about", include_str!("../../www/about/index.html")),
    ("contact", include_str!("../../www/contact/index.html")),
    ("search", include_str!("../../www/search/index.html")),
    ("shadow", include_str!("fixtures/shadow.html")),
];

/// One line per node with every field the algorithms read.
pub fn describe(tree: &Tree) -> String {
    tree.nodes()
        .map(|(id, n)| {
            format!(
                "{} {} id={:?} classes={:?} attrs={:?} href={:?} parent={:?} index={} depth={} text={:x} gold={:?}\n",
                id.0,
                n.tag,
                n.id,
                n.classes,
                n.attributes,
                n.href,
                n.parent.map(|p| p.0),
                n.child_index,
                n.depth,
                n.text,
                (n.gold.not_template, n.gold.main_content),
            )
        })
        .collect()
}

const SNAPSHOTS: &[(&str, &str)] = &[
    ("tricky", include_str!("snapshots/tricky.txt")),
    ("home", include_str!("snapshots/home.txt")),
    ("news", include_str!("snapshots/news.txt")),
    ("news-boardwalk", include_str!("snapshots/news-boardwalk.txt")),
    ("trails", include_str!("snapshots/trails.txt")),
    ("trails-loop", include_str!("snapshots/trails-loop.txt")),
    ("events", include_str!("snapshots/events.txt")),
    ("about", include_str!("snapshots/about.txt")),
    ("contact", include_str!("snapshots/contact.txt")),
    ("search", include_str!("snapshots/search.txt")),
    ("shadow", include_str!("snapshots/shadow.txt")),
];

pub fn expected(name: &str) -> &'static str {
    SNAPSHOTS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s).expect("a snapshot per fixture")
}
