//! An element's own text that is the page's, though the element is the
//! template's.
//!
//! The votes see elements, not words: a `<div>` every page of the layout
//! has at one place is template, whatever text sits directly inside it.
//! When that text is the page's own (an About page's lead paragraph
//! written straight into a wrapper the layout repeats, its links the only
//! child elements), the content lost the paragraph and kept a few link
//! fragments. So the voters' own text at the mapped place is compared too:
//! an element whose own text is a paragraph's worth of words, most of its
//! subtree's words, and held by none of the voters that map it, is content
//! with everything under it. A page served from template memory holds the
//! skeletons to the same rule (`template_memory::PreparedCluster::serve`):
//! a skeleton node keeps the text hash of its representative's element.

use crate::compare::mapping::Mapping;
use crate::decide::template::release_subtrees;
use crate::decide::text_recurrence::subtree_words;
use crate::page::dom::{NodeId, Tree};

/// Words of own text (with its inline elements') an element needs before
/// its text can be the page's: a paragraph, not a label, a date or a
/// "last edited" line, whose words a layout rewrites on every page.
pub const MIN_WORDS: u32 = 20;

/// Per key node, how many voters map it onto an element with the same own
/// text, counted as each voter's page is compared.
#[derive(Clone, Debug, Default)]
pub struct SameText {
    same: Vec<u32>,
}

impl SameText {
    pub fn new(key: &Tree) -> Self {
        Self { same: vec![0; key.len()] }
    }

    /// Counts one voter: `mapping` maps `key` onto `voter`.
    pub fn add(&mut self, key: &Tree, voter: &Tree, mapping: &Mapping) {
        for (n, image) in mapping.pairs() {
            let text = key.node(n).text;
            if text != 0 && voter.node(image).text == text {
                self.same[n.index()] += 1;
            }
        }
    }

    /// The template without the elements whose own text is the page's, and
    /// their subtrees (the result stays top-down closed).
    pub fn release(&self, key: &Tree, template: Vec<bool>) -> Vec<bool> {
        release(key, &subtree_words(key), template, |i| self.same[i] > 0)
    }
}

/// `template` without each element whose own text is the page's, and its
/// subtree: a paragraph's worth of words, most of its subtree's words, and
/// not `held(index)` by the pages that map it. `words` is
/// [`subtree_words`] of `tree`; the result stays top-down closed.
pub fn release(tree: &Tree, words: &[u32], template: Vec<bool>, held: impl Fn(usize) -> bool) -> Vec<bool> {
    release_subtrees(tree, template, |i, template| {
        let node = tree.node(NodeId(i as u32));
        template[i] && node.text != 0 && node.words >= MIN_WORDS && 2 * node.words >= words[i] && !held(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::html::{parse, snapshot};

    fn page(lead: &str) -> Tree {
        snapshot(&parse(&format!(
            "<html><body><nav><a href=/a>A</a></nav><div class=intro>{lead} <a href=/b>B</a>.</div>\
             <footer>Every page of this site ends with this same footer line of twenty words or so, \
             written once by the layout for all of them.</footer></body></html>"
        )))
        .unwrap()
    }

    /// Every element of `key` mapped onto the same place of `voter` (both have one shape).
    fn identity(key: &Tree) -> Mapping {
        let mut m = Mapping::empty(key.len());
        key.nodes().for_each(|(id, _)| m.set(id, id));
        m
    }

    #[test]
    fn own_text_none_of_the_voters_hold_is_content_with_its_subtree() {
        let lead = |topic: &str| {
            format!(
                "We are a small group of people who care about {topic} and write about it here every week of the year"
            )
        };
        let key = page(&lead("rivers"));
        let div = key.nodes().find(|(_, n)| n.words > 20 && &*n.tag == "div").map(|(id, _)| id).unwrap();
        let footer = key.nodes().find(|(_, n)| &*n.tag == "footer").map(|(id, _)| id).unwrap();
        let mut same = SameText::new(&key);
        for topic in ["mountains", "lakes"] {
            same.add(&key, &page(&lead(topic)), &identity(&key));
        }
        let released = same.release(&key, vec![true; key.len()]);
        assert!(key.subtree(div).all(|i| !released[i]), "the lead and its link are content");
        assert!(released[footer.index()], "the footer's text is every voter's");
        assert!(released.iter().filter(|&&t| !t).count() == 2, "nothing else: div and its link");

        // One voter with the same lead keeps it template; so does a short text.
        let mut same = SameText::new(&key);
        same.add(&key, &page(&lead("rivers")), &identity(&key));
        same.add(&key, &page(&lead("lakes")), &identity(&key));
        assert!(same.release(&key, vec![true; key.len()]).iter().all(|&t| t));
        let short = page("Last edited on Monday");
        let mut same = SameText::new(&short);
        same.add(&short, &page("Last edited on Friday"), &identity(&short));
        assert!(same.release(&short, vec![true; short.len()]).iter().all(|&t| t), "a line, not a paragraph");
    }
}
