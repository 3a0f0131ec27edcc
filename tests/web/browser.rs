#![cfg(target_arch = "wasm32")]
//! The web-sys layer in a real browser (`wasm-bindgen-test`, headless
//! Chromium and Firefox): the snapshot of a document equals the native
//! snapshot of the same HTML, and the views mark and restore exactly.
//! A crate of its own so that the main crate's native-only binaries
//! stay out of the wasm build. Run by `build.sh test`; the expected
//! snapshots are checked against html5ever natively by `tests/web.rs`.

#[path = "common.rs"]
mod common;
use common::{describe, expected, FIXTURES};

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Document, DomParser, HtmlIFrameElement, SupportedType};

use template_extractor::dom::{NodeId, Tree};
use template_extractor::wasm::live_dom;
use template_extractor::wasm::view::{self, View, HIDDEN_MARK, TEMPLATE_MARK};

wasm_bindgen_test_configure!(run_in_browser);

fn parsed(html: &str) -> Document {
    DomParser::new().unwrap().parse_from_string(html, SupportedType::TextHtml).unwrap()
}

#[wasm_bindgen_test]
fn domparser_snapshot_equals_native_snapshot() {
    for (name, html) in FIXTURES {
        let doc = parsed(html);
        let (tree, elements) = live_dom::snapshot(&doc.document_element().unwrap()).unwrap();
        assert_eq!(elements.len(), tree.len());
        assert_eq!(describe(&tree), expected(name), "{name}");
    }
}

/// A rendered document with scripting enabled, as the content script sees a page.
#[wasm_bindgen_test]
async fn live_iframe_snapshot_equals_native_snapshot() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let frame: HtmlIFrameElement = doc.create_element("iframe").unwrap().dyn_into().unwrap();
    frame.set_attribute("sandbox", "allow-same-origin").unwrap();
    frame.set_srcdoc(FIXTURES[2].1);
    let loaded = js_sys::Promise::new(&mut |resolve, _| frame.set_onload(Some(&resolve)));
    doc.body().unwrap().append_child(&frame).unwrap();
    wasm_bindgen_futures::JsFuture::from(loaded).await.unwrap();
    let live = frame.content_document().unwrap();
    let (tree, _) = live_dom::snapshot(&live.document_element().unwrap()).unwrap();
    assert_eq!(describe(&tree), expected(FIXTURES[2].0));
    frame.remove();
}

#[wasm_bindgen_test]
fn views_mark_hide_and_restore_exactly() {
    let doc = parsed(FIXTURES[2].1);
    let root = doc.document_element().unwrap();
    let before = root.outer_html();
    let (tree, elements) = live_dom::snapshot(&root).unwrap();
    // Template: everything but the <main> subtree (closed upwards, as the core's are).
    let main = tree.nodes().find(|(_, n)| &*n.tag == "main").map(|(id, _)| id).unwrap();
    let content = tree.subtree(main);
    let template: Vec<bool> = (0..tree.len()).map(|i| !content.contains(&i)).collect();

    view::show(&doc, &tree, &elements, &template, View::Template).unwrap();
    let hidden: Vec<usize> = (0..tree.len()).filter(|&i| elements[i].has_attribute(HIDDEN_MARK)).collect();
    assert_eq!(hidden, vec![main.index()], "the template view hides the content root only");
    assert!((0..tree.len()).all(|i| elements[i].has_attribute(TEMPLATE_MARK) == template[i]));
    assert_eq!(doc.query_selector_all("style[data-tex-own]").unwrap().length(), 1);
    let (again, _) = live_dom::snapshot(&root).unwrap();
    assert_eq!(describe(&again), describe(&tree), "marks and our stylesheet are invisible to the snapshot");

    view::show(&doc, &tree, &elements, &template, View::Content).unwrap();
    let hidden: Vec<NodeId> =
        (0..tree.len()).filter(|&i| elements[i].has_attribute(HIDDEN_MARK)).map(|i| NodeId(i as u32)).collect();
    assert!(!hidden.is_empty());
    for id in &hidden {
        assert!(template[id.index()] && !tree.subtree(*id).contains(&main.index()));
    }

    view::show(&doc, &tree, &elements, &template, View::Original).unwrap();
    assert_eq!(root.outer_html(), before, "the original view restores the document byte for byte");
}
