//! What one site's run did, for a reader of a crawl's output: its clusters
//! and their sizes, the pages left unclustered, the records left out by
//! reason, and how much of the site's bytes and words were template.

use std::collections::BTreeMap;

use serde::Serialize;

use super::rejection::Rejections;
use super::whole_page::WholeReason;

/// One cluster of a site: the pages of one layout that got their template
/// from the same representative.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClusterSummary {
    pub id: usize,
    /// The page the template was extracted from (`None` when every
    /// representative tried failed).
    pub learnt_from: Option<String>,
    pub pages: usize,
    /// Pages the cluster's template was mapped onto.
    pub served: usize,
    /// Pages of the layout group that lack the cluster's template (the
    /// memory's failsafe): extracted on their own instead.
    pub unfit: usize,
    /// Pages loaded from the collection by the representatives' extractions
    /// and by the comparisons of the cluster's other pages.
    pub loads: usize,
    /// Why no template was found, when none was.
    pub error: Option<String>,
}

/// One site's summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SiteSummary {
    pub site: String,
    pub pages: usize,
    pub clusters: Vec<ClusterSummary>,
    /// Pages whose layout group had fewer than the minimum cluster size.
    pub unclustered: usize,
    /// Pages loaded by the extractions of unclustered and unfit pages, each run on its own.
    pub alone_loads: usize,
    pub rejected: Rejections,
    pub bytes: usize,
    pub content_bytes: usize,
    pub words: usize,
    pub content_words: usize,
    pub bytes_removed: f64,
    pub words_removed: f64,
    /// Pages whose template is not to be trusted (each line's `warning`
    /// says why).
    pub weak: usize,
    /// Pages that came out whole, by reason (each line's `reason` says why).
    pub whole: BTreeMap<WholeReason, usize>,
    /// Pages kept with bytes invalid in their charset, shown as U+FFFD
    /// (each line's `replaced_bytes` says how many), and those bytes.
    pub replaced_pages: usize,
    pub replaced_bytes: usize,
}

impl SiteSummary {
    /// Adds one output page's sizes.
    pub fn add_page(&mut self, bytes: usize, content_bytes: usize, words: usize, content_words: usize) {
        self.pages += 1;
        self.bytes += bytes;
        self.content_bytes += content_bytes;
        self.words += words;
        self.content_words += content_words;
        let share = |all: usize, kept: usize| if all == 0 { 0.0 } else { 1.0 - kept.min(all) as f64 / all as f64 };
        self.bytes_removed = share(self.bytes, self.content_bytes);
        self.words_removed = share(self.words, self.content_words);
    }
}
