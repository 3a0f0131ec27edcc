//! Cancel: a page source that stops answering once the user asked to stop.
//! Every load in flight races a promise that `request` resolves, so a slow
//! candidate does not keep a cancelled extraction waiting for its timeout.

use std::cell::{Cell, RefCell};

use futures::future::{select, Either, FutureExt, Shared};
use url::Url;
use wasm_bindgen_futures::JsFuture;

use crate::base::error::LoadError;
use crate::candidates::page_source::{LoadedPage, PageSource, SourceWrapper};

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
    scope: Scope,
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
        Cancellable { inner, scope }
    }

    /// The extraction's scope, for work that is no load (the page's read).
    pub fn scope(&self) -> &Scope {
        &self.scope
    }
}

impl<S: PageSource> SourceWrapper for Cancellable<S> {
    type Inner = S;

    fn inner(&self) -> &S {
        &self.inner
    }

    async fn load_through(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let cancelled = || LoadError::Unreadable { url: url.to_string(), reason: "cancelled".into() };
        self.scope.unless_cancelled(self.inner.load(url)).await.unwrap_or_else(|| Err(cancelled()))
    }

    fn cancelled(&self) -> bool {
        self.scope.cancelled()
    }
}
