//! The browser's DOM as the core's snapshot, read through web-sys.
//!
//! The walk visits elements in document order exactly as html5ever's tree
//! does natively (`html.rs`), so node `i` of the snapshot is element `i` of
//! the walk: that shared numbering is how a template computed by the core
//! is found again on live nodes.

use std::sync::OnceLock;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlTemplateElement, Node};

use crate::dom::{Tree, TreeBuilder, OWN_ATTRIBUTE_PREFIX};

/// A random word drawn once per load of the core in a page: every attribute
/// the extension sets is `data-tex-<word>-<kind>`, a name no page can have
/// chosen, so a page's own `data-tex-*` attributes and elements are never
/// read, removed or skipped as ours.
fn namespace() -> &'static str {
    static WORD: OnceLock<String> = OnceLock::new();
    WORD.get_or_init(|| {
        let draw = || (js_sys::Math::random() * 2f64.powi(52)) as u64;
        format!("{:x}{:x}", draw(), draw())
    })
}

/// The attribute name of one kind of our marks (`own`, `template`, `hidden`…).
pub fn mark(kind: &str) -> String {
    format!("{OWN_ATTRIBUTE_PREFIX}{}-{kind}", namespace())
}

/// Elements the extension adds to a page (its view stylesheet) carry
/// `mark(OWN)`; every walk skips them so indexes never shift.
pub const OWN: &str = "own";

/// The snapshot of the subtree rooted at `root`, with the live elements in
/// the snapshot's order, or `None` when `root` is one of our own elements.
pub fn snapshot(root: &Element) -> Option<(Tree, Vec<Element>)> {
    let mut builder = TreeBuilder::new();
    let elements = walk(root, Some(&mut builder));
    builder.finish().map(|tree| (tree, elements))
}

/// The elements of the subtree rooted at `root`, in snapshot order.
pub fn elements(root: &Element) -> Vec<Element> {
    walk(root, None)
}

/// Iterative pre-order walk (deep pages would overflow a recursive one),
/// feeding `builder` when given. Adjacent text nodes are joined first, as
/// the HTML parser never leaves two side by side.
fn walk(root: &Element, mut builder: Option<&mut TreeBuilder>) -> Vec<Element> {
    let mut elements = Vec::new();
    let own = mark(OWN);
    if root.has_attribute(&own) {
        return elements;
    }
    let mut text = String::new();
    open(root, builder.as_deref_mut());
    elements.push(root.clone());
    let mut pending: Vec<Option<Node>> = vec![first_child(root)];
    while let Some(slot) = pending.last_mut() {
        let Some(node) = slot.take() else {
            pending.pop();
            if let Some(b) = builder.as_deref_mut() {
                flush(&mut text, b);
                b.close();
            }
            continue;
        };
        *slot = node.next_sibling();
        match node.node_type() {
            Node::ELEMENT_NODE => {
                let element: Element = node.unchecked_into();
                if element.has_attribute(&own) {
                    continue;
                }
                if let Some(b) = builder.as_deref_mut() {
                    flush(&mut text, b);
                }
                open(&element, builder.as_deref_mut());
                pending.push(first_child(&element));
                elements.push(element);
            }
            Node::TEXT_NODE | Node::CDATA_SECTION_NODE if builder.is_some() => {
                text.push_str(&node.node_value().unwrap_or_default());
            }
            _ => {}
        }
    }
    elements
}

fn open(element: &Element, builder: Option<&mut TreeBuilder>) {
    let Some(b) = builder else { return };
    let attributes = element.attributes();
    let pairs: Vec<(String, String)> =
        (0..attributes.length()).filter_map(|i| attributes.item(i)).map(|a| (a.local_name(), a.value())).collect();
    b.open(&element.local_name(), pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())));
}

fn flush(text: &mut String, b: &mut TreeBuilder) {
    if !text.is_empty() {
        b.text(text);
        text.clear();
    }
}

/// A `<template>`'s children live in its content fragment in the DOM, but
/// html5ever (as `scraper` builds it) keeps them as children: read them
/// there so both snapshots agree. Recognised by name, not `instanceof`,
/// which fails for elements of another realm (a frame's document).
fn first_child(element: &Element) -> Option<Node> {
    if element.local_name() == "template" && element.namespace_uri().as_deref() == Some(HTML_NAMESPACE) {
        element.unchecked_ref::<HtmlTemplateElement>().content().first_child()
    } else {
        element.first_child()
    }
}

const HTML_NAMESPACE: &str = "http://www.w3.org/1999/xhtml";
