//! Reading a page, and writing one back. HTML is parsed with html5ever into
//! the compact snapshot every other layer works on (`dom`), class and
//! attribute names hashed as they are read (`generated_names`), a body's
//! bytes limited and decoded (`page_body`); template HTML is written from
//! the snapshot (`html`), a saved template keeps what it needs
//! (`saved_template`), a hidden view collapses what holds nothing
//! (`view_collapse`), and words are counted, in scripts without spaces too
//! (`words`); maps keyed by hashes hash them cheaply (`mixed_hash`), and a
//! page's text blocks are indexed once (`text_blocks`).
//!
//! May use: `base`.

pub mod dom;
pub mod generated_names;
pub mod html;
pub mod mixed_hash;
pub mod name_hash;
pub mod page_body;
pub mod saved_template;
pub mod text_blocks;
pub mod view_collapse;
pub mod words;
