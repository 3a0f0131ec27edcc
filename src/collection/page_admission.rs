//! The checks a crawled body passes before it is a page of the collection:
//! the extension's byte and element limits, binary data and non-HTML bodies
//! refused, the page's charset decoded as a browser decodes it (a few
//! invalid bytes become U+FFFD and are counted; a body mostly of them is
//! refused), and a nesting limit.

use crate::page::dom::Tree;
use crate::page::html::{parse, snapshot};
use crate::page::page_body::{decode_reporting, is_binary, MAX_PAGE_BYTES};

use super::rejection::Rejection;
use super::rendered_body::RenderedBody;

/// Deepest element nesting accepted: Blink's HTML parser stops nesting at
/// 512 levels, so a deeper page is not what a browser shows.
pub const MAX_DEPTH: u32 = 512;

/// Invalid bytes a body may hold, as a share of its bytes, and still be a
/// page: a browser shows any body, a few invalid bytes as U+FFFD, but past
/// one byte in ten the charset is wrong for most of the text (a GBK page
/// declared UTF-8) or the body is no text, and a reader gets mostly
/// replacement characters.
pub const MAX_INVALID_SHARE: f64 = 0.1;

/// A body that passed every check, decoded, snapshotted and, where its
/// shape allows, its `<body>` rendered for output.
pub struct Admitted {
    pub html: String,
    pub tree: Tree,
    pub rendered: Option<RenderedBody>,
    /// Bytes invalid in the page's charset, each run shown as U+FFFD.
    pub replaced_bytes: usize,
}

/// Checks and decodes one body. `content_type` is the HTTP header when the
/// record has one; without it the body must start like markup.
pub fn admit(body: &[u8], content_type: Option<&str>, max_nodes: usize) -> Result<Admitted, Rejection> {
    if content_type.is_some_and(|ct| !is_html_type(ct)) {
        return Err(Rejection::NotHtml);
    }
    if body.len() > MAX_PAGE_BYTES {
        return Err(Rejection::TooManyBytes);
    }
    if is_binary(body) {
        return Err(Rejection::Binary);
    }
    let (html, replaced_bytes) = decode_reporting(body, content_type);
    match content_type {
        None if !html.trim_start_matches('\u{feff}').trim_start().starts_with('<') => return Err(Rejection::NotHtml),
        _ => {}
    }
    if replaced_bytes as f64 > MAX_INVALID_SHARE * body.len() as f64 {
        return Err(Rejection::BrokenCharset);
    }
    let doc = parse(&html);
    let tree = snapshot(&doc).ok_or(Rejection::NoElements)?;
    if tree.len() > max_nodes {
        return Err(Rejection::TooManyElements);
    }
    if tree.nodes().any(|(_, n)| n.depth > MAX_DEPTH) {
        return Err(Rejection::TooDeep);
    }
    let rendered = RenderedBody::render(&doc, &tree);
    Ok(Admitted { html, tree, rendered, replaced_bytes })
}

/// Whether a Content-Type names an HTML document.
pub fn is_html_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("text/html") || essence.eq_ignore_ascii_case("application/xhtml+xml")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(body: &[u8], ct: Option<&str>) -> Option<Rejection> {
        admit(body, ct, 1000).err()
    }

    #[test]
    fn each_bad_body_gets_its_reason() {
        assert_eq!(reason(b"<p>ok</p>", Some("text/html; charset=utf-8")), None);
        assert_eq!(reason(b"<p>ok</p>", None), None);
        assert_eq!(reason(b"%PDF-1.4 <p>", Some("application/pdf")), Some(Rejection::NotHtml));
        assert_eq!(reason(b"\x89PNG\r\n\x1a\n", Some("image/png")), Some(Rejection::NotHtml), "the header says first");
        assert_eq!(reason(b"{\"a\": 1}", None), Some(Rejection::NotHtml));
        assert_eq!(reason(&[0x1f, 0x8b, 8, 0, 0], Some("text/html")), Some(Rejection::Binary));
        assert_eq!(reason(&vec![b'a'; MAX_PAGE_BYTES + 1], None), Some(Rejection::TooManyBytes));
        assert_eq!(reason(b"<p>\xff\xfe\xfd</p>", Some("text/html; charset=utf-8")), Some(Rejection::BrokenCharset));
        assert_eq!(reason("<p>x</p>".repeat(1100).as_bytes(), None), Some(Rejection::TooManyElements));
        let deep = format!("{}x", "<div>".repeat(MAX_DEPTH as usize));
        assert_eq!(admit(deep.as_bytes(), None, 100_000).err(), Some(Rejection::TooDeep));
        assert!(is_html_type("Application/XHTML+XML") && !is_html_type("text/plain"));
    }

    #[test]
    fn a_few_invalid_bytes_are_replaced_and_counted_and_the_page_kept() {
        let utf8 = Some("text/html; charset=utf-8");
        let page =
            admit(b"<html><body><p>caf\xe9 cr\xe8me, a page of some length</p></body></html>", utf8, 100).unwrap();
        assert_eq!(page.replaced_bytes, 2);
        assert!(page.html.contains("caf\u{FFFD} cr\u{FFFD}me"), "{}", page.html);
        let valid = admit("<p>café</p>".as_bytes(), utf8, 100).unwrap();
        assert_eq!(valid.replaced_bytes, 0);
        // One byte in ten is the limit: a body mostly invalid is no text in its charset.
        let (gbk, _, _) = encoding_rs::GBK.encode("<p>这是一个用中文写的页面，它的字符集声明错了。</p>");
        assert_eq!(reason(&gbk, utf8), Some(Rejection::BrokenCharset));
        assert_eq!(reason(&gbk, Some("text/html; charset=gbk")), None);
    }
}
