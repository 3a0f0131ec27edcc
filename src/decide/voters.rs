//! Which loaded pages vote, and with which mapping: the complete
//! subdigraph's members as published, or, with the content signal, the
//! pages that share the key page's layout (`layout_agreement`), loading
//! more pages of the key's URL pattern when too few do.

use std::collections::HashSet;

use url::Url;

use crate::base::config::Config;
use crate::candidates::complete_subdigraph::LoadRecord;
use crate::candidates::hyperlink::{same_document, same_url_pattern, PageLink};
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::compare::mapping::Mapping;
use crate::decide::compare_ahead::CompareAhead;
use crate::decide::evidence::{copies, kept_words, supersets};
use crate::decide::layout_agreement::{self, Agreement};
use crate::decide::template::map_page;
use crate::page::dom::{NodeId, Tree};

/// The pages that vote and the key page's mapping into each, as indexes
/// into the processed pages. Without the content signal these are the CS
/// members and their plain mappings (the published method); with it, each
/// mapping keeps only what the page repeats in content too, and the voters
/// are the loaded pages that share the key page's layout
/// ([`layout_agreement::voters`]). With the signal, `compared[i]` is page
/// `i`'s comparison, made as it loaded (every loaded page has one).
pub async fn vote_pages<S: PageSource>(
    cfg: &Config,
    source: &S,
    key_page: &LoadedPage,
    members: &[usize],
    loaded: &[Option<LoadedPage>],
    compared: Vec<Option<Mapping>>,
) -> Vote {
    let key = &key_page.tree;
    if !cfg.content.enabled {
        let mut mappings = Vec::with_capacity(members.len());
        for &i in members {
            source.pause().await;
            mappings.push(map_page(cfg, key, &loaded[i].as_ref().expect("members loaded").tree));
        }
        return Vote { voters: members.to_vec(), mappings, copies: 0 };
    }
    let mut mappings = compared;
    let (usable, agreements, core) = agreements(key_page, members, loaded, &mappings);
    let voters: Vec<usize> =
        layout_agreement::voters(&agreements, core, cfg.cs_size, cfg.content.layout_ratio, key.len())
            .into_iter()
            .map(|v| usable[v])
            .collect();
    let mappings = voters.iter().map(|&i| mappings[i].take().expect("voters loaded")).collect();
    Vote { voters, mappings, copies: agreements.iter().filter(|a| a.itself).count() }
}

/// The pages that vote, as indexes into the processed pages, the key page's
/// mapping into each, and how many loaded pages were set aside as copies
/// of the key page.
pub struct Vote {
    pub voters: Vec<usize>,
    pub mappings: Vec<Mapping>,
    pub copies: usize,
}

/// The pages processed so far, side by side: each attempted load's record,
/// its page when it loaded, and the key page's comparison with it.
pub struct Processed<'a> {
    pub records: &'a mut Vec<LoadRecord>,
    pub loaded: &'a mut Vec<Option<LoadedPage>>,
    pub compared: &'a mut Vec<Option<Mapping>>,
}

/// Each compared page's agreement with the key page ([`layout_agreement`]),
/// as (indexes of the compared pages, their agreements, the core share).
fn agreements(
    key_page: &LoadedPage,
    members: &[usize],
    loaded: &[Option<LoadedPage>],
    compared: &[Option<Mapping>],
) -> (Vec<usize>, Vec<Agreement>, f64) {
    let key = &key_page.tree;
    let usable: Vec<usize> = (0..loaded.len()).filter(|&i| compared[i].is_some()).collect();
    // The key page reached under another address keeps everything by
    // definition; copies are judged among the other pages.
    let itself: Vec<bool> = usable
        .iter()
        .map(|&i| {
            let m = compared[i].as_ref().expect("usable");
            loaded[i].as_ref().is_some_and(|p| p.url == key_page.url || p.tree.len() == key.len())
                && m.len() == key.len()
        })
        .collect();
    let others: Vec<usize> = (0..usable.len()).filter(|&k| !itself[k]).collect();
    let kept: Vec<u32> =
        others.iter().map(|&k| kept_words(key, compared[usable[k]].as_ref().expect("usable"))).collect();
    let pages: Vec<(&Tree, &Mapping)> = others
        .iter()
        .map(|&k| {
            let i = usable[k];
            (&*loaded[i].as_ref().expect("compared pages loaded").tree, compared[i].as_ref().expect("usable"))
        })
        .collect();
    let mut copy = itself;
    let copied = copies(key.nodes().map(|(_, n)| n.words).sum(), &kept);
    for ((&k, c), s) in others.iter().zip(copied).zip(supersets(key, &pages)) {
        copy[k] = c || s;
    }
    let agreements = usable
        .iter()
        .zip(copy)
        .map(|(&i, copy)| Agreement {
            in_cs: members.contains(&i),
            sibling: loaded[i].as_ref().is_some_and(|p| same_url_pattern(&p.url, &key_page.url)),
            share: compared[i].as_ref().expect("usable").len() as f64 / key.len() as f64,
            itself: copy,
        })
        .collect();
    let core = core_share(key, usable.iter().map(|&i| compared[i].as_ref().expect("usable")));
    (usable, agreements, core)
}

/// When fewer than `votes` loaded pages share the key page's layout (the CS
/// held listings, say, around an article), loads the next links that follow
/// the key page's URL pattern, a few at a time, until enough do or
/// `peer_loads` more pages were tried, never past `max_loads` (a search
/// that spent the ceiling on dead links leaves none). Each is compared as
/// it loads. When the key page links to no more such pages (a product page
/// that links only to listings, a message that links only to the next),
/// the links the loaded pages make to pages of the key's pattern come next:
/// a listing links to its products, a message to the one after. When the
/// budget is spent and fewer than two pages would vote, the key's own links
/// of its pattern get one more budget ([`own_links_first`]).
pub async fn load_layout_peers<S: PageSource>(
    cfg: &Config,
    ahead: &CompareAhead<'_, S>,
    key_page: &LoadedPage,
    sorted: &[PageLink],
    pages: &mut Processed<'_>,
) {
    let mut tried: HashSet<Url> = pages.records.iter().map(|r| r.url.clone()).collect();
    let peer = |url: &Url| same_url_pattern(url, &key_page.url) && !same_document(url, &key_page.url);
    let mut next: Vec<Url> =
        sorted.iter().filter(|l| !tried.contains(&l.url) && peer(&l.url)).map(|l| l.url.clone()).collect();
    next.reverse();
    let any_of_pattern = |loaded: &[Option<LoadedPage>]| loaded.iter().flatten().any(|p| peer(&p.url));
    let mut second_hop = false;
    let mut repaired = false;
    // One budget of peers, within the ceiling of loads however many `records` made.
    let peer_budget = |records: usize| cfg.content.peer_loads.min(cfg.max_loads.saturating_sub(records));
    let mut budget = peer_budget(pages.records.len());
    loop {
        let (_, agreements, core) = agreements(key_page, &[], pages.loaded, pages.compared);
        if budget == 0 {
            // One page of the key's layout is one voter, too weak to
            // decide alone: when the budget went on the menu's pages of
            // the key's pattern, the key's own links get as many loads,
            // within the ceiling of loads.
            let ratio = cfg.content.layout_ratio;
            let alone = layout_agreement::voters(&agreements, core, cfg.cs_size, ratio, key_page.tree.len()).len() < 2;
            budget = peer_budget(pages.records.len());
            if repaired || !alone || next.is_empty() || budget == 0 {
                break;
            }
            repaired = true;
            next.reverse();
            own_links_first(ahead, pages.loaded, &mut next);
            next.reverse();
        }
        let found = layout_agreement::found(&agreements, core, cfg.content.layout_ratio, !next.is_empty());
        let mut wanted = cfg.votes.saturating_sub(found).min(budget);
        if next.is_empty() && !second_hop && (wanted > 0 || !any_of_pattern(pages.loaded)) {
            second_hop = true;
            next = hop_links(ahead, pages.loaded, &tried, &peer);
            wanted = wanted.max(cfg.votes.min(budget));
        }
        if wanted == 0 {
            break;
        }
        let batch: Vec<Url> = (0..wanted).map_while(|_| next.pop()).collect();
        if batch.is_empty() {
            break;
        }
        budget -= batch.len();
        tried.extend(batch.iter().cloned());
        let results = futures::future::join_all(batch.iter().map(|url| ahead.load(url))).await;
        for (url, result) in batch.into_iter().zip(results) {
            pages.records.push(LoadRecord::of(url.clone(), &result));
            pages.compared.push(ahead.take(&url));
            pages.loaded.push(result.ok());
        }
    }
}

/// Orders the key's links by how many loaded pages link there too, fewest
/// first, keeping the method's order among equals: a link every page makes
/// is the menu's (an "about" or "contact" page of the key's URL pattern, of
/// another layout), while a link of the key's own (the next post, a related
/// product) most often leads to a page of its kind.
fn own_links_first<S: PageSource>(source: &S, loaded: &[Option<LoadedPage>], links: &mut Vec<Url>) {
    let mut shared = vec![0usize; links.len()];
    for page in loaded.iter().flatten() {
        let page_links = source.links(page);
        let targets: HashSet<&Url> = page_links.iter().map(|l| &l.url).collect();
        for (n, url) in shared.iter_mut().zip(links.iter()) {
            *n += usize::from(targets.contains(url));
        }
    }
    // Buckets, not a sort: each sort of a new type adds its own code to
    // the browser's core, whose asm.js copy is at the size AMO parses.
    let mut ordered = Vec::with_capacity(links.len());
    for n in 0..=loaded.len() {
        ordered.extend(links.iter().zip(&shared).filter(|&(_, &k)| k == n).map(|(url, _)| url.clone()));
    }
    *links = ordered;
}

/// The untried links of the loaded pages that `peer` accepts, in the order
/// the pages loaded and each page's document order, reversed to pop.
fn hop_links<S: PageSource>(
    source: &S,
    loaded: &[Option<LoadedPage>],
    tried: &HashSet<Url>,
    peer: &impl Fn(&Url) -> bool,
) -> Vec<Url> {
    let mut seen = HashSet::new();
    let mut out: Vec<Url> = loaded
        .iter()
        .flatten()
        .flat_map(|page| source.links(page).iter().map(|l| l.url.clone()).collect::<Vec<_>>())
        .filter(|url| !tried.contains(url) && !source.lacks(url) && peer(url) && seen.insert(url.clone()))
        .collect();
    out.reverse();
    out
}

/// Share of the key page's nodes that every mapping keeps: the part of the
/// template all loaded pages share, whatever their layout.
fn core_share<'a>(key: &Tree, mappings: impl Iterator<Item = &'a Mapping>) -> f64 {
    let mut core = vec![true; key.len()];
    let mut any = false;
    for m in mappings {
        any = true;
        for (i, c) in core.iter_mut().enumerate() {
            *c &= m.is_mapped(NodeId(i as u32));
        }
    }
    if !any {
        return 0.0;
    }
    core.iter().filter(|&&c| c).count() as f64 / key.len() as f64
}
