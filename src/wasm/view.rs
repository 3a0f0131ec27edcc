//! The three views of a page after an extraction. Only marker attributes
//! and one injected stylesheet change the page; the original view removes
//! both, so the document returns byte for byte to what it was.

use wasm_bindgen::JsValue;
use web_sys::{Document, Element};

use super::live_dom::OWN_ELEMENT;
use crate::dom::{NodeId, Tree};

/// Set on every template element while a view other than the original shows.
pub const TEMPLATE_MARK: &str = "data-tex-template";
/// Set on the roots of the subtrees a view hides.
pub const HIDDEN_MARK: &str = "data-tex-hidden";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Original,
    /// The template alone: content subtrees hidden.
    Template,
    /// The opposite: subtrees that are template through and through hidden.
    Content,
}

impl View {
    pub fn name(self) -> &'static str {
        match self {
            View::Original => "original",
            View::Template => "template",
            View::Content => "content",
        }
    }

    pub fn parse(name: &str) -> Option<View> {
        [View::Original, View::Template, View::Content].into_iter().find(|v| v.name() == name)
    }

    /// The toolbar's cycle: original → template → content → original.
    pub fn next(self) -> View {
        match self {
            View::Original => View::Template,
            View::Template => View::Content,
            View::Content => View::Original,
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
    let hidden = hidden_roots(tree, template, view);
    for (i, element) in elements.iter().enumerate() {
        if template[i] {
            element.set_attribute(TEMPLATE_MARK, "")?;
        }
        if hidden[i] {
            element.set_attribute(HIDDEN_MARK, "")?;
        }
    }
    let style = doc.create_element("style")?;
    style.set_attribute(OWN_ELEMENT, "")?;
    style.set_text_content(Some(&format!("[{HIDDEN_MARK}]{{display:none!important}}")));
    match doc.head() {
        Some(head) => head.append_child(&style)?,
        None => doc.document_element().ok_or("the page has no root element")?.append_child(&style)?,
    };
    Ok(())
}

/// Removes every marker and our stylesheet.
pub fn restore(doc: &Document, elements: &[Element]) -> Result<(), JsValue> {
    for element in elements {
        element.remove_attribute(TEMPLATE_MARK)?;
        element.remove_attribute(HIDDEN_MARK)?;
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
        View::Template => template.iter().map(|t| !t).collect(),
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
