//! Between file names and URL paths, one notion for every source of saved
//! pages: a file's name becomes a path segment with the characters a URL
//! reads otherwise escaped, and a URL's path names the file its segments
//! decode to. So `index.html%3Flang=es.html`, as `wget` links the page it
//! saved for `index.html?lang=es`, names the file `index.html?lang=es.html`
//! (a server asked for it serves that file), while a real `?` still starts
//! a query. The site folder, the collection's folders and page store and
//! `tex-serve` use it.

use percent_encoding::{percent_decode_str, percent_encode, AsciiSet, CONTROLS};
use url::Url;

use crate::candidates::address::normal_url;

/// Bytes escaped when a file name becomes a path segment: those a URL
/// reads as something else (`?` a query, `#` a fragment, `%` an escape,
/// `/` a separator) and those a URL path does not hold as they are.
pub const SEGMENT: &AsciiSet =
    &CONTROLS.add(b' ').add(b'"').add(b'#').add(b'%').add(b'/').add(b'<').add(b'>').add(b'?').add(b'`');

/// A file path relative to a root (`/`-separated) as a relative URL path.
pub fn escape_path(relative: &str) -> String {
    relative
        .split('/')
        .map(|segment| percent_encode(segment.as_bytes(), SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// The URL of a file given by its path relative to the root mounted at
/// `origin`; `None` for a path no URL holds.
pub fn url_of_file(origin: &Url, relative: &str) -> Option<Url> {
    // `./` first, so a first segment such as `a:b.html` is not read as a scheme.
    origin.join(&format!("./{}", escape_path(relative.trim_start_matches('/')))).ok()
}

/// The names a URL's path segments decode to: the file path it names,
/// segment by segment (a decoded segment may hold a `/`, which no file
/// name does). Bytes that are not UTF-8 become U+FFFD.
pub fn decoded_segments(url: &Url) -> Option<Vec<String>> {
    Some(url.path_segments()?.map(|s| percent_decode_str(s).decode_utf8_lossy().into_owned()).collect())
}

/// What a URL names, as one string: its origin, the file its path names
/// (each segment decoded and escaped again, so every spelling of one file
/// name gives the same key: `%3f` and `%3F`, `%3B` and `;`, `Пример` and
/// `%d0%9f%d1%80…`) and its query in its one spelling
/// ([`normal_url`]); the fragment is no part of it. Two URLs with the same
/// key name the same file.
pub fn page_key(url: &Url) -> String {
    let mut key = url.origin().ascii_serialization();
    match url.path_segments() {
        Some(segments) => {
            for segment in segments {
                key.push('/');
                key.extend(percent_encode(&percent_decode_str(segment).collect::<Vec<u8>>(), SEGMENT));
            }
        }
        None => key.push_str(url.path()),
    }
    if let Some(query) = normal_url(url).query() {
        key.push('?');
        key.push_str(query);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> Url {
        Url::parse("http://site.local/").unwrap()
    }

    #[test]
    fn a_file_name_with_a_question_mark_is_one_segment() {
        let url = url_of_file(&origin(), "news/index.html?lang=es.html").unwrap();
        assert_eq!(url.as_str(), "http://site.local/news/index.html%3Flang=es.html");
        assert_eq!((url.query(), url.fragment()), (None, None));
        assert_eq!(decoded_segments(&url).unwrap(), ["news", "index.html?lang=es.html"]);
        let odd = url_of_file(&origin(), "/100% #1 a:b.html").unwrap();
        assert_eq!(odd.as_str(), "http://site.local/100%25%20%231%20a:b.html");
        assert_eq!(url_of_file(&origin(), "a:b.html").unwrap().as_str(), "http://site.local/a:b.html", "not a scheme");
        assert_eq!(url_of_file(&origin(), "docs/").unwrap().as_str(), "http://site.local/docs/");
        assert_eq!(url_of_file(&origin(), "").unwrap().as_str(), "http://site.local/");
    }

    #[test]
    fn every_spelling_of_a_file_name_has_one_key() {
        let key = |u: &str| page_key(&Url::parse(u).unwrap());
        let file = key("http://site.local/index.html%3Flang=es.html");
        assert_eq!(file, key("http://site.local/index.html%3flang%3Des.html#top"));
        assert_eq!(key("http://site.local/a;b.html"), key("http://site.local/a%3Bb.html"));
        assert_eq!(key("http://site.local/caf%C3%A9.html"), key("http://site.local/café.html"));
        assert_ne!(file, key("http://site.local/index.html?lang=es.html"), "a real query is a query");
        assert_eq!(key("http://site.local/index.html?lang=es"), "http://site.local/index.html?lang=es");
        assert_ne!(key("http://site.local/a%2Fb.html"), key("http://site.local/a/b.html"));
        let url = url_of_file(&origin(), "index.html?lang=es.html").unwrap();
        assert_eq!(page_key(&url), url.as_str(), "a file's URL is its own key");
        assert_eq!(
            key("http://site.local/s?q=%d0%9a%d0%be%d1%82"),
            key("http://site.local/s?q=Кот#x"),
            "the query's spelling too"
        );
    }

    /// A file named in any script has one URL, already in its one spelling,
    /// and that URL is its key however a link spells it.
    #[test]
    fn file_names_in_any_script_have_one_url() {
        for name in ["wiki/Пример.html", "2021/01/03/示例-文章/index.html", "مقالات/مثال.html", "café/crème-brûlée.html"]
        {
            let url = url_of_file(&origin(), name).unwrap();
            assert!(url.as_str().is_ascii(), "{url}");
            assert_eq!(normal_url(&url), url, "{name}");
            assert_eq!(decoded_segments(&url).unwrap().join("/"), name);
            let raw = Url::parse(&format!("http://site.local/{name}")).unwrap();
            let lower = Url::parse(&url.as_str().to_lowercase()).unwrap();
            assert_eq!(page_key(&raw), page_key(&url));
            assert_eq!(page_key(&lower), page_key(&url), "{lower}");
        }
    }
}
