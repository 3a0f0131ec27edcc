//! The views of a page after an extraction: the toolbar's three, plus the
//! check view of a benchmark page. Only mark attributes in our own namespace
//! ([`mark`]) and one injected stylesheet change the page; the original view
//! removes both, so the document returns byte for byte to what it was.

use wasm_bindgen::JsValue;
use web_sys::{Document, Element};

use super::live_dom::{mark, OWN};
use crate::dom::{NodeId, Tree};
use crate::score::{disagreement, gold_template};
use crate::view_collapse::emptied_and_holders;

/// Set on every template element while a view other than the original shows.
pub const TEMPLATE: &str = "template";
/// Set on the roots of the subtrees a view hides.
pub const HIDDEN: &str = "hidden";
/// Template containers a view emptied (everything they held is hidden):
/// hidden too, so their padding, borders and fixed sizes leave no hole.
pub const EMPTIED: &str = "emptied";
/// Shown ancestors of what a view hides: their minimum height (a sticky
/// footer's `min-height: 100vh`) was meant for the hidden content.
pub const HOLDER: &str = "holder";
/// Check view: roots of gold template subtrees the extraction missed.
pub const MISS: &str = "miss";
/// Check view: roots of retrieved subtrees the gold says are not template.
pub const FALSE_HIT: &str = "false-hit";
/// Every kind of mark a view sets on the page's elements, as given to [`mark`].
const KINDS: [&str; 6] = [TEMPLATE, HIDDEN, EMPTIED, HOLDER, MISS, FALSE_HIT];

fn hide_rules() -> String {
    format!(
        "[{}],[{}]{{display:none!important}}[{}]{{min-height:auto!important}}",
        mark(HIDDEN),
        mark(EMPTIED),
        mark(HOLDER)
    )
}

/// Two colours a reader tells apart (also with red-green colour blindness):
/// misses dashed orange, false hits solid blue.
fn check_rules() -> String {
    format!(
        "[{}]{{outline:3px dashed #e66100!important;outline-offset:-2px}}\
         [{}]{{outline:3px solid #1a5fb4!important;outline-offset:-2px}}",
        mark(MISS),
        mark(FALSE_HIT)
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Original,
    /// The template alone: content subtrees hidden.
    Template,
    /// The opposite: subtrees that are template through and through hidden.
    Content,
    /// For a page with gold marks: the template view of retrieved ∪ gold,
    /// misses and false hits outlined, so a reader sees why it scored so.
    Check,
}

impl View {
    pub fn name(self) -> &'static str {
        match self {
            View::Original => "original",
            View::Template => "template",
            View::Content => "content",
            View::Check => "check",
        }
    }

    pub fn parse(name: &str) -> Option<View> {
        [View::Original, View::Template, View::Content, View::Check].into_iter().find(|v| v.name() == name)
    }

    /// The toolbar's cycle: original → template → content → original.
    pub fn next(self) -> View {
        match self {
            View::Original => View::Template,
            View::Template => View::Content,
            View::Content | View::Check => View::Original,
        }
    }
}

/// Shows `view` of a page whose snapshot is `tree`, `elements` its live
/// elements in snapshot order and `template` the core's verdict per node.
pub fn show(doc: &Document, tree: &Tree, elements: &[Element], template: &[bool], view: View) -> Result<(), JsValue> {
    restore(doc, elements)?;
    if view == View::Original {
        return Ok(());
    }
    let mut marks = Vec::new();
    let mut rules = hide_rules();
    if view == View::Check {
        let gold = gold_template(tree);
        let shown: Vec<bool> = template.iter().zip(&gold).map(|(t, g)| *t || *g).collect();
        marks.extend(collapsed(tree, &hidden_roots(tree, &shown, View::Template)));
        let wrong = disagreement(tree, template);
        marks.extend(wrong.misses.iter().map(|id| (id.index(), MISS)));
        marks.extend(wrong.false_hits.iter().map(|id| (id.index(), FALSE_HIT)));
        rules.push_str(&check_rules());
    } else if view == View::Template {
        marks.extend(collapsed(tree, &hidden_roots(tree, template, view)));
    } else {
        marks.extend(flagged(&hidden_roots(tree, template, view), HIDDEN));
    }
    marks.extend(flagged(template, TEMPLATE));
    let names: Vec<(&str, String)> = KINDS.iter().map(|&k| (k, mark(k))).collect();
    for (i, kind) in marks {
        let name = &names.iter().find(|(k, _)| *k == kind).expect("a known kind").1;
        elements[i].set_attribute(name, "")?;
    }
    let style = doc.create_element("style")?;
    style.set_attribute(&mark(OWN), "")?;
    style.set_text_content(Some(&rules));
    match doc.head() {
        Some(head) => head.append_child(&style)?,
        None => doc.document_element().ok_or("the page has no root element")?.append_child(&style)?,
    };
    Ok(())
}

/// `(i, mark)` for every element whose flag is set.
fn flagged(flags: &[bool], mark: &'static str) -> Vec<(usize, &'static str)> {
    flags.iter().enumerate().filter(|(_, f)| **f).map(|(i, _)| (i, mark)).collect()
}

/// The marks that collapse the layout around `hidden` (the roots the
/// template view hides), so the page reads as its frame without the content:
/// the roots, the containers left with nothing to show, and the shown
/// ancestors of both.
fn collapsed(tree: &Tree, hidden: &[bool]) -> Vec<(usize, &'static str)> {
    let (emptied, holders) = emptied_and_holders(tree, hidden);
    let mut marks = flagged(hidden, HIDDEN);
    marks.extend(flagged(&emptied, EMPTIED));
    marks.extend(flagged(&holders, HOLDER));
    marks
}

/// Removes every mark and our stylesheet, and nothing else: only attributes
/// and elements in our namespace are touched. Marks are looked for on the
/// snapshot's elements and anywhere in the document, so copies the page made
/// of marked elements (a header cloned on scroll) lose them too.
pub fn restore(doc: &Document, elements: &[Element]) -> Result<(), JsValue> {
    remove_marks(elements)?;
    for kind in KINDS {
        let name = mark(kind);
        let copies = doc.query_selector_all(&format!("[{name}]"))?;
        for i in 0..copies.length() {
            if let Some(element) = copies.item(i).and_then(|n| wasm_bindgen::JsCast::dyn_into::<Element>(n).ok()) {
                element.remove_attribute(&name)?;
            }
        }
    }
    let own = doc.query_selector_all(&format!("[{}]", mark(OWN)))?;
    for i in 0..own.length() {
        if let Some(node) = own.item(i) {
            if let Some(parent) = node.parent_node() {
                parent.remove_child(&node)?;
            }
        }
    }
    Ok(())
}

/// Removes our marks from `elements`.
pub fn remove_marks(elements: &[Element]) -> Result<(), JsValue> {
    for kind in KINDS {
        let name = mark(kind);
        for element in elements {
            element.remove_attribute(&name)?;
        }
    }
    Ok(())
}

/// Which nodes to hide: the highest nodes of the other kind. Templates are
/// closed upwards (a template node's parent is template), so in the template
/// view that is each content node under a template parent; in the content
/// view, each node whose whole subtree is template under a parent that is not.
pub fn hidden_roots(tree: &Tree, template: &[bool], view: View) -> Vec<bool> {
    let hide: Vec<bool> = match view {
        View::Original => return vec![false; tree.len()],
        View::Template | View::Check => template.iter().map(|t| !t).collect(),
        View::Content => {
            let mut pure = template.to_vec();
            for i in (0..tree.len()).rev() {
                pure[i] = template[i] && tree.children(NodeId(i as u32)).iter().all(|c| pure[c.index()]);
            }
            pure
        }
    };
    (0..tree.len()).map(|i| hide[i] && tree.node(NodeId(i as u32)).parent.is_none_or(|p| !hide[p.index()])).collect()
}
