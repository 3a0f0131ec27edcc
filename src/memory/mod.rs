//! What is remembered between extractions: a site's layouts as template
//! clusters whose skeletons serve a page with zero loads
//! (`template_memory`, Zeleny & Burget), and the routes of a single-page app
//! visited before, compared as candidates (`visited_routes`).
//!
//! May use: every layer below (`base` to `served`).

pub mod template_memory;
pub mod visited_routes;
