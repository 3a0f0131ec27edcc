//! How the template view closes the layout up around the content it hides:
//! shared by the live view and the saved template, so the file looks like
//! the view.

use crate::page::dom::{NodeId, Tree};

/// Elements that show something without children or text of their own:
/// never counted as emptied.
const REPLACED: [&str; 17] = [
    "img", "svg", "video", "audio", "canvas", "iframe", "embed", "object", "input", "select", "textarea", "button",
    "hr", "br", "picture", "meter", "progress",
];

/// Which shown elements a view emptied, and which shown elements hold
/// something hidden, given the roots of the hidden subtrees. An element is
/// emptied when it has children, all of them hidden or emptied, no text of
/// its own, and is neither replaced content (an image) nor the document's
/// frame (`html`, `head`, `body`); an element empty in the page itself
/// stays, it may be a drawn bar or a spacer. Children follow their parent in
/// snapshot order, so one backward pass sees every child first.
pub fn emptied_and_holders(tree: &Tree, hidden: &[bool]) -> (Vec<bool>, Vec<bool>) {
    let mut emptied = vec![false; tree.len()];
    let mut holds = vec![false; tree.len()];
    for i in (0..tree.len()).rev() {
        if hidden[i] {
            continue;
        }
        let node = tree.node(NodeId(i as u32));
        let gone = |c: &NodeId| hidden[c.index()] || emptied[c.index()];
        holds[i] = node.children.iter().any(|c| gone(c) || holds[c.index()]);
        emptied[i] = !node.children.is_empty()
            && node.text == 0
            && !REPLACED.contains(&&*node.tag)
            && !["html", "head", "body"].contains(&&*node.tag)
            && node.children.iter().all(gone);
    }
    let holders = (0..tree.len()).map(|i| holds[i] && !emptied[i] && !hidden[i]).collect();
    (emptied, holders)
}
