//! Where pages come from. The algorithm only asks for a page by URL and
//! gets back its snapshot; the CLI reads a folder, the extension fetches
//! same-origin and parses with the browser's DOMParser.

use std::borrow::Cow;
use std::future::Future;
use std::sync::{Arc, Mutex};

use url::Url;

use crate::base::error::LoadError;
use crate::candidates::hyperlink::{page_links, PageLink};
use crate::compare::repeated_lists::RepeatedLists;
use crate::page::dom::Tree;

/// A loaded page: its final URL, its snapshot, and what loading it cost.
#[derive(Clone, Debug)]
pub struct LoadedPage {
    pub url: Url,
    /// Shared: a collection's store hands the same snapshot of a page its
    /// extractions load again and again (its menu's pages) to each of them.
    pub tree: Arc<Tree>,
    pub fetch_ms: f64,
    pub parse_ms: f64,
    pub snapshot_ms: f64,
}

/// An asynchronous source of pages. The source also tells the time, because
/// only the host knows a clock (`std::time::Instant` panics on wasm32).
pub trait PageSource {
    fn load(&self, url: &Url) -> impl Future<Output = Result<LoadedPage, LoadError>>;

    /// Milliseconds since an arbitrary origin.
    fn now_ms(&self) -> f64;

    /// Whether the source knows, without loading it, that it holds no page
    /// at `url`: a collection's store of a partial crawl lacks the pages the
    /// crawl did not reach, and the extraction does not spend loads on
    /// them. A source behind a server cannot know before the request, so
    /// the default is `false` and a dead link costs a load (a 404); the
    /// CLI's site folder answers as that server would, so its loads are the
    /// browser's (`tex bench` and the Check benchmarks compare them).
    fn lacks(&self, _url: &Url) -> bool {
        false
    }

    /// The links of a page this source loaded ([`page_links`]). Resolving
    /// and judging every href is a large share of an extraction, so a
    /// source that loads the same page for many extractions (a
    /// collection's store) keeps them; any other computes them.
    fn links<'a>(&'a self, page: &'a LoadedPage) -> Cow<'a, [PageLink]> {
        Cow::Owned(page_links(&page.tree, &page.url))
    }

    /// The sibling lists mapped onto `page` (a page this source loaded) by
    /// earlier comparisons, when the source keeps them: a collection's store
    /// hands its menu's pages to every extraction of the site, and key pages
    /// of one layout share their template's lists (`repeated_lists`). Any
    /// other source keeps none, and the page is compared in steps.
    fn mapped_lists(&self, _page: &LoadedPage) -> Option<Arc<Mutex<RepeatedLists>>> {
        None
    }

    /// Called between long steps of an extraction: in a browser it lets the
    /// event loop run (the page stays responsive, timers and progress fire);
    /// natively there is nothing to wait for.
    fn pause(&self) -> impl Future<Output = ()> {
        std::future::ready(())
    }

    /// Like [`PageSource::pause`], before work done while loads are still
    /// under way (a page compared as soon as it loaded): the event loop
    /// runs, but no comparing phase is reported, because loading goes on.
    fn pause_while_loading(&self) -> impl Future<Output = ()> {
        std::future::ready(())
    }

    /// Whether the user asked the extraction to stop (the browser's Cancel):
    /// a load that failed for that reason is no reason to try another way.
    fn cancelled(&self) -> bool {
        false
    }
}

/// A source that adds something to another's loads (comparing each page
/// ahead, watching for app shells, stopping on Cancel) and passes every
/// other question to the source it wraps. Implemented instead of
/// [`PageSource`], so a question added there reaches the inner source
/// through every wrapper: one that forgot to forward [`PageSource::links`]
/// would resolve a collection's kept links again.
pub trait SourceWrapper {
    type Inner: PageSource;

    fn inner(&self) -> &Self::Inner;

    /// [`PageSource::load`]: loads through the inner source, adding the wrapper's work.
    fn load_through(&self, url: &Url) -> impl Future<Output = Result<LoadedPage, LoadError>>;

    fn cancelled(&self) -> bool {
        self.inner().cancelled()
    }
}

impl<W: SourceWrapper> PageSource for W {
    fn load(&self, url: &Url) -> impl Future<Output = Result<LoadedPage, LoadError>> {
        self.load_through(url)
    }

    fn now_ms(&self) -> f64 {
        self.inner().now_ms()
    }

    fn lacks(&self, url: &Url) -> bool {
        self.inner().lacks(url)
    }

    fn links<'a>(&'a self, page: &'a LoadedPage) -> Cow<'a, [PageLink]> {
        self.inner().links(page)
    }

    fn mapped_lists(&self, page: &LoadedPage) -> Option<Arc<Mutex<RepeatedLists>>> {
        self.inner().mapped_lists(page)
    }

    /// The inner source's pause: without it the mapping would never yield.
    fn pause(&self) -> impl Future<Output = ()> {
        self.inner().pause()
    }

    fn pause_while_loading(&self) -> impl Future<Output = ()> {
        self.inner().pause_while_loading()
    }

    fn cancelled(&self) -> bool {
        SourceWrapper::cancelled(self)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::page::dom::TreeBuilder;

    /// Pages held in memory: each page is a `<html><body>` with one `<a>`
    /// per outgoing link; any other URL is not found.
    pub struct MemorySource {
        pages: Vec<(String, Vec<String>)>,
    }

    impl MemorySource {
        pub fn new(pages: &[(&str, &[&str])]) -> Self {
            Self {
                pages: pages
                    .iter()
                    .map(|(p, ls)| (p.to_string(), ls.iter().map(|l| l.to_string()).collect()))
                    .collect(),
            }
        }
    }

    impl PageSource for MemorySource {
        async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
            let name = url.path().trim_start_matches('/');
            let (_, links) =
                self.pages.iter().find(|(p, _)| p == name).ok_or_else(|| LoadError::NotFound(url.to_string()))?;
            let mut b = TreeBuilder::new();
            b.open("html", []);
            b.open("body", []);
            for l in links {
                let href = format!("/{l}");
                b.open("a", [("href", href.as_str())]);
                b.close();
            }
            Ok(LoadedPage {
                url: url.clone(),
                tree: b.finish().expect("has html").into(),
                fetch_ms: 0.0,
                parse_ms: 0.0,
                snapshot_ms: 0.0,
            })
        }

        fn now_ms(&self) -> f64 {
            0.0
        }
    }
}
