//! The template as a standalone HTML file: a copy of the live document with
//! every content subtree removed. The live page itself is never touched.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element};

use super::live_dom::{self, mark, OWN};
use super::view::{hidden_roots, remove_marks, View};
use crate::dom::Tree;

/// `<!DOCTYPE html>` and the template view's copy of the page, with a
/// `<base>` so the saved file still finds the site's stylesheets and images.
pub fn template_html(doc: &Document, tree: &Tree, template: &[bool], page_url: &str) -> Result<String, JsValue> {
    let root = doc.document_element().ok_or("the page has no root element")?;
    let copy: Element = root
        .clone_node_with_deep(true)?
        .dyn_into()
        .map_err(|_| JsValue::from_str("the page's root is not an element"))?;
    let elements = live_dom::elements(&copy);
    if elements.len() != tree.len() {
        return Err("The page changed since the extraction; extract the template again.".into());
    }
    let own = copy.query_selector_all(&format!("[{}]", mark(OWN)))?;
    for i in 0..own.length() {
        if let Some(node) = own.item(i) {
            node.parent_node().ok_or("detached")?.remove_child(&node)?;
        }
    }
    remove_marks(&elements)?;
    let hidden = hidden_roots(tree, template, View::Template);
    for (element, hide) in elements.iter().zip(hidden) {
        if hide {
            element.remove();
        }
    }
    if let Some(head) = copy.query_selector("head")? {
        if head.query_selector("base")?.is_none() {
            let base = doc.create_element("base")?;
            base.set_attribute("href", page_url)?;
            head.prepend_with_node_1(&base)?;
        }
    }
    Ok(format!("<!DOCTYPE html>\n{}\n", copy.outer_html()))
}
