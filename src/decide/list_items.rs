//! The items of one list are one kind of thing.
//!
//! A listing's entries, a grid's products, a thread's replies: where most
//! items of a list are the page's own (their text differs on the pages that
//! vote), an item that some voters happen to share is the page's too. A
//! category page and the home page both list the newest post, word for
//! word, at the same place; that post is an entry like the others, not the
//! layout's. The votes see each item alone, so the shared entry came out
//! template while its siblings came out content.
//!
//! Three things stay template: what every item carries alike (a "Read more"
//! link, a fixed label); an item that every voter holds, the site's fixed
//! entry among varying ones (a mail archive's "This message" line above its
//! "Next" and "Previous" links); and an item that is mostly a link's label,
//! a menu's entry (a documentation sidebar opens the current chapter's
//! sections, which differ from page to page, beside chapters the voters
//! share: those stay the menu's).

use crate::page::dom::{NodeId, Tree};
use crate::page::mixed_hash::MixSet;

/// `template` with each list's odd items released. In a list whose items
/// mostly hold content words, an item whose words are mostly template
/// keeps only the elements whose own text is template in a content item of
/// the same list, and their ancestors inside the item; unless its words are
/// mostly in elements all `voters` keep (`votes`, per node), or in links'
/// labels. Stays top-down closed.
pub fn release_odd_items(
    tree: &Tree,
    lists: &[Vec<NodeId>],
    votes: &[u32],
    voters: usize,
    mut template: Vec<bool>,
) -> Vec<bool> {
    let words = |j: usize| tree.node(NodeId(j as u32)).words;
    for list in lists {
        // Per item with words: its words, and whether they are mostly template.
        let kinds: Vec<(NodeId, u32, bool)> = list
            .iter()
            .map(|&item| {
                let all: u32 = tree.subtree(item).map(words).sum();
                let kept: u32 = tree.subtree(item).filter(|&j| template[j]).map(words).sum();
                (item, all, 2 * kept >= all)
            })
            .filter(|&(_, all, _)| all > 0)
            .collect();
        let of_kind = |kind: bool| kinds.iter().filter(move |k| k.2 == kind).map(|&(item, all, _)| (item, all));
        let odd = of_kind(true).count();
        if odd == 0 || of_kind(false).count() <= odd {
            continue;
        }
        let fixed: MixSet<u64> = of_kind(false)
            .flat_map(|(item, _)| tree.subtree(item))
            .filter(|&j| template[j])
            .map(|j| tree.node(NodeId(j as u32)).text)
            .filter(|&text| text != 0)
            .collect();
        for (item, all) in of_kind(true).collect::<Vec<_>>() {
            let range = tree.subtree(item);
            let everywhere: u32 = range.clone().filter(|&j| votes[j] as usize >= voters).map(words).sum();
            if 2 * everywhere >= all || 2 * link_words(tree, item) >= all {
                continue;
            }
            let mut keep = vec![false; range.len()];
            for j in range.clone().rev() {
                let node = tree.node(NodeId(j as u32));
                keep[j - range.start] |= template[j] && node.text != 0 && fixed.contains(&node.text);
                if keep[j - range.start] && j > range.start {
                    keep[node.parent.expect("inside an item").index() - range.start] = true;
                }
            }
            for j in range.clone() {
                template[j] &= keep[j - range.start];
            }
        }
    }
    template
}

/// Words under `item` that are a link's label.
fn link_words(tree: &Tree, item: NodeId) -> u32 {
    let range = tree.subtree(item);
    let mut in_link = vec![false; range.len()];
    let mut words = 0;
    for j in range.clone() {
        let node = tree.node(NodeId(j as u32));
        let parent = node.parent.filter(|_| j > range.start).is_some_and(|p| in_link[p.index() - range.start]);
        in_link[j - range.start] = parent || node.href.is_some();
        words += if in_link[j - range.start] { node.words } else { 0 };
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::template::is_top_down_closed;
    use crate::decide::text_recurrence::lists;
    use crate::page::html::{parse, snapshot};

    fn tree(body: &str) -> Tree {
        snapshot(&parse(&format!("<html><body>{body}</body></html>"))).expect("a tree")
    }

    fn entry(title: &str) -> String {
        format!("<article class=post><p>{title} and a few more words of its own</p><a href=/x>Read more</a></article>")
    }

    fn articles(t: &Tree) -> Vec<NodeId> {
        t.nodes().filter(|(_, n)| &*n.tag == "article").map(|(id, _)| id).collect()
    }

    /// Everything template but the paragraphs of the items in `content`,
    /// with the votes two of three voters would give it: the nodes of the
    /// items in `everywhere` held by all three.
    fn marked(t: &Tree, content: &[usize], everywhere: &[usize]) -> (Vec<bool>, Vec<u32>) {
        let items = articles(t);
        let mut template = vec![true; t.len()];
        let mut votes = vec![2; t.len()];
        for &i in content {
            t.subtree(items[i]).filter(|&j| &*t.node(NodeId(j as u32)).tag == "p").for_each(|j| template[j] = false);
        }
        for &i in everywhere {
            t.subtree(items[i]).for_each(|j| votes[j] = 3);
        }
        (template, votes)
    }

    fn kept_in(t: &Tree, out: &[bool], item: NodeId) -> Vec<String> {
        t.subtree(item).filter(|&j| out[j]).map(|j| t.node(NodeId(j as u32)).tag.to_string()).collect()
    }

    #[test]
    fn an_entry_some_voters_share_is_content_like_its_siblings_and_the_fixed_link_stays() {
        let t = tree(&format!(
            "<nav><a href=/>Home</a></nav><main>{}{}{}</main>",
            entry("One"),
            entry("Two"),
            entry("Three")
        ));
        let (template, votes) = marked(&t, &[1, 2], &[]);
        let out = release_odd_items(&t, &lists(&t), &votes, 3, template);
        assert!(is_top_down_closed(&t, &out));
        assert_eq!(kept_in(&t, &out, articles(&t)[0]), ["article", "a"], "the entry's text goes, its Read more stays");
        assert!(out[t.nodes().find(|(_, n)| &*n.tag == "nav").unwrap().0.index()]);
    }

    #[test]
    fn a_menu_entry_among_entries_of_the_current_chapter_stays_the_menus() {
        let item =
            |label: &str| format!("<article class=post><a href=/x>{label} chapter of the guide in full</a></article>");
        let t = tree(&format!("<nav>{}{}{}</nav>", item("First"), item("Second"), item("Third")));
        let mut template = vec![true; t.len()];
        for &i in &articles(&t)[1..] {
            t.subtree(i).filter(|&j| &*t.node(NodeId(j as u32)).tag == "a").for_each(|j| template[j] = false);
        }
        let votes = vec![2; t.len()];
        assert_eq!(release_odd_items(&t, &lists(&t), &votes, 3, template.clone()), template);
    }

    #[test]
    fn an_item_every_voter_holds_and_a_list_mostly_template_are_left_as_they_are() {
        let t = tree(&format!("<main>{}{}{}</main>", entry("One"), entry("Two"), entry("Three")));
        let (template, votes) = marked(&t, &[1, 2], &[0]);
        assert_eq!(release_odd_items(&t, &lists(&t), &votes, 3, template.clone()), template, "the site's fixed entry");
        let (template, votes) = marked(&t, &[2], &[]);
        assert_eq!(release_odd_items(&t, &lists(&t), &votes, 3, template.clone()), template);
    }
}
