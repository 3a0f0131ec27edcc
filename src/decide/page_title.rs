//! The page's title in its body is the page's, even where every voter has it.
//!
//! A heading that says what the page's `<title>` says is the page's title
//! (LABELING.md, N1). The votes cannot see that where the voters carry the
//! same title: the replies of one mailing-list thread, the pages of one
//! paginated listing. The document's own `<title>` tells it, in every
//! generator's convention at once.

use crate::decide::template::release_subtrees;
use crate::page::dom::{NodeId, Tree};

/// Fewest words of a title that names a page rather than a site or a
/// section: a site whose every page is titled with its name would otherwise
/// hand its logo to the content. Shorter titles are left to the votes (with
/// 1 or 3 the corpus's self-agreement is the same, and short titles shown in
/// a banner outside `<main>` add template words left under the pages' own
/// markup: docs/accuracy.md).
pub const TITLE_WORDS: u32 = 5;

/// `template` without the body's elements whose text block is the page's
/// `<title>`, and their subtrees. A link so labelled is the site's name or
/// a menu entry, not the page's heading. The title is the one before the
/// body: a `<title>` inside the body names an icon (SVG), not the page.
/// Stays top-down closed.
pub fn release_title(tree: &Tree, words: &[u32], template: Vec<bool>) -> Vec<bool> {
    let Some(body) = tree.body() else { return template };
    let head = tree.nodes().take(body.index());
    let Some(title) = head.map(|(_, n)| n).find(|n| &*n.tag == "title") else { return template };
    if title.block == 0 || title.words < TITLE_WORDS {
        return template;
    }
    let linked = |i: usize| tree.subtree(NodeId(i as u32)).any(|j| tree.node(NodeId(j as u32)).href.is_some());
    release_subtrees(tree, template, |i, _| {
        let n = tree.node(NodeId(i as u32));
        n.block == title.block && words[i] == title.words && !linked(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::template::is_top_down_closed;
    use crate::decide::text_recurrence::subtree_words;
    use crate::page::html::{parse, snapshot};

    fn released(title: &str, body: &str) -> Vec<String> {
        released_in(&format!("<title>{title}</title>"), body)
    }

    /// The tags `release_title` releases from an all-template page.
    fn released_in(head: &str, body: &str) -> Vec<String> {
        let t = snapshot(&parse(&format!("<html><head>{head}</head><body>{body}</body></html>"))).expect("a tree");
        let out = release_title(&t, &subtree_words(&t), vec![true; t.len()]);
        assert!(is_top_down_closed(&t, &out));
        t.nodes().filter(|(id, _)| !out[id.index()]).map(|(_, n)| n.tag.to_string()).collect()
    }

    #[test]
    fn the_heading_that_says_the_title_is_released_with_its_inline_parts() {
        assert_eq!(
            released("Re: builds  fail on arm", "<div><h1>Re: builds <em>fail</em> on arm</h1><p>Re: builds</p></div>"),
            ["h1", "em"]
        );
    }

    #[test]
    fn a_site_name_a_link_or_a_longer_block_is_not_the_pages_title() {
        let none: [&str; 0] = [];
        assert_eq!(
            released("Acme tools for makers", "<h1>Acme tools for makers</h1>"),
            none,
            "too short to name a page"
        );
        let handbook = "The Acme handbook for new makers";
        assert_eq!(released(handbook, &format!("<h1><a href=/>{handbook}</a></h1>")), none, "a link home");
        assert_eq!(
            released("Install the tools on a new machine", "<p>Install the tools on a new machine and more</p>"),
            none,
            "other words"
        );
        let icon = "Search the whole handbook for words";
        assert_eq!(
            released_in("", &format!("<svg><title>{icon}</title></svg><h1>{icon}</h1>")),
            none,
            "an icon's title names the icon, not the page"
        );
    }
}
