//! A menu's current item under the full method. The link to the page itself
//! carries a state token (a class such as `active` or `current`, an
//! attribute such as `aria-current`) that the same entry lacks on another
//! page, where another entry carries it. Compared as they are, the two
//! items of the same entry differ in classes or attributes, the mapping
//! leaves them unmatched (or pairs the two current items crosswise), and the
//! key page's current item loses its votes.
//!
//! A token *moves* between two sibling lists being mapped when exactly one
//! sibling carries it on each side (on itself or up to two levels down, as
//! `li > a.active`), the two carriers are different entries (their labels,
//! the text down to the same depth, differ) and each page has the other's
//! entry among its like siblings (same tag, same label) without it. Such a token says which entry is current, not what
//! the entry is, so it is left out when nodes of those lists, and of their
//! subtrees, are compared. No token name is known in advance.

use crate::page::dom::{NodeId, Tree};

/// How far below a sibling a state token and an entry's label are looked
/// for: the item itself, its link, and an element inside the link.
const DEPTH: usize = 2;

/// The children of each element read on the way down: a menu entry has a
/// few; a sibling with thousands (a page's list of 200,000 items below
/// `<body>`) is no entry, and reading them all in every comparison of the
/// list it stands in made that list's cost grow with the page.
const WIDTH: usize = 32;

/// Class and attribute-name hashes left out of a comparison, each sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct StateMarkers {
    pub classes: Vec<u64>,
    pub attributes: Vec<u64>,
}

impl StateMarkers {
    pub const NONE: StateMarkers = StateMarkers { classes: Vec::new(), attributes: Vec::new() };

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty() && self.attributes.is_empty()
    }

    fn add(&mut self, token: Token) {
        let set = if token.is_class { &mut self.classes } else { &mut self.attributes };
        if let Err(at) = set.binary_search(&token.hash) {
            set.insert(at, token.hash);
        }
    }
}

/// A class name or attribute name, as the snapshot hashes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Token {
    is_class: bool,
    hash: u64,
}

/// The markers that hold while comparing the children of two mapped nodes,
/// `s1` of the key page and `s2` of the other: those `inherited` from their
/// ancestors' lists plus the tokens that move between these two lists.
pub fn moving(t1: &Tree, s1: &[NodeId], t2: &Tree, s2: &[NodeId], inherited: &StateMarkers) -> StateMarkers {
    let mut markers = inherited.clone();
    if s1.len() < 2 || s2.len() < 2 {
        return markers;
    }
    let near2: Vec<Near> = s2.iter().map(|&y| near(t2, y)).collect();
    if !names_differ_on_an_entry(t1, s1, t2, s2, &near2) {
        return markers;
    }
    let near1: Vec<Near> = s1.iter().map(|&x| near(t1, x)).collect();
    let (entries1, entries2) = (entries(t1, s1, &near1), entries(t2, s2, &near2));
    if !two_entries_of_a_tag_on_both(&entries1, &entries2) {
        return markers;
    }
    let (once1, once2) = (carried_once(t1, s1), carried_once(t2, s2));
    let mut from = 0;
    for &(token, k1) in &once1 {
        from += once2[from..].partition_point(|(t, _)| *t < token);
        let Some(&(_, k2)) = once2.get(from).filter(|(t, _)| *t == token) else { continue };
        let (tag1, tag2) = (&*t1.node(s1[k1]).tag, &*t2.node(s2[k2]).tag);
        if tag1 == tag2 && crossed_entries(tag1, &entries1, near1[k1].label, &entries2, near2[k2].label) {
            markers.add(token);
        }
    }
    markers
}

/// What a sibling shows down to [`DEPTH`] levels: its label (the own texts
/// in document order, 0 when none) and the sum of its names' hashes.
#[derive(Clone, Copy, Default)]
struct Near {
    label: u64,
    names: u64,
}

fn near(t: &Tree, n: NodeId) -> Near {
    fn walk(t: &Tree, x: NodeId, depth: usize, acc: &mut Near) {
        let node = t.node(x);
        if node.text != 0 {
            acc.label = (acc.label.rotate_left(7) ^ node.text).wrapping_mul(0x0100_0000_01b3) | 1;
        }
        acc.names = node.classes.iter().fold(acc.names, |sum, &h| sum.wrapping_add(h));
        acc.names = node.attributes.iter().fold(acc.names, |sum, &h| sum.wrapping_add(h.rotate_left(1)));
        if depth < DEPTH {
            for &c in node.children.iter().take(WIDTH) {
                walk(t, c, depth + 1, acc);
            }
        }
    }
    let mut acc = Near::default();
    walk(t, n, 0, &mut acc);
    acc
}

/// Whether some entry of `s1` (a labelled sibling) has a sibling of the same
/// tag and label in `s2` (whose [`near`] is `near2`) whose names differ:
/// without one, no state moved, and the exact search below is skipped. Most
/// lists are a template's, identical on both pages, or content, whose labels
/// differ. Labels read numbers as one shape, so a long list can be one label
/// throughout: each entry of `s2` is kept once per distinct names, and an
/// entry with two is known to differ from any sibling, so a lookup costs
/// O(log n).
fn names_differ_on_an_entry(t1: &Tree, s1: &[NodeId], t2: &Tree, s2: &[NodeId], near2: &[Near]) -> bool {
    let mut entries: Vec<(&str, u64, u64)> = s2
        .iter()
        .zip(near2)
        .filter(|(_, n)| n.label != 0)
        .map(|(&y, n)| (&*t2.node(y).tag, n.label, n.names))
        .collect();
    if entries.is_empty() {
        return false;
    }
    entries.sort_unstable();
    entries.dedup();
    s1.iter().any(|&x| {
        let n = near(t1, x);
        let tag = &*t1.node(x).tag;
        let from = entries.partition_point(|e| (e.0, e.1) < (tag, n.label));
        let mut same = entries[from..].iter().take_while(|e| e.0 == tag && e.1 == n.label);
        n.label != 0
            && match (same.next(), same.next()) {
                (Some(e), None) => e.2 != n.names,
                (first, second) => first.is_some() && second.is_some(),
            }
    })
}

/// Each token carried by exactly one sibling of `list`, with that sibling's
/// position, sorted by token.
fn carried_once(t: &Tree, list: &[NodeId]) -> Vec<(Token, usize)> {
    let mut carried: Vec<(Token, usize)> = Vec::new();
    let (mut tokens, mut stack) = (Vec::new(), Vec::new());
    for (k, &sibling) in list.iter().enumerate() {
        stack.push((sibling, 0));
        while let Some((x, depth)) = stack.pop() {
            let node = t.node(x);
            tokens.extend(node.classes.iter().map(|&hash| Token { is_class: true, hash }));
            tokens.extend(node.attributes.iter().map(|&hash| Token { is_class: false, hash }));
            if depth < DEPTH {
                stack.extend(node.children.iter().take(WIDTH).map(|&c| (c, depth + 1)));
            }
        }
        // A sibling carries a token once, however many of its nodes show it.
        tokens.sort_unstable();
        tokens.dedup();
        carried.extend(tokens.drain(..).map(|token| (token, k)));
    }
    carried.sort_unstable();
    carried
        .chunk_by(|a, b| a.0 == b.0)
        .filter_map(|run| if let [single] = run { Some(*single) } else { None })
        .collect()
}

/// The entries of a list, (tag, label) of each sibling, sorted for lookups.
fn entries<'t>(t: &'t Tree, list: &[NodeId], near: &[Near]) -> Vec<(&'t str, u64)> {
    let mut out: Vec<(&str, u64)> = list.iter().zip(near).map(|(&m, n)| (&*t.node(m).tag, n.label)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether both lists have two labelled entries of one tag: a token moves
/// from one entry to another, each on both pages ([`crossed_entries`]), so
/// without two such entries no token can, and carriers need not be sought.
fn two_entries_of_a_tag_on_both(entries1: &[(&str, u64)], entries2: &[(&str, u64)]) -> bool {
    let mut common = entries1.iter().filter(|e| e.1 != 0 && entries2.binary_search(e).is_ok());
    let Some(mut last) = common.next() else { return false };
    common.any(|e| std::mem::replace(&mut last, e).0 == e.0)
}

/// Whether two carriers of one `tag`, labelled `text1` and `text2`, are
/// different entries, each present on the other page without the token: a
/// like sibling of the same tag and the same label (not the carrier itself,
/// whose label is the other one).
fn crossed_entries(tag: &str, entries1: &[(&str, u64)], text1: u64, entries2: &[(&str, u64)], text2: u64) -> bool {
    if text1 == 0 || text2 == 0 || text1 == text2 {
        return false;
    }
    entries2.binary_search(&(tag, text1)).is_ok() && entries1.binary_search(&(tag, text2)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::config::Config;
    use crate::compare::mapping::etdm;
    use crate::page::html::{parse, snapshot};

    /// A two-section site's page: the menu's entry `current` is marked as
    /// the page's own, in one of the ways sites mark it.
    fn page(current: &str, style: &str, main: &str) -> Tree {
        let item = |name: &str| {
            let (li, a) = match (name == current, style) {
                (true, "li") => (" class=active", ""),
                (true, "a") => ("", " class=\"nav current\" aria-current=page"),
                (false, "a") => ("", " class=nav"),
                _ => ("", ""),
            };
            format!("<li{li}><a href=/{name}.html{a}>{name}</a></li>")
        };
        let menu: String = ["home", "trails", "news"].iter().map(|n| item(n)).collect();
        snapshot(&parse(&format!("<title>t</title><nav><ul>{menu}</ul></nav><main><p>{main}</p></main>"))).unwrap()
    }

    /// The key page's menu items (tag, entry) the mapping into `other` keeps.
    fn mapped_items(key: &Tree, other: &Tree) -> Vec<(String, bool)> {
        let m = etdm(&Config::default(), key, other);
        key.nodes()
            .filter(|(_, n)| matches!(&*n.tag, "li" | "a"))
            .map(|(id, n)| (n.tag.to_string(), m.is_mapped(id)))
            .collect()
    }

    #[test]
    fn a_token_can_move_only_between_two_entries_of_a_tag_both_lists_have() {
        let both = [("li", 1), ("li", 2), ("p", 3)];
        assert!(two_entries_of_a_tag_on_both(&both, &[("li", 1), ("li", 2)]));
        assert!(!two_entries_of_a_tag_on_both(&both, &[("li", 1), ("p", 3)]), "one entry of each tag");
        assert!(!two_entries_of_a_tag_on_both(&both, &[("li", 1), ("li", 5)]), "one li on both");
        assert!(!two_entries_of_a_tag_on_both(&[("li", 0), ("li", 2)], &[("li", 0), ("li", 2)]), "unlabelled");
    }

    #[test]
    fn the_current_item_maps_onto_the_same_entry_of_another_section() {
        for style in ["li", "a"] {
            let key = page("news", style, "An article about the news.");
            let other = page("trails", style, "A page about the trails.");
            let items = mapped_items(&key, &other);
            assert!(items.iter().all(|(_, mapped)| *mapped), "{style}: {items:?}");
            let m = etdm(&Config::default(), &key, &other);
            let text = |t: &Tree, n: NodeId| near(t, n).label;
            for (k, o) in m.pairs().filter(|(k, _)| &*key.node(*k).tag == "li") {
                assert_eq!(text(&key, k), text(&other, o), "{style}: each entry onto itself");
            }
        }
    }

    #[test]
    fn the_marker_is_found_only_where_it_moves() {
        let key = page("news", "li", "x");
        let ul = |t: &Tree| t.nodes().find(|(_, n)| &*n.tag == "ul").unwrap().0;
        let found =
            |other: &Tree| moving(&key, key.children(ul(&key)), other, other.children(ul(other)), &StateMarkers::NONE);
        assert_eq!(found(&page("trails", "li", "y")).classes.len(), 1, "moved to another entry");
        assert!(found(&page("news", "li", "y")).is_empty(), "the same entry: nothing moved");
        assert!(found(&page("", "li", "y")).is_empty(), "no entry carries it on the other page");
        let renamed = snapshot(&parse(
            "<nav><ul><li><a href=/home.html>home</a></li><li class=active><a href=/blog.html>blog</a></li>\
             <li><a href=/about.html>about</a></li></ul></nav>",
        ))
        .unwrap();
        assert!(found(&renamed).is_empty(), "the key's current entry is missing from the other page");
    }

    #[test]
    fn distinct_blocks_keep_their_own_classes() {
        let t1 = crate::page::dom::test_trees::tree("html( body( div.head( a ) div.main( p ) div.foot( a ) ) )");
        let t2 = crate::page::dom::test_trees::tree("html( body( div.head( a ) div.main( table ) div.foot( a ) ) )");
        let body = NodeId(1);
        assert!(moving(&t1, t1.children(body), &t2, t2.children(body), &StateMarkers::NONE).is_empty());
    }
}
