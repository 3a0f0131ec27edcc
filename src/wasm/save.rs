//! The template as a standalone HTML file: a copy of the live document with
//! what [`saved_keep`] leaves out removed, so it looks like the template
//! view. The live page itself is never touched.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlElement};

use super::live_dom::{self, mark, OWN};
use super::view::remove_marks;
use crate::page::dom::{NodeId, Tree};
use crate::page::saved_template::{neutral_title, saved_keep};
use crate::page::view_collapse::emptied_and_holders;

/// `<!DOCTYPE html>` and the template view's copy of the page with the
/// page's head (scripts aside), a neutral title and a `<base>` so the saved
/// file still finds the site's stylesheets and images.
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
    let keep = saved_keep(tree, template);
    // What stays but held removed content: its minimum height (a sticky
    // footer's 100vh) was meant for that content, as the view says too.
    let (_, holders) = emptied_and_holders(tree, &removed_roots(tree, &keep));
    for (i, element) in elements.iter().enumerate() {
        if holders[i] {
            if let Some(e) = element.dyn_ref::<HtmlElement>() {
                e.style().set_property_with_priority("min-height", "auto", "important")?;
            }
        }
    }
    for (element, remove) in elements.iter().zip(removed_roots(tree, &keep)) {
        if remove {
            element.remove();
        }
    }
    if let Some(head) = copy.query_selector("head")? {
        if head.query_selector("base")?.is_none() {
            let base = doc.create_element("base")?;
            base.set_attribute("href", page_url)?;
            head.prepend_with_node_1(&base)?;
        }
        let title = match head.query_selector(":scope > title")? {
            Some(title) => title,
            None => {
                let title = doc.create_element("title")?;
                head.append_child(&title)?;
                title
            }
        };
        let site = url::Url::parse(page_url).ok().and_then(|u| u.host_str().map(str::to_owned));
        title.set_text_content(Some(&neutral_title(site.as_deref().unwrap_or(page_url))));
    }
    Ok(format!("<!DOCTYPE html>\n{}\n", copy.outer_html()))
}

/// The highest nodes the file leaves out.
fn removed_roots(tree: &Tree, keep: &[bool]) -> Vec<bool> {
    (0..tree.len()).map(|i| !keep[i] && tree.node(NodeId(i as u32)).parent.is_none_or(|p| keep[p.index()])).collect()
}
