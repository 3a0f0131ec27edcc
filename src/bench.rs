//! Runs the extractor over a benchmark set (../shared/bench/FORMAT.md) and
//! scores each key page against its gold marks.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::complete_subdigraph::CsKind;
use crate::config::Config;
use crate::extract::{extract, Timings};
use crate::page_source::PageSource;
use crate::score::{has_gold, macro_average, score, MacroAverage, Score};
use crate::site_folder::SiteFolder;

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
    pub key: String,
    #[serde(flatten)]
    pub score: Score,
    pub loads: usize,
    pub fetched: usize,
    pub cs_kind: Option<CsKind>,
    pub cs_size: usize,
    pub timings: Timings,
    pub error: Option<String>,
}

/// Extracts and scores one site.
pub fn run_site(cfg: &Config, site: &SiteInfo) -> SiteResult {
    let source = SiteFolder::new(&site.dir, cfg.max_nodes);
    let url = source.url_of(&site.key);
    let mut r = SiteResult {
        site: site.id.clone(),
        key: site.key.clone(),
        score: Score::default(),
        loads: 0,
        fetched: 0,
        cs_kind: None,
        cs_size: 0,
        timings: Timings::default(),
        error: None,
    };
    let outcome = futures::executor::block_on(async {
        let key = source.load(&url).await.map_err(|e| crate::error::ExtractError::KeyPage(e).to_string())?;
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
        sites: results,
    }
}
