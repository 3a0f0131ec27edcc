//! Empty: this crate only holds the browser tests (`browser.rs`).
