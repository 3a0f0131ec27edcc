//! Moved items: an entry that stands elsewhere among its siblings on the
//! other page, recognised by its label.
//!
//! Mapped siblings keep their order (thesis §5.2.3, `preserve_order`), so a
//! list the site writes in another order on every page — a tag cloud
//! shuffled at each build, a "popular posts" box sorted by this week's
//! reads, a language menu that puts the current language first — maps only
//! along its longest run in common order, and the rest of its entries come
//! out as the page's content although every page holds them.
//!
//! In a list of links (most siblings on both sides link entries: a link, or
//! an element without text of its own around one) whose labels are mostly
//! on both pages, two entries with the same tag and the same label, which
//! no other sibling on either side has, and an equality probability above
//! the threshold are the same entry, moved: they are paired, and what order
//! had paired either with is let go. That covers the entries order left
//! unpaired and the wrappers it paired by position (a `<span>` around each
//! link of a cloud carries no text, so span meets span in order and the
//! links inside do not meet).
//!
//! A page's own selection, its "Related posts", shares a few entries with
//! another page's at other places, and those stay the page's (LABELING
//! N3). Paragraphs never move this way: two pages that print one
//! description in another order (a list of documents, each with its
//! summary) share text, not a layout; nor do a manual's section headings
//! that link to its table of contents among the section's paragraphs
//! ("6.1.1 Input file location" on the next chapter's page).

use std::collections::{BTreeMap, HashMap};

use crate::base::config::Equality;
use crate::compare::equality::probability;
use crate::compare::state_marker::StateMarkers;
use crate::page::dom::{NodeId, Tree};

/// `accepted` (pairs of positions in `s1`, `s2`) with each label that one
/// entry on each side carries paired by it: in a list of links (most
/// siblings on both sides link entries), the two entries of one label are
/// paired wherever order put them, and whatever order or position had
/// paired them with (an unlabelled wrapper around each link pairs by
/// position alone) is let go. Entries whose label the other side lacks
/// keep the pairs order gave them.
pub fn pair_moved_items(
    p: &Equality,
    t1: &Tree,
    s1: &[NodeId],
    t2: &Tree,
    s2: &[NodeId],
    accepted: &mut BTreeMap<u32, u32>,
    markers: &StateMarkers,
) {
    if !may_list_links(t1, s1) || !may_list_links(t2, s2) {
        return;
    }
    let ((once1, links1), (once2, links2)) = (entries(t1, s1), entries(t2, s2));
    if !(links1 && links2) {
        return;
    }
    let mut pairs: Vec<(u32, u32)> = once1.iter().filter_map(|(label, &i)| Some((i?, (*once2.get(label)?)?))).collect();
    // One list on both pages holds mostly the same entries; a page's own
    // selection ("Related posts") shares a few with another page's.
    if pairs.len() * 2 <= once1.len().max(once2.len()) {
        return;
    }
    pairs.sort_unstable();
    let mut back: HashMap<u32, u32> = accepted.iter().map(|(&i, &j)| (j, i)).collect();
    for (i, j) in pairs {
        if accepted.get(&i) == Some(&j)
            || probability(p, t1, s1[i as usize], t2, s2[j as usize], markers) <= p.threshold
        {
            continue;
        }
        if let Some(old) = accepted.remove(&i) {
            back.remove(&old);
        }
        if let Some(old) = back.remove(&j) {
            accepted.remove(&old);
        }
        accepted.insert(i, j);
        back.insert(j, i);
    }
}

/// Whether most of `s` could be link entries, read without their subtrees:
/// a link, or an element without text of its own.
fn may_list_links(t: &Tree, s: &[NodeId]) -> bool {
    let possible = s.iter().filter(|&&n| t.node(n).href.is_some() || t.node(n).text == 0).count();
    s.len() >= 2 && possible * 2 > s.len()
}

/// Per label, its one entry among `s` (`None` when two share it), and
/// whether most of `s` are link entries: a list of links, not a section's
/// headings among its paragraphs.
fn entries(t: &Tree, s: &[NodeId]) -> (HashMap<u64, Option<u32>>, bool) {
    let mut seen: HashMap<u64, Option<u32>> = HashMap::new();
    let mut labelled = 0;
    for (k, &n) in s.iter().enumerate() {
        if let Some(label) = entry_label(t, n) {
            labelled += 1;
            seen.entry(label).and_modify(|e| *e = None).or_insert(Some(k as u32));
        }
    }
    (seen, labelled * 2 > s.len())
}

/// The label of a link entry: a link's text (an `<a href>` to another
/// page: a named anchor around a heading is no link, and a link to a part
/// of this page is an entry of the page's own table of contents, whose
/// "Methods" or "Evaluation" other pages' contents list elsewhere), or the
/// text of an element without text of its own whose words are mostly
/// links' (a list item around its link and a date) two levels deep at
/// most, as far as
/// `repeated_lists` reads a list's entries; `None` for anything else, or an
/// entry without words.
fn entry_label(t: &Tree, n: NodeId) -> Option<u64> {
    let is_link = |j: usize| t.node(NodeId(j as u32)).href.as_deref().is_some_and(|h| !h.starts_with('#'));
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
        let mut pairs = BTreeMap::new();
        pair_moved_items(&Equality::default(), &key, &s1, &other, &s2, &mut pairs, &StateMarkers::NONE);
        pairs.into_iter().collect()
    }

    #[test]
    fn wrappers_paired_by_position_give_way_to_their_links_labels() {
        let terms = |tags: &[&str]| {
            let spans: String = tags
                .iter()
                .map(|t| format!("<span class=term><a href='/tags/{t}/' class=level2>{t}</a></span>"))
                .collect();
            page(&format!("<nav><a>Home</a></nav><div class=cloud>{spans}</div>"))
        };
        let (key, other) = (terms(&["rust", "wasm", "html", "css"]), terms(&["css", "html", "rust", "wasm"]));
        let m = etdm(&Config::default(), &key, &other);
        let links: Vec<NodeId> = key.nodes().filter(|(_, n)| n.href.is_some()).map(|(id, _)| id).collect();
        assert_eq!(links.len(), 4);
        for a in links {
            let image = m.image(a).map(|b| other.node(b).text);
            assert_eq!(image, Some(key.node(a).text), "each link meets its own label, its wrapper with it");
        }
    }

    #[test]
    fn a_label_two_siblings_share_names_no_one_entry() {
        let pairs = moved(
            "<a href=/a>a</a><a href=/>}</a><a href=/>}</a><a href=/b>b</a>",
            "<a href=/b>b</a><a href=/>}</a><a href=/a>a</a>",
        );
        assert_eq!(pairs, [(0, 2), (3, 0)], "'a' and 'b' swapped; '}}' twice on one side is not one entry");
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
        let contents = moved(
            "<li><a href=#signals>Signals</a></li><li><a href=#slots>Slots</a></li><li><a href=#macros>Macros</a></li>",
            "<li><a href=#macros>Macros</a></li><li><a href=#signals>Signals</a></li><li><a href=#slots>Slots</a></li>",
        );
        assert!(contents.is_empty(), "a page's own contents name its parts");
        let related = moved(
            "<li><a href=/p/1>Rain</a></li><li><a href=/p/2>Snow</a></li><li><a href=/p/3>Hail</a></li>",
            "<li><a href=/p/4>Fog</a></li><li><a href=/p/5>Wind</a></li><li><a href=/p/1>Rain</a></li>",
        );
        assert!(related.is_empty(), "one related post in common is no list in another order");
    }
}
