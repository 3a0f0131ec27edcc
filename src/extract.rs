//! One extraction from start to end: the key page's links, their order,
//! the complete subdigraph, the mappings and the votes.

use serde::Serialize;
use url::Url;

use crate::complete_subdigraph::{find_cs, CsKind, LoadRecord};
use crate::config::Config;
use crate::dom::{NodeId, Tree};
use crate::error::ExtractError;
use crate::hyperlink::page_links;
use crate::link_order::sort_links;
use crate::mapping::Mapping;
use crate::page_source::{LoadedPage, PageSource};
use crate::template::{count, map_page, template, votes_needed};
use crate::text_recurrence::{keep_repeated_content, subtree_words};

/// Time spent per phase, in milliseconds. Fetch, parse and snapshot add up
/// the per-page times (pages may load concurrently, so their sum can exceed
/// the wall time of the CS search).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Timings {
    pub fetch_ms: f64,
    pub parse_ms: f64,
    pub snapshot_ms: f64,
    pub link_order_ms: f64,
    /// Wall time of the CS search, loads included.
    pub cs_search_ms: f64,
    pub mapping_ms: f64,
    /// Wall time of the whole extraction after the key page was loaded.
    pub total_ms: f64,
}

/// The complete subdigraph used.
#[derive(Clone, Debug, Serialize)]
pub struct CsSummary {
    pub kind: CsKind,
    pub wanted: usize,
    pub size: usize,
    pub pages: Vec<Url>,
}

/// Everything an extraction found.
#[derive(Clone, Debug, Serialize)]
pub struct Extraction {
    pub key_url: Url,
    /// Template membership per key node, in document order.
    #[serde(skip)]
    pub template: Vec<bool>,
    /// Document-order indexes of the template nodes (how the browser finds
    /// them again in the live page).
    pub template_ids: Vec<u32>,
    pub template_nodes: usize,
    pub total_nodes: usize,
    pub links: usize,
    pub cs: CsSummary,
    pub votes_needed: usize,
    /// Pages loaded, the key page included (the paper's "loads").
    pub loads: usize,
    /// Candidate loads started, speculative prefetches included.
    pub fetched: usize,
    pub load_log: Vec<LoadRecord>,
    pub timings: Timings,
}

/// Extracts the template of an already loaded key page.
pub async fn extract<S: PageSource>(cfg: &Config, source: &S, key: &LoadedPage) -> Result<Extraction, ExtractError> {
    cfg.validate()?;
    if !matches!(key.url.scheme(), "http" | "https") {
        return Err(ExtractError::Restricted(key.url.to_string()));
    }
    if key.tree.len() > cfg.max_nodes {
        return Err(ExtractError::KeyPage(crate::error::LoadError::TooLarge {
            url: key.url.to_string(),
            nodes: key.tree.len(),
            limit: cfg.max_nodes,
        }));
    }
    let start = source.now_ms();
    let links = page_links(&key.tree, &key.url);
    if links.is_empty() {
        return Err(ExtractError::NoLinks);
    }
    let sorted = sort_links(&key.tree, &key.url, &links);
    let ordered = source.now_ms();

    let search = find_cs(source, &sorted, cfg).await;
    let searched = source.now_ms();
    if search.members.is_empty() {
        return Err(ExtractError::NoCandidates(search.loads));
    }

    let (records, mut loaded): (Vec<LoadRecord>, Vec<Option<LoadedPage>>) = search.pages.into_iter().unzip();
    let candidates: Vec<LoadedPage> =
        search.members.iter().map(|&i| loaded[i].take().expect("members loaded")).collect();
    let key_words = subtree_words(&key.tree);
    let mut mappings: Vec<Mapping> = Vec::with_capacity(candidates.len());
    for c in &candidates {
        source.pause().await;
        let m = map_page(cfg, &key.tree, &c.tree);
        mappings.push(if cfg.content.enabled {
            keep_repeated_content(&cfg.content, &key.tree, &key_words, &c.tree, &m)
        } else {
            m
        });
    }
    let template = template(cfg, &key.tree, &mappings);
    let mapped = source.now_ms();

    let timings = Timings {
        fetch_ms: key.fetch_ms + records.iter().map(|r| r.fetch_ms).sum::<f64>(),
        parse_ms: key.parse_ms + records.iter().map(|r| r.parse_ms).sum::<f64>(),
        snapshot_ms: key.snapshot_ms + records.iter().map(|r| r.snapshot_ms).sum::<f64>(),
        link_order_ms: ordered - start,
        cs_search_ms: searched - ordered,
        mapping_ms: mapped - searched,
        total_ms: mapped - start,
    };
    Ok(Extraction {
        key_url: key.url.clone(),
        template_ids: ids(&template),
        template_nodes: count(&template),
        total_nodes: key.tree.len(),
        links: links.len(),
        cs: CsSummary {
            kind: search.kind,
            wanted: cfg.cs_size,
            size: candidates.len(),
            pages: candidates.iter().map(|c| c.url.clone()).collect(),
        },
        votes_needed: votes_needed(cfg, candidates.len()),
        loads: search.loads + 1,
        fetched: search.fetched,
        load_log: records,
        template,
        timings,
    })
}

/// Loads the key page through the source, then extracts.
pub async fn extract_url<S: PageSource>(cfg: &Config, source: &S, url: &Url) -> Result<Extraction, ExtractError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(ExtractError::Restricted(url.to_string()));
    }
    let key = source.load(url).await.map_err(ExtractError::KeyPage)?;
    extract(cfg, source, &key).await
}

fn ids(template: &[bool]) -> Vec<u32> {
    template.iter().enumerate().filter(|(_, &t)| t).map(|(i, _)| i as u32).collect()
}

/// The readable paths of the template nodes, for reports.
pub fn template_paths(tree: &Tree, template: &[bool]) -> Vec<String> {
    tree.nodes().filter(|(id, _)| template[id.index()]).map(|(id, _): (NodeId, _)| tree.path(id)).collect()
}
