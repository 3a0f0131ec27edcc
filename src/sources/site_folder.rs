//! A website on disk as the root of one origin, so the CLI and the tests
//! run the exact algorithm without a server.

use std::path::{Component, Path, PathBuf};
use std::time::Instant;

use url::Url;

use crate::base::error::LoadError;
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::page::html::{parse_within, snapshot};
use crate::page::page_body::{check_text, decode, ByteBudget, MAX_PAGE_BYTES};
use crate::sources::file_urls::{decoded_segments, url_of_file};

/// The origin every site folder is mounted at.
pub const ORIGIN: &str = "http://site.local/";

/// Serves `root` as `http://site.local/`: `/a` finds `a.html` first and
/// `a/index.html` next, `/a/` finds `a/index.html`, as static web servers do.
pub struct SiteFolder {
    root: PathBuf,
    origin: Url,
    max_nodes: usize,
    clock: Instant,
    /// The extension's byte limits, per page and per run of this source.
    budget: ByteBudget,
}

impl SiteFolder {
    pub fn new(root: impl Into<PathBuf>, max_nodes: usize) -> Self {
        Self {
            root: root.into(),
            origin: Url::parse(ORIGIN).expect("valid origin"),
            max_nodes,
            clock: Instant::now(),
            budget: ByteBudget::default(),
        }
    }

    /// The URL of a file given relative to the root: `index.html?lang=es.html`
    /// is that file, not `index.html` with a query ([`url_of_file`]).
    pub fn url_of(&self, relative: &str) -> Url {
        url_of_file(&self.origin, relative).unwrap_or_else(|| self.origin.clone())
    }

    /// The file a URL names, if it is inside the root. Tried in the order of
    /// nginx's `try_files $uri $uri.html $uri/` (the setup Next.js documents
    /// for its static export): the exact file, then `x.html`, then
    /// `x/index.html`, so `/articles/x` finds `articles/x.html` even beside an
    /// `articles/x/` folder; a trailing slash names the folder only. The
    /// path's segments are decoded ([`decoded_segments`]): an escaped `?` is
    /// part of a file name, and the query is no part of the file.
    fn file_of(&self, url: &Url) -> Option<PathBuf> {
        if url.origin() != self.origin.origin() {
            return None;
        }
        let mut path = self.root.clone();
        for seg in decoded_segments(url)? {
            match Path::new(&seg).components().next() {
                None => {}
                Some(Component::Normal(_)) if !seg.contains('/') => path.push(&seg),
                _ => return None,
            }
        }
        if path.is_file() {
            return Some(path);
        }
        if !url.path().ends_with('/') {
            if let Some(name) = path.file_name() {
                let with_html = path.with_file_name(format!("{}.html", name.to_string_lossy()));
                if with_html.is_file() {
                    return Some(with_html);
                }
            }
        }
        if path.is_dir() {
            return Some(path.join("index.html"));
        }
        Some(path)
    }
}

/// The file's bytes, refused past [`MAX_PAGE_BYTES`] without reading more
/// than that, and taken from the run's budget.
fn read_limited(file: &Path, url: &Url, budget: &ByteBudget) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    let unreadable = |e: std::io::Error| LoadError::Unreadable { url: url.to_string(), reason: e.to_string() };
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_PAGE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    budget.take(url.as_str(), 0, bytes.len())?;
    Ok(bytes)
}

impl SiteFolder {
    /// The decoded text of the key page at `url` (the CLI writes the key
    /// page's template from it), read as [`SiteFolder::load_key`] reads it.
    pub fn text(&self, url: &Url) -> Result<String, LoadError> {
        self.read(url, None, false)
    }

    /// The key page: read as a candidate is, except that bytes a text file
    /// never holds (a NUL) do not refuse it, since the browser renders a key
    /// page whatever it holds, and the extension reads what it rendered.
    pub async fn load_key(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let t0 = Instant::now();
        let source = self.read(url, Some(&self.budget), false)?;
        self.parsed(url, &source, ms(t0))
    }

    fn read(&self, url: &Url, budget: Option<&ByteBudget>, refuse_binary: bool) -> Result<String, LoadError> {
        let file = self.file_of(url).ok_or_else(|| LoadError::NotFound(url.to_string()))?;
        if !file.is_file() {
            return Err(LoadError::NotFound(url.to_string()));
        }
        let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        if !matches!(ext.as_str(), "html" | "htm" | "xhtml") {
            return Err(LoadError::NotHtml { url: url.to_string(), content_type: format!("a .{ext} file") });
        }
        let bytes = read_limited(&file, url, budget.unwrap_or(&ByteBudget::default()))?;
        if refuse_binary {
            check_text(url.as_str(), &bytes)?;
        }
        Ok(decode(&bytes, None))
    }

    fn parsed(&self, url: &Url, source: &str, fetch_ms: f64) -> Result<LoadedPage, LoadError> {
        let t1 = Instant::now();
        let too_large =
            |nodes, parse_ms| LoadError::TooLarge { url: url.to_string(), nodes, limit: self.max_nodes, parse_ms };
        let doc = parse_within(source, self.max_nodes).map_err(|nodes| too_large(nodes, ms(t1)))?;
        let parse_ms = ms(t1);
        let t2 = Instant::now();
        let tree = snapshot(&doc).ok_or_else(|| LoadError::Empty { url: url.to_string() })?;
        let snapshot_ms = ms(t2);
        if tree.len() > self.max_nodes {
            return Err(too_large(tree.len(), parse_ms));
        }
        Ok(LoadedPage { url: url.clone(), tree: tree.into(), fetch_ms, parse_ms, snapshot_ms })
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

impl PageSource for SiteFolder {
    async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let t0 = Instant::now();
        let source = self.read(url, Some(&self.budget), true)?;
        self.parsed(url, &source, ms(t0))
    }

    fn now_ms(&self) -> f64 {
        ms(self.clock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use tempfile::TempDir;

    fn write(dir: &TempDir, rel: &str, content: &str) {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    fn site() -> TempDir {
        let d = tempfile::tempdir().unwrap();
        write(&d, "index.html", "<a href='/docs/'>docs</a>");
        write(&d, "docs/index.html", "<p>docs</p>");
        write(&d, "about.html", "<p>about</p>");
        write(&d, "my page.html", "<p>spaced</p>");
        write(&d, "file.pdf", "%PDF");
        d
    }

    #[test]
    fn resolves_like_a_static_server() {
        let d = site();
        let s = SiteFolder::new(d.path(), 1000);
        let load = |u: &str| futures::executor::block_on(s.load(&s.url_of(u)));
        assert!(load("index.html").is_ok());
        assert!(load("docs/").is_ok());
        assert!(load("docs").is_ok());
        assert!(load("about").is_ok());
        assert!(load("my page.html").is_ok());
        let spaced = Url::parse("http://site.local/my%20page.html").unwrap();
        assert!(futures::executor::block_on(s.load(&spaced)).is_ok());
        assert!(matches!(load("missing.html"), Err(LoadError::NotFound(_))));
        assert!(matches!(load("file.pdf"), Err(LoadError::NotHtml { .. })));
        let outside = Url::parse("http://site.local/../etc/passwd").unwrap();
        assert!(futures::executor::block_on(s.load(&outside)).is_err());
    }

    #[test]
    fn prefers_a_sibling_html_file_to_a_folder_of_the_same_name() {
        let d = site();
        write(&d, "articles/x.html", "<p>the article</p>");
        write(&d, "articles/x/comments.html", "<p>its comments</p>");
        write(&d, "both.html", "<p>file</p>");
        write(&d, "both/index.html", "<p>folder</p>");
        let s = SiteFolder::new(d.path(), 1000);
        let file = |u: &str| s.file_of(&s.url_of(u)).unwrap();
        assert_eq!(file("articles/x"), d.path().join("articles/x.html"));
        assert_eq!(file("articles/x/comments"), d.path().join("articles/x/comments.html"));
        assert_eq!(file("both"), d.path().join("both.html"));
        assert_eq!(file("both/"), d.path().join("both/index.html"));
        assert_eq!(file("docs"), d.path().join("docs/index.html"));
        assert_eq!(file(""), d.path().join("index.html"));
    }

    /// A site as `wget --adjust-extension --convert-links` saves it: the
    /// page at `index.php?topic=2` is the file `index.php?topic=2.html`, and
    /// links to it read `index.php%3Ftopic=2.html`. The escaped `?` names
    /// the file, a real `?` is a query, and a key page given by its file
    /// name is that file.
    #[test]
    fn an_escaped_question_mark_names_a_file() {
        let d = tempfile::tempdir().unwrap();
        let menu: String = (1..=4).map(|i| format!("<li><a href=index.php%3Ftopic={i}.html>topic {i}</a>")).collect();
        write(&d, "index.php", "<p>the forum's front page</p>");
        for i in 1..=4 {
            let words: String = (0..5 * i).map(|k| format!(" word{i}_{k}")).collect();
            let page =
                format!("<ul>{menu}</ul><main><h1>Topic {i}</h1><p>{words}</p></main><footer>The forum</footer>");
            write(&d, &format!("index.php?topic={i}.html"), &page);
        }
        let s = SiteFolder::new(d.path(), 1000);
        let file = |u: &str| s.file_of(&Url::parse(&format!("http://site.local/{u}")).unwrap()).unwrap();
        assert_eq!(file("index.php%3Ftopic=2.html"), d.path().join("index.php?topic=2.html"));
        assert_eq!(file("index.php%3ftopic%3D2.html"), d.path().join("index.php?topic=2.html"));
        assert_eq!(file("index.php?topic=2.html"), d.path().join("index.php"), "a query is no part of the file");
        let key = s.url_of("index.php?topic=1.html");
        assert_eq!(key.as_str(), "http://site.local/index.php%3Ftopic=1.html");
        let key = futures::executor::block_on(s.load_key(&key)).unwrap();
        let cfg = crate::base::config::Config::default();
        let x = futures::executor::block_on(crate::extraction::extract::extract(&cfg, &s, &key)).unwrap();
        assert_eq!(x.links, 3, "the other topics are other pages");
        assert_eq!((x.cs.size, x.loads), (3, 4));
        assert!(x.load_log.iter().all(|r| r.error.is_none()));
    }

    /// A partial copy whose key page links first to eight pages that are
    /// not there (more than `patience`), then to three that link to each
    /// other. The folder answers as a server would, so each dead link costs
    /// a load, but failed loads do not end the search.
    #[test]
    fn dead_links_of_a_partial_copy_do_not_end_the_search() {
        use crate::base::config::Config;
        use crate::extraction::extract::extract;

        let d = tempfile::tempdir().unwrap();
        let dead: String = (0..8).map(|i| format!("<li><a href=/gone{i}.html>gone {i}</a>")).collect();
        let menu =
            "<ul><li><a href=/more/a.html>a</a><li><a href=/more/b.html>b</a><li><a href=/more/c.html>c</a></ul>";
        write(&d, "key.html", &format!("<ul>{dead}</ul>{menu}<p>the key</p>"));
        for p in ["a", "b", "c"] {
            write(&d, &format!("more/{p}.html"), &format!("{menu}<p>page {p}</p>"));
        }
        let s = SiteFolder::new(d.path(), 1000);
        let cfg = Config::default();
        assert!(cfg.patience < 8);
        let key = futures::executor::block_on(s.load_key(&s.url_of("key.html"))).unwrap();
        let x = futures::executor::block_on(extract(&cfg, &s, &key)).unwrap();
        assert_eq!((x.loads, x.cs.size), (12, 3), "the key, eight dead links, a, b and c");
        assert!(x.load_log[..8].iter().all(|r| matches!(r.error, Some(LoadError::NotFound(_)))));
    }

    #[test]
    fn refuses_pages_over_the_limit() {
        let d = site();
        write(&d, "big.html", &"<div>".repeat(50));
        let s = SiteFolder::new(d.path(), 20);
        let r = futures::executor::block_on(s.load(&s.url_of("big.html")));
        assert!(
            matches!(r, Err(LoadError::TooLarge { nodes: 53, limit: 20, parse_ms, .. }) if parse_ms > 0.0),
            "{r:?}"
        );
    }

    #[test]
    fn refuses_huge_and_binary_pages_and_decodes_legacy_charsets() {
        let d = site();
        std::fs::write(d.path().join("huge.html"), vec![b'a'; MAX_PAGE_BYTES + 1]).unwrap();
        std::fs::write(d.path().join("gzip.html"), [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0]).unwrap();
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode("<meta charset=windows-1251><p>Привет</p>");
        std::fs::write(d.path().join("ru.html"), &cp1251).unwrap();
        let s = SiteFolder::new(d.path(), 1000);
        let load = |u: &str| futures::executor::block_on(s.load(&s.url_of(u)));
        assert!(matches!(load("huge.html"), Err(LoadError::TooManyBytes { .. })));
        assert!(matches!(load("gzip.html"), Err(LoadError::Binary { .. })));
        let ru = load("ru.html").unwrap();
        let p = ru.tree.nodes().find(|(_, n)| &*n.tag == "p").unwrap().1;
        let mut b = crate::page::dom::TreeBuilder::new();
        b.open("p", []);
        b.text("Привет");
        assert_eq!(p.text, b.finish().unwrap().node(crate::page::dom::NodeId::ROOT).text, "decoded as windows-1251");
    }
}
