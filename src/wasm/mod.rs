//! The extension's entry points: the content script calls these in the
//! page, with the live DOM at hand. Glue only: the algorithm is the core's.
//!
//! May use: every layer; no layer uses it (the CLI in `src/bin` is the
//! native side's glue).

mod cancel;
mod failure;
pub mod fetch_source;
pub mod live_dom;
pub mod live_snapshot;
mod memory;
mod panic_report;
mod save;
pub mod slices;
pub mod view;
mod visited;

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use serde::Serialize;
use url::Url;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use crate::base::config::Config;
use crate::base::error::{ExtractError, LoadError};
use crate::candidates::hyperlink::page_links;
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::eval::score::{disagreement, has_gold, macro_average, score, Score};
use crate::extraction::template_paths::{template_paths_within, MAX_REPORT_PATH_BYTES};
use crate::page::dom::Tree;
use crate::served::served_key::{extract_live, Fallback, KeyLoads, KeySource, LiveExtraction};
use cancel::Cancellable;
use failure::{text, Failure};
use fetch_source::{FetchSource, Step};
use live_snapshot::LiveSnapshot;
use view::View;

/// The last extraction of this page, kept for the views and for saving.
struct Extracted {
    url: Url,
    page: LiveSnapshot,
    template: Vec<bool>,
    /// Per node: added by the page's scripts (no served counterpart); empty
    /// when nothing was compared with the served page.
    added: Vec<bool>,
    view: View,
    /// The marks on the page: those of the view shown, and while a view is
    /// being applied those of the view before it too.
    marked: view::Marks,
}

impl Extracted {
    /// A new result, shown in the original view.
    fn new(url: Url, page: LiveSnapshot, template: Vec<bool>, added: Vec<bool>) -> Self {
        Self { url, page, template, added, view: View::Original, marked: view::Marks::new() }
    }

    /// The marks a view applies. The Content view and its reading column
    /// treat what scripts added as frame too (a cookie banner or a chat
    /// bubble is not content); the other views show the template alone.
    fn marks(&self, content_view: bool) -> Cow<'_, [bool]> {
        if !content_view || self.added.is_empty() {
            return Cow::Borrowed(&self.template);
        }
        Cow::Owned(self.template.iter().zip(&self.added).map(|(&t, &a)| t || a).collect())
    }
}

thread_local! {
    static LAST: RefCell<Option<Extracted>> = const { RefCell::new(None) };
}

#[wasm_bindgen(start)]
fn start() {
    panic_report::install();
}

/// What the progress callback receives: `snapshot` (reading the page),
/// `loading` (`loaded` of `planned` candidate loads finished), then
/// `comparing` (`loaded` pages compared with the key page so far).
#[derive(Serialize)]
struct Progress {
    phase: &'static str,
    loaded: usize,
    planned: usize,
}

/// What `extract` resolves to besides the core's own report.
#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    extraction: &'a crate::extraction::extract::Extraction,
    /// Which key page the linked pages were compared with, and what scripts added.
    key_source: &'a KeySource,
    /// Why the served key page could not be read, as a sentence any locale renders.
    key_fallback_reason: Option<Failure>,
    key_snapshot_ms: f64,
    /// An earlier click read the page and it has not changed since: this one did not read it.
    key_snapshot_kept: bool,
    /// Only for a page with gold marks (a benchmark key page).
    check: Option<Check>,
}

/// How the extraction scores against the page's gold marks.
#[derive(Serialize)]
struct Check {
    #[serde(flatten)]
    score: Score,
    /// Topmost nodes of missed and of wrongly retrieved subtrees.
    misses: usize,
    false_hits: usize,
}

fn check(tree: &Tree, template: &[bool]) -> Option<Check> {
    has_gold(tree).then(|| {
        let wrong = disagreement(tree, template);
        Check { score: score(tree, template), misses: wrong.misses.len(), false_hits: wrong.false_hits.len() }
    })
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// A large value (the report lists every node) as one JSON string parsed
/// by the browser: far fewer boundary crossings than building it value by value.
fn json_to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let json = serde_json::to_string(value).map_err(|e| JsValue::from_str(&e.to_string()))?;
    js_sys::JSON::parse(&json)
}

fn document() -> Result<Document, JsValue> {
    web_sys::window().and_then(|w| w.document()).ok_or_else(|| "this script has no document".into())
}

/// Tells the popup how far an extraction got; a failing callback must not stop it.
fn notify(progress: &js_sys::Function, phase: &'static str, loaded: usize, planned: usize) {
    if let Ok(p) = to_js(&Progress { phase, loaded, planned }) {
        let _ = progress.call1(&JsValue::NULL, &p);
    }
}

/// A failure as the content script receives it: `{message, key, args}`.
fn reject(f: Failure) -> JsValue {
    to_js(&f).unwrap_or_else(|_| JsValue::from_str(&f.message))
}

fn sentence(e: ExtractError) -> JsValue {
    reject(Failure::from(&e))
}

/// A named preset of the core (`default`, `paper`, `intersection`, `rtdm`)
/// as JSON, or `None` for an unknown name: the options page offers them and
/// Check benchmarks runs them side by side.
#[wasm_bindgen]
pub fn preset_config(name: &str) -> Option<String> {
    Config::preset(name).map(|cfg| serde_json::to_string(&cfg).expect("the config serialises"))
}

/// Macro averages (recall, precision, F1, content F1) of a list of scores, for Check
/// benchmarks: the same arithmetic as the CLI's `bench`.
#[wasm_bindgen]
pub fn macro_average_of(scores_json: &str) -> Result<JsValue, JsValue> {
    let scores: Vec<Score> = serde_json::from_str(scores_json).map_err(|e| JsValue::from_str(&e.to_string()))?;
    to_js(&macro_average(&scores))
}

/// Macro averages of calling every node template on the same pages: the
/// baseline row of Check benchmarks.
#[wasm_bindgen]
pub fn everything_is_template_of(scores_json: &str) -> Result<JsValue, JsValue> {
    let scores: Vec<Score> = serde_json::from_str(scores_json).map_err(|e| JsValue::from_str(&e.to_string()))?;
    let all: Vec<Score> = scores.iter().map(crate::eval::score::everything_is_template).collect();
    to_js(&macro_average(&all))
}

/// Why a (possibly partial) configuration cannot run, as `{message, key,
/// args}` (one sentence in the browser's language), or `None` when it can:
/// the options page refuses to store a broken one.
#[wasm_bindgen]
pub fn config_failure(config_json: &str) -> Option<JsValue> {
    let problem = match serde_json::from_str::<Config>(config_json) {
        Ok(cfg) => cfg.validate().err()?,
        Err(e) => ExtractError::Config(e.to_string()),
    };
    Some(sentence(problem))
}

/// Stops the running extraction: loads not yet answered are dropped and
/// `extract` rejects with the "cancelled" sentence.
#[wasm_bindgen]
pub fn cancel() {
    cancel::request();
}

/// Extracts the template of the page this script runs in, leaving the page in
/// its original view. `config_json` is a (possibly partial) core `Config`;
/// `progress` is called with `{phase, loaded, planned}`. Resolves to the
/// core's report or rejects with `{message, key, args}` (one readable sentence).
#[wasm_bindgen]
pub async fn extract(config_json: String, progress: js_sys::Function) -> Result<JsValue, JsValue> {
    let cfg: Config = serde_json::from_str(&config_json).map_err(|e| sentence(ExtractError::Config(e.to_string())))?;
    let doc = document()?;
    let window = web_sys::window().ok_or("this script has no window")?;
    let performance = window.performance().ok_or("this browser has no performance clock")?;
    let url = web_page_url(&doc)?;
    // Only the elements the view shown marked are touched (none in the
    // original view), not every element, which would also make the browser
    // recompute the page's style before the next outline.
    let previous = LAST.with_borrow_mut(Option::take);
    if let Some(l) = &previous {
        view::restore(&doc, &l.page.elements, &l.marked)?;
    }

    notify(&progress, "snapshot", 0, 0);
    let planned = Rc::new(Cell::new(0usize));
    let loaded = Cell::new(0usize);
    // One load is the key page as served (`served_key`), not a linked page; it
    // loads beside the first linked pages, so the first to end is left out.
    let key_served = Cell::new(false);
    let on_step = Box::new({
        let (progress, planned) = (progress.clone(), planned.clone());
        move |step| match step {
            Step::Loaded if !key_served.replace(true) => {}
            Step::Loaded => {
                loaded.set(loaded.get() + 1);
                notify(&progress, "loading", loaded.get(), planned.get());
            }
            Step::Compared(pages) => notify(&progress, "comparing", pages, 0),
        }
    });
    let fetch = FetchSource::new(url.origin(), cfg.timeout_ms, cfg.max_nodes, performance.clone(), on_step);
    let source = Cancellable::new(fetch, cancel::Scope::begin());
    let loads = KeyLoads::new(&source);
    // The served GET leaves before the page is read, unless the page links
    // nowhere (it is refused after the read, and would have sent it for nothing).
    if doc.links().length() > 0 {
        loads.start_served(&url).await;
    }
    let read = source.scope().unless_cancelled(read_key(&doc, &url, previous.map(|l| l.page), &performance)).await;
    let Some(read) = read else { return Err(reject(Failure::cancelled())) };
    let (key, elements, taken, kept) = read?;
    // The read's last step has just run: the page runs before the links are read.
    slices::yield_to_event_loop().await;

    planned.set(page_links(&key.tree, &url).len().min(cfg.max_loads));
    notify(&progress, "loading", 0, planned.get());
    let outcome = extract_live(&cfg, &loads, &key).await;
    let page = LiveSnapshot { tree: Arc::unwrap_or_clone(key.tree), elements, taken }.served();
    let extraction = match outcome {
        _ if source.cancelled() => {
            page.keep();
            return Err(reject(Failure::cancelled()));
        }
        Err(e) => {
            page.keep();
            return Err(sentence(e));
        }
        Ok(live) => live,
    };
    let LiveExtraction { extraction, added, key_source } = extraction;
    source.pause_while_loading().await;

    let out = json_to_js(&Report {
        extraction: &extraction,
        key_source: &key_source,
        key_fallback_reason: match &key_source.fallback {
            Some(Fallback::LoadFailed { error }) => Some(Failure::from(error)),
            _ => None,
        },
        key_snapshot_ms: key.snapshot_ms,
        key_snapshot_kept: kept,
        check: check(&page.tree, &extraction.template),
    });
    install(Extracted::new(url, page, extraction.template, added));
    out
}

fn with_last<T>(f: impl FnOnce(&Document, &mut Extracted) -> Result<T, JsValue>) -> Result<T, JsValue> {
    let doc = document()?;
    LAST.with_borrow_mut(|last| match last.as_mut() {
        Some(l) => f(&doc, l),
        None => Err(reject(Failure::new("Extract the template of this page first.", "errorExtractFirst", vec![]))),
    })
}

/// The readable paths of the current result's template nodes (for the
/// whole report: a path per node is too much to build on every click), at
/// most [`MAX_REPORT_PATH_BYTES`] of them: `{paths, omitted}`.
#[wasm_bindgen]
pub fn template_paths() -> Result<JsValue, JsValue> {
    #[derive(Serialize)]
    struct Paths {
        paths: Vec<String>,
        omitted: usize,
    }
    with_last(|_, l| {
        let (paths, omitted) = template_paths_within(&l.page.tree, &l.template, MAX_REPORT_PATH_BYTES);
        json_to_js(&Paths { paths, omitted })
    })
}

/// Shows `name` (`original`, `template` or `content`); resolves to the view
/// shown. Applied in steps (see [`view::show`]); a view asked for meanwhile
/// takes over, and this call resolves to that one.
#[wasm_bindgen]
pub async fn set_view(name: String) -> Result<String, JsValue> {
    let view = View::parse(&name).ok_or_else(|| {
        reject(Failure::new(format!("There is no view called {name}."), "errorNoView", vec![text(&name)]))
    })?;
    let (elements, shown, plan) = with_last(|_, l| {
        if view == View::Check && !has_gold(&l.page.tree) {
            return Err(reject(Failure::new(
                "This page has no gold marks (class notTemplate), so there is nothing to check against.",
                "errorNoGold",
                vec![],
            )));
        }
        let plan = view::plan(&l.page.tree, &l.marks(view == View::Content), view);
        let shown = std::mem::take(&mut l.marked);
        l.marked = shown.iter().chain(&plan.0).copied().collect();
        l.view = view;
        Ok((l.page.elements.clone(), shown, plan))
    })?;
    let performance = web_sys::window().and_then(|w| w.performance()).ok_or("this browser has no performance clock")?;
    let slices = slices::Slices::new(performance);
    let done = view::show(&document()?, &elements, &shown, (&plan.0, &plan.1), &slices).await?;
    LAST.with_borrow_mut(|last| match last.as_mut() {
        Some(l) if done && Rc::ptr_eq(&l.page.elements, &elements) => {
            l.marked = plan.0;
            Ok(view.name().to_string())
        }
        Some(l) => Ok(l.view.name().to_string()),
        None => Ok(View::Original.name().to_string()),
    })
}

/// The template of the last extraction as a standalone HTML document.
#[wasm_bindgen]
pub fn template_html() -> Result<String, JsValue> {
    with_last(|doc, l| save::template_html(doc, &l.page.tree, &l.template, l.url.as_str()))
}

/// The roots of the page's template regions (`template`: subtrees that are
/// template through and through), content regions (`content`) or the frame
/// within content regions (`frame`: what scripts added to the content, a
/// cookie banner or an ad slot), as live elements: the page view outlines
/// the first, lays out the second for reading and leaves the third out of
/// it, without naming our marks. At most `max` of them, the first in
/// document order: handing 100,000 elements over to be outlined is work
/// enough to freeze the tab.
#[wasm_bindgen]
pub fn regions(kind: &str, max: Option<usize>) -> Result<js_sys::Array, JsValue> {
    if !matches!(kind, "template" | "content" | "frame") {
        return Err(reject(Failure::new(format!("There is no view called {kind}."), "errorNoView", vec![text(kind)])));
    }
    with_last(|_, l| {
        let tree = &l.page.tree;
        let roots = match kind {
            "template" => view::hidden_roots(tree, &l.template, View::Content),
            // The reading column holds content only: what scripts added is frame there.
            "content" => view::hidden_roots(tree, &l.marks(true), View::Template),
            _ => view::frame_in_content(tree, &l.marks(true)),
        };
        let roots = roots.iter().zip(l.page.elements.iter()).filter(|(r, _)| **r);
        Ok(roots.take(max.unwrap_or(usize::MAX)).map(|(_, e)| JsValue::from(e)).collect())
    })
}

/// A new element of ours at the end of the page (skipped by snapshots,
/// removed on restore), to host the page view's outline and badge.
#[wasm_bindgen]
pub fn own_host(tag: &str) -> Result<Element, JsValue> {
    let doc = document()?;
    let host = doc.create_element(tag)?;
    host.set_attribute(&live_dom::mark(live_dom::OWN), "")?;
    doc.document_element().ok_or("the page has no root element")?.append_child(&host)?;
    Ok(host)
}

/// Template memory's hook: drops the current result and its marks before
/// the live page is read again, and hands back its snapshot, which the read
/// reuses if the page is unchanged. In the original view there are no marks
/// to remove (and the snapshot skips our own elements), so a page with
/// thousands of elements is not walked for nothing.
fn take_last(doc: &Document) -> Result<Option<LiveSnapshot>, JsValue> {
    let Some(l) = LAST.with_borrow_mut(Option::take) else { return Ok(None) };
    view::restore(doc, &l.page.elements, &l.marked)?;
    Ok(Some(l.page))
}

/// The page's address, refused in one sentence unless it is a web page.
fn web_page_url(doc: &Document) -> Result<Url, JsValue> {
    let url = Url::parse(&doc.url()?).map_err(|_| sentence(ExtractError::Restricted(doc.url().unwrap_or_default())))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(sentence(ExtractError::Restricted(url.to_string())));
    }
    Ok(url)
}

/// The live page as the key page of an extraction (the previous click's
/// snapshot when the page has not changed since), its elements, and whether
/// the snapshot was kept. Read in slices: a page of 100,000 elements takes
/// a few hundred milliseconds, and the tab goes on meanwhile.
async fn read_key(
    doc: &Document,
    url: &Url,
    previous: Option<LiveSnapshot>,
    performance: &web_sys::Performance,
) -> Result<(LoadedPage, Rc<[Element]>, live_snapshot::Taken, bool), JsValue> {
    let t0 = performance.now();
    let empty = || sentence(ExtractError::KeyPage(LoadError::Empty { url: url.to_string() }));
    let root = doc.document_element().ok_or_else(empty)?;
    let slices = slices::Slices::new(performance.clone());
    let (page, kept) = live_snapshot::current_in_steps(&root, url, previous, &slices).await.ok_or_else(empty)?;
    let LiveSnapshot { tree, elements, taken } = page;
    let key = LoadedPage {
        url: url.clone(),
        tree: tree.into(),
        fetch_ms: 0.0,
        parse_ms: 0.0,
        snapshot_ms: performance.now() - t0,
    };
    Ok((key, elements, taken, kept))
}

/// Template memory's hook: a remembered template becomes the page's current
/// result, as an extraction's would.
fn install(extracted: Extracted) {
    LAST.with_borrow_mut(|last| *last = Some(extracted));
}
