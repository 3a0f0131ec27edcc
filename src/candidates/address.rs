//! One spelling of every address, so a page is one page however a link,
//! a crawl record or a JSONL line wrote its URL. The URL parser already
//! escapes raw UTF-8 (`/wiki/Пример.html` is `/wiki/%D0%9F…`) but keeps
//! an escape as written: `%d0%9f` and `%D0%9F`, or `%7E` and `~`, stayed
//! two addresses of one page, so a crawl whose records and links spelt
//! them differently could not find its own pages. Here an escape's hex
//! digits are capitals and an escaped unreserved character is the
//! character itself, in the path and the query (RFC 3986 §6.2.2.1–2:
//! every server reads both spellings alike); the fragment is dropped.

use url::Url;

/// `url` in its one spelling: fragment dropped, escapes normalised in the
/// path and the query.
pub fn normal_url(url: &Url) -> Url {
    let mut u = url.clone();
    u.set_fragment(None);
    if let Some(path) = normal_escapes(u.path()) {
        u.set_path(&path);
    }
    if let Some(query) = u.query().and_then(normal_escapes) {
        u.set_query(Some(&query));
    }
    u
}

/// `text` with each escape normalised, or `None` when it already is.
fn normal_escapes(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut changed, mut i) = (false, 0);
    while i < bytes.len() {
        let escape = match bytes.get(i..i + 3) {
            Some([b'%', high, low]) => hex(*high).zip(hex(*low)).map(|(h, l)| (h << 4) | l),
            _ => None,
        };
        match escape {
            Some(byte) if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) => {
                out.push(byte as char);
                changed = true;
                i += 3;
            }
            Some(byte) => {
                let upper = format!("%{byte:02X}");
                changed |= upper.as_bytes() != &bytes[i..i + 3];
                out.push_str(&upper);
                i += 3;
            }
            None => {
                let c = text[i..].chars().next().expect("i is at a character boundary");
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    changed.then_some(out)
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normal(u: &str) -> String {
        normal_url(&Url::parse(u).unwrap()).to_string()
    }

    #[test]
    fn every_spelling_of_an_address_is_one() {
        let cyrillic = "http://a.test/wiki/%D0%9F%D1%80%D0%B8%D0%BC%D0%B5%D1%80.html";
        assert_eq!(normal("http://a.test/wiki/Пример.html"), cyrillic);
        assert_eq!(normal("http://a.test/wiki/%d0%9f%d1%80%d0%b8%d0%bc%d0%b5%d1%80.html#top"), cyrillic);
        assert_eq!(normal(cyrillic), cyrillic, "the normal spelling is its own");
        let cjk = "http://a.test/2021/01/03/%E7%A4%BA%E4%BE%8B-%E6%96%87%E7%AB%A0/";
        assert_eq!(normal("http://a.test/2021/01/03/示例-文章/"), cjk);
        assert_eq!(normal("http://a.test/%7Euser/%41b%2d%5F.html"), "http://a.test/~user/Ab-_.html");
        assert_eq!(normal("http://a.test/s?q=Кот&x=%c3%a9%7e"), "http://a.test/s?q=%D0%9A%D0%BE%D1%82&x=%C3%A9~");
    }

    #[test]
    fn reserved_escapes_and_broken_ones_stay_as_they_are() {
        for kept in [
            "http://a.test/index.php%3Ftopic=2.html",
            "http://a.test/a%2Fb.html",
            "http://a.test/s?q=a%26b%3Dc",
            "http://a.test/100%25.html",
            "http://a.test/bad%zz/%4",
            "http://a.test/%",
        ] {
            assert_eq!(normal(kept), kept);
        }
        assert_eq!(normal("http://a.test/index.php%3ftopic=2.html"), "http://a.test/index.php%3Ftopic=2.html");
    }
}
