//! The extension's extraction, like with like: the linked pages are
//! compared as served (their scripts never run), so the key page is read as
//! served too, with one more GET under the same fetch policy, extracted on
//! exactly as the CLI extracts, and the result carried over to the live page
//! through [`served_alignment`](crate::served::served_alignment). Nodes the scripts
//! added never vote; when the served key page is unusable (a failed fetch,
//! a login wall, a page unlike the live one), the live page is compared
//! instead, as before, and the report says why. That GET is one more page
//! of the origin: it may leave before the live page is read, and the first
//! linked pages load beside it, not after it.

use std::cell::Cell;

use serde::Serialize;
use url::Url;

use crate::base::config::Config;
use crate::base::error::{ExtractError, LoadError};
use crate::candidates::address::normal_url;
use crate::candidates::complete_subdigraph::first_window;
use crate::candidates::hyperlink::{page_links, PageLink};
use crate::candidates::link_order::sort_links;
use crate::candidates::page_source::{LoadedPage, PageSource, SourceWrapper};
use crate::candidates::prefetch::Prefetch;
use crate::extraction::extract::{extract, Extraction};
use crate::served::app_shell::{is_app_shell, routes_by_fragment, ShellWatch};
use crate::served::served_alignment::align;

/// Share of the live page's elements the served page must hold for its
/// template to stand for the live page's: below it, most of what the user
/// sees would have no served counterpart to be judged by.
pub const USABLE_SHARE: f64 = 0.5;

/// Which key page the linked pages were compared with.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyPath {
    /// The key page as served, the result carried over to the live page.
    Served,
    /// The live page, as before this comparison existed; `fallback` says why.
    Live,
}

/// Why the served key page could not stand for the live one.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fallback {
    /// The GET failed, or did not answer an HTML page.
    LoadFailed { error: LoadError },
    /// The served page holds too little of what the user sees (a login wall,
    /// a page filled by scripts): less than [`USABLE_SHARE`].
    Unlike,
    /// The served page has no links to other pages; the live page has.
    NoServedLinks,
}

/// What the report says of the key page: the path taken, and what scripts
/// added to the live page.
#[derive(Clone, Debug, Serialize)]
pub struct KeySource {
    /// The served GET's address.
    pub url: Url,
    pub path: KeyPath,
    pub fallback: Option<Fallback>,
    /// Share of the live page's elements found in the served page.
    pub live_share: f64,
    /// Live elements with no served counterpart.
    pub added_by_scripts: usize,
    /// Of those, the ones in the template (wrappers, script-filled menus).
    pub added_in_template: usize,
    /// The served GET, and the alignment.
    pub fetch_ms: f64,
    pub align_ms: f64,
}

/// An extraction of the live page and what it came from.
pub struct LiveExtraction {
    /// Ids, counts and template refer to the live page.
    pub extraction: Extraction,
    /// Per live node: added by scripts (never in the reading column).
    pub added: Vec<bool>,
    pub key_source: KeySource,
}

/// The loads of one extraction of a live page: the served key page's GET
/// may leave before the live page is read ([`KeyLoads::start_served`]),
/// and the first linked pages load beside it.
pub struct KeyLoads<'a, S> {
    ahead: Prefetch<'a, S>,
    /// When the served GET left, if it left before the live page was read.
    served_since: Cell<Option<f64>>,
}

impl<'a, S: PageSource> KeyLoads<'a, S> {
    pub fn new(source: &'a S) -> Self {
        Self { ahead: Prefetch::new(source), served_since: Cell::new(None) }
    }

    /// Sends the GET of the page at `live_url` as served now, before the
    /// live page is read: a big page's walk takes as long as the request,
    /// and the two overlap. Its time counts from here.
    pub async fn start_served(&self, live_url: &Url) {
        self.served_since.set(Some(self.ahead.inner().now_ms()));
        self.ahead.start(normal_url(live_url)).await;
    }
}

/// Extracts the template of the live page `live` (its final URL, its
/// snapshot after scripts ran), comparing like with like.
pub async fn extract_live<S: PageSource>(
    cfg: &Config,
    loads: &KeyLoads<'_, S>,
    live: &LoadedPage,
) -> Result<LiveExtraction, ExtractError> {
    let (ahead, source) = (&loads.ahead, loads.ahead.inner());
    cfg.validate()?;
    if live.tree.len() > cfg.max_nodes {
        return Err(ExtractError::TooLarge { nodes: live.tree.len(), limit: cfg.max_nodes });
    }
    let links = page_links(&live.tree, &live.url);
    if links.is_empty() {
        return Err(if routes_by_fragment(&live.tree, &live.url) {
            ExtractError::HashRoutes
        } else {
            ExtractError::NoLinks
        });
    }
    let url = normal_url(&live.url);
    let called = source.now_ms();
    let served = ahead.beside(ahead.load(&url), || first_candidates(cfg, source, live, &links)).await;
    let done = source.now_ms();
    // The GET's own time counts from when it left; the extraction's total
    // only what was left of it once the live page was read (the read is
    // the key page's snapshot time, counted apart).
    let get = GetTimes {
        live_share: 0.0,
        fetch_ms: done - loads.served_since.get().unwrap_or(called),
        waited_ms: done - called,
        align_ms: 0.0,
    };
    let served = match served {
        Ok(page) => page,
        Err(error) if source.cancelled() => return Err(ExtractError::KeyPage(error)),
        Err(error) => {
            return on_live(cfg, ahead, live, KeyGet { url, fallback: Fallback::LoadFailed { error } }, get).await;
        }
    };
    // Each long step of a big page's extraction starts a slice of its own.
    source.pause_while_loading().await;
    let t1 = source.now_ms();
    let alignment = align(&served.tree, &live.tree);
    let get = GetTimes { live_share: alignment.live_share(), align_ms: source.now_ms() - t1, ..get };
    let served_links = page_links(&served.tree, &served.url).len();
    if is_app_shell(get.live_share, served_links) {
        return Err(ExtractError::AppShell);
    }
    if get.live_share < USABLE_SHARE {
        return on_live(cfg, ahead, live, KeyGet { url, fallback: Fallback::Unlike }, get).await;
    }
    if served_links == 0 {
        return on_live(cfg, ahead, live, KeyGet { url, fallback: Fallback::NoServedLinks }, get).await;
    }
    source.pause_while_loading().await;
    let mut x = extract(cfg, ahead, &served).await?;
    x.fetched += ahead.unused();
    let template = alignment.carry(&served.tree, &live.tree, &x.template);
    let added = alignment.added();
    let added_in_template = added.iter().zip(&template).filter(|(a, t)| **a && **t).count();
    let mut x = x.carried_to(live.url.clone(), template);
    // The live snapshot is part of this click's work, as on the live path.
    x.timings.snapshot_ms += live.snapshot_ms;
    x.timings.total_ms += get.waited_ms + get.align_ms;
    let key_source = KeySource {
        url,
        path: KeyPath::Served,
        fallback: None,
        live_share: get.live_share,
        added_by_scripts: added.iter().filter(|a| **a).count(),
        added_in_template,
        fetch_ms: get.fetch_ms,
        align_ms: get.align_ms,
    };
    Ok(LiveExtraction { extraction: x, added, key_source })
}

/// The first links of the live page that the search would load, loaded
/// beside the served key page: on most pages the served page links to the
/// same pages in the same order, and a page loaded early for nothing is
/// one request the report counts in `fetched`.
fn first_candidates<S: PageSource>(cfg: &Config, source: &S, live: &LoadedPage, links: &[PageLink]) -> Vec<Url> {
    let sorted = sort_links(&live.tree, &live.url, links);
    sorted.into_iter().filter(|l| !source.lacks(&l.url)).take(first_window(cfg)).map(|l| l.url).collect()
}

/// The served GET that could not stand for the live page, and why.
struct KeyGet {
    url: Url,
    fallback: Fallback,
}

/// What the served GET measured: the share of the live page it holds, and
/// its times.
#[derive(Clone, Copy)]
struct GetTimes {
    live_share: f64,
    /// From the GET's start to its page.
    fetch_ms: f64,
    /// Of that, the time after the live page was read.
    waited_ms: f64,
    align_ms: f64,
}

/// Today's comparison of the live page, with the reason it was needed.
/// When every linked page it loaded is an app shell (the served key page
/// could not tell, its fetch having failed), the answer is the app-shell
/// sentence, not the thin template those shells would give.
async fn on_live<S: PageSource>(
    cfg: &Config,
    ahead: &Prefetch<'_, S>,
    live: &LoadedPage,
    get: KeyGet,
    measured: GetTimes,
) -> Result<LiveExtraction, ExtractError> {
    let GetTimes { live_share, fetch_ms, waited_ms, align_ms } = measured;
    let watch = ShellWatch::new(ahead, &live.tree);
    let result = extract(cfg, &watch, live).await;
    if watch.all_shells() {
        return Err(ExtractError::AppShell);
    }
    let mut extraction = result?;
    extraction.timings.total_ms += waited_ms + align_ms;
    extraction.fetched += ahead.unused();
    let key_source = KeySource {
        url: get.url,
        path: KeyPath::Live,
        fallback: Some(get.fallback),
        live_share,
        added_by_scripts: 0,
        added_in_template: 0,
        fetch_ms,
        align_ms,
    };
    Ok(LiveExtraction { extraction, added: vec![false; live.tree.len()], key_source })
}

#[cfg(test)]
mod tests {
    use url::Url;

    use super::*;
    use crate::page::html::{parse, snapshot};

    /// Pages as served, by path; the live page is parsed apart, as a browser
    /// would hold it after its scripts ran.
    struct Served(Vec<(&'static str, String)>);

    fn loaded(url: &Url, html: &str) -> LoadedPage {
        let tree = snapshot(&parse(html)).expect("has html");
        LoadedPage { url: url.clone(), tree: tree.into(), fetch_ms: 0.0, parse_ms: 0.0, snapshot_ms: 0.0 }
    }

    impl PageSource for Served {
        async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
            let (_, html) =
                self.0.iter().find(|(p, _)| url.path() == *p).ok_or(LoadError::NotFound(url.to_string()))?;
            Ok(loaded(url, html))
        }

        fn now_ms(&self) -> f64 {
            0.0
        }
    }

    fn page(main: &str, extra: &str) -> String {
        format!(
            "<html><body><header class=top><nav><a href=/a>A</a> <a href=/b>B</a> <a href=/c>C</a></nav></header>\
             <main><article><h1>{main}</h1><p>{main} in many words of its own</p></article></main>\
             <footer class=foot><p>The footer line</p></footer>{extra}</body></html>"
        )
    }

    fn site() -> Served {
        Served(vec![("/a", page("alpha", "")), ("/b", page("beta", "")), ("/c", page("gamma", ""))])
    }

    fn run(source: &Served, live_html: &str) -> Result<LiveExtraction, ExtractError> {
        let url = Url::parse("http://site.test/a").unwrap();
        futures::executor::block_on(extract_live(&Config::default(), &KeyLoads::new(source), &loaded(&url, live_html)))
    }

    fn tags(x: &LiveExtraction, live_html: &str, flags: &[bool]) -> Vec<String> {
        let tree = snapshot(&parse(live_html)).unwrap();
        assert_eq!(tree.len(), x.extraction.total_nodes);
        tree.nodes().filter(|(id, _)| flags[id.index()]).map(|(_, n)| n.tag.to_string()).collect()
    }

    #[test]
    fn a_banner_added_by_script_is_neither_template_nor_content_and_never_votes() {
        let live = page("alpha", "<div id=consent><p>We use cookies</p><button>OK</button></div>");
        let x = run(&site(), &live).unwrap();
        assert!(matches!(x.key_source.path, KeyPath::Served), "{:?}", x.key_source);
        assert_eq!(tags(&x, &live, &x.added), ["div", "p", "button"]);
        let not_template: Vec<bool> = x.extraction.template.iter().map(|t| !t).collect();
        assert_eq!(tags(&x, &live, &not_template), ["h1", "p", "div", "p", "button"]);
        assert_eq!(x.key_source.added_by_scripts, 3);
    }

    /// Counts the GETs of each path.
    struct Counted<'a>(&'a Served, std::cell::RefCell<Vec<String>>);

    impl PageSource for Counted<'_> {
        async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
            self.1.borrow_mut().push(url.path().to_string());
            self.0.load(url).await
        }

        fn now_ms(&self) -> f64 {
            0.0
        }
    }

    #[test]
    fn a_served_get_sent_before_the_live_read_is_the_one_compared_and_is_sent_once() {
        let (site, live) = (site(), page("alpha", ""));
        let url = Url::parse("http://site.test/a#top").unwrap();
        let run = |early: bool| {
            let source = Counted(&site, Default::default());
            let loads = KeyLoads::new(&source);
            let x = futures::executor::block_on(async {
                if early {
                    loads.start_served(&url).await;
                    assert_eq!(*source.1.borrow(), ["/a"], "the GET left before the live page is read");
                }
                extract_live(&Config::default(), &loads, &loaded(&url, &live)).await.unwrap()
            });
            (x.extraction.template, x.extraction.loads, x.extraction.fetched, x.key_source.path, source.1.take())
        };
        let (late, early) = (run(false), run(true));
        assert!(matches!(early.3, KeyPath::Served));
        assert_eq!(early.4.iter().filter(|p| *p == "/a").count(), 1, "{:?}", early.4);
        assert_eq!((&early.0, early.1, early.2), (&late.0, late.1, late.2), "the same pages, the same template");
    }

    #[test]
    fn a_failed_served_fetch_falls_back_to_the_live_page_and_says_why() {
        let source = Served(vec![("/b", page("beta", "")), ("/c", page("gamma", ""))]);
        let x = run(&source, &page("alpha", "")).unwrap();
        assert!(matches!(x.key_source.path, KeyPath::Live));
        assert!(matches!(x.key_source.fallback, Some(Fallback::LoadFailed { error: LoadError::NotFound(_) })));
        assert!(x.extraction.template_nodes > 0);
    }

    #[test]
    fn a_login_wall_or_a_served_page_without_links_falls_back_to_the_live_page() {
        let wall = "<html><body><form><input name=user><input name=pw></form><a href=/b>B</a></body></html>";
        let mut source = site();
        source.0[0].1 = wall.into();
        let x = run(&source, &page("alpha", "")).unwrap();
        assert!(matches!(x.key_source.fallback, Some(Fallback::Unlike)), "{:?}", x.key_source);
        assert!(x.key_source.live_share < USABLE_SHARE);
        source.0[0].1 = page("alpha", "").replace("href=/", "data-href=/");
        let x = run(&source, &page("alpha", "")).unwrap();
        assert!(matches!(x.key_source.fallback, Some(Fallback::NoServedLinks)), "{:?}", x.key_source);
        assert_eq!(x.key_source.live_share, 1.0, "the same elements, the links filled in by script");
    }

    #[test]
    fn an_app_shell_and_hash_routes_get_a_sentence_not_a_template() {
        let shell = "<html><head></head><body><div id=root></div><script src=/app.js></script></body></html>";
        let source = Served(vec![("/a", shell.into()), ("/b", shell.into()), ("/c", shell.into())]);
        let live = page("alpha", "");
        assert_eq!(run(&source, &live).err(), Some(ExtractError::AppShell));
        let hash = "<html><body><nav><a href=#/a>A</a> <a href=#/b>B</a></nav><main><p>view</p></main></body></html>";
        assert_eq!(run(&source, hash).err(), Some(ExtractError::HashRoutes));
    }

    #[test]
    fn linked_app_shells_give_the_sentence_when_the_served_key_page_fails() {
        let shell = "<html><head></head><body><div id=root></div><script src=/app.js></script></body></html>";
        let source = Served(vec![("/b", shell.into()), ("/c", shell.into())]);
        assert_eq!(run(&source, &page("alpha", "")).err(), Some(ExtractError::AppShell));
        let one_real = Served(vec![("/b", shell.into()), ("/c", page("gamma", ""))]);
        assert!(run(&one_real, &page("alpha", "")).is_ok_and(|x| matches!(x.key_source.path, KeyPath::Live)));
    }
}
