//! What every layer shares: the typed errors, each a sentence a user can
//! read, and every tunable of the method with its presets.
//!
//! May use: nothing of the crate.

pub mod config;
pub mod error;
