//! One site's pages held in memory as a page source: the method's candidate
//! loads are answered from the collection, never from the network, so a
//! crawl is processed exactly as it was captured.

use std::collections::HashMap;
use std::time::Instant;

use url::Url;

use crate::dom::Tree;
use crate::error::LoadError;
use crate::page_body::ByteBudget;
use crate::page_source::{LoadedPage, PageSource};
use crate::template_memory::layout_signature;

/// A page of the collection: its decoded HTML, its snapshot and its layout
/// signature, both made once, when the page was admitted. Keeping the
/// snapshot costs about as much memory as the HTML and saves parsing the
/// page again for every extraction that loads it and for its output's
/// template (docs/collection.md).
pub struct StoredPage {
    pub url: Url,
    pub html: String,
    pub tree: Tree,
    pub layout: Vec<u64>,
}

/// The admitted pages of one site, in URL order once [`PageStore::sort`] ran.
#[derive(Default)]
pub struct PageStore {
    pages: Vec<StoredPage>,
    index: HashMap<String, usize>,
}

impl PageStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a page; `false` when the store already holds its URL.
    pub fn insert(&mut self, url: Url, html: String, tree: Tree) -> bool {
        let key = key_of(&url);
        if self.index.contains_key(&key) {
            return false;
        }
        self.index.insert(key, self.pages.len());
        self.pages.push(StoredPage { url, html, layout: layout_signature(&tree), tree });
        true
    }

    /// Puts the pages in URL order, so a site's result does not depend on
    /// the order its records arrived in.
    pub fn sort(&mut self) {
        self.pages.sort_by(|a, b| a.url.as_str().cmp(b.url.as_str()));
        self.index = self.pages.iter().enumerate().map(|(i, p)| (key_of(&p.url), i)).collect();
    }

    pub fn pages(&self) -> &[StoredPage] {
        &self.pages
    }

    pub fn len(&self) -> usize {
        self.pages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// The page a link names, as a static server would resolve it: the URL
    /// itself (fragment dropped), a directory's `index.html`, the URL with
    /// `.html` added, and these without the query. Without the query, a
    /// mirrored site's `page.html?action=x` finds its file as a static server
    /// finds it; in a crawl the query-less page is a page of the same site,
    /// which is all a candidate needs to be.
    pub fn find(&self, url: &Url) -> Option<&StoredPage> {
        self.position(url).map(|i| &self.pages[i])
    }

    fn position(&self, url: &Url) -> Option<usize> {
        let mut bare = url.clone();
        bare.set_query(None);
        self.find_exact(url).or_else(|| self.find_exact(&bare))
    }

    fn find_exact(&self, url: &Url) -> Option<usize> {
        let key = key_of(url);
        let extensionless = !url.path().rsplit('/').next().unwrap_or("").contains('.');
        let tries = [
            Some(key.clone()),
            key.ends_with('/').then(|| format!("{key}index.html")),
            (extensionless && !key.ends_with('/') && url.query().is_none()).then(|| format!("{key}.html")),
        ];
        tries.into_iter().flatten().find_map(|k| self.index.get(&k).copied())
    }

    /// A page source over the store for one extraction, with the
    /// extension's per-extraction byte budget and element limit.
    pub fn source(&self, max_nodes: usize) -> StoreSource<'_> {
        StoreSource { store: self, max_nodes, budget: ByteBudget::default(), clock: Instant::now() }
    }
}

fn key_of(url: &Url) -> String {
    let mut u = url.clone();
    u.set_fragment(None);
    u.into()
}

/// Loads from a [`PageStore`]: a page the collection lacks is not found.
pub struct StoreSource<'a> {
    store: &'a PageStore,
    max_nodes: usize,
    budget: ByteBudget,
    clock: Instant,
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

impl PageSource for StoreSource<'_> {
    async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let i = self.store.position(url).ok_or_else(|| LoadError::NotFound(url.to_string()))?;
        let page = &self.store.pages[i];
        self.budget.take(url.as_str(), 0, page.html.len())?;
        let t1 = Instant::now();
        let tree = page.tree.clone();
        let parse_ms = ms(t1);
        if tree.len() > self.max_nodes {
            return Err(LoadError::TooLarge { url: url.to_string(), nodes: tree.len(), limit: self.max_nodes });
        }
        Ok(LoadedPage { url: page.url.clone(), tree, fetch_ms: 0.0, parse_ms, snapshot_ms: 0.0 })
    }

    fn now_ms(&self) -> f64 {
        ms(self.clock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::{parse, snapshot};

    fn store(urls: &[&str]) -> PageStore {
        let mut s = PageStore::new();
        for u in urls {
            let html = format!("<p>{u}</p>");
            let tree = snapshot(&parse(&html)).unwrap();
            assert!(s.insert(Url::parse(u).unwrap(), html, tree));
        }
        s
    }

    #[test]
    fn finds_pages_as_a_static_server_does_and_nothing_else() {
        let s = store(&["http://a.test/docs/index.html", "http://a.test/about.html", "http://a.test/x?p=1"]);
        let find = |u: &str| s.find(&Url::parse(u).unwrap()).map(|p| p.url.path().to_string());
        assert_eq!(find("http://a.test/docs/").as_deref(), Some("/docs/index.html"));
        assert_eq!(find("http://a.test/about#team").as_deref(), Some("/about.html"));
        assert_eq!(find("http://a.test/x?p=1").as_deref(), Some("/x"));
        assert_eq!(find("http://a.test/about.html?action=edit").as_deref(), Some("/about.html"), "as a static server");
        assert_eq!(find("http://a.test/x?p=2"), None);
        assert_eq!(find("http://b.test/about.html"), None, "another origin is not in the store");
        let tree = snapshot(&parse("<p>")).unwrap();
        let mut again = store(&["http://a.test/about.html"]);
        assert!(!again.insert(Url::parse("http://a.test/about.html#x").unwrap(), String::new(), tree));
    }

    #[test]
    fn loads_parse_the_stored_html_and_missing_pages_are_not_found() {
        let s = store(&["http://a.test/b.html", "http://a.test/a.html"]);
        let source = s.source(100);
        let page = futures::executor::block_on(source.load(&Url::parse("http://a.test/a").unwrap())).unwrap();
        assert_eq!(page.url.path(), "/a.html");
        assert_eq!(page.tree.len(), 4, "html head body p");
        let missing = futures::executor::block_on(source.load(&Url::parse("http://a.test/c.html").unwrap()));
        assert!(matches!(missing, Err(LoadError::NotFound(_))));
        let tight = s.source(3);
        let big = futures::executor::block_on(tight.load(&Url::parse("http://a.test/a.html").unwrap()));
        assert!(matches!(big, Err(LoadError::TooLarge { .. })));
    }
}
