//! Which pages to compare the key page with (thesis ch. 2): one spelling of
//! every address (`address`), the links a page offers and which of them may be fetched (`hyperlink`, `fetch_policy`),
//! DOM distance and the order of links (`dom_distance`, `link_order`),
//! where pages come from (`page_source`, the trait the browser, a folder and
//! a crawl's store implement), the n-complete subdigraph search that
//! loads them (`complete_subdigraph`), taking links of dead URL patterns
//! last (`dead_links`), and its first loads started early (`prefetch`).
//!
//! May use: `base`, `page`, `compare`.

pub mod address;
pub mod complete_subdigraph;
pub mod dead_links;
pub mod dom_distance;
pub mod fetch_policy;
pub mod hyperlink;
pub mod link_order;
pub mod page_source;
pub mod prefetch;
