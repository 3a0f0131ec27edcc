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

use template_extractor::base::config::Config;
use template_extractor::candidates::page_source::PageSource;
use template_extractor::compare::mapping::etdm;
use template_extractor::page::dom::TreeBuilder;
use template_extractor::page::dom::{NodeId, Tree};
use template_extractor::wasm::fetch_source::FetchSource;
use template_extractor::wasm::live_dom;
use template_extractor::wasm::live_dom::{mark, OWN};
use template_extractor::wasm::live_snapshot::{current, LiveSnapshot};
use template_extractor::wasm::slices::yield_to_event_loop;
use template_extractor::wasm::slices::Slices;
use template_extractor::wasm::view::{self, View, EMPTIED, HIDDEN, HOLDER, TEMPLATE, VEILED, VEIL_DEPTH};
use url::Url;

wasm_bindgen_test_configure!(run_in_browser);

/// The live snapshot, with `extension/live-dom.js` installed as the extension injects it before the core.
fn snapshot(root: &web_sys::Element) -> Option<(Tree, Vec<web_sys::Element>)> {
    js_sys::eval(include_str!("../../extension/live-dom.js")).unwrap();
    live_dom::snapshot(root)
}

/// Shows `v` as `set_view` does: the view's plan, then `view::show` in
/// steps; `marked` holds the marks on the page, as `Extracted::marked` does.
async fn show(
    doc: &Document,
    tree: &Tree,
    elements: &[web_sys::Element],
    template: &[bool],
    v: View,
    marked: &mut view::Marks,
) {
    let (marks, rules) = view::plan(tree, template, v);
    let slices = Slices::new(web_sys::window().unwrap().performance().unwrap());
    assert!(view::show(doc, elements, marked, (&marks, &rules), &slices).await.unwrap(), "no other view began");
    *marked = marks;
}

fn parsed(html: &str) -> Document {
    DomParser::new().unwrap().parse_from_string(html, SupportedType::TextHtml).unwrap()
}

/// The walk in steps (`snapshot_in_steps`, as an extraction reads the page)
/// gives the snapshot of the walk in one call, elements included.
#[wasm_bindgen_test]
async fn the_stepped_snapshot_equals_the_one_call_snapshot() {
    for (name, html) in FIXTURES.iter().filter(|(name, _)| *name != "shadow") {
        let doc = parsed(html);
        let root = doc.document_element().unwrap();
        let (tree, elements) = snapshot(&root).unwrap();
        let slices = Slices::new(web_sys::window().unwrap().performance().unwrap());
        let (stepped, stepped_elements) = live_dom::snapshot_in_steps(&root, &slices).await.unwrap();
        assert_eq!(describe(&stepped), describe(&tree), "{name}");
        assert!(stepped_elements.iter().eq(elements.iter()), "{name}: the same elements in the same order");
    }
}

/// DOMParser never attaches declarative shadow roots (only a rendered
/// document's parser does), so the shadow fixture is checked live below.
#[wasm_bindgen_test]
fn domparser_snapshot_equals_native_snapshot() {
    for (name, html) in FIXTURES.iter().filter(|(name, _)| *name != "shadow") {
        let doc = parsed(html);
        let (tree, elements) = snapshot(&doc.document_element().unwrap()).unwrap();
        assert_eq!(elements.len(), tree.len());
        assert_eq!(describe(&tree), expected(name), "{name}");
    }
}

/// A rendered document with scripting enabled, as the content script sees a
/// page; its parser attaches declarative shadow roots, which the native
/// snapshot leaves out to number the elements alike.
#[wasm_bindgen_test]
async fn live_iframe_snapshot_equals_native_snapshot() {
    for name in ["news", "shadow"] {
        let html = FIXTURES.iter().find(|(n, _)| *n == name).unwrap().1;
        let doc = web_sys::window().unwrap().document().unwrap();
        let frame: HtmlIFrameElement = doc.create_element("iframe").unwrap().dyn_into().unwrap();
        frame.set_attribute("sandbox", "allow-same-origin").unwrap();
        frame.set_srcdoc(html);
        let loaded = js_sys::Promise::new(&mut |resolve, _| frame.set_onload(Some(&resolve)));
        doc.body().unwrap().append_child(&frame).unwrap();
        wasm_bindgen_futures::JsFuture::from(loaded).await.unwrap();
        let live = frame.content_document().unwrap();
        let (tree, _) = snapshot(&live.document_element().unwrap()).unwrap();
        assert_eq!(describe(&tree), expected(name), "{name}");
        frame.remove();
    }
}

#[wasm_bindgen_test]
async fn views_mark_hide_and_restore_exactly() {
    let mut marked = view::Marks::new();
    let doc = parsed(FIXTURES[2].1);
    let root = doc.document_element().unwrap();
    let before = root.outer_html();
    let (tree, elements) = snapshot(&root).unwrap();
    // Template: everything but the <main> subtree (closed upwards, as the core's are).
    let main = tree.nodes().find(|(_, n)| &*n.tag == "main").map(|(id, _)| id).unwrap();
    let content = tree.subtree(main);
    let template: Vec<bool> = (0..tree.len()).map(|i| !content.contains(&i)).collect();

    show(&doc, &tree, &elements, &template, View::Template, &mut marked).await;
    let hidden: Vec<usize> = (0..tree.len()).filter(|&i| elements[i].has_attribute(&mark(HIDDEN))).collect();
    assert_eq!(hidden, vec![main.index()], "the template view hides the content root only");
    assert!((0..tree.len()).all(|i| elements[i].has_attribute(&mark(TEMPLATE)) == template[i]));
    assert_eq!(doc.query_selector_all(&format!("style[{}]", mark(OWN))).unwrap().length(), 1);
    let (again, _) = snapshot(&root).unwrap();
    assert_eq!(describe(&again), describe(&tree), "marks and our stylesheet are invisible to the snapshot");

    // The content view is the page view's reading column: the page is set
    // aside whole behind it, nothing in it hidden (a browser lays a page out
    // again for every part hidden or shown).
    show(&doc, &tree, &elements, &template, View::Content, &mut marked).await;
    assert!((0..tree.len()).all(|i| !elements[i].has_attribute(&mark(HIDDEN))), "the content view hides nothing");
    assert!((0..tree.len()).all(|i| elements[i].has_attribute(&mark(TEMPLATE)) == template[i]));
    assert_eq!(doc.query_selector_all(&format!("style[{}]", mark(OWN))).unwrap().length(), 0);

    show(&doc, &tree, &elements, &template, View::Original, &mut marked).await;
    assert_eq!(root.outer_html(), before, "the original view restores the document byte for byte");
}

/// The reading column leaves out the frame a script put into the content
/// (an ad slot in the article), not the page's own frame around it.
#[wasm_bindgen_test]
fn the_frame_inside_content_is_what_scripts_put_there() {
    let doc = parsed(
        "<html><head><title>t</title></head><body><header><a href=/>site</a></header>\
         <main><p>text</p><div class=ad><span>ad</span></div></main><footer>foot</footer></body></html>",
    );
    let (tree, _) = snapshot(&doc.document_element().unwrap()).unwrap();
    let index = |tag: &str| tree.nodes().find(|(_, n)| &*n.tag == tag).map(|(id, _)| id).unwrap();
    let mut frame = all_but_main(&tree);
    for i in tree.subtree(index("div")) {
        frame[i] = true;
    }
    let roots = view::frame_in_content(&tree, &frame);
    let found: Vec<NodeId> = (0..tree.len()).filter(|&i| roots[i]).map(|i| NodeId(i as u32)).collect();
    assert_eq!(found, [index("div")], "the ad slot only: the header and footer are the page's frame");
}

/// Template: everything but the `<main>` subtree of `tree`.
fn all_but_main(tree: &Tree) -> Vec<bool> {
    all_but(tree, "main")
}

/// Template: everything but the subtrees of every `tag` element of `tree`.
fn all_but(tree: &Tree, tag: &str) -> Vec<bool> {
    let content: Vec<usize> =
        tree.nodes().filter(|(_, n)| &*n.tag == tag).flat_map(|(id, _)| tree.subtree(id)).collect();
    (0..tree.len()).map(|i| !content.contains(&i)).collect()
}

/// A page that names its own attributes and elements like ours keeps them:
/// our marks live in a namespace of their own.
#[wasm_bindgen_test]
async fn a_page_using_data_tex_names_keeps_its_own_attributes_and_elements() {
    let mut marked = view::Marks::new();
    let doc = parsed(
        "<html><head><title>t</title></head><body>\
         <header data-tex-template=\"mine\" data-tex-hidden=\"1\"><nav data-tex-own=\"x\">menu</nav></header>\
         <main><p data-tex-template>text</p><aside data-tex-own>side</aside></main>\
         <footer data-tex-false-hit=\"f\">foot</footer></body></html>",
    );
    let root = doc.document_element().unwrap();
    let before = root.outer_html();
    let (tree, elements) = snapshot(&root).unwrap();
    assert_eq!(tree.len(), 10, "elements the page marked data-tex-own are part of its snapshot");
    let template = all_but_main(&tree);
    for v in [View::Template, View::Content, View::Template] {
        show(&doc, &tree, &elements, &template, v, &mut marked).await;
    }
    let nav = doc.query_selector("nav").unwrap().unwrap();
    assert_eq!(nav.get_attribute("data-tex-own").as_deref(), Some("x"), "the page's attribute is never ours");
    show(&doc, &tree, &elements, &template, View::Original, &mut marked).await;
    assert_eq!(root.outer_html(), before, "every element and attribute value of the page is back");
}

/// The elements of `doc` that carry our mark `kind`, each by its id, or
/// its tag where it has none.
fn marked_with(doc: &Document, kind: &str) -> Vec<String> {
    let found = doc.query_selector_all(&format!("[{}]", mark(kind))).unwrap();
    (0..found.length())
        .map(|i| {
            let e: web_sys::Element = found.item(i).unwrap().dyn_into().unwrap();
            if e.id().is_empty() {
                e.local_name()
            } else {
                e.id()
            }
        })
        .collect()
}

/// The template view leaves no hole: a container whose every child is hidden
/// is hidden too (unless it has text of its own or was empty in the page),
/// and the shown ancestors of hidden parts lose their minimum height.
#[wasm_bindgen_test]
async fn the_template_view_collapses_what_it_emptied() {
    let mut marked = view::Marks::new();
    let doc = parsed(
        "<html><head><title>t</title></head><body>\
         <header>site</header><div id=wrap><div id=box><main><p>text</p></main></div>\
         <div id=titled>On this page<main><p>toc</p></main></div><div id=spacer></div>\
         <nav>menu</nav></div><footer>foot</footer></body></html>",
    );
    let root = doc.document_element().unwrap();
    let before = root.outer_html();
    let (tree, elements) = live_dom::snapshot(&root).unwrap();
    let template = all_but(&tree, "main");
    show(&doc, &tree, &elements, &template, View::Template, &mut marked).await;
    let with = |kind| marked_with(&doc, kind);
    assert_eq!(with(EMPTIED), ["box"], "#titled keeps its text, #spacer was empty in the page");
    assert_eq!(with(HOLDER), ["html", "body", "wrap", "titled"]);
    let rules = doc.query_selector(&format!("style[{}]", mark(OWN))).unwrap().unwrap().text_content().unwrap();
    assert!(rules.contains(&format!("[{}]", mark(EMPTIED))) && rules.contains("display:none"));
    show(&doc, &tree, &elements, &template, View::Original, &mut marked).await;
    assert_eq!(root.outer_html(), before);
}

/// Content nested deeper than `VEIL_DEPTH` below its root is veiled, not
/// taken out of the layout, so showing it again costs the browser no layout
/// of it; a shallow content root beside it is hidden as before, and nothing
/// around the veiled one collapses.
#[wasm_bindgen_test]
async fn the_template_view_veils_content_nested_too_deep() {
    let mut marked = view::Marks::new();
    let depth = VEIL_DEPTH as usize + 1;
    let deep = format!("{}deep words{}", "<div>".repeat(depth), "</div>".repeat(depth));
    let doc = parsed(&format!(
        "<html><head><title>t</title></head><body><header>site</header>\
         <div id=box><section id=deep>{deep}</section></div><div id=other><section id=shallow><p>text</p></section></div>\
         <footer>foot</footer></body></html>"
    ));
    let root = doc.document_element().unwrap();
    let before = root.outer_html();
    let (tree, elements) = live_dom::snapshot(&root).unwrap();
    let template = all_but(&tree, "section");
    show(&doc, &tree, &elements, &template, View::Template, &mut marked).await;
    let ids = |kind| marked_with(&doc, kind);
    assert_eq!(ids(VEILED), ["deep"]);
    assert_eq!(ids(HIDDEN), ["shallow"]);
    assert_eq!(ids(EMPTIED), ["other"], "#box keeps the veiled content's place");
    let rules = doc.query_selector(&format!("style[{}]", mark(OWN))).unwrap().unwrap().text_content().unwrap();
    assert!(rules.contains(&format!("[{}]{{visibility:hidden!important}}", mark(VEILED))));
    show(&doc, &tree, &elements, &template, View::Original, &mut marked).await;
    assert_eq!(root.outer_html(), before);
}

/// A page that clones marked elements (a sticky header copied on scroll)
/// gets copies without our marks when the original view returns.
#[wasm_bindgen_test]
async fn restore_removes_our_marks_from_copies_the_page_made() {
    let mut marked = view::Marks::new();
    let doc = parsed(FIXTURES[2].1);
    let root = doc.document_element().unwrap();
    let before = root.outer_html();
    let (tree, elements) = snapshot(&root).unwrap();
    let template = all_but_main(&tree);
    show(&doc, &tree, &elements, &template, View::Template, &mut marked).await;
    let body = doc.body().unwrap();
    let copy: web_sys::Element =
        body.first_element_child().unwrap().clone_node_with_deep(true).unwrap().dyn_into().unwrap();
    assert!(copy.has_attribute(&mark(TEMPLATE)), "the copy carries our mark while the view shows");
    body.append_child(&copy).unwrap();
    show(&doc, &tree, &elements, &template, View::Original, &mut marked).await;
    let ours = format!("{}-", mark("x").trim_end_matches("-x"));
    let all = root.query_selector_all("*").unwrap();
    for i in 0..all.length() {
        let e: web_sys::Element = all.item(i).unwrap().dyn_into().unwrap();
        let names = e.get_attribute_names();
        for n in 0..names.length() {
            let name = names.get(n).as_string().unwrap();
            assert!(!name.starts_with(&ours), "<{}> kept our {name}", e.local_name());
        }
    }
    copy.remove();
    assert_eq!(root.outer_html(), before);
}

/// A kept snapshot is used again while the page is unchanged, our own
/// views included, and never after anything the walk reads has changed.
/// It counts as read before only once a click answered from it.
#[wasm_bindgen_test]
async fn a_kept_snapshot_serves_until_the_page_changes() {
    let mut marked = view::Marks::new();
    let doc = parsed(
        "<html><head><title>t</title></head><body><header>site</header>\
         <main><p id=p>text</p><template><i>later</i></template></main></body></html>",
    );
    let root = doc.document_element().unwrap();
    snapshot(&root).unwrap();
    let read = |previous: Option<LiveSnapshot>, url: &str| current(&root, &Url::parse(url).unwrap(), previous).unwrap();
    let (page, read_before) = read(None, "http://s.org/a");
    assert!(!read_before, "nothing was kept before");
    page.keep();
    let (page, read_before) = read(None, "http://s.org/a");
    assert!(!read_before, "kept aside by a call that answered no click (template memory found nothing)");
    let first = page.elements[0].clone();
    let (page, read_before) = read(Some(page.served()), "http://s.org/a#top");
    assert!(read_before && page.elements[0] == first, "an unchanged page under another fragment is the same page");

    let template = all_but_main(&page.tree);
    for v in [View::Content, View::Template, View::Original] {
        show(&doc, &page.tree, &page.elements, &template, v, &mut marked).await;
    }
    let (page, read_before) = read(Some(page), "http://s.org/a");
    assert!(read_before, "our marks and stylesheet are not changes");
    let (page, read_before) = read(Some(page), "http://s.org/b");
    assert!(!read_before, "another address is another page");

    let p = doc.get_element_by_id("p").unwrap();
    let changes: [(&str, Box<dyn Fn()>); 4] = [
        ("an attribute", Box::new(|| p.set_attribute("class", "lead").unwrap())),
        ("a text", Box::new(|| p.first_child().unwrap().set_node_value(Some("other")))),
        ("an element", Box::new(|| p.append_child(&doc.create_element("b").unwrap()).map(drop).unwrap())),
        (
            "a template's content",
            Box::new(|| {
                let template = doc.query_selector("template").unwrap().unwrap();
                let content = template.unchecked_into::<web_sys::HtmlTemplateElement>().content();
                content.first_element_child().unwrap().set_attribute("title", "x").unwrap();
            }),
        ),
    ];
    let mut page = Some(page.served());
    for (what, change) in changes {
        let (unchanged, read_before) = read(page.take(), "http://s.org/b");
        assert!(read_before, "before {what} changed");
        let before = describe(&unchanged.tree);
        change();
        let (fresh, read_before) = read(Some(unchanged), "http://s.org/b");
        assert!(!read_before, "after {what} changed the page is read again");
        assert_ne!(describe(&fresh.tree), before, "{what}: the new snapshot sees the change");
        page = Some(fresh.served());
    }
}

/// 100,000 identical siblings map completely onto themselves on wasm32 too:
/// the band's centre `i * (len - 1)` once overflowed a 32-bit usize.
#[wasm_bindgen_test]
fn a_hundred_thousand_siblings_map_completely_on_wasm32() {
    let mut b = TreeBuilder::new();
    b.open("html", []);
    b.open("body", []);
    b.open("ul", []);
    for _ in 0..100_000 {
        b.open("li", []);
        b.close();
    }
    let tree = b.finish().unwrap();
    let cfg = Config { max_nodes: 200_000, ..Config::default() };
    assert_eq!(etdm(&cfg, &tree, &tree).len(), tree.len());
}

/// Issue 10: a request the server answered at once is not reported as timed
/// out because the core kept the main thread busy meanwhile (the answer
/// could not be read then, which is not the server's delay).
#[wasm_bindgen_test]
async fn a_busy_main_thread_does_not_time_out_an_answered_request() {
    let window = web_sys::window().unwrap();
    let performance = window.performance().unwrap();
    // The test runner's own page: same origin, text/html.
    let url = Url::parse(&window.location().href().unwrap()).unwrap();
    let source = FetchSource::new(url.origin(), 200, usize::MAX, performance.clone(), Box::new(|_| {}));
    let busy = async {
        yield_to_event_loop().await;
        let spin = || {
            let t0 = performance.now();
            while performance.now() - t0 < 1000.0 {}
        };
        source.busy(spin).1
    };
    let (page, busy_ms) = futures::join!(source.load(&url), busy);
    assert!(busy_ms >= 1000.0, "the main thread was busy for five timeouts");
    let page = page.unwrap_or_else(|e| panic!("the answered request failed: {e}"));
    assert!(page.tree.len() > 1);
}
