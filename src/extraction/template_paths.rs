//! The template's nodes as readable paths, for reports: whole for the CLI,
//! within a byte budget for the extension's message.

use crate::page::dom::{NodeId, Tree};

/// The readable paths of the template nodes, for reports.
pub fn template_paths(tree: &Tree, template: &[bool]) -> Vec<String> {
    tree.nodes().filter(|(id, _)| template[id.index()]).map(|(id, _): (NodeId, _)| tree.path(id)).collect()
}

/// Bytes of template paths the extension's whole report holds at most.
/// Their size is the template's nodes times the page's depth: 200 MB for a
/// page of 100,000 elements 512 levels deep, a message Firefox's content
/// process crashes on (its IPC limit is 256 MiB) before the popup sees it.
pub const MAX_REPORT_PATH_BYTES: usize = 16 << 20;

/// The template's paths in document order while their bytes stay within
/// `budget`, and how many were left out past it. Each path's length is
/// known from its parent's before any is built, so a page whose paths
/// would be huge costs no more than the paths kept.
pub fn template_paths_within(tree: &Tree, template: &[bool], budget: usize) -> (Vec<String>, usize) {
    let mut len = vec![0usize; tree.len()];
    let mut paths = Vec::new();
    let mut used = 0;
    for (id, node) in tree.nodes() {
        let step =
            node.tag.len() + 1 + if node.same_tag_position == 0 { 0 } else { 2 + digits(node.same_tag_position) };
        len[id.index()] = node.parent.map_or(0, |p| len[p.index()]) + step;
        if template[id.index()] {
            used += len[id.index()];
            if used > budget {
                return (paths, template[id.index()..].iter().filter(|&&t| t).count());
            }
            paths.push(tree.path(id));
        }
    }
    (paths, 0)
}

fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::html::{parse, snapshot};

    #[test]
    fn report_paths_stop_at_their_budget_and_count_the_rest() {
        // Siblings past Blink's depth give numbered steps (`div[12]`) too.
        let tree = snapshot(&parse(&format!("<html><body>{}x</body></html>", "<div>".repeat(600)))).unwrap();
        let template = vec![true; tree.len()];
        let all = template_paths(&tree, &template);
        assert!(all.iter().any(|p| p.ends_with("]")), "numbered steps are measured too");
        assert_eq!(template_paths_within(&tree, &template, usize::MAX), (all.clone(), 0));
        let budget: usize = all[..10].iter().map(String::len).sum();
        assert_eq!(template_paths_within(&tree, &template, budget), (all[..10].to_vec(), all.len() - 10));
        let past: usize = all[all.len() - 3..].iter().map(String::len).sum::<usize>();
        let whole: usize = all.iter().map(String::len).sum();
        assert_eq!(template_paths_within(&tree, &template, whole - past).1, 3, "each path's length is exact");
    }
}
