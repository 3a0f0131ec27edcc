//! The key page as the site serves it, beside the page the browser shows:
//! fetched, judged and extracted on (`served_key`), its template carried to
//! the live page (`served_alignment`), and pages built in the browser
//! recognised as such (`app_shell`).
//!
//! May use: every layer below (`base` to `extraction`).

pub mod app_shell;
pub mod served_alignment;
pub mod served_key;
