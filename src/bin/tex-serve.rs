//! `tex-serve`: serves a benchmark set (../shared/bench/FORMAT.md) over HTTP,
//! each site on its own 127.0.0.1 port, because every site expects to be the
//! root of its own origin and the extension can only run on real origins.
//!
//! `tex-serve SET_DIR` serves every site of the set; `tex-serve --site DIR`
//! serves one plain folder. Both print `site ID  URL` per site, then `ready`.
//! The index of the set (origins, key URLs, bench.json) is also served at
//! `/__tex_index.json` on every port, so a page's origin is enough to find it.

use std::io::{self, Write};
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use clap::{ArgGroup, Parser};
use serde_json::{json, Value};
use template_extractor::sources::file_urls::escape_path;
use thiserror::Error;
use tower_http::services::ServeDir;

/// Where the index of the set is served on every site's port.
const INDEX_PATH: &str = "/__tex_index.json";

#[derive(Parser)]
#[command(name = "tex-serve", version, about = "Serve a benchmark set, one 127.0.0.1 port per site")]
#[command(group(ArgGroup::new("what").required(true).args(["set", "site"])))]
struct Cli {
    /// Benchmark set folder (e.g. ../shared/bench/dev).
    set: Option<PathBuf>,
    /// Serve this plain folder as one site instead of a set.
    #[arg(long)]
    site: Option<PathBuf>,
    /// Write the JSON index here (otherwise it is printed on stdout, on one line).
    #[arg(long)]
    index_out: Option<PathBuf>,
    /// Serve site i on port N+i instead of an ephemeral port.
    #[arg(long)]
    port_base: Option<u16>,
    /// Content-Security-Policy header added to HTML responses.
    #[arg(long)]
    csp: Option<String>,
    /// Exit when stdin reaches end of file, so a parent script's exit stops the server.
    #[arg(long)]
    stop_on_stdin_eof: bool,
}

/// Why the server could not start. Each message is one readable sentence.
#[derive(Debug, Error)]
enum ServeError {
    #[error("{0} is not a folder")]
    NotAFolder(PathBuf),
    #[error("{0} has no index.json, so it is not a benchmark set")]
    NoIndex(PathBuf),
    #[error("{path} could not be read: {reason}")]
    Unreadable { path: PathBuf, reason: String },
    #[error("{0} has no \"key\" string naming the key page")]
    NoKey(PathBuf),
    #[error("--port-base {base} with {count} sites goes past the last port, 65535")]
    PortRange { base: u16, count: usize },
    #[error("127.0.0.1:{port} could not be bound: {reason}")]
    Bind { port: u16, reason: String },
    #[error("{path} could not be written: {reason}")]
    Unwritable { path: PathBuf, reason: String },
    #[error("the --csp value is not a valid header value (it must be printable ASCII on one line)")]
    BadCsp,
    #[error("the server could not start: {0}")]
    Runtime(String),
}

/// One site to serve, before it has a port.
#[derive(Debug)]
struct Site {
    id: String,
    root: PathBuf,
    /// Key page relative to the root ("" for a plain folder: its home page).
    key: String,
    bench: Value,
}

/// A running server: the index it serves and the thread serving every port.
struct Running {
    index: Value,
    thread: JoinHandle<()>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), ServeError> {
    let (name, sites) = match (&cli.set, &cli.site) {
        (Some(set), _) => (set, read_set(set)?),
        (None, Some(dir)) => (dir, vec![plain_site(dir)?]),
        (None, None) => unreachable!("clap requires SET_DIR or --site"),
    };
    let running = start(name, sites, cli.port_base, cli.csp.as_deref())?;
    announce(&running.index, cli.index_out.as_deref())?;
    if cli.stop_on_stdin_eof {
        // Read errors count as end of input: either way the parent is gone.
        let _ = io::copy(&mut io::stdin().lock(), &mut io::sink());
        return Ok(());
    }
    let _ = running.thread.join();
    Ok(())
}

/// The sites of a set, in the order of its index.json.
fn read_set(dir: &Path) -> Result<Vec<Site>, ServeError> {
    if !dir.is_dir() {
        return Err(ServeError::NotAFolder(dir.to_path_buf()));
    }
    let index = dir.join("index.json");
    if !index.is_file() {
        return Err(ServeError::NoIndex(dir.to_path_buf()));
    }
    let ids: Vec<String> = serde_json::from_value(read_json(&index)?).map_err(|e| unreadable(&index, e))?;
    ids.into_iter().map(|id| read_site(dir, id)).collect()
}

fn read_site(set: &Path, id: String) -> Result<Site, ServeError> {
    let path = set.join(&id).join("bench.json");
    let bench = read_json(&path)?;
    let key = bench.get("key").and_then(Value::as_str).ok_or_else(|| ServeError::NoKey(path.clone()))?;
    Ok(Site { key: key.to_owned(), root: set.join(&id).join("site"), id, bench })
}

/// A plain folder as a site of its own, named after the folder.
fn plain_site(dir: &Path) -> Result<Site, ServeError> {
    if !dir.is_dir() {
        return Err(ServeError::NotAFolder(dir.to_path_buf()));
    }
    let id = dir.canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    Ok(Site {
        id: id.unwrap_or_else(|| "site".into()),
        root: dir.to_path_buf(),
        key: String::new(),
        bench: Value::Null,
    })
}

fn read_json(path: &Path) -> Result<Value, ServeError> {
    let text = std::fs::read_to_string(path).map_err(|e| unreadable(path, e))?;
    serde_json::from_str(&text).map_err(|e| unreadable(path, e))
}

fn unreadable(path: &Path, reason: impl ToString) -> ServeError {
    ServeError::Unreadable { path: path.to_path_buf(), reason: reason.to_string() }
}

/// Binds every site first (the index needs all ports), then serves them all
/// from one thread: a single-threaded runtime is plenty for local tests.
fn start(set: &Path, sites: Vec<Site>, port_base: Option<u16>, csp: Option<&str>) -> Result<Running, ServeError> {
    let listeners =
        (0..sites.len()).map(|i| bind(port_for(port_base, i, sites.len())?)).collect::<Result<Vec<_>, _>>()?;
    let entries = sites.iter().zip(&listeners).map(|(site, l)| index_entry(site, port_of(l))).collect();
    let set_name = set.canonicalize().unwrap_or_else(|_| set.to_path_buf());
    let index = json!({ "set": set_name.to_string_lossy(), "sites": Value::Array(entries) });
    let shared: Arc<str> = index.to_string().into();
    let csp = csp.map(HeaderValue::from_str).transpose().map_err(|_| ServeError::BadCsp)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .map_err(|e| ServeError::Runtime(e.to_string()))?;
    let routers: Vec<Router> = sites.iter().map(|site| router(&site.root, shared.clone(), csp.clone())).collect();
    let thread = thread::spawn(move || {
        runtime.block_on(async move {
            let servers = listeners.into_iter().zip(routers).filter_map(|(listener, router)| {
                let listener = tokio::net::TcpListener::from_std(listener).ok()?;
                Some(tokio::spawn(async move { axum::serve(listener, router).await }))
            });
            for server in servers.collect::<Vec<_>>() {
                let _ = server.await;
            }
        });
    });
    Ok(Running { index, thread })
}

/// One site's routes: the index, then the site's files. `/dir` and `/dir/`
/// serve `dir/index.html` without a redirect and `/page` serves `page.html`,
/// as static hosts do; `ServeDir` refuses paths that leave the root.
fn router(root: &Path, index: Arc<str>, csp: Option<HeaderValue>) -> Router {
    let files = ServeDir::new(root)
        .append_index_html_on_directories(true)
        .redirect_to_trailing_slash(false)
        .html_as_default_extension(true)
        .not_found_service(get(not_found).head(not_found));
    let index = move || async move {
        // Readable from any origin: the extension's results page (a
        // chrome-extension:// or moz-extension:// origin) fetches the index.
        ([(CONTENT_TYPE, "application/json"), (ACCESS_CONTROL_ALLOW_ORIGIN, "*")], index.to_string())
    };
    Router::new()
        .route(INDEX_PATH, get(index))
        .fallback_service(files)
        .layer(middleware::from_fn_with_state(csp, headers))
}

async fn not_found() -> Html<&'static str> {
    Html("<!DOCTYPE html><title>404 Not Found</title><h1>404 Not Found</h1>\n")
}

/// Headers every reply gets: no caching (sites are edited between runs), the
/// CSP on HTML, and `charset=utf-8` on text that is valid UTF-8 — a page
/// without `<meta charset>` would otherwise be decoded as windows-1252. Text
/// in another encoding keeps a bare type, so the browser still sniffs it.
async fn headers(State(csp): State<Option<HeaderValue>>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let (mut parts, body) = response.into_parts();
    parts.headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let mime = parts.headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    if let (Some(csp), true) = (csp, mime.starts_with("text/html")) {
        parts.headers.insert(CONTENT_SECURITY_POLICY, csp);
    }
    if !mime.starts_with("text/") || mime.contains("charset") {
        return Response::from_parts(parts, body);
    }
    let Ok(bytes) = to_bytes(body, usize::MAX).await else {
        return axum::http::StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    if std::str::from_utf8(&bytes).is_ok() {
        if let Ok(value) = HeaderValue::from_str(&format!("{mime}; charset=utf-8")) {
            parts.headers.insert(CONTENT_TYPE, value);
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// Port 0 (ephemeral) unless a base is given.
fn port_for(base: Option<u16>, i: usize, count: usize) -> Result<u16, ServeError> {
    let Some(base) = base else { return Ok(0) };
    u16::try_from(i).ok().and_then(|i| base.checked_add(i)).ok_or(ServeError::PortRange { base, count })
}

/// Loopback only: the sets are private copies of real sites.
fn bind(port: u16) -> Result<TcpListener, ServeError> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port));
    listener
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| ServeError::Bind { port, reason: e.to_string() })
}

fn port_of(listener: &TcpListener) -> u16 {
    listener.local_addr().map(|a| a.port()).unwrap_or(0)
}

fn index_entry(site: &Site, port: u16) -> Value {
    let origin = format!("http://127.0.0.1:{port}/");
    let key_url = format!("{origin}{}", escape_path(&site.key));
    json!({ "id": site.id, "origin": origin, "key_url": key_url, "bench": site.bench })
}

/// Writes the index, prints `site ID  URL` per site and `ready`, and flushes.
fn announce(index: &Value, index_out: Option<&Path>) -> Result<(), ServeError> {
    let mut out = io::stdout().lock();
    match index_out {
        Some(path) => std::fs::write(path, format!("{index:#}\n"))
            .map_err(|e| ServeError::Unwritable { path: path.to_path_buf(), reason: e.to_string() })?,
        None => {
            let _ = writeln!(out, "{index}");
        }
    }
    for site in index["sites"].as_array().into_iter().flatten() {
        let _ = writeln!(out, "site {}  {}", site["id"].as_str().unwrap_or(""), site["key_url"].as_str().unwrap_or(""));
    }
    let _ = writeln!(out, "ready");
    let _ = out.flush();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpStream;
    use std::time::Duration;

    /// A reply as the tests read it.
    struct Reply {
        status: u16,
        head: String,
        body: String,
    }

    impl Reply {
        fn header(&self, name: &str) -> Option<&str> {
            self.head.lines().find_map(|l| {
                let (n, v) = l.split_once(':')?;
                n.eq_ignore_ascii_case(name).then(|| v.trim())
            })
        }
    }

    fn request(port: u16, method: &str, path: &str) -> Reply {
        let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(stream, "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).unwrap();
        let raw = String::from_utf8_lossy(&bytes);
        let (head, body) = raw.split_once("\r\n\r\n").unwrap();
        let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
        Reply { status, head: head.to_owned(), body: body.to_owned() }
    }

    fn get(port: u16, path: &str) -> Reply {
        request(port, "GET", path)
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// A set of two small sites; `a`'s key page name needs percent-encoding.
    fn small_set() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let set = dir.path();
        write(&set.join("index.json"), r#"["a", "b"]"#);
        for (id, key) in [("a", "docs/key page.html"), ("b", "news/index.html")] {
            write(&set.join(id).join("bench.json"), &json!({ "id": id, "key": key }).to_string());
            let site = set.join(id).join("site");
            write(&site.join("index.html"), &format!("<p>home of {id}</p>"));
            write(&site.join("docs/index.html"), "<p>docs</p>");
            write(&site.join(key), "<p>key</p>");
            write(&site.join("page.html"), "<p>page</p>");
            write(&site.join("style.css"), "p {}");
        }
        dir
    }

    fn serve(set: &Path, csp: Option<&str>) -> Vec<u16> {
        let running = start(set, read_set(set).unwrap(), None, csp).unwrap();
        running.index["sites"].as_array().unwrap().iter().map(|s| port_from(s["origin"].as_str().unwrap())).collect()
    }

    fn port_from(origin: &str) -> u16 {
        origin.trim_start_matches("http://127.0.0.1:").trim_end_matches('/').parse().unwrap()
    }

    #[test]
    fn serves_files_with_their_types() {
        let set = small_set();
        let port = serve(set.path(), None)[0];
        let home = get(port, "/");
        assert_eq!((home.status, home.header("content-type")), (200, Some("text/html; charset=utf-8")));
        assert_eq!(home.body, "<p>home of a</p>");
        assert_eq!(home.header("cache-control"), Some("no-store"));
        assert_eq!(home.header("access-control-allow-origin"), None, "only the index is shared");
        assert_eq!(get(port, "/style.css").header("content-type"), Some("text/css; charset=utf-8"));
        assert_eq!(get(port, "/docs/key%20page.html").body, "<p>key</p>");
        assert_eq!(get(port, "/index.html?q=1#top").status, 200);
    }

    #[test]
    fn resolves_folders_and_extensionless_pages() {
        let set = small_set();
        let port = serve(set.path(), None)[1];
        assert_eq!(get(port, "/docs/").body, "<p>docs</p>");
        assert_eq!(get(port, "/docs").body, "<p>docs</p>");
        assert_eq!(get(port, "/page").body, "<p>page</p>");
    }

    #[test]
    fn refuses_traversal_and_missing_files() {
        let set = small_set();
        let port = serve(set.path(), None)[0];
        for path in ["/../bench.json", "/%2e%2e/bench.json", "/docs/..%2f..%2fbench.json", "/missing.html"] {
            let reply = get(port, path);
            assert_eq!(reply.status, 404, "{path}");
            assert!(reply.body.contains("404 Not Found"), "{path}");
        }
    }

    #[test]
    fn head_has_no_body_and_other_methods_are_refused() {
        let set = small_set();
        let port = serve(set.path(), None)[0];
        let head = request(port, "HEAD", "/");
        assert_eq!((head.status, head.body.as_str(), head.header("content-length")), (200, "", Some("16")));
        let post = request(port, "POST", "/");
        assert_eq!((post.status, post.header("allow")), (405, Some("GET,HEAD")));
    }

    #[test]
    fn charset_is_declared_only_for_utf8_text() {
        let set = small_set();
        let site = set.path().join("a").join("site");
        std::fs::write(site.join("latin1.html"), b"<p>caf\xe9</p>").unwrap();
        std::fs::write(site.join("image.png"), b"\x89PNG\r\n\x1a\n").unwrap();
        let port = serve(set.path(), None)[0];
        let utf8 = get(port, "/docs/key%20page.html");
        assert_eq!(utf8.header("content-type"), Some("text/html; charset=utf-8"), "no <meta charset> needed");
        assert_eq!(get(port, "/latin1.html").header("content-type"), Some("text/html"), "left to the browser");
        assert_eq!(get(port, "/image.png").header("content-type"), Some("image/png"));
    }

    #[test]
    fn csp_goes_on_html_only() {
        let set = small_set();
        let port = serve(set.path(), Some("default-src 'self'"))[0];
        assert_eq!(get(port, "/").header("content-security-policy"), Some("default-src 'self'"));
        assert_eq!(get(port, "/style.css").header("content-security-policy"), None);
    }

    #[test]
    fn every_port_serves_the_index_of_all_sites() {
        let set = small_set();
        let ports = serve(set.path(), None);
        for &port in &ports {
            let reply = get(port, INDEX_PATH);
            assert_eq!(reply.header("content-type"), Some("application/json"));
            assert_eq!(reply.header("access-control-allow-origin"), Some("*"), "the extension page reads it");
            let index: Value = serde_json::from_str(&reply.body).unwrap();
            let sites = index["sites"].as_array().unwrap();
            let ids: Vec<&str> = sites.iter().map(|s| s["id"].as_str().unwrap()).collect();
            assert_eq!(ids, ["a", "b"]);
            assert_eq!(sites[0]["key_url"], format!("http://127.0.0.1:{}/docs/key%20page.html", ports[0]));
            assert_eq!(sites[1]["bench"]["key"], "news/index.html");
        }
    }

    #[test]
    fn serves_a_plain_folder() {
        let set = small_set();
        let dir = set.path().join("b").join("site");
        let running = start(&dir, vec![plain_site(&dir).unwrap()], None, None).unwrap();
        let site = &running.index["sites"][0];
        assert_eq!((&site["id"], &site["origin"]), (&json!("site"), &site["key_url"]));
        assert_eq!(get(port_from(site["origin"].as_str().unwrap()), "/").body, "<p>home of b</p>");
    }

    #[test]
    fn bad_sets_fail_with_one_sentence() {
        let missing = std::env::temp_dir().join("tex-serve-no-such-set");
        assert!(read_set(&missing).unwrap_err().to_string().ends_with("is not a folder"));
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path();
        assert!(read_set(empty).unwrap_err().to_string().ends_with("has no index.json, so it is not a benchmark set"));
        write(&empty.join("index.json"), r#"["x"]"#);
        assert!(matches!(read_set(empty), Err(ServeError::Unreadable { .. })));
        write(&empty.join("x/bench.json"), "{}");
        assert!(matches!(read_set(empty), Err(ServeError::NoKey(_))));
        assert!(matches!(port_for(Some(65535), 1, 2), Err(ServeError::PortRange { .. })));
    }

    #[test]
    fn every_key_page_of_the_dev_set_answers() {
        let dev = Path::new("../shared/bench/dev");
        if !dev.join("index.json").is_file() {
            eprintln!("skipped: ../shared/bench/dev is missing, so the dev set cannot be served");
            return;
        }
        let running = start(dev, read_set(dev).unwrap(), None, None).unwrap();
        for site in running.index["sites"].as_array().unwrap() {
            let (origin, key_url) = (site["origin"].as_str().unwrap(), site["key_url"].as_str().unwrap());
            let reply = get(port_from(origin), &key_url[origin.len() - 1..]);
            assert_eq!(reply.status, 200, "{key_url}");
            assert!(reply.header("content-type").is_some_and(|t| t.starts_with("text/html")), "{key_url}");
        }
    }
}
