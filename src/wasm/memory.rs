//! Template memory in the page: the extension keeps one `Memory` per origin
//! in its storage (as JSON) and asks here whether the live page fits a
//! remembered cluster, or hands over a fresh extraction to remember.
//! Glue only: clustering and mapping are `template_memory`'s.

use serde::Serialize;
use url::Url;
use wasm_bindgen::prelude::*;

use super::{document, live_dom, to_js};
use crate::config::Config;
use crate::template_memory::Memory;

/// What `memory_match` resolves to when a cluster fits.
#[derive(Serialize)]
struct Match {
    cluster: usize,
    similarity: f64,
    /// Document-order indexes of the template elements of the live page.
    template_ids: Vec<u32>,
    template_nodes: usize,
    total_nodes: usize,
}

fn parse_inputs(memory_json: &str, config_json: &str) -> Result<(Memory, Config), JsValue> {
    let memory = if memory_json.is_empty() {
        Memory::new()
    } else {
        Memory::from_json(memory_json)
            .map_err(|e| JsValue::from_str(&format!("The remembered templates cannot be used: {e}.")))?
    };
    let cfg: Config = serde_json::from_str(config_json)
        .map_err(|e| JsValue::from_str(&crate::error::ExtractError::Config(e.to_string()).to_string()))?;
    Ok((memory, cfg))
}

fn live_page() -> Result<(Url, crate::dom::Tree), JsValue> {
    let doc = document()?;
    let url = Url::parse(&doc.url()?).map_err(|e| JsValue::from_str(&e.to_string()))?;
    let root = doc.document_element().ok_or("the page has no elements")?;
    let (tree, _) = live_dom::snapshot(&root).ok_or("the page has no elements")?;
    Ok((url, tree))
}

/// The template of the live page from a remembered cluster of its origin,
/// with zero loads, or `null` when no cluster fits (run `extract` then).
#[wasm_bindgen]
pub fn memory_match(memory_json: &str, config_json: &str) -> Result<JsValue, JsValue> {
    let (memory, cfg) = parse_inputs(memory_json, config_json)?;
    let (url, tree) = live_page()?;
    let site = url.origin().ascii_serialization();
    let Some((cluster, similarity)) = memory.find(&site, &cfg, &tree) else { return Ok(JsValue::NULL) };
    let template = memory.sites[&site][cluster].apply(&cfg, &tree);
    let template_ids: Vec<u32> = (0..tree.len() as u32).filter(|&i| template[i as usize]).collect();
    to_js(&Match { cluster, similarity, template_nodes: template_ids.len(), template_ids, total_nodes: tree.len() })
}

/// The memory with the live page's extracted template (`template_ids`, as
/// `extract` reported them) added as a cluster of its origin, as JSON.
#[wasm_bindgen]
pub fn memory_learn(memory_json: &str, config_json: &str, template_ids: Vec<u32>) -> Result<String, JsValue> {
    let (mut memory, cfg) = parse_inputs(memory_json, config_json)?;
    let (url, tree) = live_page()?;
    let mut template = vec![false; tree.len()];
    for i in template_ids {
        if let Some(t) = template.get_mut(i as usize) {
            *t = true;
        }
    }
    memory.learn(&url.origin().ascii_serialization(), &cfg, &url, &tree, &template);
    Ok(memory.to_json())
}
