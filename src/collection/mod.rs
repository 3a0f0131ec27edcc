//! Whole crawls: every page of a collection loses its site's template.
//!
//! A site's pages are held in a [`page_store::PageStore`], grouped by layout
//! ([`layout_groups`]), and each group of at least `min_cluster` pages
//! learns its template from a few representatives: the full method runs on
//! them with the store as its page source (candidates are pages of the
//! collection reached through the link graph, never the network), and each
//! result is learnt as a template-memory cluster (Vieira et al.'s
//! detect-once-apply-to-the-rest; Zeleny and Burget's clusters). Every
//! other page of the group is compared with its own linked pages of the
//! store and gets what most representatives' skeletons map onto added
//! ([`cluster_agreement`]); with `fast`, the skeletons alone serve it with
//! zero loads, as a memory recall does; with `selective`, they serve it
//! unless its frame shows a part none of the representatives' pages had,
//! and only such a page is compared. Nothing here but `input` reads files:
//! it turns folders, WARC and JSONL files into records, and `run` drives a
//! whole collection over them. Native only.
//!
//! May use: every layer below (`base` to `sources`).

pub mod cluster_agreement;
pub mod input;
pub mod layout_groups;
pub mod lone_surrogates;
pub mod packed_tree;
pub mod page_admission;
pub mod page_content;
pub mod page_store;
pub mod rejection;
pub mod rendered_body;
pub mod run;
pub mod site_collection;
pub mod site_summary;
pub mod whole_page;
