//! Loads started before the search asks for them: while the key page's own
//! request is under way (the key page as served, `served_key`), the pages
//! the search will most likely ask for first are loading beside it, and the
//! search is handed them when it asks. A page is loaded the same way either
//! way, so what the search finds does not depend on which loads started early.

use std::cell::RefCell;
use std::future::Future;
use std::pin::pin;

use futures::future::{join_all, select, Either, FutureExt, LocalBoxFuture, Shared};
use url::Url;

use crate::base::error::LoadError;
use crate::candidates::page_source::{LoadedPage, PageSource, SourceWrapper};

type Load<'a> = Shared<LocalBoxFuture<'a, Result<LoadedPage, LoadError>>>;

/// A source whose first loads may have started early (see [`Prefetch::beside`]).
pub struct Prefetch<'a, S> {
    source: &'a S,
    /// Started and not yet asked for, in the order they started.
    started: RefCell<Vec<(Url, Load<'a>)>>,
}

impl<'a, S: PageSource> Prefetch<'a, S> {
    pub fn new(source: &'a S) -> Self {
        Self { source, started: RefCell::default() }
    }

    /// Runs `work` (the key page's load) to its end with the loads of
    /// `urls` going on beside it. `work` is polled first, so its request
    /// leaves before the others; `urls` is computed after that, while the
    /// request is on the network. The loads not finished when `work` ends
    /// go on when the search asks for them.
    pub async fn beside<T>(&self, work: impl Future<Output = T>, urls: impl FnOnce() -> Vec<Url>) -> T {
        let mut work = pin!(work);
        if let std::task::Poll::Ready(out) = futures::poll!(work.as_mut()) {
            return out;
        }
        let loads: Vec<Load<'a>> = urls().into_iter().map(|url| self.started_load(url)).collect();
        match select(work, join_all(loads)).await {
            Either::Left((out, _)) => out,
            Either::Right((_, work)) => work.await,
        }
    }

    /// Starts loading `url` now, before anything asks for it: its request
    /// leaves before this returns, and the page is handed over when asked
    /// for. The click sends the served key page's GET this way before it
    /// reads the live page, whose walk takes as long as a request on a big page.
    pub async fn start(&self, url: Url) {
        let mut load = self.started_load(url);
        let _ = futures::poll!(&mut load);
    }

    /// The load of `url` started early, started now if it was not.
    fn started_load(&self, url: Url) -> Load<'a> {
        let mut started = self.started.borrow_mut();
        if let Some((_, load)) = started.iter().find(|(u, _)| *u == url) {
            return load.clone();
        }
        let (source, at) = (self.source, url.clone());
        let load = async move { source.load(&at).await }.boxed_local().shared();
        started.push((url, load.clone()));
        load
    }

    /// Loads started early that nothing asked for: requests spent for
    /// nothing (the key page as served linked to other pages first).
    pub fn unused(&self) -> usize {
        self.started.borrow().len()
    }

    fn take(&self, url: &Url) -> Option<Load<'a>> {
        let mut started = self.started.borrow_mut();
        let at = started.iter().position(|(u, _)| u == url)?;
        Some(started.remove(at).1)
    }
}

impl<S: PageSource> SourceWrapper for Prefetch<'_, S> {
    type Inner = S;

    fn inner(&self) -> &S {
        self.source
    }

    async fn load_through(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        match self.take(url) {
            Some(load) => load.await,
            None => self.source.load(url).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::candidates::page_source::tests::MemorySource;

    /// Counts the loads that reach the site.
    struct Counted(MemorySource, Cell<usize>);

    impl PageSource for Counted {
        async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
            self.1.set(self.1.get() + 1);
            self.0.load(url).await
        }

        fn now_ms(&self) -> f64 {
            0.0
        }
    }

    fn url(page: &str) -> Url {
        Url::parse(&format!("http://s.org/{page}")).unwrap()
    }

    #[test]
    fn a_key_page_there_at_once_starts_no_other_load() {
        let site = Counted(MemorySource::new(&[("a", &[])]), Cell::new(0));
        let ahead = Prefetch::new(&site);
        futures::executor::block_on(ahead.beside(async {}, || vec![url("a")]));
        assert_eq!((site.1.get(), ahead.unused()), (0, 0));
    }

    #[test]
    fn a_page_started_before_anything_asks_leaves_at_once_and_is_handed_over_once() {
        let site = Counted(MemorySource::new(&[("a", &["b"]), ("b", &["a"])]), Cell::new(0));
        let ahead = Prefetch::new(&site);
        futures::executor::block_on(ahead.start(url("a")));
        assert_eq!((site.1.get(), ahead.unused()), (1, 1), "its request left before start returned");
        let a = futures::executor::block_on(ahead.beside(ahead.load(&url("a")), || vec![url("b")])).unwrap();
        assert_eq!(a.url, url("a"));
        assert_eq!((site.1.get(), ahead.unused()), (1, 0), "handed over, not loaded again; b not started");
    }

    #[test]
    fn a_page_started_beside_the_key_page_is_loaded_once_and_handed_over_when_asked_for() {
        let site = Counted(MemorySource::new(&[("a", &["b"]), ("b", &["a"]), ("c", &[])]), Cell::new(0));
        let ahead = Prefetch::new(&site);
        // A key page that takes a while (two polls): the others start beside it.
        let mut polls = 0;
        let key = std::future::poll_fn(|cx| {
            polls += 1;
            if polls > 2 {
                return std::task::Poll::Ready(());
            }
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        });
        futures::executor::block_on(ahead.beside(key, || vec![url("a"), url("b"), url("a")]));
        assert_eq!(ahead.unused(), 2, "a once, b");
        let a = futures::executor::block_on(ahead.load(&url("a"))).unwrap();
        assert_eq!(a.url, url("a"));
        assert_eq!(site.1.get(), 2, "a and b were loaded beside the key page, and a not again");
        futures::executor::block_on(ahead.load(&url("c"))).unwrap();
        assert_eq!((site.1.get(), ahead.unused()), (3, 1), "c was not started early; b was never asked for");
    }
}
