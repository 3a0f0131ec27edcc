//! Template memory in the page: the extension keeps one `Memory` per origin
//! in its storage (as JSON, never parsed by JavaScript: its hashes are 64-bit
//! integers a JS number would round) and asks here whether the live page fits
//! a remembered cluster, hands over a fresh extraction to remember, and
//! merges or splits memories for export and import.
//! Glue only: clustering and mapping are `template_memory`'s.

use serde::Serialize;
use url::Url;
use wasm_bindgen::prelude::*;

use super::failure::{text, Failure};
use super::slices::Slices;
use super::{check, document, install, live_snapshot, reject, take_last, to_js, with_last, Check, Extracted};
use crate::base::config::Config;
use crate::base::error::ExtractError;
use crate::memory::template_memory::{layout_signature, rememberable, Memory, MemoryError, ServedPage};

/// Most clusters kept per origin: a site rarely has more page layouts, and
/// a cluster weighs tens of kilobytes, so storage stays small. The oldest
/// cluster goes first.
pub const MAX_CLUSTERS: usize = 8;

/// What `memory_recall` resolves to when a cluster fits: the fields of an
/// extraction's summary the popup shows, plus how the match went.
#[derive(Serialize)]
struct Recalled {
    key_url: String,
    cluster: usize,
    similarity: f64,
    learnt_from: String,
    template_nodes: usize,
    total_nodes: usize,
    /// Parsing the stored memory and the configuration.
    read_ms: f64,
    key_snapshot_ms: f64,
    /// An earlier click read the page and it has not changed since: this one did not read it.
    key_snapshot_kept: bool,
    /// Finding the cluster and mapping its skeleton onto the page.
    match_ms: f64,
    check: Option<Check>,
}

/// What `memory_learn` resolves to.
#[derive(Serialize)]
struct Learnt {
    memory: String,
    clusters: usize,
}

/// One origin of an imported file, as `memory_import` resolves to it.
#[derive(Serialize)]
struct Site {
    origin: String,
    memory: String,
    clusters: usize,
}

fn unusable(e: impl ToString) -> JsValue {
    let e = e.to_string();
    reject(Failure::new(format!("The remembered templates cannot be used: {e}."), "errorMemoryInvalid", vec![text(e)]))
}

fn read_memory(memory_json: &str) -> Result<Memory, JsValue> {
    if memory_json.is_empty() {
        return Ok(Memory::new());
    }
    Memory::from_json(memory_json).map_err(unusable)
}

fn read_config(config_json: &str) -> Result<Config, JsValue> {
    serde_json::from_str(config_json).map_err(|e| reject(Failure::from(&ExtractError::Config(e.to_string()))))
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The template of the live page from a remembered cluster of its origin,
/// with zero loads, installed as the page's current result (views, Save
/// template and regions work as after `extract`); `null` when no cluster
/// fits, so the caller runs `extract`. The page is read in slices, as an
/// extraction reads it, and the page runs between its layout, the cluster
/// found, what is read of the page and the mapping: a recalled page of
/// 200,000 elements was read and served in one go.
#[wasm_bindgen]
pub async fn memory_recall(memory_json: String, config_json: String) -> Result<JsValue, JsValue> {
    let start = now();
    let mut memory = read_memory(&memory_json)?;
    let cfg = read_config(&config_json)?;
    let performance = web_sys::window().and_then(|w| w.performance()).ok_or("this browser has no performance clock")?;
    let slices = Slices::new(performance);
    let doc = document()?;
    let mut url = Url::parse(&doc.url()?).map_err(|e| JsValue::from_str(&e.to_string()))?;
    url.set_fragment(None);
    let site = url.origin().ascii_serialization();
    // Extract on the very page a cluster came from runs the method again:
    // that is how a user refreshes what was learnt there.
    let Some(clusters) = memory.sites.get_mut(&site) else { return Ok(JsValue::NULL) };
    clusters.retain(|c| c.learnt_from != url.as_str());
    let previous = take_last(&doc)?;
    let t0 = now();
    let root = doc.document_element().ok_or("the page has no elements")?;
    let (page, kept) =
        live_snapshot::current_in_steps(&root, &url, previous, &slices).await.ok_or("the page has no elements")?;
    let t1 = now();
    let layout = layout_signature(&page.tree);
    slices.pause().await;
    let Some((cluster, similarity)) = memory.find_by_layout(&site, &cfg, page.tree.len(), &layout) else {
        // The Extract that follows reads the same page.
        page.keep();
        return Ok(JsValue::NULL);
    };
    slices.pause().await;
    let remembered = &memory.sites[&site][cluster];
    // The cluster's skeleton, what is read of the page alone, and the mapping: a step each.
    let template = match remembered.prepare() {
        Some(prepared) => {
            let mut served = ServedPage::new(&page.tree);
            slices.pause().await;
            prepared.serve(&cfg, &mut served)
        }
        None => vec![false; page.tree.len()],
    };
    let match_ms = now() - t1;
    let out = to_js(&Recalled {
        key_url: url.to_string(),
        cluster,
        similarity,
        learnt_from: remembered.learnt_from.clone(),
        template_nodes: template.iter().filter(|t| **t).count(),
        total_nodes: page.tree.len(),
        read_ms: t0 - start,
        key_snapshot_ms: t1 - t0,
        key_snapshot_kept: kept,
        match_ms,
        check: check(&page.tree, &template),
    })?;
    install(Extracted::new(url, page.served(), template, Vec::new()));
    Ok(out)
}

/// The memory with the page's current result (from `extract`) learnt as a
/// cluster of its origin. Clusters the page fits are replaced (the user
/// asked to extract again), and at most [`MAX_CLUSTERS`] are kept. `null`
/// when the template is empty or too large to remember: the memory stays as it was.
#[wasm_bindgen]
pub fn memory_learn(memory_json: &str, config_json: &str) -> Result<JsValue, JsValue> {
    let mut memory = read_memory(memory_json)?;
    let cfg = read_config(config_json)?;
    with_last(|_, last| {
        if !rememberable(&last.template) {
            return Ok(JsValue::NULL);
        }
        let site = last.url.origin().ascii_serialization();
        while let Some((i, _)) = memory.find(&site, &cfg, &last.page.tree) {
            memory.sites.get_mut(&site).expect("a found site").remove(i);
        }
        let mut url = last.url.clone();
        url.set_fragment(None);
        memory.learn(&site, &cfg, &url, &last.page.tree, &last.template);
        let clusters = memory.sites.get_mut(&site).expect("a learnt site");
        let excess = clusters.len().saturating_sub(MAX_CLUSTERS);
        clusters.drain(..excess);
        let clusters = clusters.len();
        to_js(&Learnt { memory: memory.to_json(), clusters })
    })
}

/// One file holding the memories of several origins (each as stored), for
/// export; the same format `tex extract --memory` reads.
#[wasm_bindgen]
pub fn memory_export(memories: Vec<String>) -> Result<String, JsValue> {
    let mut all = Memory::new();
    for json in memories {
        all.sites.extend(read_memory(&json)?.sites);
    }
    Ok(all.to_json())
}

/// An exported file split into one memory per origin, ready to store; a
/// file that is not one (or names something other than web origins) is
/// refused whole with one sentence.
#[wasm_bindgen]
pub fn memory_import(file_text: &str) -> Result<JsValue, JsValue> {
    let memory = Memory::from_json(file_text).map_err(|e| {
        reject(match e {
            // The parser's words ("missing field `version` at line 1 column 18") help nobody choosing a file.
            MemoryError::Invalid(_) => Failure::new(
                "This file is not a template memory exported by Template Extractor, so nothing was imported.",
                "errorMemoryNotOurs",
                vec![],
            ),
            MemoryError::Version { .. } => {
                let e = e.to_string();
                Failure::new(
                    format!("This file is not a template memory exported by Template Extractor: {e}."),
                    "errorMemoryFile",
                    vec![text(e)],
                )
            }
        })
    })?;
    let mut sites = Vec::new();
    for (origin, mut clusters) in memory.sites {
        let is_origin = Url::parse(&origin)
            .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.origin().ascii_serialization() == origin);
        if !is_origin {
            return Err(reject(Failure::new(
                format!("This file names {origin}, which is not a web site's address, so nothing was imported."),
                "errorMemorySite",
                vec![text(&origin)],
            )));
        }
        let excess = clusters.len().saturating_sub(MAX_CLUSTERS);
        clusters.drain(..excess);
        let count = clusters.len();
        let mut one = Memory::new();
        one.sites.insert(origin.clone(), clusters);
        sites.push(Site { origin, memory: one.to_json(), clusters: count });
    }
    to_js(&sites)
}
