//! A menu's current item under a remembered template. The item of the page
//! being read carries a state its siblings lack (a class such as `active`,
//! `aria-current`), so it differs in classes and attributes from the
//! representative's item for the same entry, whose own current item was
//! another: the mapping leaves both unmatched. The full method keeps it
//! because candidates of the same section share that state; one
//! representative from another section does not. Such leftovers are paired
//! again by tag and text alone, under parents already paired.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use crate::compare::mapping::Mapping;
use crate::page::dom::{NodeId, Tree};

/// Each node's hash of the own texts through its subtree, in document
/// order (0 when it holds no text). A polynomial hash, so a node's follows
/// from its own text and its children's in one pass from the leaves up: a
/// collection's page of 200,000 elements is asked about most of its nodes
/// by every representative's skeleton, and a deep page's nodes each hold
/// most of it.
pub struct SubtreeTexts {
    texts: Vec<u64>,
}

/// The polynomial's base: odd and 3 modulo 8, so none of its powers below
/// 2^62 is 1, and a power of 1 says the subtree holds no text.
const BASE: u64 = 0x0100_0000_01b3;

impl SubtreeTexts {
    pub fn of(tree: &Tree) -> Self {
        // (hash of the texts so far, BASE to the number of texts)
        let mut folded = vec![(0u64, 1u64); tree.len()];
        for i in (0..tree.len()).rev() {
            let node = tree.node(NodeId(i as u32));
            let (mut hash, mut power) = if node.text != 0 { (node.text, BASE) } else { (0, 1) };
            for c in &node.children {
                let (h, p) = folded[c.index()];
                hash = hash.wrapping_mul(p).wrapping_add(h);
                power = power.wrapping_mul(p);
            }
            folded[i] = (hash, power);
        }
        Self { texts: folded.into_iter().map(|(hash, power)| if power == 1 { 0 } else { hash | 1 }).collect() }
    }

    fn get(&self, n: NodeId) -> u64 {
        self.texts[n.index()]
    }
}

/// A page's children handed out by tag and subtree text, each once, in
/// document order. Each parent's children are read once, from a cursor; a
/// child read past waits under its tag and text for a later request. A
/// list of 200,000 items under a paired parent, whose skeleton has the same
/// items, is one pass with nothing waiting, not a search from the first
/// item for each.
struct UnpairedChildren<'t> {
    page: &'t Tree,
    texts: &'t SubtreeTexts,
    /// Per parent: how many of its children were read, and how many of those wait.
    read: Vec<u32>,
    waiting_under: Vec<u32>,
    /// (parent, tag, subtree text) → the children read past, in document order.
    waiting: HashMap<(NodeId, Arc<str>, u64), VecDeque<NodeId>>,
}

impl<'t> UnpairedChildren<'t> {
    fn new(page: &'t Tree, texts: &'t SubtreeTexts) -> Self {
        Self { page, texts, read: vec![0; page.len()], waiting_under: vec![0; page.len()], waiting: HashMap::new() }
    }

    /// The first child of `parent` with this tag and subtree text not handed out before.
    fn take(&mut self, parent: NodeId, tag: &Arc<str>, text: u64) -> Option<NodeId> {
        let p = parent.index();
        if self.waiting_under[p] > 0 {
            if let Some(c) = self.waiting.get_mut(&(parent, tag.clone(), text)).and_then(VecDeque::pop_front) {
                self.waiting_under[p] -= 1;
                return Some(c);
            }
        }
        let children = self.page.children(parent);
        while let Some(&c) = children.get(self.read[p] as usize) {
            self.read[p] += 1;
            let t = self.texts.get(c);
            if t == 0 {
                continue;
            }
            let own = &self.page.node(c).tag;
            if t == text && own == tag {
                return Some(c);
            }
            self.waiting.entry((parent, own.clone(), t)).or_default().push_back(c);
            self.waiting_under[p] += 1;
        }
        None
    }
}

/// Under each paired parent, pairs every child of the representative's
/// skeleton with the page's first child of the same tag and the same text
/// through its subtree not paired so, when there is one: over the
/// mapping's own choice (which, led by the state's class, may pair the
/// current items crosswise) and over its leaving them unmatched; their
/// subtrees are paired the same way. The mapping's pairs stand for every
/// other child.
pub fn pair_current_items(
    skeleton: &Tree,
    skeleton_texts: &SubtreeTexts,
    page: &Tree,
    page_texts: &SubtreeTexts,
    mapping: &mut Mapping,
) {
    let mut owner: Vec<Option<NodeId>> = vec![None; page.len()];
    for (s, p) in mapping.pairs() {
        owner[p.index()] = Some(s);
    }
    let mut unpaired = UnpairedChildren::new(page, page_texts);
    let mut work: Vec<(NodeId, NodeId)> = mapping.pairs().collect();
    work.reverse();
    while let Some((s, p)) = work.pop() {
        if mapping.image(s) != Some(p) {
            continue;
        }
        for &child in skeleton.children(s) {
            let text = skeleton_texts.get(child);
            if text == 0 {
                continue;
            }
            let Some(image) = unpaired.take(p, &skeleton.node(child).tag, text) else { continue };
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

    fn html(body: &str) -> Tree {
        snapshot(&parse(&format!("<html><body>{body}</body></html>"))).unwrap()
    }

    #[test]
    fn subtree_texts_read_the_texts_in_document_order_whatever_holds_them() {
        let t = html("<ul><li>a<b>c</b></li><li><b>a</b><i>c</i></li><li><b>c</b><i>a</i></li><li><img></li></ul>");
        let texts = SubtreeTexts::of(&t);
        let items: Vec<u64> = t.nodes().filter(|(_, n)| &*n.tag == "li").map(|(id, _)| texts.get(id)).collect();
        assert_eq!(items[0], items[1], "a, c either way");
        assert_ne!(items[0], items[2], "c, a is another order");
        assert_eq!(items[3], 0, "no text");
        assert!(items[..3].iter().all(|&h| h != 0));
    }

    /// Under one parent, random requests by tag and text get what a search
    /// from the first child not handed out yet gets.
    #[test]
    fn children_are_handed_out_as_a_search_from_the_first_child_hands_them_out() {
        let mut next = crate::page::dom::test_trees::random(0x9e37_79b9_7f4a_7c15_u64);
        for _ in 0..200 {
            let item = |next: &mut dyn FnMut(u64) -> usize| {
                let tag = ["li", "p"][next(2)];
                format!("<{tag}>{}</{tag}>", ["x", "y", "z y", ""][next(4)])
            };
            let items: String = (0..next(30)).map(|_| item(&mut next)).collect();
            let t = html(&format!("<div>{items}</div>"));
            let texts = SubtreeTexts::of(&t);
            let div = t.nodes().find(|(_, n)| &*n.tag == "div").unwrap().0;
            let keys: Vec<(Arc<str>, u64)> =
                t.children(div).iter().map(|&c| (t.node(c).tag.clone(), texts.get(c))).collect();
            let mut unpaired = UnpairedChildren::new(&t, &texts);
            let mut taken = vec![false; t.len()];
            for _ in 0..40 {
                let Some((tag, text)) = keys.get(next(keys.len() as u64 + 1)).filter(|k| k.1 != 0) else { continue };
                let searched = t
                    .children(div)
                    .iter()
                    .copied()
                    .find(|&c| !taken[c.index()] && t.node(c).tag == *tag && texts.get(c) == *text);
                searched.iter().for_each(|c| taken[c.index()] = true);
                assert_eq!(unpaired.take(div, tag, *text), searched, "{items}");
            }
        }
    }

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
