//! Search for n pages that all link to each other, the complete subdigraph
//! (thesis §2.2.5, Alg. 2), loading candidates in link order.

use std::cell::Cell;
use std::collections::HashSet;

use futures::stream::{self, StreamExt};
use serde::Serialize;
use url::Url;

use crate::error::LoadError;
use crate::hyperlink::{page_links, PageLink};
use crate::page_source::{LoadedPage, PageSource};

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

/// The result of Alg. 2.
#[derive(Debug)]
pub struct CsSearch {
    pub kind: CsKind,
    /// Indexes into `pages` of the chosen candidates, in link order.
    pub members: Vec<usize>,
    /// Every page processed, in link order, with its tree when it loaded.
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

/// Alg. 2 over the sorted links of the key page.
///
/// Up to `concurrency` loads run at once, but results are consumed strictly
/// in link order and the search stops at the same link as the sequential
/// algorithm, so the CS found never depends on network timing; loads still
/// in flight at that point are dropped (`fetched` counts them).
pub async fn find_cs<S: PageSource>(
    source: &S,
    sorted_links: &[PageLink],
    n: usize,
    max_loads: usize,
    concurrency: usize,
) -> CsSearch {
    let reachable: Vec<&Url> = sorted_links.iter().map(|l| &l.url).collect();
    let index_of = |u: &Url| reachable.iter().position(|r| *r == u);
    let limit = sorted_links.len().min(max_loads);
    let started = Cell::new(0usize);
    let mut loads = stream::iter(sorted_links[..limit].iter().map(|l| {
        let started = &started;
        async move {
            started.set(started.get() + 1);
            (l.url.clone(), source.load(&l.url).await)
        }
    }))
    .buffered(concurrency.max(1));

    // out[i]: the links (as indexes into `reachable`) page i points to.
    let mut out: Vec<HashSet<usize>> = Vec::new();
    let mut pages: Vec<(LoadRecord, Option<LoadedPage>)> = Vec::new();
    let mut adj: Vec<Vec<bool>> = vec![vec![false; limit]; limit];
    let mut best: Vec<usize> = Vec::new();
    let mut kind = CsKind::Fallback;
    while let Some((url, result)) = loads.next().await {
        let i = pages.len();
        let (record, page, links) = match result {
            Ok(page) => {
                let links: HashSet<usize> =
                    page_links(&page.tree, &page.url).iter().filter_map(|l| index_of(&l.url)).filter(|&j| j != i).collect();
                let record = LoadRecord {
                    url: url.clone(),
                    error: None,
                    fetch_ms: page.fetch_ms,
                    parse_ms: page.parse_ms,
                    snapshot_ms: page.snapshot_ms,
                };
                (record, Some(page), links)
            }
            Err(e) => {
                let record = LoadRecord { url, error: Some(e), fetch_ms: 0.0, parse_ms: 0.0, snapshot_ms: 0.0 };
                (record, None, HashSet::new())
            }
        };
        for j in 0..i {
            if links.contains(&j) && out[j].contains(&i) {
                adj[i][j] = true;
                adj[j][i] = true;
            }
        }
        out.push(links);
        pages.push((record, page));
        if pages[i].1.is_none() {
            continue;
        }
        let processed: Vec<usize> = (0..=i).collect();
        let clique = largest_clique_with(&adj, &processed, i, n);
        if clique.len() > best.len() {
            best = clique;
        }
        if best.len() >= n {
            kind = CsKind::Complete;
            break;
        }
    }
    drop(loads);
    if kind != CsKind::Complete {
        if best.len() >= 2 {
            kind = CsKind::Partial;
        } else {
            best = pages.iter().enumerate().filter(|(_, (_, p))| p.is_some()).map(|(i, _)| i).take(n).collect();
        }
    }
    CsSearch { kind, members: best, loads: pages.len(), fetched: started.get(), pages }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page_source::tests::MemorySource;

    fn links(urls: &[&str]) -> Vec<PageLink> {
        urls.iter()
            .map(|u| PageLink { url: Url::parse(&format!("http://s.org/{u}")).unwrap(), node: crate::dom::NodeId(0) })
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
            let s = futures::executor::block_on(find_cs(&site(), &ls, 3, 25, concurrency));
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
        let s = futures::executor::block_on(find_cs(&site(), &ls, 3, 25, 3));
        assert_eq!(s.kind, CsKind::Partial);
        assert_eq!(names(&s), ["a", "b"]);
        let lonely = MemorySource::new(&[("x", &[]), ("y", &[]), ("z", &["x"])]);
        let s = futures::executor::block_on(find_cs(&lonely, &links(&["x", "y", "z"]), 3, 25, 1));
        assert_eq!(s.kind, CsKind::Fallback);
        assert_eq!(names(&s), ["x", "y", "z"]);
    }

    #[test]
    fn load_limit_is_respected() {
        let ls = links(&["a", "b", "c", "d", "e", "f"]);
        let s = futures::executor::block_on(find_cs(&site(), &ls, 3, 3, 4));
        assert_eq!(s.loads, 3);
        assert_eq!(s.fetched, 3);
        assert_eq!(s.kind, CsKind::Partial);
    }
}
