//! Moved items: an entry that stands elsewhere among its siblings on the
//! other page, recognised by its label.
//!
//! Mapped siblings keep their order (thesis §5.2.3, `preserve_order`), so a
//! list the site writes in another order on every page — a tag cloud
//! shuffled at each build, a "popular posts" box sorted by this week's
//! reads, a language menu that puts the current language first — maps only
//! along its longest run in common order, and the rest of its entries come
//! out as the page's content although every page holds them. Where order
//! left two siblings unpaired in a list of links (most siblings on both
//! sides link entries: a link, or an element without text of its own
//! around one), they are paired when both are link entries with the same
//! tag and the same label, which no other sibling on either side has, and
//! an equality probability above the threshold: the same entry, moved.
//! Paragraphs never move this way: two pages that print one description in
//! another order (a list of documents, each with its summary) share text,
//! not a layout; nor do a manual's section headings that link to its table
//! of contents among the section's paragraphs ("6.1.1 Input file
//! location" on the next chapter's page).

use std::collections::{BTreeMap, HashMap};

use crate::base::config::Equality;
use crate::compare::equality::probability;
use crate::compare::state_marker::StateMarkers;
use crate::page::dom::{NodeId, Tree};

/// Pairs (as positions in `s1`, `s2`) of siblings that order left unpaired
/// in `accepted` and whose own text is the same and unique on both sides.
pub fn moved_items(
    p: &Equality,
    t1: &Tree,
    s1: &[NodeId],
    t2: &Tree,
    s2: &[NodeId],
    accepted: &BTreeMap<u32, u32>,
    markers: &StateMarkers,
) -> Vec<(u32, u32)> {
    if accepted.len() == s1.len().min(s2.len()) {
        return Vec::new();
    }
    let paired2: Vec<bool> = {
        let mut v = vec![false; s2.len()];
        accepted.values().for_each(|&j| v[j as usize] = true);
        v
    };
    // Per label, its one entry (`None` when two share it), and whether most
    // siblings are link entries: a list of links, not a section's headings
    // among its paragraphs.
    let entries = |t: &Tree, s: &[NodeId]| {
        let mut seen: HashMap<u64, Option<u32>> = HashMap::new();
        for (k, &n) in s.iter().enumerate() {
            if let Some(label) = entry_label(t, n) {
                seen.entry(label).and_modify(|e| *e = None).or_insert(Some(k as u32));
            }
        }
        let labelled = seen.len() * 2 > s.len();
        (seen, labelled)
    };
    let ((once1, links1), (once2, links2)) = (entries(t1, s1), entries(t2, s2));
    if !(links1 && links2) {
        return Vec::new();
    }
    let mut pairs: Vec<(u32, u32)> = once1
        .into_iter()
        .filter_map(|(text, i)| Some((i?, (*once2.get(&text)?)?)))
        .filter(|&(i, j)| !accepted.contains_key(&i) && !paired2[j as usize])
        .filter(|&(i, j)| probability(p, t1, s1[i as usize], t2, s2[j as usize], markers) > p.threshold)
        .collect();
    pairs.sort_unstable();
    pairs
}

/// The label of a link entry: a link's text (an `<a href>`: a named
/// anchor around a heading is no link), or the text of an element
/// without text of its own whose words are mostly links' (a list item
/// around its link and a date) two levels deep at most, as far as
/// `repeated_lists` reads a list's entries; `None` for anything else, or an
/// entry without words.
fn entry_label(t: &Tree, n: NodeId) -> Option<u64> {
    let is_link = |j: usize| t.node(NodeId(j as u32)).href.is_some();
    let node = t.node(n);
    if is_link(n.index()) {
        return (node.block != 0).then_some(node.block);
    }
    if node.text != 0 {
        return None;
    }
    let (mut label, mut words, mut link_words) = (0u64, 0u32, 0u32);
    let mut links_end = 0;
    for j in t.subtree(n) {
        let inner = t.node(NodeId(j as u32));
        if inner.depth > node.depth + 2 {
            return None;
        }
        if is_link(j) && j >= links_end {
            links_end = t.subtree(NodeId(j as u32)).end;
        }
        if inner.block != 0 {
            label = label.rotate_left(5) ^ inner.block;
            words += inner.words;
            if j < links_end {
                link_words += inner.words;
            }
        }
    }
    (label != 0 && 2 * link_words >= words).then_some(label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::config::Config;
    use crate::compare::mapping::etdm;
    use crate::page::html::{parse, snapshot};

    fn page(body: &str) -> Tree {
        snapshot(&parse(&format!("<html><body>{body}</body></html>"))).unwrap()
    }

    fn cloud(tags: &[&str]) -> Tree {
        let links: String =
            tags.iter().map(|t| format!("<a href='/tags/{t}/' style='font-size:1em'>{t}</a> ")).collect();
        page(&format!("<nav><a>Home</a></nav><article><p>text</p></article><div class=cloud>{links}</div>"))
    }

    fn mapped_links(key: &Tree, other: &Tree, cfg: &Config) -> Vec<String> {
        let m = etdm(cfg, key, other);
        let cloud = key.nodes().find(|(_, n)| !n.classes.is_empty()).unwrap().0;
        key.children(cloud)
            .iter()
            .filter(|&&a| m.image(a).is_some_and(|b| other.node(b).text == key.node(a).text))
            .map(|&a| key.node(a).tag.to_string())
            .collect()
    }

    #[test]
    fn a_shuffled_tag_cloud_maps_entry_by_entry() {
        let key = cloud(&["rust", "wasm", "html", "css", "spark", "ray"]);
        let other = cloud(&["spark", "css", "rust", "ray", "html", "wasm"]);
        assert_eq!(mapped_links(&key, &other, &Config::default()).len(), 6, "every entry meets itself");
        let ordered = Config { equality: Equality { moved_items: false, ..Equality::default() }, ..Config::default() };
        assert!(mapped_links(&key, &other, &ordered).len() < 6, "in order only the longest common run maps");
    }

    fn moved(key: &str, other: &str) -> Vec<(u32, u32)> {
        let (key, other) = (page(&format!("<div class=c>{key}</div>")), page(&format!("<div class=c>{other}</div>")));
        let entries = |t: &Tree| t.children(t.nodes().find(|(_, n)| &*n.tag == "div").unwrap().0).to_vec();
        let (s1, s2) = (entries(&key), entries(&other));
        moved_items(&Equality::default(), &key, &s1, &other, &s2, &BTreeMap::new(), &StateMarkers::NONE)
    }

    #[test]
    fn a_label_two_siblings_share_names_no_one_entry() {
        let pairs = moved(
            "<a href=/a>a</a><a href=/>}</a><a href=/>}</a><a href=/b>b</a>",
            "<a href=/b>b</a><a href=/>}</a><a href=/c>c</a><a href=/a>a</a>",
        );
        assert_eq!(pairs, [(0, 3), (3, 0)], "'a' and 'b' swapped; '}}' twice on one side is not one entry");
    }

    #[test]
    fn list_items_move_with_their_links_and_paragraphs_do_not() {
        let items = moved(
            "<li><a href=/x>Rust</a></li><li><a href=/y>Ray</a></li><li><a href=/z>Spark</a></li>",
            "<li><a href=/z>Spark</a></li><li><a href=/x>Rust</a></li><li><a href=/y>Ray</a></li>",
        );
        assert_eq!(items, [(0, 1), (1, 2), (2, 0)]);
        let paragraphs = moved(
            "<p>The scope of this document is a profile.</p><p>Comments may be sent to the list.</p>",
            "<p>Comments may be sent to the list.</p><p>The scope of this document is a profile.</p>",
        );
        assert!(paragraphs.is_empty(), "two pages printing one text in another order share text, not a layout");
        let sections = moved(
            "<h3><a href=/toc#1>Input</a></h3><p>Read from a file.</p><h3><a href=/toc#2>Output</a></h3><p>Written out.</p>",
            "<h3><a href=/toc#2>Output</a></h3><p>Printed.</p><h3><a href=/toc#1>Input</a></h3><p>Typed in.</p>",
        );
        assert!(sections.is_empty(), "headings among paragraphs are no list of links");
        let headings = moved(
            "<h3><a name=a>Input</a></h3><h3><a name=b>Output</a></h3>",
            "<h3><a name=b>Output</a></h3><h3><a name=a>Input</a></h3>",
        );
        assert!(headings.is_empty(), "a named anchor is no link");
    }
}
