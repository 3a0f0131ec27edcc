//! Runs the extractor over a benchmark set (../shared/bench/FORMAT.md) and
//! scores each key page against its gold marks.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::base::config::Config;
use crate::candidates::complete_subdigraph::CsKind;
use crate::candidates::page_source::PageSource;
use crate::decide::evidence::Weakness;
use crate::eval::score::{has_gold, macro_average, score, MacroAverage, Score};
use crate::extraction::extract::{extract, Timings};
use crate::sources::site_folder::SiteFolder;

/// Why a benchmark set could not be read.
#[derive(Debug, Error)]
pub enum BenchError {
    #[error("{0} is not a benchmark set: it has neither index.json nor site folders with bench.json")]
    NotASet(PathBuf),
    #[error("{path} could not be read: {reason}")]
    Unreadable { path: PathBuf, reason: String },
}

/// The part of a site's bench.json the runner needs.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct SiteInfo {
    pub id: String,
    pub key: String,
    /// The site's kind (docs, news, shop…): what leave-one-genre-out
    /// cross-validation holds out together.
    #[serde(default)]
    pub genre: String,
    #[serde(skip)]
    pub dir: PathBuf,
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, BenchError> {
    let unreadable = |reason: String| BenchError::Unreadable { path: path.to_path_buf(), reason };
    let text = std::fs::read_to_string(path).map_err(|e| unreadable(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))
}

/// The sites of a set, in the order of its index.json (or by name).
pub fn read_set(dir: &Path) -> Result<Vec<SiteInfo>, BenchError> {
    let index = dir.join("index.json");
    let ids: Vec<String> = if index.is_file() {
        read_json(&index)?
    } else {
        let mut ids: Vec<String> = std::fs::read_dir(dir)
            .map_err(|_| BenchError::NotASet(dir.to_path_buf()))?
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("bench.json").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        ids.sort();
        ids
    };
    if ids.is_empty() {
        return Err(BenchError::NotASet(dir.to_path_buf()));
    }
    ids.iter()
        .map(|id| {
            let mut info: SiteInfo = read_json(&dir.join(id).join("bench.json"))?;
            info.dir = dir.join(id).join("site");
            Ok(info)
        })
        .collect()
}

/// One site under one configuration.
#[derive(Clone, Debug, Serialize)]
pub struct SiteResult {
    pub site: String,
    pub genre: String,
    pub key: String,
    #[serde(flatten)]
    pub score: Score,
    pub loads: usize,
    pub fetched: usize,
    pub cs_kind: Option<CsKind>,
    pub cs_size: usize,
    pub timings: Timings,
    /// Why the extraction's evidence was weak, if it was (`decide::evidence`).
    pub weakness: Option<Weakness>,
    pub error: Option<String>,
}

/// Extracts and scores one site.
pub fn run_site(cfg: &Config, site: &SiteInfo) -> SiteResult {
    let source = SiteFolder::new(&site.dir, cfg.max_nodes);
    let url = source.url_of(&site.key);
    let mut r = SiteResult {
        site: site.id.clone(),
        genre: site.genre.clone(),
        key: site.key.clone(),
        score: Score::default(),
        loads: 0,
        fetched: 0,
        cs_kind: None,
        cs_size: 0,
        timings: Timings::default(),
        weakness: None,
        error: None,
    };
    let outcome = futures::executor::block_on(async {
        let key = source.load_key(&url).await.map_err(|e| crate::base::error::ExtractError::KeyPage(e).to_string())?;
        if !has_gold(&key.tree) {
            return Err(format!("{} carries no notTemplate marks", site.key));
        }
        let x = extract(cfg, &source, &key).await.map_err(|e| e.to_string())?;
        Ok((score(&key.tree, &x.template), x))
    });
    match outcome {
        Ok((s, x)) => {
            r.score = s;
            r.loads = x.loads;
            r.fetched = x.fetched;
            r.cs_kind = Some(x.cs.kind);
            r.cs_size = x.cs.size;
            r.timings = x.timings;
            r.weakness = x.evidence.weakness;
        }
        Err(e) => r.error = Some(e),
    }
    r
}

/// A whole set under one named configuration.
#[derive(Clone, Debug, Serialize)]
pub struct ConfigRun {
    pub name: String,
    pub config: Config,
    pub sites: Vec<SiteResult>,
    pub average: MacroAverage,
    pub mean_loads: f64,
    pub mean_total_ms: f64,
    /// Sites whose extraction said its evidence was weak.
    pub weak: usize,
}

pub fn run_set(name: &str, cfg: &Config, sites: &[SiteInfo]) -> ConfigRun {
    let results: Vec<SiteResult> = sites.iter().map(|s| run_site(cfg, s)).collect();
    let n = results.len().max(1) as f64;
    ConfigRun {
        name: name.to_string(),
        config: cfg.clone(),
        average: macro_average(results.iter().map(|r| &r.score)),
        mean_loads: results.iter().map(|r| r.loads as f64).sum::<f64>() / n,
        mean_total_ms: results.iter().map(|r| r.timings.total_ms).sum::<f64>() / n,
        weak: results.iter().filter(|r| r.weakness.is_some()).count(),
        sites: results,
    }
}

/// The baseline every method must beat: every node of every key page
/// called template (content F1 0 by construction).
pub fn everything_is_template(sites: &[SiteInfo]) -> MacroAverage {
    let scores: Vec<Score> = sites
        .iter()
        .filter_map(|site| {
            let source = SiteFolder::new(&site.dir, usize::MAX);
            let key = futures::executor::block_on(source.load(&source.url_of(&site.key))).ok()?;
            Some(crate::eval::score::everything_is_template(&score(&key.tree, &vec![false; key.tree.len()])))
        })
        .collect();
    macro_average(&scores)
}

/// Template memory on one site: learn from other pages of the site, then
/// serve the key page from memory with zero loads, scored beside the full
/// extraction of the key page.
#[derive(Clone, Debug, Serialize)]
pub struct MemoryCheck {
    pub site: String,
    /// Pages whose full extraction was learnt, in the key page's link order,
    /// until the key page matched a cluster (at most [`MEMORY_PAGES`]).
    pub learnt: Vec<String>,
    /// Layout similarity of the key page to the cluster that served it (or
    /// to the closest cluster when none fitted).
    pub similarity: Option<f64>,
    /// The key page's template from memory (0 loads); `None` when no cluster fitted.
    pub reused: Option<Score>,
    /// Time to find the cluster and map its skeleton, in milliseconds.
    pub reuse_ms: f64,
    /// The key page's full extraction.
    pub full: Score,
    pub full_loads: usize,
    pub full_ms: f64,
    pub error: Option<String>,
}

/// Most pages a memory check learns before it gives up on the key page.
pub const MEMORY_PAGES: usize = 4;

/// Runs the memory check on one site.
pub fn run_memory_check(cfg: &Config, site: &SiteInfo) -> MemoryCheck {
    use crate::candidates::hyperlink::{page_links, same_document};
    use crate::candidates::link_order::sort_links;
    use crate::memory::template_memory::Memory;

    let source = SiteFolder::new(&site.dir, cfg.max_nodes);
    let url = source.url_of(&site.key);
    let mut check = MemoryCheck {
        site: site.id.clone(),
        learnt: Vec::new(),
        similarity: None,
        reused: None,
        reuse_ms: 0.0,
        full: Score::default(),
        full_loads: 0,
        full_ms: 0.0,
        error: None,
    };
    let outcome = futures::executor::block_on(async {
        let key = source.load_key(&url).await.map_err(|e| crate::base::error::ExtractError::KeyPage(e).to_string())?;
        let x = extract(cfg, &source, &key).await.map_err(|e| e.to_string())?;
        check.full = score(&key.tree, &x.template);
        check.full_loads = x.loads;
        check.full_ms = x.timings.total_ms;
        let mut memory = Memory::new();
        for link in sort_links(&key.tree, &key.url, &page_links(&key.tree, &key.url)) {
            if check.learnt.len() == MEMORY_PAGES {
                break;
            }
            if same_document(&link.url, &key.url) {
                continue;
            }
            let Ok(page) = source.load(&link.url).await else { continue };
            let Ok(px) = extract(cfg, &source, &page).await else { continue };
            memory.learn(&site.id, cfg, &page.url, &page.tree, &px.template);
            check.learnt.push(page.url.path().to_string());
            let start = source.now_ms();
            if let Some((i, similarity)) = memory.find(&site.id, cfg, &key.tree) {
                let template = memory.sites[&site.id][i].apply(cfg, &key.tree);
                check.reuse_ms = source.now_ms() - start;
                check.similarity = Some(similarity);
                check.reused = Some(score(&key.tree, &template));
                break;
            }
            check.similarity = memory.closest(&site.id, cfg, &key.tree).map(|(_, s)| s);
        }
        Ok::<(), String>(())
    });
    if let Err(e) = outcome {
        check.error = Some(e);
    }
    check
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On the dev set, key pages served from a memory learnt on other pages
    /// (sites with no fitting cluster fall back to the full method) score
    /// within one F1 point of the full extraction.
    #[test]
    fn memory_reuse_scores_like_the_full_method_on_the_dev_set() {
        let set = Path::new("../shared/bench/dev");
        if !set.join("index.json").is_file() {
            eprintln!("skipped: ../shared/bench/dev is missing, so the memory check cannot run");
            return;
        }
        let cfg = Config::default();
        let checks: Vec<MemoryCheck> = read_set(set).unwrap().iter().map(|s| run_memory_check(&cfg, s)).collect();
        assert!(checks.iter().all(|c| c.error.is_none()), "{checks:?}");
        let served = checks.iter().filter(|c| c.reused.is_some()).count();
        assert!(served * 2 >= checks.len(), "only {served} of {} sites served from memory", checks.len());
        let n = checks.len() as f64;
        let memory = checks.iter().map(|c| c.reused.unwrap_or(c.full).f1).sum::<f64>() / n;
        let full = checks.iter().map(|c| c.full.f1).sum::<f64>() / n;
        assert!((memory - full).abs() <= 0.01, "memory {memory:.4} vs full {full:.4}");
    }
}
