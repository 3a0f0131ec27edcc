//! A breadcrumb trail is the page's, even where every voter has it.
//!
//! A trail says where this page sits ("Home › Shop › Roses"), so a reader
//! counts it with the page (LABELING.md, N2). The votes cannot see that:
//! sibling pages of one section carry the same trail at the same place, the
//! same links and the same text, so it maps and recurs like a menu. Its
//! markup says what it is, in one convention the web shares (a class or an
//! id naming a `breadcrumb`: Bootstrap, WordPress's themes and plugins,
//! Shopify's, Docusaurus, Sphinx's Read the Docs theme), read when the page
//! is snapshotted ([`crate::page::dom::Node::trail`]).

use crate::decide::template::release_subtrees;
#[cfg(doc)]
use crate::decide::text_recurrence::subtree_words;
use crate::page::dom::{NodeId, Tree};

/// Most words a trail holds: a path of a few titles. A name that says
/// `breadcrumb` on a larger element (`has-breadcrumbs` on a page wrapper) is
/// not a trail.
pub const TRAIL_WORDS: u32 = 80;
/// Most links a trail holds: one per level of a site's hierarchy. A trail
/// holds one at least (the way up); an element so named without any is a
/// heading or a toggle of the layout (a docs theme's mobile bar).
pub const TRAIL_LINKS: usize = 12;

/// Whether element `i` of `tree` is a breadcrumb trail: named so, and of a
/// trail's size. `words` is [`subtree_words`] of `tree`.
pub fn is_trail(tree: &Tree, words: &[u32], i: usize) -> bool {
    let links = || tree.subtree(NodeId(i as u32)).filter(|&j| tree.node(NodeId(j as u32)).href.is_some()).count();
    tree.node(NodeId(i as u32)).trail && words[i] <= TRAIL_WORDS && (1..=TRAIL_LINKS).contains(&links())
}

/// `template` without the breadcrumb trails of `tree` and their subtrees;
/// `words` is [`subtree_words`] of `tree`. Stays top-down closed.
pub fn release_trails(tree: &Tree, words: &[u32], template: Vec<bool>) -> Vec<bool> {
    if !tree.nodes().any(|(_, n)| n.trail) {
        return template;
    }
    release_subtrees(tree, template, |i, _| is_trail(tree, words, i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::template::is_top_down_closed;
    use crate::decide::text_recurrence::subtree_words;
    use crate::page::html::{parse, snapshot};

    fn tree(body: &str) -> Tree {
        snapshot(&parse(&format!("<html><body>{body}</body></html>"))).expect("a tree")
    }

    fn released(t: &Tree) -> Vec<String> {
        let out = release_trails(t, &subtree_words(t), vec![true; t.len()]);
        assert!(is_top_down_closed(t, &out));
        t.nodes().filter(|(id, _)| !out[id.index()]).map(|(_, n)| n.tag.to_string()).collect()
    }

    #[test]
    fn a_trail_and_everything_in_it_is_released_whatever_its_convention() {
        for name in ["class=\"breadcrumb\"", "class=\"x navBreadcrumb\"", "id=\"BREADCRUMBS\""] {
            let t = tree(&format!(
                "<nav class=menu><a href=/>Home</a></nav><ol {name}><li><a href=/>Home</a></li><li>Roses</li></ol>"
            ));
            assert_eq!(released(&t), ["ol", "li", "a", "li"], "{name}");
        }
    }

    #[test]
    fn a_large_element_naming_breadcrumbs_is_not_a_trail_but_a_trail_inside_it_is() {
        let menu: String = (0..20).map(|i| format!("<a href=/s{i}>Section {i}</a>")).collect();
        let t = tree(&format!(
            "<div class=has-breadcrumbs><nav>{menu}</nav><p class=breadcrumb><a href=/>Home</a></p></div>"
        ));
        assert_eq!(released(&t), ["p", "a"]);
        let long = "word ".repeat(TRAIL_WORDS as usize + 1);
        assert_eq!(
            released(&tree(&format!("<div class=breadcrumb-page><a href=/>Home</a>{long}</div>"))),
            Vec::<String>::new()
        );
    }

    #[test]
    fn an_element_so_named_without_a_link_is_not_a_trail() {
        let t = tree("<div class=navBreadcrumb><div class=toggle></div><h2>Core</h2></div>");
        assert_eq!(released(&t), Vec::<String>::new());
    }

    #[test]
    fn a_page_without_trails_keeps_its_template() {
        let t = tree("<nav class=crumbs><a href=/>Home</a></nav><main><p>Text</p></main>");
        assert_eq!(released(&t), Vec::<String>::new());
    }
}
