//! Does the site repeat a node's *content*, not only its shape?
//!
//! The equality probability compares element structure, and on sites whose
//! articles all share one structure (documentation, product pages) it maps
//! content wrappers as readily as menus. A template repeats its text too: a
//! menu's labels, a footer's lines. So for every key node mapped into a
//! candidate we ask how many of the words under it recur under its image
//! there — Vieira's identical subtrees and Bar-Yossef's pagelets loosened to
//! a share, so that a menu with one changed label still counts.

use crate::base::config::Content;
use crate::compare::mapping::Mapping;
use crate::page::dom::{NodeId, Tree};
use crate::page::mixed_hash::MixMap;
use crate::page::text_blocks::TextBlocks;

/// Per key node: words of text in its subtree, and how many of them recur
/// under the node's image in one candidate (0 where the node is unmapped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recurrence {
    pub words: Vec<u32>,
    pub recurring: Vec<u32>,
}

impl Recurrence {
    /// Share of the subtree's words that recur, or `None` for a subtree
    /// without text, where only the shape can speak.
    pub fn share(&self, n: NodeId) -> Option<f64> {
        let total = self.words[n.index()];
        (total > 0).then(|| f64::from(self.recurring[n.index()]) / f64::from(total))
    }
}

/// Words of text under every node of `tree`, its own text included.
pub fn subtree_words(tree: &Tree) -> Vec<u32> {
    let mut words: Vec<u32> = tree.nodes().map(|(_, n)| n.words).collect();
    for (id, node) in tree.nodes().collect::<Vec<_>>().into_iter().rev() {
        if let Some(p) = node.parent {
            words[p.index()] = words[p.index()].saturating_add(words[id.index()]);
        }
    }
    words
}

/// What the content signal reads of the key page, built once for all the
/// pages it is compared with: its subtree word counts and its lists.
#[derive(Clone, Debug, Default)]
pub struct KeyText {
    pub words: Vec<u32>,
    lists: Vec<Vec<NodeId>>,
}

impl KeyText {
    pub fn of(key: &Tree) -> Self {
        Self { words: subtree_words(key), lists: lists(key) }
    }

    /// The key page's lists ([`lists`]).
    pub fn lists(&self) -> &[Vec<NodeId>] {
        &self.lists
    }
}

/// Counts, for every key node, the words under it whose text block
/// ([`crate::page::dom::Node::block`], compared by hash) also stands under its image.
///
/// Images of a top-down mapping nest like their sources, so once a block
/// recurs under the image of one ancestor it recurs under every higher one:
/// each block climbs from its element to the first mapped ancestor whose
/// image holds it, and counts for that ancestor and all above.
pub fn recurrence(key: &Tree, key_words: &[u32], candidate: &TextBlocks, mapping: &Mapping) -> Recurrence {
    let mut own_recurring = vec![0u32; key.len()];
    for (id, node) in key.nodes() {
        if node.block == 0 {
            continue;
        }
        let mut cur = Some(id);
        while let Some(n) = cur {
            if let Some(image) = mapping.image(n) {
                if candidate.holds(image.index(), node.block) {
                    own_recurring[n.index()] = own_recurring[n.index()].saturating_add(node.words);
                    break;
                }
            }
            cur = key.node(n).parent;
        }
    }
    let mut recurring = own_recurring;
    for (id, node) in key.nodes().collect::<Vec<_>>().into_iter().rev() {
        if let Some(p) = node.parent {
            recurring[p.index()] = recurring[p.index()].saturating_add(recurring[id.index()]);
        }
    }
    for (i, r) in recurring.iter_mut().enumerate() {
        if mapping.image(NodeId(i as u32)).is_none() {
            *r = 0;
        }
    }
    Recurrence { words: key_words.to_vec(), recurring }
}

/// The part of a mapping whose content the candidate repeats.
///
/// Text is the evidence: a mapped node stays when enough of the words under
/// it recur under its image, when its parent's words do (per-page text
/// inside a repeated block), or when a child stays that way (the wrappers of
/// a template block). A node without words of its own subtree (an image, a
/// rule, an inline piece of a bigger block) gives no evidence either way and
/// follows its parent. Evidence climbs to the root and the rest descends from
/// kept parents, so the result is top-down closed like the mapping, and a
/// page mapped onto an identical page keeps everything.
pub fn keep_repeated_content(
    rule: &Content,
    key: &Tree,
    key_text: &KeyText,
    candidate: &TextBlocks,
    mapping: &Mapping,
) -> Mapping {
    let r = recurrence(key, &key_text.words, candidate, mapping);
    let unrepeated = |n: NodeId| r.words[n.index()] - r.recurring[n.index()];
    let page_unrepeated = unrepeated(NodeId::ROOT);
    let (items, containers) = content_lists(rule, key, &key_text.lists, &r);
    let mut evidence = vec![false; key.len()];
    for (id, node) in key.nodes().collect::<Vec<_>>().into_iter().rev() {
        let Some(share) = r.share(id) else { continue };
        let repeated = share >= rule.min_share;
        let in_repeated_block = node.parent.and_then(|p| r.share(p)).is_some_and(|s| s >= rule.parent_share);
        let frame = page_unrepeated > 0 && f64::from(unrepeated(id)) >= rule.frame_share * f64::from(page_unrepeated);
        // An item of a list speaks for itself: a fixed "Reply" or "Add to
        // cart" inside every reply or product does not make the item template.
        // The list element holding such items is the template's container
        // for them (LABELING T5), as its wrappers are.
        let wrapper = (evidence[id.index()] || containers[id.index()]) && !items[id.index()];
        evidence[id.index()] = mapping.is_mapped(id) && (repeated || in_repeated_block || frame || wrapper);
        if let (true, Some(p)) = (evidence[id.index()], node.parent) {
            evidence[p.index()] = true;
        }
    }
    let mut kept = Mapping::empty(key.len());
    for (id, node) in key.nodes() {
        let Some(image) = mapping.image(id) else { continue };
        let parent_kept = node.parent.is_none_or(|p| kept.is_mapped(p));
        if parent_kept && (evidence[id.index()] || r.share(id).is_none()) {
            kept.set(id, image);
        }
    }
    kept
}

/// Lists whose items mostly do not recur in text (replies, products,
/// search results), as (their items, the elements that hold them): the
/// items are content however template-like the fixed controls inside each;
/// a menu's items mostly recur.
fn content_lists(rule: &Content, key: &Tree, lists: &[Vec<NodeId>], r: &Recurrence) -> (Vec<bool>, Vec<bool>) {
    let mut items = vec![false; key.len()];
    let mut containers = vec![false; key.len()];
    for list in lists {
        let shares: Vec<f64> = list.iter().filter_map(|&n| r.share(n)).collect();
        let recurring = shares.iter().filter(|&&s| s >= rule.min_share).count();
        if !shares.is_empty() && 2 * recurring <= shares.len() {
            list.iter().for_each(|n| items[n.index()] = true);
            if let Some(p) = key.node(list[0]).parent {
                containers[p.index()] = true;
            }
        }
    }
    (items, containers)
}

/// Groups of list items: children of one parent built alike, with the
/// same tag, classes and children's tags and classes (replies of a thread,
/// products of a grid, entries of a menu; not the header, body and footer
/// containers a layout also writes alike), each group at least two long.
///
/// Three or more siblings alike but for classes each carries alone
/// (`post-452`, `first`, `last`: an item's id or place in a grid) are a
/// list too, as long as each keeps a class it shares with the others; two
/// such siblings are more often a layout's variants (`sidebar--primary`,
/// `sidebar--secondary`) than a list. A class shared by fewer than half the
/// siblings names a few items, not the kind (`category-pc` on two posts of
/// a listing, `tag-windows` on three): it no more splits the list.
pub fn lists(tree: &Tree) -> Vec<Vec<NodeId>> {
    let own = |id: NodeId, keep: &dyn Fn(u64) -> bool| {
        let n = tree.node(id);
        n.classes
            .iter()
            .filter(|&&c| keep(c))
            .fold(crate::page::name_hash::name_hash(&n.tag), |h, c| h.rotate_left(5) ^ c)
    };
    let every = |_: u64| true;
    let shape = |id: NodeId, keep: &dyn Fn(u64) -> bool| {
        tree.children(id).iter().fold(own(id, keep), |h, &c| h.rotate_left(7) ^ own(c, &every))
    };
    let groups = |shapes: &mut Vec<(u64, NodeId)>, min: usize| -> Vec<Vec<NodeId>> {
        shapes.sort_unstable();
        shapes
            .chunk_by(|a, b| a.0 == b.0)
            .filter(|g| g.len() >= min)
            .map(|g| g.iter().map(|&(_, id)| id).collect())
            .collect()
    };
    let mut lists = Vec::new();
    let mut counts: MixMap<u64, u32> = MixMap::default();
    for (_, node) in tree.nodes() {
        if node.children.len() < 2 {
            continue;
        }
        counts.clear();
        for &c in &node.children {
            for &class in tree.node(c).classes.iter() {
                *counts.entry(class).or_default() += 1;
            }
        }
        let half = node.children.len() as u32 / 2;
        let shared = |c: u64| counts.get(&c).is_some_and(|&k| k > 1 && k > half);
        let mut loose: Vec<(u64, NodeId)> = node
            .children
            .iter()
            .filter(|&&c| tree.node(c).classes.iter().any(|&k| shared(k)))
            .map(|&c| (shape(c, &shared), c))
            .collect();
        let loose = groups(&mut loose, 3);
        let in_loose = |c: NodeId| loose.iter().any(|g| g.contains(&c));
        let mut exact: Vec<(u64, NodeId)> =
            node.children.iter().filter(|&&c| !in_loose(c)).map(|&c| (shape(c, &every), c)).collect();
        lists.extend(groups(&mut exact, 2));
        lists.extend(loose);
    }
    lists
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::config::Config;
    use crate::compare::mapping::etdm;
    use crate::page::html::{parse, snapshot};
    use crate::page::text_blocks::subtree_ends;

    fn page(body: &str) -> Tree {
        snapshot(&parse(&format!("<html><body>{body}</body></html>"))).unwrap()
    }

    fn node(t: &Tree, tag: &str, nth: usize) -> NodeId {
        t.nodes().filter(|(_, n)| &*n.tag == tag).nth(nth).unwrap().0
    }

    /// The default rule's kept part of the key page's mapping onto `other`.
    fn kept(key: &Tree, other: &Tree) -> Mapping {
        keep_repeated_content(
            &Content::default(),
            key,
            &KeyText::of(key),
            other.text_blocks(),
            &etdm(&Config::default(), key, other),
        )
    }

    fn shares(key: &Tree, other: &Tree) -> Recurrence {
        let cfg = Config {
            equality: crate::base::config::Equality { differing_text: 1.0, ..Default::default() },
            ..Config::default()
        };
        recurrence(key, &subtree_words(key), other.text_blocks(), &etdm(&cfg, key, other))
    }

    #[test]
    fn a_wrapper_with_changed_deep_text_does_not_recur() {
        let key = page("<div class=hl><pre><code><span>import httpx</span></code></pre></div>");
        let same = page("<div class=hl><pre><code><span>import httpx</span></code></pre></div>");
        let other = page("<div class=hl><pre><code><span>client.get(url)</span></code></pre></div>");
        let div = node(&key, "div", 0);
        assert_eq!(shares(&key, &same).share(div), Some(1.0));
        assert_eq!(shares(&key, &other).share(div), Some(0.0), "the wrapper's text sits three levels down");
    }

    #[test]
    fn a_menu_with_one_changed_label_mostly_recurs() {
        let key =
            page("<ul><li><a>Home</a></li><li><a>Guide</a></li><li><a>API reference</a></li><li><a>Here</a></li></ul>");
        let other = page(
            "<ul><li><a>Home</a></li><li><a>Guide</a></li><li><a>API reference</a></li><li><a>There now</a></li></ul>",
        );
        let r = shares(&key, &other);
        let ul = node(&key, "ul", 0);
        assert_eq!(r.words[ul.index()], 5);
        assert_eq!(r.share(ul), Some(0.8));
        assert_eq!(r.share(node(&key, "li", 3)), Some(0.0));
    }

    #[test]
    fn text_elsewhere_on_the_page_does_not_count_and_textless_nodes_have_no_share() {
        let key = page("<nav><a>Home</a></nav><main><p>Home</p><img></main>");
        let other = page("<nav><a>Home</a></nav><main><p>Away</p><img></main>");
        let r = shares(&key, &other);
        assert_eq!(r.share(node(&key, "p", 0)), Some(0.0), "'Home' recurs in the nav, not under the paragraph's image");
        assert_eq!(r.share(node(&key, "nav", 0)), Some(1.0));
        assert_eq!(r.share(node(&key, "img", 0)), None);
        assert_eq!(
            r.share(node(&key, "body", 0)),
            Some(1.0),
            "under the body's image both blocks recur: a set, not a count"
        );
    }

    #[test]
    fn the_empty_frame_of_the_content_stays_and_the_content_goes() {
        let frame = |text: &str| {
            page(&format!(
                "<nav><a>Home</a> <a>Guide</a></nav><div class=wrap><div class=doc><p>{text}</p><div class=hl><code>{text}</code></div></div></div><footer>Same footer line</footer>"
            ))
        };
        let key = frame("one page explains routing in depth");
        let other = frame("another page lists every setting there is");
        let kept = kept(&key, &other);
        let tags = |class: &str| {
            key.nodes().find(|(_, n)| n.classes.contains(&crate::page::generated_names::token_hash(class))).unwrap().0
        };
        assert!(
            kept.is_mapped(tags("wrap")) && kept.is_mapped(tags("doc")),
            "the wrappers around all the unrepeated text are the frame"
        );
        assert!(
            !kept.is_mapped(node(&key, "p", 0)) && !kept.is_mapped(tags("hl")),
            "the content inside the frame is not"
        );
        assert!(kept.is_mapped(node(&key, "footer", 0)) && kept.is_mapped(node(&key, "a", 1)));
    }

    #[test]
    fn a_byline_whose_date_and_counter_change_is_template() {
        let post = |date: &str, reads: &str, text: &str| {
            page(&format!(
                "<nav><a>Home</a> <a>About</a></nav><p class=byline>Posted on <time>{date}</time>, read {reads} times</p><p>{text}</p>"
            ))
        };
        let key = post("2019-05-03", "1,239", "a walk along the river at dawn");
        let other = post("2018-11-21", "87", "notes from a week of rain");
        let kept = kept(&key, &other);
        assert!(
            kept.is_mapped(node(&key, "p", 0)) && kept.is_mapped(node(&key, "time", 0)),
            "byline, date (LABELING B)"
        );
        assert!(!kept.is_mapped(node(&key, "p", 1)), "the post's text is not");
    }

    #[test]
    fn lists_are_siblings_built_alike() {
        let t = page(
            "<div class=c><p>a</p></div><div class=c><p>b</p></div><div class=c><ul></ul></div>\
             <ul><li><a>x</a></li><li><a>y</a></li><li><a>z</a></li></ul>",
        );
        let tags = |l: &Vec<NodeId>| l.iter().map(|&n| t.node(n).tag.to_string()).collect::<Vec<_>>();
        let found: Vec<Vec<String>> = lists(&t).iter().map(tags).collect();
        assert_eq!(found, [vec!["div", "div"], vec!["li", "li", "li"]], "the third div is built otherwise");
    }

    #[test]
    fn items_with_their_own_ids_are_a_list_and_two_layout_variants_are_not() {
        let item = |extra: &str| format!("<li class='product post {extra}'><a>x</a><span>y</span></li>");
        let t = page(&format!(
            "<ul>{}{}{}</ul><div class='side side--primary'><nav></nav></div><div class='side side--toc'><nav></nav></div>",
            item("post-452 first"),
            item("post-405"),
            item("post-454 last")
        ));
        let tags = |l: &Vec<NodeId>| l.iter().map(|&n| t.node(n).tag.to_string()).collect::<Vec<_>>();
        let found: Vec<Vec<String>> = lists(&t).iter().map(tags).collect();
        assert_eq!(
            found,
            [vec!["li", "li", "li"]],
            "ids and grid places do not split the products; the sidebars stay apart"
        );
    }

    #[test]
    fn a_category_a_few_entries_share_does_not_split_a_listing() {
        let post = |n: usize, category: &str| {
            format!("<article class='post post-{n} hentry {category}'><h2>t</h2><p>x</p></article>")
        };
        let posts = [
            (1, "category-pc category-hardware"),
            (2, "category-mac"),
            (3, "category-mac"),
            (4, "category-pc"),
            (5, "category-linux"),
        ];
        let t = page(&posts.iter().map(|&(n, c)| post(n, c)).collect::<String>());
        let found: Vec<usize> = lists(&t).iter().map(Vec::len).collect();
        assert_eq!(found, [5], "every entry is one item of the listing");
    }

    #[test]
    fn subtree_ranges_and_words_add_up() {
        let t = page("<div><p>a b</p><p>c</p></div><span>d e f</span>");
        let ends = subtree_ends(t.nodes().map(|(_, n)| n.depth));
        assert!(t.nodes().all(|(id, _)| ends[id.index()] as usize == t.subtree(id).end), "{ends:?}");
        let div = node(&t, "div", 0);
        let words = subtree_words(&t);
        assert_eq!(words[div.index()], 3);
        assert_eq!(words[node(&t, "body", 0).index()], 6);
    }
}
