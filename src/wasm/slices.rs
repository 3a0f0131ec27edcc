//! Work on the page's main thread in slices: between two steps of a long
//! piece of work (reading a 100,000-element page, marking it for a view),
//! the page runs once a slice has lasted [`SLICE_MS`], so the tab never
//! freezes for the whole of it.

use std::cell::Cell;

use web_sys::Performance;

use super::fetch_source::yield_to_event_loop;

/// The longest stretch of work the tab goes without handling input or
/// painting; under 50 ms a task does not count as long. Yielding more often
/// only delays the work: each yield waits for a turn of the event loop.
pub const SLICE_MS: f64 = 40.0;

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
