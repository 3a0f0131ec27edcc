//! The live page's snapshot, kept for the next call that reads the page.
//!
//! A repeated Extract, and the Extract that follows when template memory
//! had no layout for the page, would otherwise walk the whole page again
//! (14 ms for 5k elements in Chromium, 81 ms in a Firefox content script,
//! 220 ms for 100k). `live-dom.js` watches the document with a
//! MutationObserver from the moment of the walk, so a kept snapshot is used
//! only while nothing the walk reads has changed; our own marks and
//! elements, which no snapshot reads, do not count.

use std::cell::RefCell;
use std::rc::Rc;

use url::Url;
use wasm_bindgen::prelude::*;
use web_sys::Element;

use super::live_dom::{self, mark, OWN};
use super::slices::Slices;
use crate::page::dom::Tree;

#[wasm_bindgen]
extern "C" {
    /// The handle `texLiveDom.watch` returns.
    type Watcher;

    #[wasm_bindgen(js_namespace = texLiveDom, js_name = watch)]
    fn watch(root: &Element, own: &str) -> Watcher;

    #[wasm_bindgen(method)]
    fn changed(this: &Watcher) -> bool;

    #[wasm_bindgen(method)]
    fn stop(this: &Watcher);
}

/// When and where a snapshot was taken: the page's address and the watch
/// started with the walk, stopped when the snapshot is dropped, so a page
/// carries the observers of kept snapshots only.
pub struct Taken {
    /// Without its fragment: the same document under another `#…`.
    url: Url,
    watcher: Watcher,
    /// An earlier click's answer came from it; a snapshot taken for template
    /// memory and handed to the Extract of the same click has not.
    served: bool,
}

impl Drop for Taken {
    fn drop(&mut self) {
        self.watcher.stop();
    }
}

/// A snapshot of the live page with its elements in snapshot order.
pub struct LiveSnapshot {
    pub tree: Tree,
    /// Shared with a view being applied in steps.
    pub elements: Rc<[Element]>,
    pub taken: Taken,
}

thread_local! {
    /// A snapshot no result holds (template memory found no layout for the page).
    static SPARE: RefCell<Option<LiveSnapshot>> = const { RefCell::new(None) };
}

fn without_fragment(url: &Url) -> Url {
    let mut url = url.clone();
    url.set_fragment(None);
    url
}

impl LiveSnapshot {
    /// Marks this snapshot as the one a click answered from.
    pub fn served(mut self) -> Self {
        self.taken.served = true;
        self
    }

    /// Keeps this snapshot for the next call that reads the page.
    pub fn keep(self) {
        SPARE.with_borrow_mut(|spare| *spare = Some(self));
    }

    fn is_current(&self, url: &Url) -> bool {
        self.taken.url == without_fragment(url) && !self.taken.watcher.changed()
    }
}

/// The snapshot of the page at `url` whose root is `root`: `previous` or the
/// spare one if the page has not changed since it was taken, else a new
/// walk; and whether an earlier click read the page (this one did not).
/// `None` when `root` is ours.
pub fn current(root: &Element, url: &Url, previous: Option<LiveSnapshot>) -> Option<(LiveSnapshot, bool)> {
    if let Some(kept) = unchanged(url, previous) {
        return Some(kept);
    }
    let watcher = watch(root, &mark(OWN));
    let (tree, elements) = live_dom::snapshot(root)?;
    let elements = elements.into();
    Some((LiveSnapshot { tree, elements, taken: Taken { url: without_fragment(url), watcher, served: false } }, false))
}

/// [`current`] with a new walk done in steps (see [`live_dom::snapshot_in_steps`]).
pub async fn current_in_steps(
    root: &Element,
    url: &Url,
    previous: Option<LiveSnapshot>,
    slices: &Slices,
) -> Option<(LiveSnapshot, bool)> {
    if let Some(kept) = unchanged(url, previous) {
        return Some(kept);
    }
    let watcher = watch(root, &mark(OWN));
    let (tree, elements) = live_dom::snapshot_in_steps(root, slices).await?;
    let elements = elements.into();
    Some((LiveSnapshot { tree, elements, taken: Taken { url: without_fragment(url), watcher, served: false } }, false))
}

/// `previous` or the spare snapshot if the page has not changed since it
/// was taken, and whether an earlier click read the page.
fn unchanged(url: &Url, previous: Option<LiveSnapshot>) -> Option<(LiveSnapshot, bool)> {
    let spare = SPARE.with_borrow_mut(Option::take);
    let kept = previous.into_iter().chain(spare).find(|s| s.is_current(url))?;
    let from_before = kept.taken.served;
    Some((kept, from_before))
}
