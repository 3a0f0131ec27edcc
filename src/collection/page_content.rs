//! A page with its template removed, as a crawl's consumer wants it: the
//! content's markup (each topmost non-template element of `<body>`, whole)
//! and its plain text, with the sizes the site summary adds up.

use scraper::{ElementRef, Html, Node};
use serde::Serialize;

use std::borrow::Cow;

use crate::page::dom::{NodeId, Tree};
use crate::page::html::numbered_elements;

use super::rendered_body::{is_raw_text, RenderedBody};

/// The content of one page.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PageContent {
    pub html: String,
    pub text: String,
    /// Share of the `<body>` elements that are template.
    pub template_share: f64,
    /// Words of the whole `<body>` and of the content.
    pub page_words: usize,
    pub content_words: usize,
}

/// The visible text below an element, whitespace collapsed.
pub fn visible_text(element: ego_tree::NodeRef<'_, Node>) -> String {
    let mut words: Vec<&str> = Vec::new();
    let mut skip = None;
    for edge in element.traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) if skip.is_none() && is_raw_text(n) => skip = Some(n.id()),
            ego_tree::iter::Edge::Open(n) if skip.is_none() => {
                if let Node::Text(t) = n.value() {
                    words.extend(t.split_whitespace());
                }
            }
            ego_tree::iter::Edge::Close(n) if skip == Some(n.id()) => skip = None,
            _ => {}
        }
    }
    words.join(" ")
}

/// The content of `doc` (snapshotted as `tree`) without its `template`.
pub fn page_content(doc: &Html, tree: &Tree, template: &[bool]) -> PageContent {
    let elements = numbered_elements(doc);
    let element = |i: usize| elements.get(i).copied().and_then(ElementRef::wrap);
    let page_words =
        tree.body().and_then(|b| element(b.index())).map_or(0, |b| visible_text(*b).split_whitespace().count());
    content_of(tree, template, page_words, |i| element(i).map(|e| (e.html().into(), visible_text(*e).into())))
}

/// [`page_content`] read from the body rendered when the page was
/// admitted, without parsing the page again: the same content, byte for byte.
pub fn rendered_content(body: &RenderedBody, tree: &Tree, template: &[bool]) -> PageContent {
    content_of(tree, template, body.words(), |i| {
        let id = NodeId(i as u32);
        Some((body.html(id).into(), body.text(id).into()))
    })
}

/// The content from each topmost non-template element of `<body>`: its
/// markup and its visible text, as `element` gives them.
fn content_of<'a>(
    tree: &Tree,
    template: &[bool],
    page_words: usize,
    element: impl Fn(usize) -> Option<(Cow<'a, str>, Cow<'a, str>)>,
) -> PageContent {
    let mut content = PageContent::default();
    let Some(body) = tree.body() else { return content };
    let body_nodes = tree.subtree(body);
    let mut html = Vec::new();
    let mut text = Vec::new();
    for i in body_nodes.clone() {
        let node = tree.node(NodeId(i as u32));
        let topmost = !template[i] && (i == body.index() || node.parent.is_none_or(|p| template[p.index()]));
        if !topmost {
            continue;
        }
        if let Some((markup, words)) = element(i) {
            html.push(markup);
            if !words.is_empty() {
                text.push(words);
            }
        }
    }
    content.html = html.join("\n");
    content.text = text.join("\n");
    content.content_words = content.text.split_whitespace().count();
    content.page_words = page_words;
    let template_nodes = body_nodes.clone().filter(|&i| template[i]).count();
    content.template_share = template_nodes as f64 / body_nodes.len().max(1) as f64;
    content
}

/// The content's markup as Markdown (htmd: headings, lists, links, tables
/// and code blocks as a reader of Markdown expects them); `None` when the
/// converter fails on it.
pub fn markdown(content_html: &str) -> Option<String> {
    htmd::convert(content_html).ok()
}

/// Each element's own text (its direct text children, whitespace
/// collapsed), in the snapshot's numbering: what text-based baselines and
/// page-level extractors are compared on.
pub fn own_texts(doc: &Html) -> Vec<String> {
    numbered_elements(doc)
        .into_iter()
        .map(|e| {
            if is_raw_text(e) {
                return String::new();
            }
            let words: Vec<&str> = e
                .children()
                .filter_map(|c| if let Node::Text(t) = c.value() { Some(&**t) } else { None })
                .flat_map(str::split_whitespace)
                .collect();
            words.join(" ")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::html::{parse, snapshot};

    #[test]
    fn content_is_the_topmost_non_template_elements_of_the_body() {
        let doc = parse(
            "<title>T</title><body><nav><a href=/>Home</a></nav><main><h1>Title</h1><p>Two <b>words</b></p>\
             <script>var x</script><iframe src=a.pdf><p>No PDF viewer</p></iframe></main><footer>Foot</footer></body>",
        );
        let tree = snapshot(&doc).unwrap();
        let tags: Vec<&str> = tree.nodes().map(|(_, n)| &*n.tag).collect();
        let template: Vec<bool> =
            tags.iter().map(|t| matches!(*t, "html" | "head" | "title" | "body" | "nav" | "a" | "footer")).collect();
        let c = page_content(&doc, &tree, &template);
        assert!(c.html.starts_with("<main><h1>Title</h1>") && !c.html.contains("Home"), "{}", c.html);
        assert_eq!(c.text, "Title Two words", "no script, no frame's fallback markup");
        assert_eq!((c.page_words, c.content_words), (5, 3));
        assert!((c.template_share - 4.0 / 10.0).abs() < 1e-9, "{}", c.template_share);
        let own = own_texts(&doc);
        assert_eq!(own[tags.iter().position(|t| *t == "p").unwrap()], "Two");
        assert_eq!(own[tags.iter().position(|t| *t == "script").unwrap()], "");
        let whole = page_content(&doc, &tree, &vec![false; tree.len()]);
        assert!(whole.html.starts_with("<body><nav>"), "no template: the whole body is content");
        assert_eq!(whole.content_words, 5);
    }
}
