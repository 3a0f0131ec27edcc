//! Hyperlinks of a page and the hyperlink distance between them
//! (thesis §2.2.2, Defs. 2.2.4 and 2.2.5).

use std::collections::{HashMap, HashSet};

use url::{Origin, Url};

use crate::candidates::address::normal_url;
use crate::candidates::fetch_policy::{inside_form, node_refusal, url_refusal};
use crate::page::dom::{NodeId, Tree};

/// A link as the thesis sees it: the sequence of directory words of a URL,
/// host first, ignoring the resource name (Def. 2.2.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hyperlink {
    words: Vec<String>,
}

impl Hyperlink {
    pub fn from_words<S: Into<String>>(words: impl IntoIterator<Item = S>) -> Self {
        Self { words: words.into_iter().map(Into::into).collect() }
    }

    /// `http://h/a/b/page.html` → `h/a/b/`; `http://h/a/b/` → `h/a/b/`.
    pub fn from_url(url: &Url) -> Self {
        let mut words = vec![match url.port() {
            Some(p) => format!("{}:{p}", url.host_str().unwrap_or("")),
            None => url.host_str().unwrap_or("").to_string(),
        }];
        if let Some(segments) = url.path_segments() {
            let segments: Vec<&str> = segments.collect();
            if let Some((_resource, dirs)) = segments.split_last() {
                words.extend(dirs.iter().filter(|d| !d.is_empty()).map(|d| d.to_string()));
            }
        }
        Self { words }
    }

    /// |h|, the number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// hDistance(h, h'), Def. 2.2.5: 0 for the same directory, +k when h' is k
/// levels below h, and -k where k is the number of words of h after the
/// common prefix (how far one climbs from h before descending to h').
pub fn h_distance(h: &Hyperlink, h2: &Hyperlink) -> i32 {
    let common = h.words.iter().zip(&h2.words).take_while(|(a, b)| a == b).count();
    if common == h.words.len() {
        (h2.words.len() - common) as i32
    } else {
        -((h.words.len() - common) as i32)
    }
}

/// A same-origin link of a page: its absolute URL (in its one spelling,
/// `address::normal_url`: fragment removed, escapes normalised) and the
/// first `<a>` node that carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageLink {
    pub url: Url,
    pub node: NodeId,
}

/// File endings that are never HTML pages, so never candidates.
const NON_HTML_ENDINGS: &[&str] = &[
    ".pdf", ".jpg", ".jpeg", ".png", ".gif", ".svg", ".webp", ".ico", ".bmp", ".zip", ".gz", ".tgz", ".bz2", ".xz",
    ".tar", ".7z", ".rar", ".jar", ".exe", ".dmg", ".msi", ".deb", ".rpm", ".mp3", ".mp4", ".avi", ".mov", ".webm",
    ".ogg", ".wav", ".css", ".js", ".json", ".xml", ".rss", ".atom", ".txt", ".csv", ".doc", ".docx", ".xls", ".xlsx",
    ".ppt", ".pptx", ".odt", ".epub", ".woff", ".woff2", ".ttf", ".xsd", ".asc", ".md5", ".sha1", ".sha256", ".sha512",
];

/// The path a static server or CMS serves one document under: a directory
/// index file name, a `.html` ending and a trailing slash dropped, so `/a/`,
/// `/a`, `/a/index.html` and `/a.html` compare equal. An index file name is
/// `index` or `default` and extensions (`index.php`, `index.en.html`), not
/// the file a mirror saved a query's page as (`index.php%3Ftopic=2.html`,
/// the page at `index.php?topic=2`): that is another document. The index
/// name and the ending are read in any case (`Default.aspx`, `INDEX.HTM`:
/// servers that serve them, IIS's first, ignore case there).
fn document_path(url: &Url) -> &str {
    let path = url.path().trim_end_matches('/');
    let file = path.rsplit('/').next().unwrap_or("");
    let index = file.split_once('.').is_some_and(|(stem, extensions)| {
        (stem.eq_ignore_ascii_case("index") || stem.eq_ignore_ascii_case("default"))
            && extensions.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
    });
    let path = if index { &path[..path.len() - file.len()] } else { path };
    let path = path.trim_end_matches('/');
    let ending = |e: &str| {
        path.len() >= e.len()
            && path.is_char_boundary(path.len() - e.len())
            && path[path.len() - e.len()..].eq_ignore_ascii_case(e)
    };
    [".html", ".htm"].into_iter().find(|e| ending(e)).map_or(path, |e| &path[..path.len() - e.len()])
}

/// Whether `link` names the page at `page` under another form: the same
/// document path ([`document_path`]) and the same query, or any query when
/// the page has none (a sort, a filter, a review tab or a variant of the same
/// document). Such a page is the key page again: compared with itself, it
/// would vote for everything, content included.
pub fn same_document(link: &Url, page: &Url) -> bool {
    link.origin() == page.origin()
        && document_path(link) == document_path(page)
        && (page.query().is_none() || link.query() == page.query())
}

/// Whether `link` follows the URL pattern of `page`: as many path segments,
/// the same ones but for the last, a number standing for any number (`/shop/x/`
/// and `/shop/y/`, `/node/12.html` and `/node/57.html`, `/2019/12/a/` and
/// `/2007/05/b/`). Sites name pages of one layout alike, so such a link is
/// the likeliest page of the key's layout; only a comparison can tell.
pub fn same_url_pattern(link: &Url, page: &Url) -> bool {
    link.origin() == page.origin() && url_pattern(link) == url_pattern(page)
}

/// The pattern [`same_url_pattern`] compares: the document path's folders,
/// each all-digit folder read as `#`, and a `*` for the last segment
/// (`/2019/12/post` and `/2020/01/other` give `/#/#/*`); the site's root
/// has a pattern of its own, the empty one.
pub fn url_pattern(url: &Url) -> String {
    let path = document_path(url);
    if path.is_empty() {
        return String::new();
    }
    let folders = path.rsplit_once('/').map_or("", |(folders, _)| folders);
    let mut pattern = String::with_capacity(path.len());
    for folder in folders.split('/').skip(1) {
        pattern.push('/');
        let number = !folder.is_empty() && folder.bytes().all(|c| c.is_ascii_digit());
        pattern.push_str(if number { "#" } else { folder });
    }
    pattern.push_str("/*");
    pattern
}

/// Whether a URL is a page of the page's origin worth loading.
fn is_candidate(url: &Url, origin: &Origin) -> bool {
    if !matches!(url.scheme(), "http" | "https") || url.origin() != *origin {
        return false;
    }
    let path = url.path().as_bytes();
    !NON_HTML_ENDINGS
        .iter()
        .any(|e| path.len() >= e.len() && path[path.len() - e.len()..].eq_ignore_ascii_case(e.as_bytes()))
}

/// getLinks (Alg. 2): the page's distinct same-origin http(s) links in
/// document order, resolved against the document's base URL, fragments
/// removed; links to the page itself ([`same_document`]), non-HTML files and
/// links the fetch policy refuses dropped.
///
/// Resolving and judging a URL is what costs, and pages repeat their hrefs
/// (menus in header and footer, an index's anchors into one page): each
/// distinct href, fragment dropped, is resolved and judged once.
pub fn page_links(tree: &Tree, page_url: &Url) -> Vec<PageLink> {
    let page = normal_url(page_url);
    let origin = page.origin();
    let base = tree.base_url(page_url);
    let in_form = inside_form(tree);
    let mut resolved: HashMap<&str, Option<Url>> = HashMap::new();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (id, node) in tree.nodes() {
        let Some(href) = node.href.as_deref() else { continue };
        if href.is_empty() || href.starts_with('#') || node_refusal(tree, &in_form, id).is_some() {
            continue;
        }
        let target = href.split_once('#').map_or(href, |(target, _)| target);
        let abs = resolved.entry(target).or_insert_with(|| {
            let abs = normal_url(&base.join(target).ok()?);
            (!same_document(&abs, &page) && is_candidate(&abs, &origin) && url_refusal(&abs).is_none()).then_some(abs)
        });
        let Some(abs) = abs else { continue };
        if seen.insert(abs.clone()) {
            out.push(PageLink { url: abs.clone(), node: id });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::test_trees::tree;

    fn h(s: &str) -> Hyperlink {
        Hyperlink::from_words(s.split('/').filter(|w| !w.is_empty()))
    }

    #[test]
    fn distances_listed_under_definition_2_2_5() {
        assert_eq!(h_distance(&h("research/maths/"), &h("research/maths/")), 0);
        assert_eq!(h_distance(&h("research/maths/"), &h("research/maths/geometry/")), 1);
        assert_eq!(h_distance(&h("research/maths/"), &h("research/")), -1);
        assert_eq!(h_distance(&h("research/maths/"), &h("research/physics/dynamics")), -1);
        assert_eq!(h_distance(&h("research/maths/"), &h("www.upv.es/research/")), -2);
    }

    /// Ex. 2.2.6 writes its first case as hDistance(technology, news) = +1;
    /// by Def. 2.2.5 the positive direction is from news to technology.
    #[test]
    fn distances_of_example_2_2_6() {
        let news = h("www.bbc.com/news");
        assert_eq!(h_distance(&news, &h("www.bbc.com/news/technology")), 1);
        assert_eq!(h_distance(&news, &h("www.bbc.com")), -1);
        assert_eq!(h_distance(&news, &h("www.bbc.com/news/world/europe/")), 2);
        assert_eq!(h_distance(&news, &h("www.bbc.com/weather")), -1);
        assert_eq!(h_distance(&news, &h("www.bbc.com/sport/0/formula1/26599556")), -1);
    }

    #[test]
    fn urls_ignore_the_resource_name() {
        let key = Url::parse("http://www.upv.es/research/math/index.html").unwrap();
        let d = |u: &str| h_distance(&Hyperlink::from_url(&key), &Hyperlink::from_url(&Url::parse(u).unwrap()));
        assert_eq!(d("http://www.upv.es/research/math/pi.html"), 0);
        assert_eq!(d("http://www.upv.es/sport/"), -2);
        assert_eq!(d("http://www.upv.es/research/math/news/computers.html"), 1);
        assert_eq!(d("http://www.tesco.es/"), -3);
    }

    #[test]
    fn collects_distinct_same_origin_page_links() {
        let t = tree(
            "html( body( a[href=b.html] a[href=b.html#x] a[href=/c/] a[href=http://other.org/] \
             a[href=doc.pdf] a[href=#top] a[href=index.html] a[href=mailto:x@y.z] a[href=../up.html] ) )",
        );
        let key = Url::parse("http://s.org/dir/index.html").unwrap();
        let links: Vec<String> = page_links(&t, &key).iter().map(|l| l.url.to_string()).collect();
        assert_eq!(links, ["http://s.org/dir/b.html", "http://s.org/c/", "http://s.org/up.html"]);
    }

    #[test]
    fn links_to_the_page_under_another_form_are_the_page_itself() {
        let t = tree(
            "html( body( a[href=/shop/x/] a[href=/shop/x] a[href=/shop/x/?rating=5] a[href=/shop/x/index.php] \
             a[href=/shop/y/] a[href=/shop/y/?rating=5] a[href=/shop/x.html] a[href=/shop/] ) )",
        );
        let key = Url::parse("http://s.org/shop/x/index.html").unwrap();
        let links: Vec<String> = page_links(&t, &key).iter().map(|l| l.url.path().to_string()).collect();
        assert_eq!(links, ["/shop/y/", "/shop/y/", "/shop/"], "another product and its view, and the shop");
        let wiki = |q: &str| Url::parse(&format!("http://s.org/index.php?title={q}")).unwrap();
        assert!(!same_document(&wiki("B"), &wiki("A")), "a page named by its query is another page");
        assert!(same_document(&wiki("A"), &wiki("A")));
        let saved = |q: &str| Url::parse(&format!("http://s.org/index.php%3Ftitle={q}.html")).unwrap();
        assert!(!same_document(&saved("B"), &saved("A")), "the files a mirror saved those pages as, too");
        assert!(!same_document(&saved("A"), &Url::parse("http://s.org/").unwrap()));
        assert!(same_document(
            &Url::parse("http://s.org/index.en.html").unwrap(),
            &Url::parse("http://s.org/").unwrap()
        ));
        let iis = |p: &str| Url::parse(&format!("http://s.org{p}")).unwrap();
        assert!(same_document(&iis("/news/Default.aspx"), &iis("/news/")), "an index name in any case");
        assert!(same_document(&iis("/about.HTM"), &iis("/about")));
        assert!(!same_document(&iis("/About"), &iis("/about")), "the rest of a path keeps its case");
    }

    /// A page linked under several spellings of its address is one link,
    /// and the page itself under another spelling is no link at all.
    #[test]
    fn every_spelling_of_a_link_is_one_link() {
        let t = tree(
            "html( body( a[href=/wiki/Кот.html] a[href=/wiki/%D0%9A%D0%BE%D1%82.html] a[href=/wiki/%d0%9a%d0%be%d1%82.html] \
             a[href=/wiki/%d0%9f%d1%80%d0%b8%d0%bc%d0%b5%d1%80.html] a[href=/wiki/Пример.html#history] ) )",
        );
        let key = Url::parse("http://s.org/wiki/Пример.html").unwrap();
        let links: Vec<String> = page_links(&t, &key).iter().map(|l| l.url.to_string()).collect();
        assert_eq!(links, ["http://s.org/wiki/%D0%9A%D0%BE%D1%82.html"]);
    }

    #[test]
    fn pages_named_alike_follow_one_url_pattern() {
        let u = |p: &str| Url::parse(&format!("http://s.org{p}")).unwrap();
        assert!(same_url_pattern(&u("/shop/y/"), &u("/shop/x/index.html")));
        assert!(same_url_pattern(&u("/node/57.html"), &u("/node/12.html")));
        assert!(same_url_pattern(&u("/2019/12/a/"), &u("/2007/05/b/index.html")));
        assert!(!same_url_pattern(&u("/shop/"), &u("/shop/x/")), "a level up");
        assert!(!same_url_pattern(&u("/blog/a/"), &u("/shop/x/")), "another section");
        assert!(!same_url_pattern(&u("/2019/12/"), &u("/2007/05/b/")));
        assert!(!same_url_pattern(&u("/"), &u("/about.html")), "the root is no top-level page");
        assert_eq!(url_pattern(&u("/2019/12/a/")), "/#/#/*");
    }

    #[test]
    fn links_resolve_against_the_base_element() {
        let t = tree("html( head( base[href=/docs/v2/] base[href=/other/] ) body( a[href=intro.html] a[href=/x] ) )");
        let key = Url::parse("http://s.org/dir/index.html").unwrap();
        let links: Vec<String> = page_links(&t, &key).iter().map(|l| l.url.to_string()).collect();
        assert_eq!(links, ["http://s.org/docs/v2/intro.html", "http://s.org/x"]);
    }
}
