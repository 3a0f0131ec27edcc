//! Template Extractor: site-level web template extraction after Alarte,
//! Insa, Silva and Tamarit (complete subdigraphs of mutually linked pages and
//! an equal top-down mapping with votes), with RTDM-TD (Vieira et al.) as an
//! alternative mapping. Pure Rust over a compact DOM snapshot; the native
//! parser and CLI live behind `cfg(not(wasm32))`, the browser glue behind
//! `cfg(wasm32)`.
//!
//! The crate is built in layers, declared here bottom-up: a module uses
//! only its own layer and the layers declared before it (each folder's
//! `mod.rs` says what it does and what it may use; `tests/layers.rs`
//! checks it). `wasm` is the browser's glue and `src/bin` the CLI's: they
//! use every layer, and no layer uses them.

// errors and tunables
pub mod base;
// a page read into a snapshot, and written back
pub mod page;
// one page mapped onto another
pub mod compare;
// which pages to compare, and where they come from
pub mod candidates;
// from mappings to a template
pub mod decide;
// one whole extraction
pub mod extraction;
// the key page as the site serves it
pub mod served;
// what is remembered between extractions
pub mod memory;
// pages from the file system
#[cfg(not(target_arch = "wasm32"))]
pub mod sources;
// whole crawls
#[cfg(not(target_arch = "wasm32"))]
pub mod collection;
// scores against hand-marked pages
pub mod eval;
// the browser's glue
#[cfg(target_arch = "wasm32")]
pub mod wasm;
/// The extension's failure sentences are plain Rust: their tests also run
/// natively (where only the tests, not the glue, call them).
#[cfg(all(test, not(target_arch = "wasm32")))]
#[allow(dead_code)]
#[path = "wasm/failure.rs"]
mod wasm_failure;
