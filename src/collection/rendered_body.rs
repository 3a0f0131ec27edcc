//! A page's `<body>` serialised once, when the page is admitted, with each
//! element's span in the markup and in the visible text: the page's
//! content is then a few slices, so a run parses each page once instead of
//! twice (once to group it by layout, once to write its content).
//!
//! The markup is html5ever's serialisation with the options
//! `ElementRef::html` uses, driven over the same walk, so an element's
//! slice is byte for byte what serialising the element alone gives. Two
//! shapes break that equality and are refused (the page then keeps its
//! source and is parsed again to be written): an element below a void
//! element (whose children the serialiser leaves out only in context) and
//! a numbered element below `script`, `style`, `noscript` or `template`
//! (whose words the surrounding text leaves out but its own text keeps).

use ego_tree::iter::Edge;
use html5ever::local_name;
use html5ever::serialize::{HtmlSerializer, SerializeOpts, Serializer, TraversalScope};
use scraper::{Html, Node};

use crate::page::dom::{NodeId, Tree};
use crate::page::html::numbered_elements;

/// Elements whose text is code or markup, not words a reader sees: an
/// `<iframe>`'s, `<noembed>`'s or `<noframes>`'s text is a fallback for
/// browsers without frames or plug-ins, kept as raw text (a WordPress post's
/// "your browser cannot show this PDF" with its tags spelled out).
pub fn is_raw_text(node: ego_tree::NodeRef<'_, Node>) -> bool {
    matches!(node.value(), Node::Element(e) if matches!(e.name.local,
        local_name!("script") | local_name!("style") | local_name!("noscript") | local_name!("template")
            | local_name!("iframe") | local_name!("noembed") | local_name!("noframes")))
}

/// Where one element's markup and visible text lie.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    markup: (u32, u32),
    /// Bytes of its words in the body's text; empty when `end <= start`.
    text: (u32, u32),
}

/// The body's markup and visible text, with every body element's spans.
#[derive(Debug)]
pub struct RenderedBody {
    markup: String,
    /// The body's visible words, one space between two.
    text: String,
    words: usize,
    /// Snapshot index of `<body>`: `spans[k]` is element `body + k`'s.
    body: usize,
    spans: Vec<Span>,
}

impl RenderedBody {
    /// Renders the body of `doc` (snapshotted as `tree`); `None` when the
    /// page has no body or a shape whose slices would differ (module doc).
    pub fn render(doc: &Html, tree: &Tree) -> Option<RenderedBody> {
        let body = tree.body()?;
        let elements = numbered_elements(doc);
        let body_node = *elements.get(body.index())?;
        let last = tree.subtree(body).end;
        // The body's numbered elements, met in this order by the walk below
        // (which also enters the shadow-root subtrees the numbering skips).
        let numbered_ids = &elements[body.index()..last];
        let mut next = 0;
        // The span index of each open element, `None` for an unnumbered one.
        let mut open: Vec<Option<usize>> = Vec::new();
        let opts = SerializeOpts {
            scripting_enabled: false,
            traversal_scope: TraversalScope::IncludeNode,
            create_missing_parent: false,
        };
        let mut ser = HtmlSerializer::new(Vec::new(), opts);
        let mut r = RenderedBody {
            markup: String::new(),
            text: String::new(),
            words: 0,
            body: body.index(),
            spans: vec![Span::default(); numbered_ids.len()],
        };
        let mut raw_depth = 0usize;
        let mut void_depth = 0usize;
        for edge in body_node.traverse() {
            match edge {
                Edge::Open(node) => match node.value() {
                    Node::Doctype(d) => ser.write_doctype(d.name()).ok()?,
                    Node::Comment(c) => ser.write_comment(c).ok()?,
                    Node::Text(t) => {
                        ser.write_text(t).ok()?;
                        if raw_depth == 0 {
                            for word in t.split_whitespace() {
                                if !r.text.is_empty() {
                                    r.text.push(' ');
                                }
                                r.text.push_str(word);
                                r.words += 1;
                            }
                        }
                    }
                    Node::Element(e) => {
                        let numbered = numbered_ids.get(next).is_some_and(|e| e.id() == node.id()).then_some(next);
                        next += usize::from(numbered.is_some());
                        open.push(numbered);
                        if void_depth > 0 || (raw_depth > 0 && numbered.is_some()) {
                            return None;
                        }
                        let start = ser.writer.len() as u32;
                        ser.start_elem(e.name.clone(), e.attrs.iter().map(|(k, v)| (k, &v[..]))).ok()?;
                        if let Some(k) = numbered {
                            r.spans[k].markup.0 = start;
                            // The element's first word follows a space unless it starts the text.
                            r.spans[k].text.0 = (r.text.len() + usize::from(!r.text.is_empty())) as u32;
                        }
                        raw_depth += usize::from(is_raw_text(node));
                        void_depth += usize::from(is_void(&e.name));
                    }
                    _ => {}
                },
                Edge::Close(node) => {
                    if let Node::Element(e) = node.value() {
                        ser.end_elem(e.name.clone()).ok()?;
                        raw_depth -= usize::from(is_raw_text(node));
                        void_depth -= usize::from(is_void(&e.name));
                        if let Some(k) = open.pop().flatten() {
                            r.spans[k].markup.1 = ser.writer.len() as u32;
                            r.spans[k].text.1 = r.text.len() as u32;
                        }
                    }
                }
            }
        }
        if next != numbered_ids.len() {
            return None;
        }
        r.markup = String::from_utf8(ser.writer).ok()?;
        Some(r)
    }

    fn span(&self, i: NodeId) -> Option<&Span> {
        i.index().checked_sub(self.body).and_then(|k| self.spans.get(k))
    }

    /// The element's markup, as `ElementRef::html` writes it; empty for an
    /// element outside the body.
    pub fn html(&self, i: NodeId) -> &str {
        self.span(i).map_or("", |s| &self.markup[s.markup.0 as usize..s.markup.1 as usize])
    }

    /// The element's visible text, whitespace collapsed, as
    /// [`super::page_content::visible_text`] gives it.
    pub fn text(&self, i: NodeId) -> &str {
        match self.span(i) {
            Some(&Span { text: (start, end), .. }) if end > start => &self.text[start as usize..end as usize],
            _ => "",
        }
    }

    /// Words of the whole body.
    pub fn words(&self) -> usize {
        self.words
    }
}

/// Elements the serialiser writes without children (html5ever's list).
fn is_void(name: &html5ever::QualName) -> bool {
    name.ns == html5ever::ns!(html)
        && matches!(
            &*name.local,
            "area"
                | "base"
                | "basefont"
                | "bgsound"
                | "br"
                | "col"
                | "embed"
                | "frame"
                | "hr"
                | "img"
                | "input"
                | "keygen"
                | "link"
                | "meta"
                | "param"
                | "source"
                | "track"
                | "wbr"
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::page_content::{page_content, rendered_content};
    use crate::page::html::{parse, snapshot};

    /// Every way of cutting the page into template and content gives the
    /// same content from the rendering as from the parsed page.
    fn same_content_for_every_cut(html: &str) {
        let doc = parse(html);
        let tree = snapshot(&doc).unwrap();
        let body = RenderedBody::render(&doc, &tree).expect("renders");
        for cut in 0..tree.len() {
            // Template: the nodes before `cut` and every third node after it.
            let template: Vec<bool> = (0..tree.len()).map(|i| i < cut || (i % 3 == 0 && i > cut)).collect();
            assert_eq!(rendered_content(&body, &tree, &template), page_content(&doc, &tree, &template), "cut {cut}");
        }
    }

    #[test]
    fn slices_equal_what_the_parsed_page_gives() {
        same_content_for_every_cut(
            "<!doctype html><title>T</title><body class=x><nav><a href='/?a=1&amp;b=2'>Home &amp; more</a></nav>\
             <main><h1>Title&nbsp;here</h1><p>Two <b>bold</b> words<br>after<img src=x alt='a\"b'></p>\
             <script>if (a < b) x()</script><style>p > a {}</style><!-- note --><noscript><p>no script</p></noscript>\
             <iframe src=a.pdf><p>No PDF here, <a href=a.pdf>fetch it</a></p></iframe><noembed>no plug-in</noembed>\
             <svg><title>icon</title><circle r=1></circle></svg><table><tr><td>cell</td></tr></table>\
             <div><template shadowrootmode=open><p>shadow text</p></template><span>light</span></div></main>\
             <footer>   Foot\n  line  </footer></body>",
        );
        same_content_for_every_cut("<p>no body tag, one paragraph</p>");
        same_content_for_every_cut("<body></body>");
    }

    #[test]
    fn shapes_whose_slices_would_differ_are_refused() {
        let refused = |html: &str| {
            let doc = parse(html);
            RenderedBody::render(&doc, &snapshot(&doc).unwrap()).is_none()
        };
        assert!(
            refused("<body><template><p>inside a template</p></template></body>"),
            "numbered element under raw text"
        );
        assert!(!refused("<body><template>only text</template><p>x</p></body>"));
        assert!(!refused("<body><div><template shadowrootmode=open><p>shadow</p></template></div></body>"));
    }
}
