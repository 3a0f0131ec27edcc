//! From mappings to a template: the votes of the 2016 paper or the 2013
//! intersection (`template`), and the signals beyond the papers that decide
//! which pages vote and what a vote counts: whether the site repeats a
//! node's content (`text_recurrence`), which loaded pages share the key
//! page's layout (`layout_agreement`, `voters`), each page compared as it
//! loads (`compare_ahead`), a menu's current item (`current_item`), an
//! element's own text that is the page's (`own_text`), a breadcrumb trail
//! (`breadcrumb_trails`), a heading that says the page's title
//! (`page_title`), a list's odd items (`list_items`), and how
//! far the evidence goes: copies of the key set aside, weak answers said
//! (`evidence`).
//!
//! May use: `base`, `page`, `compare`, `candidates`.

pub mod breadcrumb_trails;
pub mod compare_ahead;
pub mod current_item;
pub mod evidence;
pub mod layout_agreement;
pub mod list_items;
pub mod own_text;
pub mod page_title;
pub mod template;
pub mod text_recurrence;
pub mod voters;
