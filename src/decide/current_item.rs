//! A menu's current item under a remembered template. The item of the page
//! being read carries a state its siblings lack (a class such as `active`,
//! `aria-current`), so it differs in classes and attributes from the
//! representative's item for the same entry, whose own current item was
//! another: the mapping leaves both unmatched. The full method keeps it
//! because candidates of the same section share that state; one
//! representative from another section does not. Such leftovers are paired
//! again by tag and text alone, under parents already paired.

use crate::compare::mapping::Mapping;
use crate::page::dom::{NodeId, Tree};

/// The order-sensitive fold of the own-text hashes through each node's
/// subtree (0 when it holds no text), each computed at most once and only
/// when asked: under one paired parent every skeleton child asks for the
/// page's children of its tag until one matches, a list's items each time,
/// and in a collection every representative's skeleton asks the same page
/// again, and a skeleton is mapped onto many pages.
pub struct SubtreeTexts {
    texts: Vec<Option<u64>>,
}

impl SubtreeTexts {
    pub fn new(tree: &Tree) -> Self {
        Self { texts: vec![None; tree.len()] }
    }

    fn get(&mut self, t: &Tree, n: NodeId) -> u64 {
        *self.texts[n.index()].get_or_insert_with(|| subtree_text(t, n))
    }
}

/// Order-sensitive fold of the own-text hashes of `n`'s subtree; 0 when it holds no text.
fn subtree_text(t: &Tree, n: NodeId) -> u64 {
    let mut hash = 0u64;
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        let node = t.node(x);
        if node.text != 0 {
            hash = (hash.rotate_left(7) ^ node.text).wrapping_mul(0x0100_0000_01b3) | 1;
        }
        stack.extend(node.children.iter().rev());
    }
    hash
}

/// Under each paired parent, pairs every child of the representative's
/// skeleton with the page's child of the same tag and the same text through
/// its subtree, when there is one: over the mapping's own choice (which,
/// led by the state's class, may pair the current items crosswise) and over
/// its leaving them unmatched; their subtrees are paired the same way. The
/// mapping's pairs stand for every other child.
pub fn pair_current_items(
    skeleton: &Tree,
    skeleton_texts: &mut SubtreeTexts,
    page: &Tree,
    page_texts: &mut SubtreeTexts,
    mapping: &mut Mapping,
) {
    let mut owner: Vec<Option<NodeId>> = vec![None; page.len()];
    for (s, p) in mapping.pairs() {
        owner[p.index()] = Some(s);
    }
    let mut by_text = vec![false; page.len()];
    let mut work: Vec<(NodeId, NodeId)> = mapping.pairs().collect();
    work.reverse();
    while let Some((s, p)) = work.pop() {
        if mapping.image(s) != Some(p) {
            continue;
        }
        for &child in skeleton.children(s) {
            let text = skeleton_texts.get(skeleton, child);
            if text == 0 {
                continue;
            }
            let tag = &skeleton.node(child).tag;
            let Some(&image) = page
                .children(p)
                .iter()
                .find(|c| !by_text[c.index()] && page.node(**c).tag == *tag && page_texts.get(page, **c) == text)
            else {
                continue;
            };
            by_text[image.index()] = true;
            if mapping.image(child) != Some(image) {
                unmap_subtree(skeleton, mapping, &mut owner, child);
                if let Some(previous) = owner[image.index()] {
                    unmap_subtree(skeleton, mapping, &mut owner, previous);
                }
                mapping.set(child, image);
                owner[image.index()] = Some(child);
            }
            work.push((child, image));
        }
    }
}

/// Takes `n` and its skeleton descendants out of the mapping.
fn unmap_subtree(skeleton: &Tree, mapping: &mut Mapping, owner: &mut [Option<NodeId>], n: NodeId) {
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if let Some(image) = mapping.image(x) {
            owner[image.index()] = None;
            mapping.unset(x);
        }
        stack.extend(skeleton.children(x));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::config::Config;
    use crate::memory::template_memory::Cluster;
    use crate::page::html::{parse, snapshot};

    fn page(current: &str, main: &str) -> Tree {
        let item = |name: &str| {
            if name == current {
                format!("<li class=active><a href=/{name}.html aria-current=page>{name}</a></li>")
            } else {
                format!("<li><a href=/{name}.html>{name}</a></li>")
            }
        };
        let menu: String = ["home", "trails", "news"].iter().map(|n| item(n)).collect();
        snapshot(&parse(&format!("<title>t</title><nav><ul>{menu}</ul></nav><main><p>{main}</p></main>"))).unwrap()
    }

    #[test]
    fn a_remembered_menu_keeps_the_current_item_of_another_section() {
        let cfg = Config::default();
        let learnt = page("news", "An article about the news.");
        let in_nav = |t: &Tree| -> Vec<bool> {
            t.nodes()
                .map(|(id, n)| &*n.tag != "main" && &*n.tag != "p" && (n.tag.as_ref() != "title" || id.index() < 3))
                .collect()
        };
        let cluster =
            Cluster::learn(&cfg, &url::Url::parse("http://s.org/news.html").unwrap(), &learnt, &in_nav(&learnt));
        let other = page("trails", "A page about the trails, with other words.");
        let template = cluster.apply(&cfg, &other);
        let nav: Vec<(&str, bool)> = other
            .nodes()
            .filter(|(_, n)| matches!(&*n.tag, "li" | "a"))
            .map(|(id, n)| (&*n.tag, template[id.index()]))
            .collect();
        assert_eq!(nav, [("li", true), ("a", true), ("li", true), ("a", true), ("li", true), ("a", true)]);
        assert!(
            other.nodes().filter(|(_, n)| &*n.tag == "p").all(|(id, _)| !template[id.index()]),
            "content stays content"
        );
    }

    #[test]
    fn one_served_page_gives_each_cluster_what_it_gives_the_page_alone() {
        let cfg = Config::default();
        let in_nav = |t: &Tree| -> Vec<bool> { t.nodes().map(|(_, n)| !matches!(&*n.tag, "main" | "p")).collect() };
        let clusters: Vec<Cluster> = ["news", "home"]
            .map(|at| {
                let learnt = page(at, &format!("The {at} page, in its own words."));
                Cluster::learn(&cfg, &url::Url::parse("http://s.org/x.html").unwrap(), &learnt, &in_nav(&learnt))
            })
            .into();
        let other = page("trails", "A page about the trails, with other words.");
        let mut served = crate::memory::template_memory::ServedPage::new(&other);
        for cluster in &clusters {
            let alone = cluster.apply(&cfg, &other);
            assert!(alone.iter().any(|&t| t) && alone.iter().any(|&t| !t));
            assert_eq!(cluster.prepare().unwrap().serve(&cfg, &mut served), alone);
        }
    }
}
