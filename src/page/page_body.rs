//! A page's body as bytes off the wire or the disk, checked and decoded
//! before any parser sees it: at most [`MAX_PAGE_BYTES`] per page and
//! [`MAX_EXTRACTION_BYTES`] per extraction (a reader stops at the limit, so a
//! 50 MB page or a gzip bomb costs no more than the limit), binary data
//! refused, and text decoded with the page's own charset as a browser
//! decodes it. The extension and the CLI share these rules, so both read the
//! same characters from the same bytes.

use std::cell::Cell;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use crate::base::error::LoadError;

/// Bytes read from one page at most (decompressed): 5 MiB, several times
/// the HTML of the heaviest common pages.
pub const MAX_PAGE_BYTES: usize = 5 * 1024 * 1024;
/// Bytes read by one extraction at most, all candidates together: 40 MiB.
pub const MAX_EXTRACTION_BYTES: usize = 40 * 1024 * 1024;

/// How many bytes an extraction may still read, shared by its loads.
#[derive(Debug)]
pub struct ByteBudget {
    left: Cell<usize>,
}

impl Default for ByteBudget {
    fn default() -> Self {
        Self::new(MAX_EXTRACTION_BYTES)
    }
}

impl ByteBudget {
    pub fn new(bytes: usize) -> Self {
        Self { left: Cell::new(bytes) }
    }

    /// Takes `bytes` read from `url`, or says why the load must stop: the
    /// page is over [`MAX_PAGE_BYTES`] (`so_far` is what it read before), or
    /// the extraction has read all it may.
    pub fn take(&self, url: &str, so_far: usize, bytes: usize) -> Result<(), LoadError> {
        if so_far + bytes > MAX_PAGE_BYTES {
            return Err(LoadError::TooManyBytes { url: url.to_string(), limit: MAX_PAGE_BYTES });
        }
        let left = self.left.get();
        if bytes > left {
            return Err(LoadError::BudgetSpent { url: url.to_string(), limit: MAX_EXTRACTION_BYTES });
        }
        self.left.set(left - bytes);
        Ok(())
    }
}

/// How far binary sniffing looks (the MIME Sniffing standard's resource header).
const SNIFF_BYTES: usize = 1445;

/// Whether a body is binary data rather than text: a byte no text file
/// holds in its first 1445 bytes (MIME Sniffing, "binary data byte"), unless
/// a UTF-16 byte order mark explains the zeros.
pub fn is_binary(body: &[u8]) -> bool {
    if body.starts_with(&[0xFE, 0xFF]) || body.starts_with(&[0xFF, 0xFE]) {
        return false;
    }
    body.iter().take(SNIFF_BYTES).any(|&b| matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F))
}

/// Refuses a binary body; `url` names the page in the sentence.
pub fn check_text(url: &str, body: &[u8]) -> Result<(), LoadError> {
    if is_binary(body) {
        return Err(LoadError::Binary { url: url.to_string() });
    }
    Ok(())
}

/// The text of an HTML body, decoded as the HTML standard's encoding
/// sniffing does: a byte order mark, else the `charset` of the Content-Type
/// header, else a `<meta>` charset in the first 1024 bytes, else UTF-8 when
/// the bytes are valid UTF-8 and windows-1252 (the web's legacy default)
/// when they are not.
pub fn decode(body: &[u8], content_type: Option<&str>) -> String {
    decode_reporting(body, content_type).0
}

/// Like [`decode`], and how many bytes were invalid in the page's charset
/// (each run of them became one U+FFFD, as a browser shows it): a crawl
/// counts them, and refuses a body that is mostly such bytes.
pub fn decode_reporting(body: &[u8], content_type: Option<&str>) -> (String, usize) {
    let encoding = Encoding::for_bom(body)
        .map(|(e, _)| e)
        .or_else(|| content_type.and_then(charset_of).and_then(label))
        .or_else(|| meta_charset(body))
        .unwrap_or(if std::str::from_utf8(body).is_ok() { UTF_8 } else { WINDOWS_1252 });
    let (text, _, malformed) = encoding.decode(body);
    let invalid = if malformed { invalid_bytes(encoding, body) } else { 0 };
    (text.into_owned(), invalid)
}

/// Bytes of `text` that are not UTF-8.
pub fn invalid_utf8_bytes(text: &[u8]) -> usize {
    invalid_bytes(UTF_8, text)
}

/// Bytes of `body` that are invalid in `encoding`, counted by decoding it
/// again without replacement (only for a page known to hold some).
fn invalid_bytes(encoding: &'static Encoding, body: &[u8]) -> usize {
    use encoding_rs::DecoderResult;
    let mut decoder = encoding.new_decoder_with_bom_removal();
    let mut out = String::with_capacity(body.len().min(1 << 16) * 3);
    let (mut read, mut invalid) = (0, 0);
    loop {
        out.clear();
        let (result, n) = decoder.decode_to_string_without_replacement(&body[read..], &mut out, true);
        read += n;
        match result {
            DecoderResult::InputEmpty => return invalid,
            DecoderResult::OutputFull => out.reserve(out.capacity().max(64)),
            DecoderResult::Malformed(bad, _) => invalid += usize::from(bad),
        }
    }
}

/// An encoding label as the HTML standard maps it: UTF-16 declared in
/// ASCII-compatible bytes is UTF-8, `x-user-defined` is windows-1252.
fn label(name: &str) -> Option<&'static Encoding> {
    let e = Encoding::for_label(name.trim().as_bytes())?;
    Some(match e.name() {
        "UTF-16LE" | "UTF-16BE" => UTF_8,
        "x-user-defined" => WINDOWS_1252,
        _ => e,
    })
}

/// The `charset=` parameter of a Content-Type value.
fn charset_of(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim().eq_ignore_ascii_case("charset").then(|| v.trim().trim_matches(|c| c == '"' || c == '\''))
    })
}

/// A charset declared by a `<meta charset>` or `<meta http-equiv
/// content="…; charset=…">` in the first 1024 bytes (a simplified prescan).
fn meta_charset(body: &[u8]) -> Option<&'static Encoding> {
    let head = String::from_utf8_lossy(&body[..body.len().min(1024)]).to_ascii_lowercase();
    let mut rest = head.as_str();
    while let Some(at) = rest.find("<meta") {
        rest = &rest[at + 5..];
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        if let Some(at) = tag.find("charset") {
            let value = tag[at + 7..].trim_start().strip_prefix('=').map(str::trim_start);
            if let Some(value) = value {
                let value = value.trim_start_matches(['"', '\'']);
                let end = value.find(|c: char| c.is_whitespace() || "\"';/>".contains(c)).unwrap_or(value.len());
                if let Some(e) = label(&value[..end]) {
                    return Some(e);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_with_the_declared_charset() {
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode("<p>Привет</p>");
        assert_eq!(decode(&cp1251, Some("text/html; charset=windows-1251")), "<p>Привет</p>");
        let meta = [b"<meta charset=\"windows-1251\">".as_slice(), &cp1251].concat();
        assert!(decode(&meta, None).ends_with("<p>Привет</p>"));
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("<p>日本語</p>");
        let equiv =
            [b"<meta http-equiv=Content-Type content='text/html; charset=Shift_JIS'>".as_slice(), &sjis].concat();
        assert!(decode(&equiv, Some("text/html")).ends_with("<p>日本語</p>"));
        assert_eq!(decode("<p>été</p>".as_bytes(), None), "<p>été</p>");
        assert_eq!(decode(b"<p>\xe9t\xe9</p>", None), "<p>été</p>", "invalid UTF-8 falls back to windows-1252");
        assert_eq!(decode(b"\xef\xbb\xbf<p>x</p>", Some("text/html; charset=windows-1252")), "<p>x</p>", "BOM first");
    }

    #[test]
    fn invalid_bytes_become_replacement_characters_and_are_counted() {
        let utf8 = Some("text/html; charset=utf-8");
        assert_eq!(decode_reporting("<p>été</p>".as_bytes(), utf8), ("<p>été</p>".to_string(), 0));
        let (text, invalid) = decode_reporting(b"<p>caf\xe9 cr\xe8me \xff\xfe</p>", utf8);
        assert_eq!((text.as_str(), invalid), ("<p>caf\u{FFFD} cr\u{FFFD}me \u{FFFD}\u{FFFD}</p>", 4));
        let (cut, invalid) = decode_reporting(b"<p>\xe2\x82</p>", utf8);
        assert_eq!((cut.as_str(), invalid), ("<p>\u{FFFD}</p>", 2), "a cut sequence is one character of two bytes");
        let long = ["<p>日本語</p>".repeat(30_000).as_bytes(), b"\xff"].concat();
        assert_eq!(decode_reporting(&long, utf8).1, 1, "counted past one buffer");
    }

    #[test]
    fn binary_bodies_are_refused() {
        assert!(is_binary(&[0x1f, 0x8b, 0x08, 0x00]), "gzip");
        assert!(is_binary(b"\x89PNG\r\n\x1a\n"));
        assert!(!is_binary("<!doctype html><p>été\t\r\n".as_bytes()));
        assert!(!is_binary(&[0xFF, 0xFE, b'<', 0]));
        assert!(matches!(check_text("u", b"ab\x00"), Err(LoadError::Binary { .. })));
    }

    #[test]
    fn the_budget_bounds_a_page_and_an_extraction() {
        let budget = ByteBudget::new(MAX_PAGE_BYTES + 10);
        assert!(budget.take("a", 0, MAX_PAGE_BYTES).is_ok());
        assert!(matches!(budget.take("a", MAX_PAGE_BYTES, 1), Err(LoadError::TooManyBytes { .. })));
        assert!(budget.take("b", 0, 10).is_ok());
        assert!(matches!(budget.take("c", 0, 1), Err(LoadError::BudgetSpent { .. })));
    }
}
