//! Search for n pages that all link to each other, the complete subdigraph
//! (thesis §2.2.5, Alg. 2), loading candidates in link order.

use std::collections::{HashMap, HashSet};

use futures::stream::{FuturesUnordered, StreamExt};
use serde::Serialize;
use url::Url;

use crate::base::config::Config;
use crate::base::error::LoadError;
use crate::candidates::dead_links::DeadPatterns;
use crate::candidates::hyperlink::PageLink;
use crate::candidates::page_source::{LoadedPage, PageSource};

/// What the search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CsKind {
    /// An n-CS, as asked.
    Complete,
    /// No n-CS within the load limit; the biggest m-CS (2 ≤ m < n) found.
    Partial,
    /// Not even two loaded pages link to each other: the first n pages that
    /// loaded, in link order, stand in for a CS.
    Fallback,
}

/// One attempted load, in the order the algorithm processed them.
#[derive(Clone, Debug, Serialize)]
pub struct LoadRecord {
    pub url: Url,
    pub error: Option<LoadError>,
    pub fetch_ms: f64,
    pub parse_ms: f64,
    pub snapshot_ms: f64,
}

impl LoadRecord {
    /// The record of one attempted load of `url`.
    pub fn of(url: Url, result: &Result<LoadedPage, LoadError>) -> Self {
        match result {
            Ok(p) => Self { url, error: None, fetch_ms: p.fetch_ms, parse_ms: p.parse_ms, snapshot_ms: p.snapshot_ms },
            Err(e) => {
                // A page refused as too large was parsed up to the limit: that time was spent.
                let parse_ms = match e {
                    LoadError::TooLarge { parse_ms, .. } => *parse_ms,
                    _ => 0.0,
                };
                Self { url, error: Some(e.clone()), fetch_ms: 0.0, parse_ms, snapshot_ms: 0.0 }
            }
        }
    }
}

/// The result of Alg. 2.
#[derive(Debug)]
pub struct CsSearch {
    pub kind: CsKind,
    /// Indexes into `pages` of the chosen candidates, in processing order.
    pub members: Vec<usize>,
    /// Every page processed, in processing order, with its tree when it loaded.
    pub pages: Vec<(LoadRecord, Option<LoadedPage>)>,
    /// Loads the sequential algorithm needed (the key page not included).
    pub loads: usize,
    /// Loads actually started, speculative prefetches included.
    pub fetched: usize,
}

/// The largest clique containing `must` within `nodes`, at most `cap` big,
/// earliest members first among equals. `adj[i][j]` is a mutual link.
fn largest_clique_with(adj: &[Vec<bool>], nodes: &[usize], must: usize, cap: usize) -> Vec<usize> {
    fn grow(adj: &[Vec<bool>], current: &mut Vec<usize>, pool: &[usize], cap: usize, best: &mut Vec<usize>) {
        if current.len() > best.len() {
            *best = current.clone();
        }
        if best.len() >= cap || current.len() + pool.len() <= best.len() {
            return;
        }
        for (k, &v) in pool.iter().enumerate() {
            if current.len() + (pool.len() - k) <= best.len() {
                return;
            }
            let next: Vec<usize> = pool[k + 1..].iter().copied().filter(|&w| adj[v][w]).collect();
            current.push(v);
            grow(adj, current, &next, cap, best);
            current.pop();
            if best.len() >= cap {
                return;
            }
        }
    }
    let pool: Vec<usize> = nodes.iter().copied().filter(|&v| v != must && adj[must][v]).collect();
    let mut best = Vec::new();
    grow(adj, &mut vec![must], &pool, cap, &mut best);
    best.sort_unstable();
    best
}

/// The unprocessed links in the order Alg. 2 would take them next: the
/// sorted order, or, when guided, most linked-to by the pages loaded so far
/// first (ties keep the sorted order); links whose pattern `dead` marks
/// ([`DeadPatterns`]) last.
fn next_order(done: &[bool], indegree: &[usize], guided: bool, dead: Option<&[bool]>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..done.len()).filter(|&l| !done[l]).collect();
    let guide = |l: usize| if guided { std::cmp::Reverse(indegree[l]) } else { std::cmp::Reverse(0) };
    if guided || dead.is_some() {
        order.sort_by_key(|&l| (dead.is_some_and(|d| d[l]), guide(l), l));
    }
    order
}

/// How many of the next links to have loading: the pages the CS still
/// needs if every one joins it, plus one per page known not to join (a
/// processed page that did not, or a load that failed before its turn), so
/// speculation grows only where pages fail, at most `concurrency`. Loads
/// beyond need are not free: each one's fetch and parse compete with the
/// needed ones for the same cores and the same server.
fn speculation_window(n: usize, best: usize, misses: usize, concurrency: usize) -> usize {
    let missing = n.saturating_sub(best).max(1);
    (missing + misses).clamp(1, concurrency.max(1))
}

/// How many of the first sorted links the search has loading before it
/// processes any page: the loads worth starting early ([`crate::candidates::prefetch`]).
pub fn first_window(cfg: &Config) -> usize {
    speculation_window(cfg.cs_size, 0, 0, cfg.concurrency).min(cfg.max_loads)
}

/// Alg. 2 over the sorted links of the key page.
///
/// Guided order (`cfg.guided_search`, an addition to the paper): a page that
/// many loaded pages link to is probably in their menu, so it is tried
/// before links no loaded page points to. Sites whose first links are
/// articles that only link to the menu then find the CS in a few loads.
///
/// Up to `cfg.concurrency` loads run at once (the next links of the current
/// order, as many as [`speculation_window`] allows), but pages are processed
/// one at a time in the order above and the search stops where the
/// sequential algorithm stops, so the CS found never depends on network
/// timing; loads still in flight then are dropped (`fetched` counts them).
pub async fn find_cs<S: PageSource>(source: &S, key: &Url, sorted_links: &[PageLink], cfg: &Config) -> CsSearch {
    let n = cfg.cs_size;
    let link_index: HashMap<&Url, usize> = sorted_links.iter().enumerate().map(|(i, l)| (&l.url, i)).collect();
    let mut done = vec![false; sorted_links.len()];
    let mut indegree = vec![0usize; sorted_links.len()];
    let mut requested = vec![false; sorted_links.len()];
    let mut ready: HashMap<usize, Result<LoadedPage, LoadError>> = HashMap::new();
    let mut in_flight = FuturesUnordered::new();
    let load = |l: usize| async move { (l, source.load(&sorted_links[l].url).await) };
    let mut fetched = 0usize;

    // For processed page i: its link index and the link indexes it points to.
    let mut link_of: Vec<usize> = Vec::new();
    let mut out: Vec<HashSet<usize>> = Vec::new();
    let mut pages: Vec<(LoadRecord, Option<LoadedPage>)> = Vec::new();
    let mut adj: Vec<Vec<bool>> = Vec::new();
    let mut best: Vec<usize> = Vec::new();
    let mut kind = CsKind::Fallback;
    // Pages that loaded since the CS last grew: a failed load (a dead link
    // of a partial copy, a 404) is no sign that the search stopped paying,
    // so it counts toward `max_loads` but not toward `patience`.
    let mut fruitless = 0usize;
    let mut dead = DeadPatterns::new(key, sorted_links);
    while pages.len() < cfg.max_loads {
        if cfg.patience > 0 && fruitless >= cfg.patience {
            break;
        }
        let dead_links = if cfg.dead_links_last { dead.dead_links() } else { None };
        let order = next_order(&done, &indegree, cfg.guided_search, dead_links.as_deref());
        let Some(&next) = order.first() else { break };
        let budget = cfg.max_loads - pages.len();
        let misses = pages.len() - best.len();
        loop {
            // A failed load waiting for its turn is already known to be a miss.
            let failed = ready.values().filter(|r| r.is_err()).count();
            let window = speculation_window(n, best.len(), misses + failed, cfg.concurrency);
            for &l in order.iter().take(window.min(budget)) {
                if !requested[l] {
                    requested[l] = true;
                    fetched += 1;
                    in_flight.push(load(l));
                }
            }
            if ready.contains_key(&next) {
                break;
            }
            let (l, result) = in_flight.next().await.expect("the next link was requested");
            ready.insert(l, result);
        }
        let result = ready.remove(&next).expect("ready");
        done[next] = true;
        let i = pages.len();
        let url = sorted_links[next].url.clone();
        let record = LoadRecord::of(url, &result);
        dead.record(&record.url, result.is_ok());
        let (page, links) = match result {
            Ok(page) => {
                let links: HashSet<usize> = source
                    .links(&page)
                    .iter()
                    .filter_map(|l| link_index.get(&l.url).copied())
                    .filter(|&j| j != next)
                    .collect();
                (Some(page), links)
            }
            Err(_) => (None, HashSet::new()),
        };
        for &l in &links {
            indegree[l] += 1;
        }
        adj.iter_mut().for_each(|row| row.push(false));
        adj.push(vec![false; i + 1]);
        for j in 0..i {
            if links.contains(&link_of[j]) && out[j].contains(&next) {
                adj[i][j] = true;
                adj[j][i] = true;
            }
        }
        link_of.push(next);
        out.push(links);
        pages.push((record, page));
        if pages[i].1.is_none() {
            continue;
        }
        let processed: Vec<usize> = (0..=i).collect();
        let clique = largest_clique_with(&adj, &processed, i, n);
        if clique.len() > best.len() {
            best = clique;
            fruitless = 0;
        } else {
            fruitless += 1;
        }
        if best.len() >= n {
            kind = CsKind::Complete;
            break;
        }
    }
    drop(in_flight);
    if kind != CsKind::Complete {
        if best.len() >= 2 {
            kind = CsKind::Partial;
        } else {
            best = pages.iter().enumerate().filter(|(_, (_, p))| p.is_some()).map(|(i, _)| i).take(n).collect();
        }
    }
    CsSearch { kind, members: best, loads: pages.len(), fetched, pages }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::page_source::tests::MemorySource;

    #[test]
    fn a_page_refused_as_too_large_counts_its_parse_time() {
        let url = Url::parse("http://s.org/big").unwrap();
        let refused = LoadError::TooLarge { url: url.to_string(), nodes: 9, limit: 5, parse_ms: 12.5 };
        let record = LoadRecord::of(url.clone(), &Err(refused));
        assert_eq!(record.parse_ms, 12.5);
        assert_eq!(LoadRecord::of(url.clone(), &Err(LoadError::NotFound(url.to_string()))).parse_ms, 0.0);
    }

    fn key() -> Url {
        Url::parse("http://s.org/key").unwrap()
    }

    fn links(urls: &[&str]) -> Vec<PageLink> {
        urls.iter()
            .map(|u| PageLink {
                url: Url::parse(&format!("http://s.org/{u}")).unwrap(),
                node: crate::page::dom::NodeId(0),
            })
            .collect()
    }

    /// Pages a..f; b, d, e form the only 3-CS; c is missing.
    fn site() -> MemorySource {
        MemorySource::new(&[
            ("a", &["b"]),
            ("b", &["a", "d", "e"]),
            ("d", &["b", "e", "a"]),
            ("e", &["b", "d"]),
            ("f", &["b", "d", "e"]),
        ])
    }

    fn names(s: &CsSearch) -> Vec<String> {
        s.members.iter().map(|&i| s.pages[i].0.url.path().trim_start_matches('/').to_string()).collect()
    }

    #[test]
    fn finds_the_first_complete_subdigraph_in_link_order() {
        let ls = links(&["a", "b", "c", "d", "e", "f"]);
        for concurrency in [1, 2, 6] {
            let cfg = Config { concurrency, guided_search: false, ..Config::default() };
            let s = futures::executor::block_on(find_cs(&site(), &key(), &ls, &cfg));
            assert_eq!(s.kind, CsKind::Complete);
            assert_eq!(names(&s), ["b", "d", "e"]);
            assert_eq!(s.loads, 5, "stops after e, the fifth link");
            assert!(s.pages[2].0.error.is_some(), "c failed and was skipped");
            assert!(s.fetched >= s.loads && s.fetched <= 6);
        }
    }

    #[test]
    fn partial_and_fallback_when_no_n_cs_exists() {
        let ls = links(&["a", "b", "c"]);
        let cfg = Config { concurrency: 3, guided_search: false, ..Config::default() };
        let s = futures::executor::block_on(find_cs(&site(), &key(), &ls, &cfg));
        assert_eq!(s.kind, CsKind::Partial);
        assert_eq!(names(&s), ["a", "b"]);
        let lonely = MemorySource::new(&[("x", &[]), ("y", &[]), ("z", &["x"])]);
        let s = futures::executor::block_on(find_cs(&lonely, &key(), &links(&["x", "y", "z"]), &cfg));
        assert_eq!(s.kind, CsKind::Fallback);
        assert_eq!(names(&s), ["x", "y", "z"]);
    }

    /// Articles a1..a4 link only to the menu pages m1..m3, which link to
    /// each other: in link order the CS needs 7 loads, guided it needs 4,
    /// and the answer does not depend on concurrency.
    #[test]
    fn guided_order_tries_pages_the_loaded_ones_link_to() {
        let menu: &[&str] = &["m1", "m2", "m3"];
        let site = MemorySource::new(&[
            ("a1", menu),
            ("a2", menu),
            ("a3", menu),
            ("a4", menu),
            ("m1", &["m2", "m3", "a1"]),
            ("m2", &["m1", "m3"]),
            ("m3", &["m1", "m2"]),
        ]);
        let ls = links(&["a1", "a2", "a3", "a4", "m1", "m2", "m3"]);
        let plain = Config { guided_search: false, ..Config::default() };
        let s = futures::executor::block_on(find_cs(&site, &key(), &ls, &plain));
        assert_eq!((s.kind, s.loads), (CsKind::Complete, 7));
        for concurrency in [1, 3, 7] {
            let guided = Config { guided_search: true, concurrency, ..Config::default() };
            let s = futures::executor::block_on(find_cs(&site, &key(), &ls, &guided));
            assert_eq!((s.kind, s.loads), (CsKind::Complete, 4));
            assert_eq!(names(&s), ["m1", "m2", "m3"]);
        }
    }

    /// A partial copy lacks a whole family of pages (monthly archives): once
    /// one of them failed, the menu pages after them are tried first; links
    /// of a dead pattern are still tried when nothing else is left.
    #[test]
    fn links_of_a_pattern_that_only_failed_are_tried_last() {
        let menu: &[&str] = &["m1", "m2", "m3"];
        let site = MemorySource::new(&[("m1", menu), ("m2", menu), ("m3", menu)]);
        let ls = links(&["2019/12", "2019/11", "2019/10", "2019/09", "m1", "m2", "m3"]);
        for concurrency in [1, 4] {
            let paper = Config { dead_links_last: false, concurrency, ..Config::default() };
            let s = futures::executor::block_on(find_cs(&site, &key(), &ls, &paper));
            assert_eq!((s.kind, s.loads), (CsKind::Complete, 7));
            let cfg = Config { concurrency, ..Config::default() };
            let s = futures::executor::block_on(find_cs(&site, &key(), &ls, &cfg));
            assert_eq!((s.kind, s.loads), (CsKind::Complete, 4));
            assert_eq!(names(&s), menu);
        }
        let archive: &[&str] = &["2019/10", "2019/09", "2019/08"];
        let site = MemorySource::new(&[("2019/10", archive), ("2019/09", archive), ("2019/08", archive)]);
        let ls = links(&["2019/12", "2019/11", "2019/10", "2019/09", "2019/08"]);
        let s = futures::executor::block_on(find_cs(&site, &key(), &ls, &Config::default()));
        assert_eq!((s.kind, s.loads), (CsKind::Complete, 5));
    }

    /// When the first n links form a CS, no page beyond them is fetched;
    /// a page that does not join lets one more load run ahead.
    #[test]
    fn speculates_only_after_a_page_fails_to_join() {
        let cfg = Config { concurrency: 4, guided_search: false, ..Config::default() };
        let s = futures::executor::block_on(find_cs(&site(), &key(), &links(&["b", "d", "e", "f", "a"]), &cfg));
        assert_eq!((s.kind, s.loads, s.fetched), (CsKind::Complete, 3, 3));
        let s = futures::executor::block_on(find_cs(&site(), &key(), &links(&["a", "b", "c", "d", "e", "f"]), &cfg));
        assert_eq!((s.kind, s.loads), (CsKind::Complete, 5));
        assert!(s.fetched > s.loads, "the misses let loads run ahead");
        assert_eq!(speculation_window(3, 0, 0, 4), 3);
        assert_eq!(speculation_window(3, 2, 0, 4), 1);
        assert_eq!(speculation_window(3, 1, 3, 4), 4);
        assert_eq!(speculation_window(3, 3, 0, 1), 1);
    }

    /// A load that fails while an earlier one is still on the network lets
    /// the next link start at once, not after the earlier page's turn.
    #[test]
    fn a_failure_before_its_turn_starts_the_next_load() {
        use std::cell::RefCell;
        use std::task::Poll;

        struct Slow {
            site: MemorySource,
            log: RefCell<Vec<String>>,
        }
        impl PageSource for Slow {
            async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
                let name = url.path().trim_start_matches('/').to_string();
                self.log.borrow_mut().push(format!("start {name}"));
                if name == "a" {
                    // On the network until d has started (or for a while, so the test never hangs).
                    let mut polls = 0;
                    std::future::poll_fn(|cx| {
                        polls += 1;
                        if polls > 100 || self.log.borrow().iter().any(|e| e == "start d") {
                            return Poll::Ready(());
                        }
                        cx.waker().wake_by_ref();
                        Poll::Pending
                    })
                    .await;
                }
                self.log.borrow_mut().push(format!("done {name}"));
                self.site.load(url).await
            }
            fn now_ms(&self) -> f64 {
                0.0
            }
        }
        let site = MemorySource::new(&[("a", &["c", "d"]), ("c", &["a", "d"]), ("d", &["a", "c"])]);
        let slow = Slow { site, log: RefCell::default() };
        let cfg = Config { concurrency: 4, guided_search: false, ..Config::default() };
        let s = futures::executor::block_on(find_cs(&slow, &key(), &links(&["a", "b", "c", "d"]), &cfg));
        assert_eq!(names(&s), ["a", "c", "d"]);
        let log = slow.log.borrow();
        let at = |e: &str| log.iter().position(|x| x == e).unwrap_or_else(|| panic!("{e} missing from {log:?}"));
        assert!(at("start d") < at("done a"), "{log:?}");
    }

    #[test]
    fn load_limit_is_respected() {
        let ls = links(&["a", "b", "c", "d", "e", "f"]);
        let cfg = Config { max_loads: 3, concurrency: 4, guided_search: false, ..Config::default() };
        let s = futures::executor::block_on(find_cs(&site(), &key(), &ls, &cfg));
        assert_eq!(s.loads, 3);
        assert_eq!(s.fetched, 3);
        assert_eq!(s.kind, CsKind::Partial);
    }

    /// A partial copy of a site: the key's first links are dead. Failed
    /// loads count toward `max_loads` (in the browser each is a request)
    /// but are no sign that the search stopped paying, so patience does not
    /// end the search before it reaches the pages that are there.
    #[test]
    fn dead_links_spend_loads_but_not_patience() {
        let dead: Vec<String> = (0..10).map(|i| format!("gone{i}")).collect();
        let mut order: Vec<&str> = dead.iter().map(String::as_str).collect();
        order.extend(["b", "d", "e"]);
        let ls = links(&order);
        for concurrency in [1, 4] {
            let cfg = Config { concurrency, guided_search: false, ..Config::default() };
            assert_eq!(cfg.patience, 6, "fewer dead links than these would not show it");
            let s = futures::executor::block_on(find_cs(&site(), &key(), &ls, &cfg));
            assert_eq!((s.kind, s.loads), (CsKind::Complete, 13), "10 failed loads, then b, d, e");
            assert_eq!(names(&s), ["b", "d", "e"]);
            let tight = Config { max_loads: 11, ..cfg };
            let s = futures::executor::block_on(find_cs(&site(), &key(), &ls, &tight));
            assert_eq!((s.kind, s.loads, names(&s)), (CsKind::Fallback, 11, vec!["b".to_string()]));
        }
    }

    #[test]
    fn patience_ends_a_search_that_stopped_growing() {
        // Articles that link only to the key page's section: a and b form a
        // 2-CS at once, then nothing grows.
        let mut pages: Vec<(String, Vec<String>)> =
            vec![("a".into(), vec!["b".into()]), ("b".into(), vec!["a".into()])];
        pages.extend((0..20).map(|i| (format!("x{i}"), vec![])));
        let pages: Vec<(&str, Vec<&str>)> =
            pages.iter().map(|(p, ls)| (p.as_str(), ls.iter().map(String::as_str).collect())).collect();
        let refs: Vec<(&str, &[&str])> = pages.iter().map(|(p, ls)| (*p, ls.as_slice())).collect();
        let site = MemorySource::new(&refs);
        let names: Vec<String> = pages.iter().map(|(p, _)| p.to_string()).collect();
        let ls = links(&names.iter().map(String::as_str).collect::<Vec<_>>());
        let search = |patience| {
            let cfg = Config { patience, guided_search: false, ..Config::default() };
            futures::executor::block_on(find_cs(&site, &key(), &ls, &cfg))
        };
        assert_eq!((search(0).kind, search(0).loads), (CsKind::Partial, 22), "the paper searches every link");
        assert_eq!((search(5).kind, search(5).loads), (CsKind::Partial, 7), "2 loads that grew it, then 5 in vain");
    }
}
