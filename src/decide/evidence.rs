//! How far an extraction's evidence goes, so that a weak answer is never
//! presented as a sure one.
//!
//! Votes are only as good as the pages that cast them. A page that holds
//! the key page's own text (a copy under another address, a print-all page,
//! a low-bandwidth version) maps everything, the content included, and
//! would vote the whole page template: such a page is set aside as the key
//! page itself is ([`copies`]). What remains is judged once the template is
//! known ([`judge`]): no voter, one voter, almost all of a page's text
//! called template, or a template without any of the page's frame are said
//! in one sentence ([`Weakness`]) wherever the result is shown.

use std::fmt;

use serde::Serialize;

use crate::compare::mapping::Mapping;
use crate::page::dom::{Node, NodeId, Tree};

/// A compared page that keeps, text and shape, at least this share of the
/// key page's words holds the key's own text.
pub const COPY_WORDS: f64 = 0.95;

/// ... provided it keeps this share of the key's words more than every
/// compared page below [`COPY_WORDS`]: pages of one layout whose content is
/// a sliver of their words keep nearly all words alike, and are no copies.
pub const COPY_MARGIN: f64 = 0.05;

/// A compared page holding at least this share of the key page's own text
/// (the text blocks no other compared page holds) is a superset of the key:
/// a home page or an archive showing the article whole.
pub const SUPERSET_WORDS: f64 = 0.8;

/// Fewest words of a text block that is a paragraph, not a label.
pub const PARAGRAPH_WORDS: u32 = 5;

/// Fewest words of own text a key page needs for a superset to be judged.
pub const MIN_OWN_WORDS: u32 = 20;

/// Content below this share of the page's words leaves the Content view all
/// but empty.
pub const MIN_CONTENT_WORDS: f64 = 0.05;

/// A page with fewer words has too little text of its own to judge by.
pub const MIN_TEXT_WORDS: u32 = 50;

/// The nodes a reader sees, `<body>`'s (the head's title and links are no
/// frame, nor the page's own text), or every node of a page without one.
fn body(key: &Tree) -> std::ops::Range<usize> {
    key.body().map_or(0..key.len(), |b| key.subtree(b))
}

/// Words of the key page's text whose nodes `mapping` keeps.
pub fn kept_words(key: &Tree, mapping: &Mapping) -> u32 {
    mapping.pairs().map(|(n, _)| key.node(n).words).sum()
}

/// Which compared pages are copies of the key page, from the words each one
/// keeps (`kept`, content-checked mappings) of the key's `total` words. A
/// copy is the exception among the compared pages: where several were
/// compared and every one keeps nearly all words, the site's pages hold
/// one text (an export whose every address serves the whole site), and
/// none is a copy of this one.
pub fn copies(total: u32, kept: &[u32]) -> Vec<bool> {
    let total = f64::from(total);
    let near_total = |k: u32| total > 0.0 && f64::from(k) >= COPY_WORDS * total;
    let best_other = kept.iter().copied().filter(|&k| !near_total(k)).max();
    if kept.len() > 1 && best_other.is_none() {
        return vec![false; kept.len()];
    }
    let best_other = best_other.map_or(0.0, f64::from);
    kept.iter().map(|&k| near_total(k) && f64::from(k) >= best_other + COPY_MARGIN * total).collect()
}

/// Which compared pages hold the key page's own text, each given with the
/// key's content-checked mapping into it. Two tests, either suffices:
///
/// * by text alone, whatever its shape: of the key's text blocks in
///   `<body>` that at most one compared page holds, the page holds most.
///   Mapped or not, such a page proves nothing about which of the key's
///   blocks are the site's. It takes two compared pages to tell the key's
///   own text from the site's.
/// * by its vote: of the key's paragraphs (blocks of [`PARAGRAPH_WORDS`]
///   or more) that at most half the compared pages hold, the mapping keeps
///   most where the page holds them too, so it would vote them template
///   (a wrapper the mapping keeps as the content's frame holds none of its
///   text). A blog's home page and its author page both print the latest
///   post whole; each is a superset though the other holds the post too.
///   Labels are left out: a product page beside listings is the only one
///   to hold its layout's buttons and headings, and keeps them, without
///   holding the key's text. A page holding the blocks elsewhere in its
///   tree (an API module re-exporting the key's declarations) maps none of
///   them and still votes.
pub fn supersets(key: &Tree, pages: &[(&Tree, &Mapping)]) -> Vec<bool> {
    if pages.len() < 2 {
        return vec![false; pages.len()];
    }
    // The key's distinct text blocks in `<body>`, sorted, with their words:
    // each page is read against them in one merge with its own sorted
    // blocks (kept with its tree), so nothing is hashed per page.
    let body = body(key);
    let mut blocks: Vec<(u64, u32)> = body
        .clone()
        .map(|i| key.node(NodeId(i as u32)))
        .filter(|n| n.block != 0 && n.words > 0)
        .map(|n| (n.block, n.words))
        .collect();
    blocks.sort_unstable();
    let mut distinct: Vec<KeyBlock> = Vec::new();
    for (block, words) in blocks {
        match distinct.last_mut() {
            Some(last) if last.block == block => last.words += words,
            _ => distinct.push(KeyBlock { block, words, paragraph: false }),
        }
        distinct.last_mut().expect("just pushed").paragraph |= words >= PARAGRAPH_WORDS;
    }
    let held: Vec<Vec<bool>> = pages.iter().map(|(p, _)| held_blocks(&distinct, p.text_blocks().blocks())).collect();
    let holders: Vec<usize> = (0..distinct.len()).map(|j| held.iter().filter(|h| h[j]).count()).collect();
    let alone: Vec<bool> = holders.iter().map(|&h| h <= 1).collect();
    let few: Vec<bool> = holders.iter().zip(&distinct).map(|(&h, d)| d.paragraph && h <= pages.len() / 2).collect();
    let enough = |own: &[bool]| {
        let total: u32 = distinct.iter().zip(own).filter(|(_, &o)| o).map(|(d, _)| d.words).sum();
        (total >= MIN_OWN_WORDS).then_some(SUPERSET_WORDS * f64::from(total))
    };
    let (alone_needed, few_needed) = (enough(&alone), enough(&few));
    let index = |block: u64| distinct.binary_search_by_key(&block, |d| d.block).ok();
    held.iter()
        .zip(pages)
        .map(|(h, (_, mapping))| {
            let by_text = alone_needed.is_some_and(|needed| {
                let kept: u32 = (0..distinct.len()).filter(|&j| alone[j] && h[j]).map(|j| distinct[j].words).sum();
                f64::from(kept) >= needed
            });
            let by_vote = few_needed.is_some_and(|needed| {
                let kept: u32 = mapping
                    .pairs()
                    .filter(|(n, _)| body.contains(&n.index()))
                    .map(|(n, _)| key.node(n))
                    .filter(|n| n.block != 0 && index(n.block).is_some_and(|j| few[j] && h[j]))
                    .map(|n| n.words)
                    .sum();
                f64::from(kept) >= needed
            });
            by_text || by_vote
        })
        .collect()
}

/// One of the key's distinct text blocks in `<body>`: its words over all
/// its places, and whether one place is a paragraph.
struct KeyBlock {
    block: u64,
    words: u32,
    paragraph: bool,
}

/// Which of the key's `distinct` blocks (sorted) a page holds, from the
/// page's blocks in sorted order: one merge of two sorted lists.
fn held_blocks(distinct: &[KeyBlock], mut page: impl Iterator<Item = u64>) -> Vec<bool> {
    let mut held = vec![false; distinct.len()];
    let mut next = page.next();
    for (j, &KeyBlock { block, .. }) in distinct.iter().enumerate() {
        while next.is_some_and(|b| b < block) {
            next = page.next();
        }
        held[j] = next == Some(block);
    }
    held
}

/// Why an extraction's answer is not to be trusted, said to the user in one
/// sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Weakness {
    /// Nothing voted: every page found holds the key page's own text.
    NoVoters,
    /// Almost all of a page with text of its own came out template.
    AlmostAllTemplate,
    /// The template holds no link and no text of the page's frame.
    NoFrame,
    /// A single page voted.
    OneVoter,
}

impl Weakness {
    /// Every weakness, for the places that must name each (the extension's messages).
    pub const ALL: [Weakness; 4] =
        [Weakness::NoVoters, Weakness::AlmostAllTemplate, Weakness::NoFrame, Weakness::OneVoter];
}

impl fmt::Display for Weakness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Weakness::NoVoters => {
                "The only pages found hold this page's own text (a copy, a print version or a translation), so \
                 nothing tells the template from the content: the whole page is shown as content."
            }
            Weakness::AlmostAllTemplate => {
                "Almost all of this page's text came out as template although the page has text of its own, so \
                 the result is unreliable: the pages it was compared with may repeat its content."
            }
            Weakness::NoFrame => {
                "None of the page's menus, links or text came out as template, so the result is unreliable: the \
                 pages it was compared with may be of another layout or saved at another time."
            }
            Weakness::OneVoter => {
                "Only one other page of this site could be compared with this one, so parts of the page may be \
                 misjudged."
            }
        })
    }
}

/// What an extraction's answer rests on.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Evidence {
    /// Pages that voted.
    pub voters: usize,
    /// Loaded pages set aside as copies of the key page.
    pub copies: usize,
    /// Share of the key page's words left as content, 0 to 1.
    pub content_words: f64,
    /// Why the answer is weak, if it is.
    pub weakness: Option<Weakness>,
    /// The weakness as the sentence shown to the user.
    pub warning: Option<String>,
}

/// What a template over `key` leaves for the Content view: the share of
/// the page's words left as content, and the weakness the template shows
/// by itself (almost all of a page with text of its own called template,
/// or none of its frame), whoever voted.
pub fn judge_template(key: &Tree, template: &[bool]) -> (f64, Option<Weakness>) {
    let body = body(key);
    let nodes = || body.clone().map(|i| (i, key.node(NodeId(i as u32))));
    let words: u32 = nodes().map(|(_, n)| n.words).sum();
    let content: u32 = nodes().filter(|&(i, _)| !template[i]).map(|(_, n)| n.words).sum();
    let content_words = if words == 0 { 1.0 } else { f64::from(content) / f64::from(words) };
    let speaks = |n: &Node| n.words > 0 || n.href.is_some();
    let frame = nodes().any(|(i, n)| template[i] && speaks(n));
    let weakness = if words >= MIN_TEXT_WORDS && content_words < MIN_CONTENT_WORDS {
        Some(Weakness::AlmostAllTemplate)
    } else if !frame && nodes().any(|(_, n)| speaks(n)) {
        Some(Weakness::NoFrame)
    } else {
        None
    };
    (content_words, weakness)
}

/// Judges the evidence of a finished extraction: its template over `key`,
/// the number of pages that voted, the copies set aside, and the votes the
/// method wanted (`wanted`: one voter is weak only where more were sought).
pub fn judge(key: &Tree, template: &[bool], voters: usize, copies: usize, wanted: usize) -> Evidence {
    let (content_words, shown) = judge_template(key, template);
    let weakness = if voters == 0 {
        Some(Weakness::NoVoters)
    } else if shown.is_some() {
        shown
    } else if voters == 1 && wanted > 1 {
        Some(Weakness::OneVoter)
    } else {
        None
    };
    Evidence { voters, copies, content_words, weakness, warning: weakness.map(|w| w.to_string()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::html::{parse, snapshot};

    #[test]
    fn a_page_keeping_the_keys_own_text_is_a_copy_pages_of_one_layout_are_not() {
        // A print-all page beside two articles of the key's layout.
        assert_eq!(copies(200, &[200, 120, 110]), vec![true, false, false]);
        // Alone, it is still a copy.
        assert_eq!(copies(200, &[198]), vec![true]);
        // Product pages whose description is a sliver of their words.
        assert_eq!(copies(200, &[196, 194, 188]), vec![false, false, false]);
        // Every page of the site holds the whole text: none is a copy.
        assert_eq!(copies(200, &[200, 199, 200]), vec![false, false, false]);
        assert_eq!(copies(0, &[0]), vec![false], "a page without words has no text to copy");
    }

    #[test]
    fn a_page_holding_the_keys_own_text_is_a_superset_a_sibling_is_not() {
        let page = |main: &str| {
            snapshot(&parse(&format!(
                "<html><body><nav><a href=/>Home</a> <a href=/a>Archive</a></nav><main>{main}</main>\
                 <footer><p>Shared footer line of the whole site</p></footer></body></html>"
            )))
            .unwrap()
        };
        let post = "<p>The first paragraph of this article tells a long story about sets and functions.</p>\
                    <p>The second paragraph goes on about relations, orders and lattices at length.</p>";
        let key = page(post);
        let home = page(&format!("<p>Another post's teaser for the front page.</p>{post}"));
        let author = page(&format!("<p>The author's short biography, then the posts.</p>{post}"));
        let sibling = page("<p>A different article with words of its own about rivers and lakes.</p>");
        let other = page("<p>Yet another article, about mountains and valleys this time.</p>");
        // What a content-checked mapping keeps: the frame only, or everything.
        let frame = mapping(&key, |tag| !matches!(tag, "main" | "p"));
        let all = mapping(&key, |_| true);
        let by_text = |pages: &[&Tree]| supersets(&key, &pages.iter().map(|&p| (p, &frame)).collect::<Vec<_>>());
        assert_eq!(by_text(&[&home, &sibling, &other]), vec![true, false, false]);
        assert_eq!(by_text(&[&sibling, &other]), vec![false, false]);
        assert_eq!(by_text(&[&home]), vec![false], "one page alone cannot tell own text from the site's");
        // Two pages print the post: neither holds it alone, each votes it template.
        assert_eq!(by_text(&[&home, &author, &sibling, &other]), vec![false; 4]);
        let voted = supersets(&key, &[(&home, &all), (&author, &all), (&sibling, &frame), (&other, &frame)]);
        assert_eq!(voted, vec![true, true, false, false]);
        // Held by most compared pages, the text is the site's, mapped or not.
        let most = supersets(&key, &[(&home, &all), (&author, &all), (&key, &all), (&other, &frame)]);
        assert_eq!(most, vec![false; 4]);
        // A product beside listings: the sibling and one listing hold the
        // layout's short labels, the sibling keeps them; it holds none of
        // the key's paragraphs.
        let labels = "<p>Add to cart</p><p>Reviews (3)</p><p>Ships in two days</p><p>Size guide</p>".repeat(3);
        let key = page(&format!("{labels}<p>Tulips arrive fresh each morning, cut by hand.</p>"));
        let sibling = page(&format!("{labels}<p>Roses are grown in the valley and sent at dawn.</p>"));
        let listing = page(&format!("{labels}<p>Our whole range of flowers, by season.</p>"));
        let (all, frame) = (mapping(&key, |_| true), mapping(&key, |tag| !matches!(tag, "main" | "p")));
        let pages = [(&sibling, &all), (&listing, &frame), (&home, &frame), (&author, &frame)];
        assert_eq!(supersets(&key, &pages), vec![false; 4]);
    }

    /// A mapping of `key` onto a page of the same shape keeping the nodes
    /// whose tag `keep` accepts.
    fn mapping(key: &Tree, keep: impl Fn(&str) -> bool) -> Mapping {
        let mut m = Mapping::empty(key.len());
        for (id, n) in key.nodes() {
            if keep(&n.tag) {
                m.set(id, id);
            }
        }
        m
    }

    fn page(content_words: usize) -> Tree {
        let content = "word ".repeat(content_words);
        snapshot(&parse(&format!(
            "<html><body><nav><a href=/a>Alpha page</a> <a href=/b>Beta page</a></nav>\
             <main><p>{content}</p></main><footer>{}</footer></body></html>",
            "footer text ".repeat(30)
        )))
        .unwrap()
    }

    fn marked(tree: &Tree, tags: &[&str]) -> Vec<bool> {
        let mut t = vec![false; tree.len()];
        for (id, n) in tree.nodes() {
            t[id.index()] = tags.contains(&&*n.tag);
        }
        t
    }

    #[test]
    fn each_weakness_is_found_and_said() {
        let tree = page(100);
        let frame = marked(&tree, &["html", "body", "nav", "a", "footer", "main"]);
        let sure = judge(&tree, &frame, 2, 0, 2);
        assert_eq!(sure.weakness, None, "{sure:?}");
        assert!(sure.content_words > 0.5 && sure.warning.is_none());

        assert_eq!(judge(&tree, &frame, 1, 0, 2).weakness, Some(Weakness::OneVoter));
        assert_eq!(judge(&tree, &frame, 1, 0, 1).weakness, None, "one voter was all that was asked for");
        assert_eq!(judge(&tree, &vec![false; tree.len()], 0, 1, 2).weakness, Some(Weakness::NoVoters));

        let everything = vec![true; tree.len()];
        let all = judge(&tree, &everything, 2, 0, 2);
        assert_eq!(all.weakness, Some(Weakness::AlmostAllTemplate));
        assert!(all.warning.unwrap().starts_with("Almost all of this page's text"));

        let wrappers = marked(&tree, &["html", "body"]);
        assert_eq!(judge(&tree, &wrappers, 2, 0, 2).weakness, Some(Weakness::NoFrame));
    }

    #[test]
    fn a_page_with_little_text_may_be_all_template() {
        let tree = snapshot(&parse("<html><body><nav><a href=/a>A</a><a href=/b>B</a></nav></body></html>")).unwrap();
        assert_eq!(judge(&tree, &vec![true; tree.len()], 2, 0, 2).weakness, None);
    }
}
