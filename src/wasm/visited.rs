//! Visited routes in the page: while "Learn from pages I visit" is on for
//! the site, the route watcher (`extension/route-watch.js`) hands each
//! rendered route to `remember_route`, and Extract runs on them with
//! `extract_visited`. The snapshots live in this module's memory only: they
//! vanish with the page. Glue only: the method is `visited_routes`'.

use std::cell::RefCell;
use std::sync::Arc;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::failure::{text, Failure};
use super::live_snapshot::LiveSnapshot;
use super::{
    check, document, install, json_to_js, live_dom, read_key, reject, sentence, take_last, to_js, web_page_url, Check,
    Extracted,
};
use crate::base::config::Config;
use crate::base::error::ExtractError;
use crate::extraction::extract::Extraction;
use crate::memory::visited_routes::{VisitedError, VisitedRoutes};

thread_local! {
    static VISITED: RefCell<VisitedRoutes> = RefCell::new(VisitedRoutes::new());
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// What keeping one route cost, for the popup's callers and `scripts/spa-cost.mjs`.
#[derive(Serialize)]
struct Remembered {
    /// Routes kept besides this one.
    others: usize,
    elements: usize,
    snapshot_ms: f64,
}

/// Keeps a snapshot of the route now rendered.
#[wasm_bindgen]
pub fn remember_route() -> Result<JsValue, JsValue> {
    let doc = document()?;
    let url = web_page_url(&doc)?;
    let root = doc.document_element().ok_or("the page has no elements")?;
    let t0 = now();
    let Some((tree, _)) = live_dom::snapshot(&root) else { return Ok(JsValue::NULL) };
    let snapshot_ms = now() - t0;
    let others = VISITED.with_borrow_mut(|routes| {
        routes.remember(&url, &tree);
        routes.others(&url)
    });
    to_js(&Remembered { others, elements: tree.len(), snapshot_ms })
}

/// How many visited routes other than the current one are kept.
#[wasm_bindgen]
pub fn visited_count() -> Result<usize, JsValue> {
    let url = web_page_url(&document()?)?;
    Ok(VISITED.with_borrow(|routes| routes.others(&url)))
}

#[derive(Serialize)]
struct Visited {
    /// Visited pages that voted.
    used: usize,
    /// Visited pages kept besides the current one.
    kept: usize,
}

#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    extraction: &'a Extraction,
    key_snapshot_ms: f64,
    key_snapshot_kept: bool,
    check: Option<Check>,
    visited: Visited,
}

fn failure(e: &VisitedError) -> JsValue {
    match e {
        VisitedError::TooFew { more: 1, .. } => reject(Failure::new(e, "errorVisitOneMore", vec![])),
        VisitedError::TooFew { more, .. } => reject(Failure::new(e, "errorVisitMore", vec![text(more)])),
        VisitedError::Extract(x) => reject(Failure::from(x)),
    }
}

/// Extracts the template of this page with the visited routes as its
/// candidates: no page is loaded. Resolves to the core's report with
/// `visited: {used, kept}`, installed as the page's current result.
#[wasm_bindgen]
pub async fn extract_visited(config_json: String) -> Result<JsValue, JsValue> {
    let cfg: Config = serde_json::from_str(&config_json).map_err(|e| sentence(ExtractError::Config(e.to_string())))?;
    let doc = document()?;
    let url = web_page_url(&doc)?;
    let previous = take_last(&doc)?;
    let performance = web_sys::window().and_then(|w| w.performance()).ok_or("this browser has no performance clock")?;
    let (key, elements, taken, kept) = read_key(&doc, &url, previous, &performance).await?;
    // Taken out for the extraction, so no borrow spans an await; a route
    // remembered meanwhile is newer and stays in front.
    let routes = VISITED.with_borrow_mut(std::mem::take);
    let outcome = routes.extract(&cfg, &key, now).await;
    let visited = routes.others(&url);
    VISITED.with_borrow_mut(|r| {
        let newer = std::mem::replace(r, routes);
        r.absorb(newer);
    });
    let page = LiveSnapshot { tree: Arc::unwrap_or_clone(key.tree), elements, taken }.served();
    let extraction = match outcome {
        Ok(x) => x,
        Err(e) => {
            page.keep();
            return Err(failure(&e));
        }
    };
    let out = json_to_js(&Report {
        extraction: &extraction,
        key_snapshot_ms: key.snapshot_ms,
        key_snapshot_kept: kept,
        check: check(&page.tree, &extraction.template),
        visited: Visited { used: extraction.cs.size, kept: visited },
    });
    install(Extracted::new(url, page, extraction.template, Vec::new()));
    out
}
