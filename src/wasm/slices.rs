//! Work on the page's main thread in slices: between two steps of a long
//! piece of work (reading a 100,000-element page, marking it for a view),
//! the page runs once a slice has lasted [`SLICE_MS`], so the tab never
//! freezes for the whole of it.

use std::cell::Cell;

use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::Performance;

/// The longest stretch of work between two turns of the event loop. A
/// page's timer that falls due during a slice runs only after the next
/// slice too (our message to ourselves was queued first), so the page can
/// wait two slices and a step: with 40 ms slices the 200,000-element page's
/// heartbeat showed 10-12 gaps over 100 ms, up to 220-340 ms; with 20 ms,
/// 3-6, up to 175 ms, and the extraction took no longer.
pub const SLICE_MS: f64 = 20.0;

/// The clock of one piece of work done in slices.
pub struct Slices {
    performance: Performance,
    since: Cell<f64>,
}

impl Slices {
    /// Starts a slice now.
    pub fn new(performance: Performance) -> Self {
        let since = Cell::new(performance.now());
        Self { performance, since }
    }

    /// Between two steps: lets the event loop run if this slice is spent.
    pub async fn pause(&self) {
        if self.performance.now() - self.since.get() >= SLICE_MS {
            yield_to_event_loop().await;
            self.since.set(self.performance.now());
        }
    }
}

/// A promise settled by the next task of the event loop: a message to
/// ourselves, not a timer, because a hidden tab's timers wait up to a second.
/// The channel lives as long as the promise is awaited.
pub(super) struct NextTask {
    pub(super) promise: js_sys::Promise,
    _channel: Option<web_sys::MessageChannel>,
}

impl NextTask {
    pub(super) fn post() -> Self {
        let Ok(channel) = web_sys::MessageChannel::new() else {
            return Self { promise: js_sys::Promise::resolve(&JsValue::NULL), _channel: None };
        };
        let promise = js_sys::Promise::new(&mut |resolve, _| channel.port1().set_onmessage(Some(&resolve)));
        if channel.port2().post_message(&JsValue::NULL).is_err() {
            return Self { promise: js_sys::Promise::resolve(&JsValue::NULL), _channel: None };
        }
        Self { promise, _channel: Some(channel) }
    }
}

/// One round of the event loop, for work that waits alone.
pub async fn yield_to_event_loop() {
    let next = NextTask::post();
    let _ = JsFuture::from(next.promise.clone()).await;
}
