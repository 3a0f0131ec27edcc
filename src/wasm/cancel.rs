//! Cancel: a page source that stops answering once the user asked to stop.
//! Every load in flight races a promise that `request` resolves, so a slow
//! candidate does not keep a cancelled extraction waiting for its timeout.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use futures::future::{select, Either, FutureExt, Shared};
use url::Url;
use wasm_bindgen_futures::JsFuture;

use crate::error::LoadError;
use crate::hyperlink::PageLink;
use crate::page_source::{LoadedPage, PageSource};

thread_local! {
    /// Resolves the running extraction's cancel promise; `None` when idle.
    static RESOLVE: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    /// Set by `request` until the next extraction starts.
    static REQUESTED: Cell<bool> = const { Cell::new(false) };
}

/// Asks the running extraction, if any, to stop.
pub fn request() {
    REQUESTED.set(true);
    if let Some(resolve) = RESOLVE.with_borrow_mut(Option::take) {
        let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
    }
}

pub struct Cancellable<S> {
    inner: S,
    stop: Shared<JsFuture>,
    _scope: Scope,
}

/// What a Cancel asked during one extraction stops: begun before the page
/// is read, which takes steps, so a Cancel during the read is kept.
pub struct Scope {
    stop: Shared<JsFuture>,
}

impl Scope {
    /// Starts an extraction's scope; a previous extraction's cancel no longer applies.
    pub fn begin() -> Self {
        REQUESTED.set(false);
        let promise = js_sys::Promise::new(&mut |resolve, _| RESOLVE.with_borrow_mut(|r| *r = Some(resolve)));
        Scope { stop: JsFuture::from(promise).shared() }
    }

    pub fn cancelled(&self) -> bool {
        REQUESTED.get()
    }

    /// Runs `work` until it ends or Cancel is clicked, whichever comes first: `None` when cancelled.
    /// Work that yields between its steps (the page read in slices) is then dropped at its next step.
    pub async fn unless_cancelled<T>(&self, work: impl std::future::Future<Output = T>) -> Option<T> {
        if self.cancelled() {
            return None;
        }
        match select(Box::pin(work), self.stop.clone()).await {
            Either::Left((done, _)) => Some(done),
            Either::Right(_) => None,
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        RESOLVE.with_borrow_mut(|r| *r = None);
    }
}

impl<S: PageSource> Cancellable<S> {
    /// Wraps `inner` for the rest of the extraction of `scope`.
    pub fn new(inner: S, scope: Scope) -> Self {
        Cancellable { inner, stop: scope.stop.clone(), _scope: scope }
    }
}

impl<S: PageSource> PageSource for Cancellable<S> {
    async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let cancelled = || LoadError::Unreadable { url: url.to_string(), reason: "cancelled".into() };
        if self.cancelled() {
            return Err(cancelled());
        }
        match select(Box::pin(self.inner.load(url)), self.stop.clone()).await {
            Either::Left((page, _)) => page,
            Either::Right(_) => Err(cancelled()),
        }
    }

    fn now_ms(&self) -> f64 {
        self.inner.now_ms()
    }

    fn links<'b>(&'b self, page: &'b LoadedPage) -> Cow<'b, [PageLink]> {
        self.inner.links(page)
    }

    /// The inner source's pause: without it the mapping would never yield.
    async fn pause(&self) {
        self.inner.pause().await
    }

    async fn pause_while_loading(&self) {
        self.inner.pause_while_loading().await
    }

    fn cancelled(&self) -> bool {
        REQUESTED.get()
    }
}
