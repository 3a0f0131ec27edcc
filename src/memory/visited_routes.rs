//! Single-page apps learnt from the routes the user visits. An app serves
//! every address as the same empty shell and renders its pages in the
//! browser, so fetched pages hold nothing to compare. While the user moves
//! between the app's routes, the extension keeps a snapshot of each rendered
//! route (in the page, never stored); these take the place of fetched pages
//! in the method, with zero loads.
//!
//! Routes are pages as the method sees them: a History-API route is its URL;
//! a hash route (`index.html#/trails`, `#!/trails`) is addressed as the path
//! `index.html/%23/trails`, so that links, link order and the complete
//! subdigraph treat it as a page of its own (a fragment alone names the same
//! page). Each snapshot's links are rewritten to these addresses. Two visited
//! routes are linked when one's rendered page links to the other's address,
//! exactly as fetched pages are: an app's menu usually links every route to
//! every other, so the visited routes form a complete subdigraph. The key
//! page keeps only its links to visited routes: nothing else could be
//! compared without a load.

use std::collections::VecDeque;

use thiserror::Error;
use url::Url;

use crate::base::config::Config;
use crate::base::error::{ExtractError, LoadError};
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::extraction::extract::{extract, Extraction};
use crate::page::dom::Tree;

/// Snapshots kept per page: the newest route first, one per route. A
/// snapshot weighs what the page's elements do (tens of kilobytes), and the
/// method compares three pages.
pub const MAX_VISITED: usize = 8;

/// Why visited routes could not give a template.
#[derive(Debug, Error)]
pub enum VisitedError {
    #[error("Visit {more} more {} of this app, then Extract again.", if *more == 1 { "page" } else { "pages" })]
    TooFew { visited: usize, more: usize },
    #[error(transparent)]
    Extract(#[from] ExtractError),
}

/// The address of the route at `url`: a hash route's fragment moved into
/// the path, any other fragment dropped.
pub fn route_address(url: &Url) -> Url {
    let mut address = url.clone();
    address.set_fragment(None);
    let route = url.fragment().and_then(|f| f.strip_prefix('!').unwrap_or(f).strip_prefix('/'));
    if let Some(route) = route.filter(|r| !r.is_empty()) {
        let path = address.path().trim_end_matches('/').to_string();
        address.set_path(&format!("{path}/%23/{route}"));
    }
    address
}

/// The tree with each link resolved and rewritten to its route's address;
/// with `keep`, links to addresses it refuses are dropped.
fn addressed(tree: &Tree, page_url: &Url, keep: impl Fn(&Url) -> bool) -> Tree {
    let base = tree.base_url(page_url);
    tree.map_hrefs(|href| {
        let target = base.join(href).ok()?;
        let address = route_address(&target);
        keep(&address).then(|| address.to_string())
    })
}

/// The rendered routes of one page, newest first.
#[derive(Default)]
pub struct VisitedRoutes {
    pages: VecDeque<(Url, Tree)>,
}

impl VisitedRoutes {
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps the snapshot of the route at `url`, replacing an older one of
    /// the same route and dropping the oldest beyond [`MAX_VISITED`].
    pub fn remember(&mut self, url: &Url, tree: &Tree) {
        self.keep(route_address(url), addressed(tree, url, |_| true));
    }

    /// Adds routes remembered after these, keeping the bound.
    pub fn absorb(&mut self, newer: VisitedRoutes) {
        for (address, tree) in newer.pages.into_iter().rev() {
            self.keep(address, tree);
        }
    }

    /// Keeps `tree` as the newest route, in place of an older copy of it, within the bound.
    fn keep(&mut self, address: Url, tree: Tree) {
        self.pages.retain(|(a, _)| *a != address);
        self.pages.push_front((address, tree));
        self.pages.truncate(MAX_VISITED);
    }

    /// Routes kept other than the one at `url`.
    pub fn others(&self, url: &Url) -> usize {
        let address = route_address(url);
        self.pages.iter().filter(|(a, _)| *a != address).count()
    }

    /// The addresses kept, newest first.
    pub fn addresses(&self) -> impl Iterator<Item = &Url> {
        self.pages.iter().map(|(a, _)| a)
    }

    /// Extracts the template of the live page `key` (at its real URL) with
    /// the other visited routes as its candidates: zero loads. Refuses with
    /// how many more routes to visit when fewer than the method's votes are
    /// kept.
    pub async fn extract(
        &self,
        cfg: &Config,
        key: &LoadedPage,
        now_ms: impl Fn() -> f64,
    ) -> Result<Extraction, VisitedError> {
        let visited = self.others(&key.url);
        let needed = cfg.votes.max(2);
        if visited < needed {
            return Err(VisitedError::TooFew { visited, more: needed - visited });
        }
        let address = route_address(&key.url);
        let known = |u: &Url| *u != address && self.pages.iter().any(|(a, _)| a == u);
        let key =
            LoadedPage { url: address.clone(), tree: addressed(&key.tree, &key.url, known).into(), ..key.clone() };
        let source = Snapshots { routes: self, now_ms };
        Ok(extract(cfg, &source, &key).await?)
    }
}

/// The visited routes as a page source: a route's snapshot, never a load.
struct Snapshots<'a, C> {
    routes: &'a VisitedRoutes,
    now_ms: C,
}

impl<C: Fn() -> f64> PageSource for Snapshots<'_, C> {
    async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let (address, tree) =
            self.routes.pages.iter().find(|(a, _)| a == url).ok_or_else(|| LoadError::NotFound(url.to_string()))?;
        Ok(LoadedPage {
            url: address.clone(),
            tree: tree.clone().into(),
            fetch_ms: 0.0,
            parse_ms: 0.0,
            snapshot_ms: 0.0,
        })
    }

    fn now_ms(&self) -> f64 {
        (self.now_ms)()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::html::{parse, snapshot};

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    /// A rendered route of a small app: header, menu of `links`, sidebar,
    /// footer, and an article of its own.
    fn route(links: &[&str], article: &str) -> Tree {
        let menu: String = links.iter().map(|l| format!("<li><a href=\"{l}\">{l}</a></li>")).collect();
        let html = format!(
            "<div id=root><header><a href=/ class=logo>Lakeside</a><p>Walks around the lake</p></header>\
             <nav class=menu><ul>{menu}</ul></nav><div class=columns><main><article><h1>{article}</h1>\
             <p>{article} is told here at length, in words no other page repeats.</p></article></main>\
             <aside class=sidebar><h2>Visitor centre</h2><p>Open daily from nine to five.</p></aside></div>\
             <footer><p>Lakeside Trails Trust</p></footer></div>"
        );
        snapshot(&parse(&html)).unwrap()
    }

    fn template_tags(tree: &Tree, template: &[bool]) -> Vec<String> {
        tree.nodes().filter(|(i, _)| template[i.index()]).map(|(_, n)| n.tag.to_string()).collect()
    }

    #[test]
    fn hash_routes_are_addressed_as_paths_and_other_fragments_dropped() {
        assert_eq!(route_address(&url("http://a.test/app/#/trails")).as_str(), "http://a.test/app/%23/trails");
        assert_eq!(route_address(&url("http://a.test/index.html#!/a/b")).as_str(), "http://a.test/index.html/%23/a/b");
        assert_eq!(route_address(&url("http://a.test/news#comments")).as_str(), "http://a.test/news");
        assert_eq!(route_address(&url("http://a.test/#/")).as_str(), "http://a.test/");
    }

    #[test]
    fn the_newest_snapshot_of_each_route_is_kept_and_no_more_than_the_bound() {
        let mut routes = VisitedRoutes::new();
        for i in 0..MAX_VISITED + 3 {
            routes.remember(&url(&format!("http://a.test/p{i}")), &route(&["/"], "x"));
        }
        routes.remember(&url("http://a.test/p5"), &route(&["/"], "again"));
        assert_eq!(routes.addresses().count(), MAX_VISITED);
        assert_eq!(routes.addresses().next().unwrap().as_str(), "http://a.test/p5", "revisited: newest");
        assert_eq!(routes.addresses().filter(|a| a.as_str() == "http://a.test/p5").count(), 1);
    }

    fn visit(routes: &mut VisitedRoutes, base: &str, paths: &[&str], links: &[&str]) {
        for p in paths {
            routes.remember(&url(&format!("{base}{p}")), &route(links, &format!("The story of {p}")));
        }
    }

    fn run(routes: &VisitedRoutes, key_url: &str, key: Tree) -> Result<Extraction, VisitedError> {
        let key = LoadedPage { url: url(key_url), tree: key.into(), fetch_ms: 0.0, parse_ms: 0.0, snapshot_ms: 0.0 };
        futures::executor::block_on(routes.extract(&Config::default(), &key, || 0.0))
    }

    fn check_template(x: &Extraction, key: &Tree) {
        let tags = template_tags(key, &x.template);
        for part in ["header", "nav", "aside", "footer"] {
            assert!(tags.contains(&part.to_string()), "{part} is template: {tags:?}");
        }
        let article = key.nodes().find(|(_, n)| &*n.tag == "article").unwrap().0;
        let text = key.children(article);
        assert!(text.iter().all(|c| !x.template[c.index()]), "the article's text is content: {tags:?}");
    }

    #[test]
    fn visited_history_routes_give_the_template_without_a_load() {
        let links = ["/", "/trails", "/events", "/news", "/about"];
        let mut routes = VisitedRoutes::new();
        visit(&mut routes, "http://a.test", &["/", "/trails", "/events"], &links);
        let key = route(&links, "The story of /news");
        let x = run(&routes, "http://a.test/news", key.clone()).unwrap();
        check_template(&x, &key);
        assert_eq!(x.cs.size, 3, "the three visited routes vote");
        assert!(x.load_log.iter().all(|r| r.error.is_none()), "only visited routes were asked for");
    }

    #[test]
    fn visited_hash_routes_give_the_template_too() {
        let links = ["#/", "#/trails", "#/events", "#/news"];
        let mut routes = VisitedRoutes::new();
        visit(&mut routes, "http://a.test/index.html", &["#/trails", "#/events", "#/"], &links);
        let key = route(&links, "The story of #/news");
        let x = run(&routes, "http://a.test/index.html#/news", key.clone()).unwrap();
        check_template(&x, &key);
        assert_eq!(x.cs.size, 3);
    }

    #[test]
    fn too_few_routes_say_how_many_more_to_visit() {
        let links = ["/", "/a", "/b"];
        let mut routes = VisitedRoutes::new();
        visit(&mut routes, "http://a.test", &["/b"], &links);
        let e = run(&routes, "http://a.test/b", route(&links, "b")).unwrap_err();
        assert!(matches!(e, VisitedError::TooFew { visited: 0, more: 2 }), "{e:?}");
        assert_eq!(e.to_string(), "Visit 2 more pages of this app, then Extract again.");
        visit(&mut routes, "http://a.test", &["/a"], &links);
        assert_eq!(
            run(&routes, "http://a.test/b", route(&links, "b")).unwrap_err().to_string(),
            "Visit 1 more page of this app, then Extract again."
        );
    }
}
