//! One extraction from start to end: the key page's links, their order,
//! the complete subdigraph, the mappings and the votes.

use serde::Serialize;
use url::Url;

use crate::compare_ahead::CompareAhead;
use crate::complete_subdigraph::{find_cs, CsKind, LoadRecord};
use crate::config::Config;
use crate::dom::{NodeId, Tree};
use crate::error::ExtractError;
use crate::hyperlink::page_links;
use crate::layout_agreement::{self, Agreement};
use crate::link_order::sort_links;
use crate::mapping::Mapping;
use crate::page_source::{LoadedPage, PageSource};
use crate::template::{count, map_page, template, votes_needed};
use crate::text_recurrence::subtree_words;

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
        return Err(ExtractError::TooLarge { nodes: key.tree.len(), limit: cfg.max_nodes });
    }
    let start = source.now_ms();
    let links = page_links(&key.tree, &key.url);
    if links.is_empty() {
        return Err(ExtractError::NoLinks);
    }
    let sorted = sort_links(&key.tree, &key.url, &links);
    let ordered = source.now_ms();

    // With the content signal every loaded page is compared: each is
    // compared as it loads (see `compare_ahead`). Without it nothing reads
    // the key page's words.
    let key_words = if cfg.content.enabled { subtree_words(&key.tree) } else { Vec::new() };
    let ahead = CompareAhead::new(source, cfg, &key.tree, &key_words);
    let search =
        if cfg.content.enabled { find_cs(&ahead, &sorted, cfg).await } else { find_cs(source, &sorted, cfg).await };
    let searched = source.now_ms();
    if search.members.is_empty() {
        let first = search.pages.iter().find_map(|(record, _)| record.error.clone());
        return Err(ExtractError::NoCandidates(search.loads, first));
    }

    let (records, mut loaded): (Vec<LoadRecord>, Vec<Option<LoadedPage>>) = search.pages.into_iter().unzip();
    let compared: Vec<Option<Mapping>> = records.iter().map(|r| ahead.take(&r.url)).collect();
    let (voters, mappings) = vote_pages(cfg, source, key, &search.members, &loaded, compared).await;
    let candidates: Vec<LoadedPage> = voters.iter().map(|&i| loaded[i].take().expect("voters loaded")).collect();
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

/// The pages that vote and the key page's mapping into each, as indexes
/// into the processed pages. Without the content signal these are the CS
/// members and their plain mappings (the published method); with it, each
/// mapping keeps only what the page repeats in content too, and the voters
/// are the loaded pages that share the key page's layout
/// ([`layout_agreement::voters`]). With the signal, `compared[i]` is page
/// `i`'s comparison, made as it loaded (every loaded page has one).
async fn vote_pages<S: PageSource>(
    cfg: &Config,
    source: &S,
    key_page: &LoadedPage,
    members: &[usize],
    loaded: &[Option<LoadedPage>],
    compared: Vec<Option<Mapping>>,
) -> (Vec<usize>, Vec<Mapping>) {
    let key = &key_page.tree;
    if !cfg.content.enabled {
        let mut mappings = Vec::with_capacity(members.len());
        for &i in members {
            source.pause().await;
            mappings.push(map_page(cfg, key, &loaded[i].as_ref().expect("members loaded").tree));
        }
        return (members.to_vec(), mappings);
    }
    let mut mappings = compared;
    let usable: Vec<usize> = (0..loaded.len()).filter(|&i| mappings[i].is_some()).collect();
    let agreements: Vec<Agreement> = usable
        .iter()
        .map(|&i| Agreement {
            in_cs: members.contains(&i),
            share: mappings[i].as_ref().map_or(0.0, |m| m.len() as f64 / key.len() as f64),
            itself: loaded[i].as_ref().is_some_and(|p| p.url == key_page.url || p.tree.len() == key.len())
                && mappings[i].as_ref().is_some_and(|m| m.len() == key.len()),
        })
        .collect();
    let chosen: Vec<usize> = layout_agreement::voters(&agreements, cfg.cs_size, cfg.content.layout_ratio)
        .into_iter()
        .map(|v| usable[v])
        .collect();
    let chosen_mappings = chosen.iter().map(|&i| mappings[i].take().expect("voters loaded")).collect();
    (chosen, chosen_mappings)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::LoadError;
    use crate::html::{parse, snapshot};
    use crate::score::{gold_template, score};

    /// Pages held as HTML, parsed like the CLI parses a site folder.
    struct HtmlSite(Vec<(&'static str, String)>);

    impl PageSource for HtmlSite {
        async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
            let (_, html) =
                self.0.iter().find(|(p, _)| url.path() == *p).ok_or(LoadError::NotFound(url.to_string()))?;
            let tree = snapshot(&parse(html)).expect("has html");
            Ok(LoadedPage { url: url.clone(), tree, fetch_ms: 0.0, parse_ms: 0.0, snapshot_ms: 0.0 })
        }

        fn now_ms(&self) -> f64 {
            0.0
        }
    }

    /// A mailing-list archive: message pages share a frame (navigation line,
    /// footer) and link to their neighbours and to two index pages; the index
    /// pages, built differently, link to each other and to every message, so
    /// the first complete subdigraph is one message and the two indexes.
    fn archive() -> HtmlSite {
        let message = |n: u32, words: &str| {
            format!(
                "<html><body><div class=nav><a href=/by-date>By date</a> <a href=/by-thread>By thread</a></div>\
                 <h1 class=notTemplate>Re: message {n}</h1>\
                 <div class=pager><a href=/m{}>previous</a> <a href=/m{}>next</a></div>\
                 <pre class=notTemplate>{words}</pre>\
                 <p class=foot>This archive was generated by the archiver</p></body></html>",
                n - 1,
                n + 1
            )
        };
        let index = |other: &str| {
            format!(
                "<html><body><table><tr><td><a href={other}>Other index</a></td></tr>\
                 <tr><td><a href=/m1>1</a><a href=/m2>2</a><a href=/m3>3</a><a href=/m4>4</a></td></tr></table></body></html>"
            )
        };
        HtmlSite(vec![
            ("/m1", message(1, "a first question about sets")),
            ("/m2", message(2, "an answer about infinite sets")),
            ("/m3", message(3, "a follow-up on measure")),
            ("/m4", message(4, "thanks and a last word")),
            ("/by-date", index("/by-thread")),
            ("/by-thread", index("/by-date")),
        ])
    }

    #[test]
    fn candidates_of_another_layout_give_way_to_pages_of_the_key_pages_layout() {
        let site = archive();
        let url = Url::parse("http://archive.test/m2").unwrap();
        let key = futures::executor::block_on(site.load(&url)).unwrap();
        let run = |cfg: &Config| futures::executor::block_on(extract(cfg, &site, &key)).unwrap();
        let gold = gold_template(&key.tree);

        let paper = run(&Config::preset("paper").unwrap());
        assert!(paper.cs.pages.iter().any(|p| p.path().starts_with("/by-")), "the CS holds index pages");
        assert!(score(&key.tree, &paper.template).recall < 0.5, "the indexes outvote the message page");

        let default = run(&Config::default());
        assert!(default.cs.pages.iter().all(|p| !p.path().starts_with("/by-")), "{:?}", default.cs.pages);
        let s = score(&key.tree, &default.template);
        assert_eq!((s.recall, s.precision), (1.0, 1.0), "{:?} of {:?}", default.template, gold);
    }
}
