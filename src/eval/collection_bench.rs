//! Accuracy of the collection mode on a benchmark set: each site's folder
//! processed as a collection (every page), the key page's template scored
//! against the gold beside the key-page method, a cross-page text-frequency
//! baseline, and page-level extractors whose extracted text a script wrote.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use serde::Serialize;
use url::Url;

use crate::base::config::Config;
use crate::collection::input::{Input, Item};
use crate::collection::run::site_input;
use crate::collection::site_collection::{collect_site, CollectOptions, PageStatus, Serving};
use crate::eval::bench::{read_set, run_site, SiteInfo};
use crate::eval::markup_labels::{self, texts_by_url, MarkupWords};
use crate::eval::score::{score, Score};
use crate::page::dom::Tree;
use crate::sources::file_urls::page_key;
use crate::sources::site_folder::SiteFolder;

/// Template F1 and content F1 (the F1 of the not-template class) of one method on one key page.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Accuracy {
    pub template_f1: f64,
    pub content_f1: f64,
}

impl Accuracy {
    pub fn of(tree: &Tree, template: &[bool]) -> Accuracy {
        let s = score(tree, template);
        Accuracy { template_f1: s.f1, content_f1: content_f1(&s) }
    }
}

/// F1 of the not-template class from a template score's counts.
pub fn content_f1(s: &Score) -> f64 {
    let gold = s.nodes - s.gold;
    let retrieved = s.nodes - s.retrieved;
    let correct = s.nodes + s.correct - s.gold - s.retrieved;
    if gold + retrieved == 0 {
        0.0
    } else {
        2.0 * correct as f64 / (gold + retrieved) as f64
    }
}

/// One site's results.
#[derive(Clone, Debug, Serialize)]
pub struct SiteAccuracy {
    pub site: String,
    pub pages: usize,
    /// How the collection served the key page.
    pub status: Option<PageStatus>,
    pub cluster_pages: usize,
    pub collection: Accuracy,
    /// The collection mode with `fast` (templates served with zero loads).
    pub fast: Accuracy,
    /// The collection mode with `selective` (compared only where the
    /// frame shows a part the representatives' pages lacked), and the
    /// share of its cluster pages compared.
    pub selective: Accuracy,
    pub selective_compared: f64,
    /// Content words the default keeps that `fast` and `selective` drop,
    /// over every page of the site.
    pub fast_lost: WordsLost,
    pub selective_lost: WordsLost,
    /// The default's content against each page's own markup.
    pub markup: MarkupWords,
    pub key_page: Accuracy,
    pub frequency: Accuracy,
    /// Page-level extractors by name.
    pub peers: BTreeMap<String, Accuracy>,
    pub error: Option<String>,
}

/// Content words of the default that another serving drops, over a site's
/// pages: each page's words counted with their repeats, the default's
/// content against the mode's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WordsLost {
    pub lost: usize,
    /// The default's content words.
    pub words: usize,
}

impl WordsLost {
    /// Lost words as a share of the default's, 0 for a site without content.
    pub fn share(&self) -> f64 {
        self.lost as f64 / self.words.max(1) as f64
    }

    /// The words of `default` (a page's content text) that `mode` lacks,
    /// added to the count.
    pub fn add_page(&mut self, default: &str, mode: &str) {
        let mut left: HashMap<&str, usize> = HashMap::new();
        for w in default.split_whitespace() {
            *left.entry(w).or_default() += 1;
            self.words += 1;
        }
        for w in mode.split_whitespace() {
            if let Some(n) = left.get_mut(w) {
                *n = n.saturating_sub(1);
            }
        }
        self.lost += left.values().sum::<usize>();
    }
}

/// Extracted text per site and extractor, as the peers script writes it.
pub type PeerTexts = BTreeMap<String, BTreeMap<String, String>>;

/// Runs every site of a set.
pub fn run(set: &Path, cfg: &Config, opts: &CollectOptions, peers: &PeerTexts) -> Result<Vec<SiteAccuracy>, String> {
    let sites = read_set(set).map_err(|e| format!("{e}."))?;
    Ok(sites.iter().map(|s| run_one(s, cfg, opts, peers.get(&s.id))).collect())
}

fn run_one(
    site: &SiteInfo,
    cfg: &Config,
    opts: &CollectOptions,
    peers: Option<&BTreeMap<String, String>>,
) -> SiteAccuracy {
    let key_page = run_site(cfg, site);
    let mut r = SiteAccuracy {
        site: site.id.clone(),
        pages: 0,
        status: None,
        cluster_pages: 0,
        collection: Accuracy::default(),
        fast: Accuracy::default(),
        selective: Accuracy::default(),
        selective_compared: 0.0,
        fast_lost: WordsLost::default(),
        selective_lost: WordsLost::default(),
        markup: MarkupWords::default(),
        key_page: Accuracy { template_f1: key_page.score.f1, content_f1: content_f1(&key_page.score) },
        frequency: Accuracy::default(),
        peers: BTreeMap::new(),
        error: key_page.error.clone(),
    };
    let records: Vec<_> = match Input::Folder(site.dir.clone()).records() {
        Ok(records) => records.filter_map(Item::page).collect(),
        Err(e) => {
            r.error = Some(e.to_string());
            return r;
        }
    };
    // Each page's own texts, for the text baselines and the markup's labels.
    let texts_of = texts_by_url(&records, cfg.max_nodes);
    // The key page's address in the folder, whatever script its file name is in.
    let key = page_key(&SiteFolder::new(&site.dir, cfg.max_nodes).url_of(&site.key));
    let is_key = |url: &Url| page_key(url) == key;
    // The key page's template with another serving, the share of the
    // pages served or compared that were compared, and every page's content text.
    let served_as = |serving| {
        let (mut template, mut compared, mut served, mut texts) = (None, 0, 0, HashMap::new());
        let opts = CollectOptions { serving, ..*opts };
        collect_site(cfg, &opts, site_input(site.id.clone(), records.clone(), cfg.max_nodes), |p| {
            compared += usize::from(p.status == PageStatus::Compared);
            served += usize::from(p.status == PageStatus::Served);
            texts.insert(p.url.to_string(), p.content.text.clone());
            if is_key(p.url) {
                template = Some(p.template.to_vec());
            }
        });
        (template, compared as f64 / (compared + served).max(1) as f64, texts)
    };
    let (fast_template, _, fast_texts) = served_as(Serving::Fast);
    let (selective_template, selective_compared, selective_texts) = served_as(Serving::Selective);
    let input = site_input(site.id.clone(), records, cfg.max_nodes);
    let mut document_frequency: HashMap<String, usize> = HashMap::new();
    let mut found = None;
    let summary = collect_site(cfg, opts, input, |p| {
        let texts = &texts_of[p.url.as_str()];
        for t in texts.iter().filter(|t| !t.is_empty()).collect::<HashSet<_>>() {
            *document_frequency.entry(t.clone()).or_default() += 1;
        }
        if is_key(p.url) {
            found = Some((p.tree.clone(), p.template.to_vec(), texts.clone(), p.status, p.cluster));
        }
        let url = p.url.as_str();
        r.fast_lost.add_page(&p.content.text, fast_texts.get(url).map_or("", String::as_str));
        r.selective_lost.add_page(&p.content.text, selective_texts.get(url).map_or("", String::as_str));
        r.markup.add_page(p.tree, texts, &p.content.text);
    });
    r.pages = summary.pages;
    let Some((tree, template, texts, status, cluster)) = found else {
        r.error.get_or_insert(format!("the key page {} was not among the collection's pages", site.key));
        return r;
    };
    r.status = Some(status);
    r.cluster_pages = cluster.map_or(1, |c| summary.clusters[c].pages);
    r.collection = Accuracy::of(&tree, &template);
    r.fast = fast_template.map_or_else(Accuracy::default, |t| Accuracy::of(&tree, &t));
    r.selective = selective_template.map_or_else(Accuracy::default, |t| Accuracy::of(&tree, &t));
    r.selective_compared = selective_compared;
    let half = summary.pages.div_ceil(2).max(2);
    r.frequency = Accuracy::of(&tree, &text_template(&tree, &texts, |t| document_frequency[t] < half));
    for (name, extracted) in peers.into_iter().flatten() {
        let extracted = extracted.split_whitespace().collect::<Vec<_>>().join(" ");
        r.peers.insert(name.clone(), Accuracy::of(&tree, &text_template(&tree, &texts, |t| extracted.contains(t))));
    }
    r
}

/// The template a text-based method implies: an element is content when it
/// or a descendant has own text the method keeps (`kept`); every other
/// element is template.
pub fn text_template(tree: &Tree, texts: &[String], kept: impl Fn(&str) -> bool) -> Vec<bool> {
    let mut content: Vec<bool> = texts.iter().map(|t| !t.is_empty() && kept(t)).collect();
    for (id, node) in tree.nodes().collect::<Vec<_>>().into_iter().rev() {
        if let Some(p) = node.parent {
            if content[id.index()] {
                content[p.index()] = true;
            }
        }
    }
    content.into_iter().map(|c| !c).collect()
}

/// `tex collect-bench`: prints one row per site and the macro averages.
pub fn command(set: &Path, peers: Option<&Path>, min_cluster: usize, json: Option<&Path>) -> Result<(), String> {
    let peers: PeerTexts = match peers {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("Cannot read {}: {e}.", path.display()))?;
            serde_json::from_str(&text).map_err(|e| format!("{} is not a peers file: {e}.", path.display()))?
        }
        None => PeerTexts::new(),
    };
    let cfg = Config::default();
    let results = run(set, &cfg, &CollectOptions { min_cluster, serving: Serving::Compared }, &peers)?;
    let names: Vec<String> = results
        .iter()
        .flat_map(|r| r.peers.keys().cloned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let pct = |v: f64| format!("{:6.2}", 100.0 * v);
    print!(
        "{:<14} {:>5} {:>7} {:<14} {:>13} {:>13} {:>19} {:>13} {:>13}",
        "site", "pages", "cluster", "key page is", "collection", "fast", "selective", "key-page", "frequency"
    );
    for n in &names {
        print!(" {:>13}", n.chars().take(13).collect::<String>());
    }
    println!(
        "\n{:<14} {:>5} {:>7} {:<14} {:>13} {:>13} {:>19} {:>13} {:>13}",
        "", "", "", "", "tmpl / cont", "tmpl / cont", "tmpl / cont / cmp%", "tmpl / cont", "tmpl / cont"
    );
    let cell = |a: &Accuracy| format!("{} {}", pct(a.template_f1), pct(a.content_f1));
    for r in &results {
        if let Some(e) = &r.error {
            println!("{:<14} error: {e}", r.site);
        }
        let status = r.status.map_or("-".to_string(), |s| format!("{s:?}").to_lowercase());
        print!(
            "{:<14} {:>5} {:>7} {:<14} {:>13} {:>13} {:>13} {} {:>13} {:>13}",
            r.site,
            r.pages,
            r.cluster_pages,
            status,
            cell(&r.collection),
            cell(&r.fast),
            cell(&r.selective),
            pct(r.selective_compared),
            cell(&r.key_page),
            cell(&r.frequency)
        );
        for n in &names {
            print!(" {:>13}", r.peers.get(n).map_or("-".to_string(), cell));
        }
        println!();
    }
    let n = results.len().max(1) as f64;
    let mean = |f: &dyn Fn(&SiteAccuracy) -> Accuracy| {
        let (t, c) = results.iter().map(f).fold((0.0, 0.0), |(t, c), a| (t + a.template_f1, c + a.content_f1));
        Accuracy { template_f1: t / n, content_f1: c / n }
    };
    let compared = results.iter().map(|r| r.selective_compared).sum::<f64>() / n;
    print!(
        "{:<14} {:>5} {:>7} {:<14} {:>13} {:>13} {:>13} {} {:>13} {:>13}",
        "macro avg",
        "",
        "",
        "",
        cell(&mean(&|r| r.collection)),
        cell(&mean(&|r| r.fast)),
        cell(&mean(&|r| r.selective)),
        pct(compared),
        cell(&mean(&|r| r.key_page)),
        cell(&mean(&|r| r.frequency))
    );
    for name in &names {
        print!(" {:>13}", cell(&mean(&|r| r.peers.get(name).copied().unwrap_or_default())));
    }
    println!();
    words_lost(&results);
    markup_labels::print(&results.iter().map(|r| (r.site.clone(), r.markup)).collect::<Vec<_>>());
    if let Some(path) = json {
        std::fs::write(path, serde_json::to_string_pretty(&results).expect("results serialise"))
            .map_err(|e| format!("Cannot write {}: {e}.", path.display()))?;
    }
    Ok(())
}

/// Prints the content words `--fast` and `--selective` drop that the
/// default keeps: the sites that lose any, the macro average over sites and
/// the share over all words.
fn words_lost(results: &[SiteAccuracy]) {
    println!("\ncontent words the default keeps and the mode drops (every page of each site):");
    println!("{:<14} {:>9} {:>16} {:>16}", "site", "words", "fast lost %", "selective lost %");
    let row = |name: &str, words: usize, fast: f64, selective: f64| {
        println!("{name:<14} {words:>9} {:>16.2} {:>16.2}", 100.0 * fast, 100.0 * selective);
    };
    for r in results.iter().filter(|r| r.fast_lost.lost + r.selective_lost.lost > 0) {
        row(&r.site, r.fast_lost.words, r.fast_lost.share(), r.selective_lost.share());
    }
    let n = results.len().max(1) as f64;
    let macro_of = |f: fn(&SiteAccuracy) -> WordsLost| results.iter().map(|r| f(r).share()).sum::<f64>() / n;
    let total = |f: fn(&SiteAccuracy) -> WordsLost| {
        results
            .iter()
            .map(f)
            .fold(WordsLost::default(), |a, b| WordsLost { lost: a.lost + b.lost, words: a.words + b.words })
    };
    let words = total(|r| r.fast_lost).words;
    row("macro avg", words, macro_of(|r| r.fast_lost), macro_of(|r| r.selective_lost));
    row("all words", words, total(|r| r.fast_lost).share(), total(|r| r.selective_lost).share());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    #[test]
    fn words_lost_count_each_repeat_the_mode_lacks() {
        let mut lost = WordsLost::default();
        lost.add_page("a b b c", "b a x");
        lost.add_page("", "anything");
        assert_eq!(lost, WordsLost { lost: 2, words: 4 }, "one b and the c");
        assert!((lost.share() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn content_f1_counts_the_other_class() {
        let s = Score { nodes: 10, gold: 6, retrieved: 5, correct: 4, ..Score::default() };
        // Content: gold 4, retrieved 5, correct 10 - 6 - 5 + 4 = 3.
        assert!((content_f1(&s) - 6.0 / 9.0).abs() < 1e-12);
    }

    #[test]
    fn kept_text_makes_its_ancestors_content() {
        let t = tree("html( body( nav( a ) main( p ) ) )");
        let texts: Vec<String> = ["", "", "", "Home", "", "Hello"].iter().map(|s| s.to_string()).collect();
        let template = text_template(&t, &texts, |s| s == "Hello");
        assert_eq!(template, [false, false, true, true, false, false]);
    }
}
