//! What a saved template file keeps. The key page's `<head>` is rarely
//! template (its title differs per page), yet without it the file has no
//! stylesheet, charset or base and shows as an unstyled page; so the head
//! is always kept (its scripts aside: a saved file should not run the
//! site's code), its title made neutral, and the containers the template
//! view empties are left out, as the view hides them.

use crate::page::dom::{NodeId, Tree};
use crate::page::view_collapse::emptied_and_holders;

/// What the saved file keeps, per snapshot node: the template minus the
/// containers the template view empties, plus the document's head.
pub fn saved_keep(tree: &Tree, template: &[bool]) -> Vec<bool> {
    let hidden: Vec<bool> = (0..tree.len())
        .map(|i| !template[i] && tree.node(NodeId(i as u32)).parent.is_none_or(|p| template[p.index()]))
        .collect();
    let (emptied, _) = emptied_and_holders(tree, &hidden);
    let mut keep: Vec<bool> = (0..tree.len()).map(|i| template[i] && !emptied[i]).collect();
    if let Some(head) = head(tree) {
        keep[head.index()] = true;
        if let Some(root) = tree.node(head).parent {
            keep[root.index()] = true;
        }
        let mut script_until = 0;
        for i in tree.subtree(head).skip(1) {
            if i < script_until {
                continue;
            }
            if &*tree.node(NodeId(i as u32)).tag == "script" {
                script_until = tree.subtree(NodeId(i as u32)).end;
            } else {
                keep[i] = true;
            }
        }
    }
    keep
}

/// The document's `<head>`: a child of the root element.
pub fn head(tree: &Tree) -> Option<NodeId> {
    tree.children(NodeId::ROOT).iter().copied().find(|&c| &*tree.node(c).tag == "head")
}

/// The saved file's title: the page's own title names one article, which
/// the file no longer holds.
pub fn neutral_title(site: &str) -> String {
    format!("Template of {site}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    #[test]
    fn the_head_is_kept_without_its_scripts_even_when_it_is_not_template() {
        let t = tree("html(head(meta title link script(x)) body(nav main(p)))");
        let tags: Vec<&str> = (0..t.len()).map(|i| &*t.node(NodeId(i as u32)).tag).collect();
        let mut template = vec![false; t.len()];
        for (i, tag) in tags.iter().enumerate() {
            template[i] = ["html", "body", "nav"].contains(tag);
        }
        let keep = saved_keep(&t, &template);
        let kept: Vec<&str> = tags.iter().zip(&keep).filter(|(_, k)| **k).map(|(t, _)| *t).collect();
        assert_eq!(kept, ["html", "head", "meta", "title", "link", "body", "nav"]);
    }

    #[test]
    fn containers_the_template_view_empties_are_not_saved() {
        let t = tree("html(head body(nav(a) div(main(p))))");
        let tags: Vec<&str> = (0..t.len()).map(|i| &*t.node(NodeId(i as u32)).tag).collect();
        let template: Vec<bool> = tags.iter().map(|t| !["main", "p"].contains(t)).collect();
        let keep = saved_keep(&t, &template);
        let kept: Vec<&str> = tags.iter().zip(&keep).filter(|(_, k)| **k).map(|(t, _)| *t).collect();
        assert_eq!(kept, ["html", "head", "body", "nav", "a"]);
    }
}
