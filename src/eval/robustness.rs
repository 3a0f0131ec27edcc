//! Robustness on a corpus without gold marks (`tex robust`): per site, three
//! key pages of one layout are extracted exactly as `tex extract` extracts
//! them, and what needs no labels is measured: whether the three templates
//! mark the same layout parts (self-agreement), how often a template rests
//! on degenerate evidence (one voter, a voter that copies the key page's
//! text, a template share near 0 or 100 %, an error), and whether the
//! collection mode, run on the same folder, gives each key page the same
//! template. Figures per site and key, and means per genre, per language
//! and overall (docs/accuracy.md, "Robustness corpus").

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::base::config::Config;
use crate::base::error::ExtractError;
use crate::candidates::page_source::PageSource;
use crate::collection::input::{Input, Item};
use crate::collection::run::site_input;
use crate::collection::site_collection::{collect_site, CollectOptions, PageStatus};
use crate::decide::evidence::Weakness;
use crate::decide::template::map_page;
use crate::eval::markup_labels::{self, texts_by_url, MarkupWords};
use crate::extraction::extract::{extract, Extraction};
use crate::page::dom::Tree;
use crate::sources::file_urls::page_key;
use crate::sources::site_folder::SiteFolder;

/// Share of a key page's own words a voter must hold to be a copy of it.
pub const COPY_SHARE: f64 = 0.8;

/// Fewest own words a key page needs for a copy to be judged: below it the
/// key's own text is a title or a caption, which pages of a site share.
pub const MIN_OWN_WORDS: u64 = 20;

/// The template share outside which an extraction is degenerate: almost
/// nothing or almost everything of the body called template.
pub const SHARE_RANGE: (f64, f64) = (0.05, 0.95);

/// Why a corpus could not be read.
#[derive(Debug, Error)]
pub enum CorpusError {
    #[error("The corpus folder {0} does not exist; unpack the corpus into it with the corpus's unpack.sh first.")]
    Missing(PathBuf),
    #[error("{0} has no index.json, so it is not an unpacked corpus; unpack the corpus into it with the corpus's unpack.sh.")]
    NoIndex(PathBuf),
    #[error("{path} could not be read: {reason}.")]
    Unreadable { path: PathBuf, reason: String },
    #[error("{0} lists no sites.")]
    Empty(PathBuf),
}

/// One site of the corpus, as its index.json lists it.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct CorpusSite {
    pub id: String,
    #[serde(default)]
    pub genre: String,
    #[serde(default)]
    pub language: String,
    #[serde(default)]
    pub generator: String,
    /// Three pages of one layout, relative to the site folder.
    pub keys: Vec<String>,
    #[serde(default)]
    pub pages: usize,
    /// The folder served as the site's origin: `<corpus>/<id>/site`.
    #[serde(skip)]
    pub dir: PathBuf,
}

/// The sites of an unpacked corpus, in the order of its index.json.
pub fn read_corpus(dir: &Path) -> Result<Vec<CorpusSite>, CorpusError> {
    if !dir.is_dir() {
        return Err(CorpusError::Missing(dir.to_path_buf()));
    }
    let index = dir.join("index.json");
    if !index.is_file() {
        return Err(CorpusError::NoIndex(dir.to_path_buf()));
    }
    let unreadable = |reason: String| CorpusError::Unreadable { path: index.clone(), reason };
    let text = std::fs::read_to_string(&index).map_err(|e| unreadable(e.to_string()))?;
    let mut sites: Vec<CorpusSite> = serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    if sites.is_empty() {
        return Err(CorpusError::Empty(index));
    }
    for s in &mut sites {
        s.dir = dir.join(&s.id).join("site");
    }
    Ok(sites)
}

/// Agreement of two templates over pairs of nodes, one of each page.
///
/// Jaccard per class: for the template class, the pairs both call template
/// over the pairs either calls template; for the content class the same
/// with content. Pairs both call content do not inflate the template
/// figure, nor pairs both call template the content figure, so a page that
/// is 90 % one class does not score 90 % for agreeing on that class alone;
/// a disagreement weighs most in the figure of the class that is the
/// minority. `None` when neither page calls any pair of that class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Agreement {
    pub pairs: usize,
    pub both_template: usize,
    pub both_content: usize,
    pub template_jaccard: Option<f64>,
    pub content_jaccard: Option<f64>,
}

impl Agreement {
    /// The agreement of the template status of each pair (a, b).
    pub fn of(pairs: impl IntoIterator<Item = (bool, bool)>) -> Agreement {
        let mut a = Agreement::default();
        for (x, y) in pairs {
            a.pairs += 1;
            a.both_template += usize::from(x && y);
            a.both_content += usize::from(!x && !y);
        }
        let jaccard = |both: usize, neither: usize| {
            let either = a.pairs - neither;
            (either > 0).then(|| both as f64 / either as f64)
        };
        a.template_jaccard = jaccard(a.both_template, a.both_content);
        a.content_jaccard = jaccard(a.both_content, a.both_template);
        a
    }
}

/// Nodes of the `<body>` subtree (the nodes scores count), empty without one.
fn body_range(tree: &Tree) -> std::ops::Range<usize> {
    tree.body().map_or(0..0, |b| tree.subtree(b))
}

/// Agreement of `ta` (on page `a`) and `tb` (on page `b`) over the nodes of
/// a's body that the method's own mapping of `a` onto `b` pairs.
pub fn mapped_agreement(cfg: &Config, a: &Tree, ta: &[bool], b: &Tree, tb: &[bool]) -> Agreement {
    let body = body_range(a);
    let mapping = map_page(cfg, a, b);
    Agreement::of(
        mapping.pairs().filter(|(n, _)| body.contains(&n.index())).map(|(n, m)| (ta[n.index()], tb[m.index()])),
    )
}

/// Whether two snapshots are the same tree (tags and parents node by node),
/// so node `i` of one is node `i` of the other.
pub fn same_shape(a: &Tree, b: &Tree) -> bool {
    a.len() == b.len() && a.nodes().zip(b.nodes()).all(|((_, x), (_, y))| x.tag == y.tag && x.parent == y.parent)
}

/// How two snapshots of one page were paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Alignment {
    /// The same tree: each body node with itself.
    Identical,
    /// Different trees: the method's mapping pairs them.
    Mapped,
}

/// Agreement of two templates of one page, each on its own snapshot: node
/// by node when the snapshots are the same tree, else over mapped nodes.
pub fn page_agreement(cfg: &Config, a: &Tree, ta: &[bool], b: &Tree, tb: &[bool]) -> (Agreement, Alignment) {
    if same_shape(a, b) {
        (Agreement::of(body_range(a).map(|i| (ta[i], tb[i]))), Alignment::Identical)
    } else {
        (mapped_agreement(cfg, a, ta, b, tb), Alignment::Mapped)
    }
}

/// Share of the body's nodes that are template; `None` without a body.
pub fn template_share(tree: &Tree, template: &[bool]) -> Option<f64> {
    let body = body_range(tree);
    (!body.is_empty()).then(|| body.clone().filter(|&i| template[i]).count() as f64 / body.len() as f64)
}

/// A page's text as the method reads it: words per text block of its body
/// (block hashes, numbers as one shape), summed over the block's repeats.
pub type Blocks = HashMap<u64, u64>;

/// The text blocks of a page's body.
pub fn body_blocks(tree: &Tree) -> Blocks {
    let mut blocks = Blocks::new();
    for i in body_range(tree) {
        let n = tree.node(crate::page::dom::NodeId(i as u32));
        if n.block != 0 && n.words > 0 {
            *blocks.entry(n.block).or_default() += u64::from(n.words);
        }
    }
    blocks
}

/// A key page's own text: its blocks less what the other key pages of its
/// layout hold (per block, the most any of them holds). What the three
/// keys share is their layout's text (menus, footers); what is left is the
/// text only this page shows, the text a copy of it repeats.
pub fn own_text(key: &Blocks, others: &[&Blocks]) -> Blocks {
    key.iter()
        .filter_map(|(&h, &w)| {
            let shared = others.iter().filter_map(|o| o.get(&h)).copied().max().unwrap_or(0);
            (w > shared).then(|| (h, w - shared))
        })
        .collect()
}

/// Words of a text.
pub fn words(text: &Blocks) -> u64 {
    text.values().sum()
}

/// Share of `text`'s words that `page` holds (multiset containment).
pub fn contained(text: &Blocks, page: &Blocks) -> Option<f64> {
    let total = words(text);
    (total > 0)
        .then(|| text.iter().map(|(h, &w)| w.min(page.get(h).copied().unwrap_or(0))).sum::<u64>() as f64 / total as f64)
}

/// One key page's extraction and what is measured on it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct KeyResult {
    pub key: String,
    pub error: Option<String>,
    /// Nodes of the key's body, and how many of them are template.
    pub body_nodes: usize,
    pub template_nodes: usize,
    pub template_share: Option<f64>,
    /// The pages that voted (the extraction's CS, `cs.pages`).
    pub voters: Vec<String>,
    pub loads: usize,
    /// Words of the key page's own text (not on the other key pages).
    pub own_words: u64,
    /// The largest share of those words a voter holds, and that voter.
    pub copy_share: Option<f64>,
    pub copy_voter: Option<String>,
    /// Whether a voter is a copy; `None` when the key page has too few own
    /// words to tell.
    pub copy: Option<bool>,
    /// The collection mode's template of the same page, against this one.
    pub collection: Option<CollectionAgreement>,
    /// The weakness the extraction itself said (`decide::evidence`).
    pub weakness: Option<Weakness>,
}

impl KeyResult {
    pub fn single_voter(&self) -> bool {
        self.error.is_none() && self.voters.len() <= 1
    }

    pub fn share_below_range(&self) -> bool {
        self.template_share.is_some_and(|s| s < SHARE_RANGE.0)
    }

    pub fn share_above_range(&self) -> bool {
        self.template_share.is_some_and(|s| s > SHARE_RANGE.1)
    }

    /// Degenerate evidence that the extraction did not say: one voter, a
    /// copy among the voters, or a template above the range, presented as a
    /// plain success.
    pub fn unsaid(&self) -> bool {
        self.error.is_none()
            && self.weakness.is_none()
            && (self.single_voter() || self.copy == Some(true) || self.share_above_range())
    }
}

/// The collection mode's template of a key page beside the key-page method's.
#[derive(Clone, Debug, Serialize)]
pub struct CollectionAgreement {
    /// How the collection gave the page its template.
    pub status: PageStatus,
    pub alignment: Alignment,
    pub agreement: Agreement,
}

/// Self-agreement of two key pages' templates.
#[derive(Clone, Debug, Serialize)]
pub struct PairResult {
    pub a: String,
    pub b: String,
    pub agreement: Agreement,
}

/// One site's figures.
#[derive(Clone, Debug, Serialize)]
pub struct SiteResult {
    pub id: String,
    pub genre: String,
    pub language: String,
    pub generator: String,
    pub pages: usize,
    pub keys: Vec<KeyResult>,
    pub pairs: Vec<PairResult>,
    /// Means over the pairs (self) and over the keys (collection) that have a figure.
    pub self_template: Option<f64>,
    pub self_content: Option<f64>,
    pub collection_template: Option<f64>,
    pub collection_content: Option<f64>,
    pub collection_error: Option<String>,
    /// The collection's content against each page's own markup.
    pub markup: MarkupWords,
    pub seconds: f64,
}

fn mean(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let (sum, n) = values.into_iter().flatten().fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// One key page extracted as `tex extract` extracts it: its own site folder
/// source, the key page loaded with `load_key`, then `extract`.
fn extract_key(cfg: &Config, dir: &Path, key: &str) -> (Option<Arc<Tree>>, Result<Extraction, String>) {
    let source = SiteFolder::new(dir, cfg.max_nodes);
    let url = source.url_of(key);
    futures::executor::block_on(async {
        let loaded = match source.load_key(&url).await {
            Ok(loaded) => loaded,
            Err(e) => return (None, Err(ExtractError::KeyPage(e).to_string())),
        };
        let x = extract(cfg, &source, &loaded).await.map_err(|e| e.to_string());
        (Some(loaded.tree), x)
    })
}

/// The text blocks of each voter, loaded through a site folder source of
/// their own (the extraction's byte budget is spent on its own pages).
fn voter_blocks(cfg: &Config, dir: &Path, x: &Extraction) -> Vec<(String, Blocks)> {
    let source = SiteFolder::new(dir, cfg.max_nodes);
    x.cs.pages
        .iter()
        .filter_map(|url| {
            let page = futures::executor::block_on(source.load(url)).ok()?;
            Some((url.path().to_string(), body_blocks(&page.tree)))
        })
        .collect()
}

/// Each key page's snapshot, template and status in the collection mode
/// (`tex collect`'s defaults) run on the site's folder.
type CollectedKey = (Tree, Vec<bool>, PageStatus);

/// [`CollectedKey`]s, and every page's content against its own markup.
fn collected_keys(cfg: &Config, site: &CorpusSite) -> Result<(Vec<Option<CollectedKey>>, MarkupWords), String> {
    let records: Vec<_> =
        Input::Folder(site.dir.clone()).records().map_err(|e| e.to_string())?.filter_map(Item::page).collect();
    let texts = texts_by_url(&records, cfg.max_nodes);
    let mut markup = MarkupWords::default();
    let probe = SiteFolder::new(&site.dir, cfg.max_nodes);
    let keys: Vec<String> = site.keys.iter().map(|k| page_key(&probe.url_of(k))).collect();
    let mut found: Vec<Option<CollectedKey>> = vec![None; keys.len()];
    collect_site(cfg, &CollectOptions::default(), site_input(site.id.clone(), records, cfg.max_nodes), |p| {
        if let Some(own) = texts.get(p.url.as_str()) {
            markup.add_page(p.tree, own, &p.content.text);
        }
        for (i, key) in keys.iter().enumerate() {
            if page_key(p.url) == *key {
                found[i] = Some((p.tree.clone(), p.template.to_vec(), p.status));
            }
        }
    });
    Ok((found, markup))
}

/// Measures one site.
pub fn run_site(cfg: &Config, site: &CorpusSite) -> SiteResult {
    let started = Instant::now();
    let runs: Vec<_> = site.keys.iter().map(|k| extract_key(cfg, &site.dir, k)).collect();
    let blocks: Vec<Option<Blocks>> = runs.iter().map(|(t, _)| t.as_deref().map(body_blocks)).collect();
    let mut keys: Vec<KeyResult> = Vec::new();
    for (i, (key, (tree, outcome))) in site.keys.iter().zip(&runs).enumerate() {
        let mut r = KeyResult { key: key.clone(), ..KeyResult::default() };
        let (tree, x) = match (tree, outcome) {
            (Some(tree), Ok(x)) => (tree, x),
            (_, Err(e)) => {
                r.error = Some(e.clone());
                keys.push(r);
                continue;
            }
            (None, Ok(_)) => unreachable!("an extraction has its key page"),
        };
        r.body_nodes = body_range(tree).len();
        r.template_nodes = body_range(tree).filter(|&j| x.template[j]).count();
        r.template_share = template_share(tree, &x.template);
        r.voters = x.cs.pages.iter().map(|u| u.path().to_string()).collect();
        r.loads = x.loads;
        r.weakness = x.evidence.weakness;
        let others: Vec<&Blocks> =
            blocks.iter().enumerate().filter(|&(j, _)| j != i).filter_map(|(_, b)| b.as_ref()).collect();
        let own = own_text(blocks[i].as_ref().expect("loaded"), &others);
        r.own_words = words(&own);
        let best = voter_blocks(cfg, &site.dir, x)
            .into_iter()
            .filter_map(|(path, page)| Some((path, contained(&own, &page)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((path, share)) = best {
            r.copy_share = Some(share);
            r.copy_voter = Some(path);
        }
        r.copy = (r.own_words >= MIN_OWN_WORDS).then(|| r.copy_share.is_some_and(|s| s >= COPY_SHARE));
        keys.push(r);
    }

    let extracted: Vec<Option<(&Tree, &[bool])>> = runs
        .iter()
        .map(|(t, x)| match (t, x) {
            (Some(t), Ok(x)) => Some((&**t, x.template.as_slice())),
            _ => None,
        })
        .collect();
    let mut pairs = Vec::new();
    for a in 0..extracted.len() {
        for b in a + 1..extracted.len() {
            if let (Some((ta, xa)), Some((tb, xb))) = (extracted[a], extracted[b]) {
                let agreement = mapped_agreement(cfg, ta, xa, tb, xb);
                pairs.push(PairResult { a: site.keys[a].clone(), b: site.keys[b].clone(), agreement });
            }
        }
    }

    let mut collection_error = None;
    let markup = match collected_keys(cfg, site) {
        Ok((found, markup)) => {
            for ((r, mine), theirs) in keys.iter_mut().zip(&extracted).zip(found) {
                match (mine, theirs) {
                    (Some((tree, template)), Some((ctree, ctemplate, status))) => {
                        let (agreement, alignment) = page_agreement(cfg, tree, template, &ctree, &ctemplate);
                        r.collection = Some(CollectionAgreement { status, alignment, agreement });
                    }
                    (Some(_), None) => {
                        collection_error.get_or_insert(format!("the collection left out the key page {}", r.key));
                    }
                    _ => {}
                }
            }
            markup
        }
        Err(e) => {
            collection_error = Some(e);
            MarkupWords::default()
        }
    };

    let with = |f: fn(&Agreement) -> Option<f64>| {
        mean(keys.iter().map(|k| k.collection.as_ref().and_then(|c| f(&c.agreement))))
    };
    SiteResult {
        id: site.id.clone(),
        genre: site.genre.clone(),
        language: site.language.clone(),
        generator: site.generator.clone(),
        pages: site.pages,
        self_template: mean(pairs.iter().map(|p| p.agreement.template_jaccard)),
        self_content: mean(pairs.iter().map(|p| p.agreement.content_jaccard)),
        collection_template: with(|a| a.template_jaccard),
        collection_content: with(|a| a.content_jaccard),
        collection_error,
        markup,
        keys,
        pairs,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Every site, `jobs` at a time, in the corpus's order.
pub fn run(cfg: &Config, sites: &[CorpusSite], jobs: usize, progress: bool) -> Vec<SiteResult> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<SiteResult>>> = Mutex::new(vec![None; sites.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(site) = sites.get(i) else { return };
                let r = run_site(cfg, site);
                results.lock().expect("results")[i] = Some(r);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if progress {
                    eprint!("\r{n}/{} sites", sites.len());
                }
            });
        }
    });
    if progress {
        eprintln!();
    }
    results.into_inner().expect("results").into_iter().map(|r| r.expect("every site ran")).collect()
}

/// Means and rates over a group of sites.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub label: String,
    pub sites: usize,
    /// Key pages extracted (three a site), errors included.
    pub extractions: usize,
    /// Means over the sites that have the figure: self-agreement and the
    /// collection's agreement, each class's Jaccard (the class that is the
    /// minority of the pairs, the template on a long manual page, the
    /// content among a blog post's mapped nodes, swings on a few nodes).
    pub self_template: Option<f64>,
    pub self_content: Option<f64>,
    /// Of all the node pairs the three keys' self-agreement maps, pooled
    /// over the sites, the share the two keys judge differently: a
    /// template-or-content disagreement rate that, unlike the minority
    /// class's Jaccard, does not fall when the keys agree on moving a node
    /// (a title's wrapper) from one class to the other.
    pub self_split: Option<f64>,
    /// Shares of the extractions that did not fail: one voter (or none),
    /// a template share outside [`SHARE_RANGE`], and of those, below and above it.
    pub single_voter: Option<f64>,
    pub share_out_of_range: Option<f64>,
    pub share_below: Option<f64>,
    pub share_above: Option<f64>,
    /// Share of the extractions whose copy could be judged.
    pub copy: Option<f64>,
    pub copy_judged: usize,
    /// Shares of the extractions that did not fail: those the extraction
    /// itself said were weak, and those degenerate but not said ([`KeyResult::unsaid`]).
    pub said_weak: Option<f64>,
    pub unsaid: Option<f64>,
    /// Share of all extractions.
    pub error: Option<f64>,
    pub collection_template: Option<f64>,
    pub collection_content: Option<f64>,
}

impl Row {
    pub fn of(label: &str, sites: &[&SiteResult]) -> Row {
        let keys: Vec<&KeyResult> = sites.iter().flat_map(|s| &s.keys).collect();
        let ok: Vec<&&KeyResult> = keys.iter().filter(|k| k.error.is_none()).collect();
        let rate = |n: usize, of: usize| (of > 0).then(|| n as f64 / of as f64);
        let judged: Vec<bool> = ok.iter().filter_map(|k| k.copy).collect();
        Row {
            label: label.to_string(),
            sites: sites.len(),
            extractions: keys.len(),
            self_template: mean(sites.iter().map(|s| s.self_template)),
            self_content: mean(sites.iter().map(|s| s.self_content)),
            self_split: {
                let agreements = || sites.iter().flat_map(|s| &s.pairs).map(|p| &p.agreement);
                let split: usize = agreements().map(|a| a.pairs - a.both_template - a.both_content).sum();
                rate(split, agreements().map(|a| a.pairs).sum())
            },
            single_voter: rate(ok.iter().filter(|k| k.single_voter()).count(), ok.len()),
            share_out_of_range: rate(
                ok.iter().filter(|k| k.share_below_range() || k.share_above_range()).count(),
                ok.len(),
            ),
            share_below: rate(ok.iter().filter(|k| k.share_below_range()).count(), ok.len()),
            share_above: rate(ok.iter().filter(|k| k.share_above_range()).count(), ok.len()),
            copy: rate(judged.iter().filter(|&&c| c).count(), judged.len()),
            copy_judged: judged.len(),
            said_weak: rate(ok.iter().filter(|k| k.weakness.is_some()).count(), ok.len()),
            unsaid: rate(ok.iter().filter(|k| k.unsaid()).count(), ok.len()),
            error: rate(keys.len() - ok.len(), keys.len()),
            collection_template: mean(sites.iter().map(|s| s.collection_template)),
            collection_content: mean(sites.iter().map(|s| s.collection_content)),
        }
    }
}

/// Rows per value of `by`, largest group first, then by name.
pub fn rows_by(results: &[SiteResult], by: impl Fn(&SiteResult) -> &str) -> Vec<Row> {
    let mut groups: BTreeMap<&str, Vec<&SiteResult>> = BTreeMap::new();
    for r in results {
        groups.entry(by(r)).or_default().push(r);
    }
    let mut rows: Vec<Row> = groups.iter().map(|(label, sites)| Row::of(label, sites)).collect();
    rows.sort_by(|a, b| b.sites.cmp(&a.sites).then_with(|| a.label.cmp(&b.label)));
    rows
}

fn print_rows(title: &str, rows: &[Row]) {
    let pct = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.1}", 100.0 * v));
    let pair = |t: Option<f64>, c: Option<f64>| format!("{} / {}", pct(t), pct(c));
    println!(
        "\n{:<14} {:>5} {:>5} {:>13} {:>6} {:>6} {:>6} {:>6} {:>6} {:>7} {:>6} {:>13}",
        title,
        "sites",
        "extr",
        "self T / C",
        "split%",
        "1vot%",
        "copy%",
        "out%",
        "err%",
        "weak%",
        "unsd%",
        "coll T / C"
    );
    for r in rows {
        println!(
            "{:<14} {:>5} {:>5} {:>13} {:>6} {:>6} {:>6} {:>6} {:>6} {:>7} {:>6} {:>13}",
            r.label.chars().take(14).collect::<String>(),
            r.sites,
            r.extractions,
            pair(r.self_template, r.self_content),
            pct(r.self_split),
            pct(r.single_voter),
            pct(r.copy),
            pct(r.share_out_of_range),
            pct(r.error),
            pct(r.said_weak),
            pct(r.unsaid),
            pair(r.collection_template, r.collection_content)
        );
    }
}

/// `tex robust`: runs the corpus, prints the tables per genre, per language
/// and overall, and writes every figure as JSON when asked.
pub fn command(dir: &Path, preset: &str, cfg: &Config, json: Option<&Path>) -> Result<(), String> {
    use std::io::IsTerminal;
    let sites = read_corpus(dir).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let results = run(cfg, &sites, jobs, std::io::stderr().is_terminal());
    let seconds = started.elapsed().as_secs_f64();
    let genres = rows_by(&results, |r| &r.genre);
    let languages = rows_by(&results, |r| &r.language);
    let overall = Row::of("overall", &results.iter().collect::<Vec<_>>());
    println!(
        "{} sites of {}, preset {preset}, {seconds:.0} s on {jobs} threads.\n\
         T / C: Jaccard of the template / content class (%); self: between the three keys' templates, over the \
         nodes the method maps; split: % of those node pairs the two keys judge differently; coll: between each \
         key's template and the collection mode's, over its body.\n\
         1vot (one voter), copy (a voter holds >= {:.0} % of the key's own words), out (template share outside \
         {:.0}-{:.0} %): % of extractions; err: % failed.",
        results.len(),
        dir.display(),
        100.0 * COPY_SHARE,
        100.0 * SHARE_RANGE.0,
        100.0 * SHARE_RANGE.1
    );
    print_rows("genre", &genres);
    print_rows("language", &languages);
    print_rows("", std::slice::from_ref(&overall));
    markup_labels::print(&results.iter().map(|r| (r.id.clone(), r.markup)).collect::<Vec<_>>());
    for r in &results {
        for k in r.keys.iter().filter(|k| k.error.is_some()) {
            println!("{} {}: {}", r.id, k.key, k.error.as_deref().unwrap_or_default());
        }
        if let Some(e) = &r.collection_error {
            println!("{} (collection): {e}", r.id);
        }
    }
    if let Some(path) = json {
        let report = serde_json::json!({
            "corpus": dir.display().to_string(),
            "preset": preset,
            "config": cfg,
            "seconds": seconds,
            "jobs": jobs,
            "copy_share": COPY_SHARE,
            "min_own_words": MIN_OWN_WORDS,
            "share_range": SHARE_RANGE,
            "overall": overall,
            "genres": genres,
            "languages": languages,
            "sites": results,
        });
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| format!("Cannot create {}: {e}.", parent.display()))?;
        }
        std::fs::write(path, serde_json::to_string_pretty(&report).expect("report serialises"))
            .map_err(|e| format!("Cannot write {}: {e}.", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;
    use crate::page::html::{parse, snapshot};

    fn flags(t: &Tree, template: &[&str]) -> Vec<bool> {
        // Template by preorder position: "1" template, "0" content.
        assert_eq!(template.len(), t.len());
        template.iter().map(|&f| f == "1").collect()
    }

    #[test]
    fn jaccard_counts_each_class_apart() {
        let a = Agreement::of([(true, true), (true, true), (true, false), (false, false), (false, true)]);
        assert_eq!((a.pairs, a.both_template, a.both_content), (5, 2, 1));
        assert_eq!(a.template_jaccard, Some(2.0 / 4.0));
        assert_eq!(a.content_jaccard, Some(1.0 / 3.0));
        let all_template = Agreement::of([(true, true), (true, true)]);
        assert_eq!((all_template.template_jaccard, all_template.content_jaccard), (Some(1.0), None));
    }

    #[test]
    fn self_agreement_counts_mapped_body_nodes_only() {
        // a has an aside b lacks: unmapped, it counts for neither. The head is
        // template on a, content on b: outside the body, it counts neither.
        let a = tree("html( head( title ) body( nav.m( a a ) aside.s( p ) main( h1 p ) ) )");
        let b = tree("html( head( title ) body( nav.m( a a ) main( h1 p ) ) )");
        //                 html head title body nav a a aside p main h1 p
        let ta = flags(&a, &["1", "1", "1", "1", "1", "1", "1", "1", "1", "0", "0", "0"]);
        //                 html head title body nav a a main h1 p: b's second menu link is content
        let tb = flags(&b, &["1", "0", "0", "1", "1", "1", "0", "0", "0", "0"]);
        let cfg = Config::default();
        let agreement = mapped_agreement(&cfg, &a, &ta, &b, &tb);
        // Pairs: body nav a a main h1 p.
        assert_eq!((agreement.pairs, agreement.both_template, agreement.both_content), (7, 3, 3));
        assert_eq!(agreement.template_jaccard, Some(0.75));
        assert_eq!(agreement.content_jaccard, Some(0.75));
        let (_, alignment) = page_agreement(&cfg, &a, &ta, &b, &tb);
        assert_eq!(alignment, Alignment::Mapped);
    }

    #[test]
    fn one_snapshot_is_compared_node_by_node() {
        let a = tree("html( body( nav( a ) main( p ) ) )");
        let same = tree("html( body( nav( a ) main( p ) ) )");
        let mine = flags(&a, &["1", "1", "1", "1", "0", "0"]);
        let theirs = flags(&same, &["1", "1", "1", "0", "0", "0"]);
        let (agreement, alignment) = page_agreement(&Config::default(), &a, &mine, &same, &theirs);
        assert_eq!(alignment, Alignment::Identical);
        assert_eq!((agreement.pairs, agreement.both_template, agreement.both_content), (5, 2, 2));
        assert!(!same_shape(&a, &tree("html( body( nav( a ) main( p p ) ) )")));
    }

    #[test]
    fn template_share_counts_the_body() {
        let t = tree("html( head( title ) body( nav main( p ) ) )");
        let template = flags(&t, &["1", "1", "1", "1", "1", "0", "0"]);
        assert_eq!(template_share(&t, &template), Some(0.5));
    }

    fn page(html: &str) -> Tree {
        snapshot(&parse(html)).expect("elements")
    }

    /// A page of a site whose menu is long (many words every page shows)
    /// around an article of its own.
    fn site_page(article: &str) -> String {
        let menu: String =
            (1..=25).map(|i| format!("<li><a href=/p{i}>Chapter number {i} of the guide</a></li>")).collect();
        format!("<html><body><ul class=menu>{menu}</ul><main>{article}</main></body></html>")
    }

    #[test]
    fn a_copy_holds_the_keys_own_words_and_a_page_sharing_the_menu_does_not() {
        let story = |topic: &str| {
            format!(
                "<h1>{topic}</h1><p>This article explains {topic} from the ground up in plain words.</p>\
                     <p>Each section of it about {topic} closes with a short worked example to try.</p>"
            )
        };
        let key = body_blocks(&page(&site_page(&story("parsing"))));
        let others =
            [body_blocks(&page(&site_page(&story("hashing")))), body_blocks(&page(&site_page(&story("sorting"))))];
        let own = own_text(&key, &others.iter().collect::<Vec<_>>());
        assert!(words(&own) >= MIN_OWN_WORDS, "{} own words", words(&own));
        assert!(words(&own) < words(&key) / 3, "the menu is not the key's own text");
        let copy = body_blocks(&page(&site_page(&format!("{}<p>Printed version.</p>", story("parsing")))));
        let neighbour = body_blocks(&page(&site_page(&story("caching"))));
        assert!(contained(&own, &copy).unwrap() >= COPY_SHARE);
        assert!(contained(&own, &neighbour).unwrap() < 0.2);
        // Counted over all the key's words, the menu alone would make the
        // neighbour a copy: why the key's own text is what is counted.
        assert!(contained(&key, &neighbour).unwrap() >= COPY_SHARE);
    }

    #[test]
    fn a_block_another_key_holds_more_of_is_not_the_keys_own() {
        let (key, other): (Blocks, Blocks) = ([(1, 3), (2, 7)].into(), [(1, 5)].into());
        assert_eq!(own_text(&key, &[&other]), [(2, 7)].into());
    }

    #[test]
    fn rates_count_failed_extractions_only_as_errors() {
        let key = |error: bool, voters: usize, share: f64, copy: Option<bool>| KeyResult {
            error: error.then(|| "failed".to_string()),
            voters: vec!["/v".to_string(); voters],
            template_share: (!error).then_some(share),
            copy,
            ..KeyResult::default()
        };
        let site = SiteResult {
            id: "s".into(),
            genre: "docs".into(),
            language: "en".into(),
            generator: String::new(),
            pages: 3,
            keys: vec![key(true, 0, 0.0, None), key(false, 1, 0.99, Some(true)), key(false, 3, 0.5, None)],
            pairs: Vec::new(),
            self_template: Some(0.5),
            self_content: None,
            collection_template: None,
            collection_content: None,
            collection_error: None,
            markup: MarkupWords::default(),
            seconds: 0.0,
        };
        let row = Row::of("docs", &[&site]);
        assert_eq!(row.self_split, None, "no pairs, no figure");
        let pair = |template: &[(bool, bool)]| PairResult {
            a: "a".into(),
            b: "b".into(),
            agreement: Agreement::of(template.iter().copied()),
        };
        let split = SiteResult {
            pairs: vec![pair(&[(true, true), (true, false), (false, false)]), pair(&[(false, true)])],
            ..site.clone()
        };
        assert_eq!(Row::of("docs", &[&split]).self_split, Some(0.5), "2 of 4 node pairs judged differently");
        assert_eq!((row.sites, row.extractions, row.copy_judged), (1, 3, 1));
        assert_eq!(row.error, Some(1.0 / 3.0));
        assert_eq!(row.single_voter, Some(0.5));
        assert_eq!((row.share_out_of_range, row.share_above, row.share_below), (Some(0.5), Some(0.5), Some(0.0)));
        assert_eq!(row.copy, Some(1.0));
        assert_eq!(row.self_template, Some(0.5));
    }

    #[test]
    fn a_missing_corpus_or_index_is_one_sentence() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nothing");
        let e = read_corpus(&missing).unwrap_err();
        assert!(matches!(e, CorpusError::Missing(_)), "{e}");
        let e = read_corpus(dir.path()).unwrap_err();
        assert!(matches!(e, CorpusError::NoIndex(_)), "{e}");
        assert!(e.to_string().ends_with('.') && e.to_string().matches(". ").count() == 0, "{e}");
        std::fs::write(dir.path().join("index.json"), r#"[{"id": "a", "genre": "blog", "keys": ["x.html"]}]"#).unwrap();
        let sites = read_corpus(dir.path()).unwrap();
        assert_eq!(sites[0].dir, dir.path().join("a").join("site"));
    }
}
