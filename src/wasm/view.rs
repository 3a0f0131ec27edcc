//! The views of a page after an extraction: the toolbar's three, plus the
//! check view of a benchmark page. Only marker attributes and one injected
//! stylesheet change the page; the original view removes both, so the
//! document returns byte for byte to what it was.

use wasm_bindgen::JsValue;
use web_sys::{Document, Element};

use super::live_dom::OWN_ELEMENT;
use crate::dom::{NodeId, Tree};
use crate::score::{disagreement, gold_template};

/// Set on every template element while a view other than the original shows.
pub const TEMPLATE_MARK: &str = "data-tex-template";
/// Set on the roots of the subtrees a view hides.
pub const HIDDEN_MARK: &str = "data-tex-hidden";
/// Check view: roots of gold template subtrees the extraction missed.
pub const MISS_MARK: &str = "data-tex-miss";
/// Check view: roots of retrieved subtrees the gold says are not template.
pub const FALSE_HIT_MARK: &str = "data-tex-false-hit";
const MARKS: [&str; 4] = [TEMPLATE_MARK, HIDDEN_MARK, MISS_MARK, FALSE_HIT_MARK];

const HIDE_RULE: &str = "[data-tex-hidden]{display:none!important}";
/// Two colours a reader tells apart (also with red-green colour blindness):
/// misses dashed orange, false hits solid blue.
const CHECK_RULES: &str = "[data-tex-miss]{outline:3px dashed #e66100!important;outline-offset:-2px}\
                           [data-tex-false-hit]{outline:3px solid #1a5fb4!important;outline-offset:-2px}";

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
    let mut rules = HIDE_RULE.to_string();
    if view == View::Check {
        let gold = gold_template(tree);
        let shown: Vec<bool> = template.iter().zip(&gold).map(|(t, g)| *t || *g).collect();
        marks.extend(flagged(&hidden_roots(tree, &shown, View::Template), HIDDEN_MARK));
        let wrong = disagreement(tree, template);
        marks.extend(wrong.misses.iter().map(|id| (id.index(), MISS_MARK)));
        marks.extend(wrong.false_hits.iter().map(|id| (id.index(), FALSE_HIT_MARK)));
        rules.push_str(CHECK_RULES);
    } else {
        marks.extend(flagged(&hidden_roots(tree, template, view), HIDDEN_MARK));
    }
    marks.extend(flagged(template, TEMPLATE_MARK));
    for (i, mark) in marks {
        elements[i].set_attribute(mark, "")?;
    }
    let style = doc.create_element("style")?;
    style.set_attribute(OWN_ELEMENT, "")?;
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

/// Removes every marker and our stylesheet.
pub fn restore(doc: &Document, elements: &[Element]) -> Result<(), JsValue> {
    for element in elements {
        for mark in MARKS {
            element.remove_attribute(mark)?;
        }
    }
    let own = doc.query_selector_all(&format!("[{OWN_ELEMENT}]"))?;
    for i in 0..own.length() {
        if let Some(node) = own.item(i) {
            if let Some(parent) = node.parent_node() {
                parent.remove_child(&node)?;
            }
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
