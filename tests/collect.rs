//! `tex collect` end to end: WARC, WARC.gz and JSONL inputs with bad
//! records of every kind, each counted with its reason while the run
//! completes, and the dev set as a collection.

use std::io::Write;
use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use template_extractor::page::page_body::MAX_PAGE_BYTES;

/// An article page of one layout: a menu of the five articles, a footer.
/// Articles differ in words, not only in numbers (numbers read as one shape).
fn article(n: usize) -> String {
    let name = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"][n % 7];
    let links: String = (1..=5).map(|m| format!("<li><a href=/a{m}.html>Article {m}</a></li>")).collect();
    format!(
        "<!doctype html><html><head><title>A{n}</title></head><body><header class=top><a href=/>Home</a></header>\
         <nav><ul>{links}</ul></nav><main><h1>Article about {name}</h1><p>{}</p></main>\
         <footer><p>Site footer text</p></footer></body></html>",
        format!("words of the {name} article ").repeat(n + 3)
    )
}

/// One WARC record (WARC/1.0) with the given type, URI and block.
fn warc_record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{}>\r\nWARC-Date: 2024-05-01T00:00:00Z\r\n\
         WARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        uuid(uri, kind),
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn uuid(uri: &str, kind: &str) -> String {
    let h =
        uri.bytes().chain(kind.bytes()).fold(0xcbf29ce484222325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3));
    format!("{:08x}-0000-4000-8000-{:012x}", h >> 32, h & 0xffff_ffff_ffff)
}

fn response(content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut r = format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n", body.len())
        .into_bytes();
    r.extend_from_slice(body);
    r
}

/// `tex collect` that must succeed: its page lines, its summary and its stderr.
fn run(args: &[&str]) -> (Vec<Value>, Value, String) {
    let (ok, lines, summary, stderr) = run_any(args);
    assert!(ok, "{stderr}");
    (lines, summary.expect("the summary is written"), stderr)
}

#[test]
fn bad_records_are_counted_by_reason_and_the_run_completes() {
    let dir = tempfile::tempdir().unwrap();
    let mut warc = Vec::new();
    for n in 1..=5 {
        let uri = format!("http://a.test/a{n}.html");
        warc.extend(warc_record("request", &uri, b"GET / HTTP/1.1\r\n\r\n"));
        warc.extend(warc_record("response", &uri, &response("text/html; charset=utf-8", article(n).as_bytes())));
    }
    warc.extend(warc_record("response", "http://a.test/logo.png", &response("image/png", b"\x89PNG\r\n\x1a\n")));
    warc.extend(warc_record("response", "http://a.test/gz.html", &response("text/html", &[0x1f, 0x8b, 8, 0, 0, 0])));
    warc.extend(warc_record("response", "http://a.test/gone", b"HTTP/1.1 404 Not Found\r\n\r\n"));
    warc.extend(warc_record(
        "response",
        "http://a.test/latin.html",
        &response("text/html; charset=utf-8", b"<p>\xe9\xe9\xe8 \xe8\xe9</p>"),
    ));
    let huge = format!("<html><body><p>{}</p></body></html>", "x".repeat(MAX_PAGE_BYTES));
    warc.extend(warc_record("response", "http://a.test/huge.html", &response("text/html", huge.as_bytes())));
    let deep = format!("<html><body>{}deep</body></html>", "<div>".repeat(600));
    warc.extend(warc_record("response", "http://a.test/deep.html", &response("text/html", deep.as_bytes())));
    let crowded = format!("<html><body>{}</body></html>", "<i></i>".repeat(201_000));
    warc.extend(warc_record("response", "http://a.test/crowded.html", &response("text/html", crowded.as_bytes())));
    // Cut short: the header promises more bytes than the file holds.
    warc.extend_from_slice(b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\nWARC-Date: 2024-05-01T00:00:00Z\r\nWARC-Target-URI: http://a.test/cut.html\r\nContent-Length: 5000\r\n\r\nHTTP/1.1 200 OK\r\n");
    let warc_path = dir.path().join("crawl.warc");
    std::fs::write(&warc_path, &warc).unwrap();

    let gz_path = dir.path().join("broken.warc.gz");
    let mut gz = flate(
        &[
            warc_record("response", "http://b.test/x.html", &response("text/html", b"<p>x</p>")),
            b"WARC/1.0\r\nthis is no header\r\n\r\n".to_vec(),
        ]
        .concat(),
    );
    gz.flush().unwrap();
    std::fs::write(&gz_path, gz.get_ref()).unwrap();

    let jsonl_path = dir.path().join("pages.jsonl");
    let mut jsonl = String::new();
    for n in 1..=3 {
        jsonl
            .push_str(&serde_json::json!({"url": format!("https://c.test/a{n}.html"), "html": article(n)}).to_string());
        jsonl.push('\n');
    }
    jsonl.push_str("{\"url\": \"https://c.test/broken\", \"html\": \n");
    jsonl.push_str(&serde_json::json!({"url": "https://c.test/data.json", "html": "{\"not\": \"html\"}"}).to_string());
    jsonl.push_str("\n\n");
    jsonl.push_str(&serde_json::json!({"url": "ftp://c.test/a.html", "html": "<p>x</p>"}).to_string());
    std::fs::write(&jsonl_path, jsonl).unwrap();

    let (pages, summary, stderr) =
        run(&[warc_path.to_str().unwrap(), gz_path.to_str().unwrap(), jsonl_path.to_str().unwrap()]);
    let rejected = &summary["rejected"];
    for (reason, n) in [
        ("not_html", 2),
        ("binary", 1),
        ("http_status", 1),
        ("broken_charset", 1),
        ("too_many_bytes", 1),
        ("too_deep", 1),
        ("too_many_elements", 1),
        ("truncated", 1),
        ("malformed_record", 2),
        ("bad_url", 1),
    ] {
        assert_eq!(rejected[reason], n, "{reason} in {rejected} ({stderr})");
    }
    assert!(stderr.contains("the page nests elements deeper than the limit"), "{stderr}");
    // A malformed line is named with its file and line, and the rest of the file is read.
    assert!(stderr.contains(&format!("{}, line 4: not a JSON object", jsonl_path.display())), "{stderr}");
    assert!(!stderr.contains("rest of its file is skipped"), "{stderr}");
    assert!(stderr.contains("broken.warc.gz: WARC record 2 could not be read (its header cannot be parsed); the rest of the file was skipped"), "{stderr}");
    let sites: Vec<&str> = summary["sites"].as_array().unwrap().iter().map(|s| s["site"].as_str().unwrap()).collect();
    assert_eq!(sites, ["http://a.test", "http://b.test", "https://c.test"]);
    assert_eq!(pages.len(), 5 + 1 + 3);
    for p in pages.iter().filter(|p| p["site"] != "http://b.test") {
        assert!(p["status"] == "representative" || p["status"] == "compared", "{p}");
        let text = p["content_text"].as_str().unwrap();
        assert!(text.starts_with("Article about") && !text.contains("footer"), "{text}");
        let html = p["content_html"].as_str().unwrap();
        assert!(html.contains("<h1>Article about") && !html.contains("<footer"), "{p}");
        assert!(p["template_share"].as_f64().unwrap() > 0.5, "{p}");
    }
    let lone = pages.iter().find(|p| p["site"] == "http://b.test").unwrap();
    assert_eq!((lone["status"].as_str(), &lone["cluster"]), (Some("unclustered"), &Value::Null));
}

/// Article `n`, declared UTF-8, with a few bytes that are not UTF-8 in its paragraph.
fn article_with_invalid_bytes(n: usize) -> Vec<u8> {
    let page = article(n).replacen("<p>", "<p>caf# cr#me ", 1).replacen("<head>", "<head><meta charset=utf-8>", 1);
    page.bytes().map(|b| if b == b'#' { 0xe9 } else { b }).collect()
}

#[test]
fn a_page_with_a_few_invalid_bytes_is_kept_with_replacement_characters_in_every_input() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("site");
    std::fs::create_dir(&folder).unwrap();
    let warc_path = dir.path().join("crawl.warc");
    let jsonl_path = dir.path().join("pages.jsonl");
    let escaped_path = dir.path().join("escaped.jsonl");
    let (mut warc, mut jsonl, mut escaped) = (Vec::new(), Vec::new(), String::new());
    for n in 1..=5 {
        let body = if n == 2 { article_with_invalid_bytes(n) } else { article(n).into_bytes() };
        std::fs::write(folder.join(format!("a{n}.html")), &body).unwrap();
        let uri = format!("http://w.test/a{n}.html");
        warc.extend(warc_record("response", &uri, &response("text/html; charset=utf-8", &body)));
        // The JSONL line holds the page's bytes as they are, as a crawler writing raw bytes would.
        let line = serde_json::json!({"url": format!("http://j.test/a{n}.html"), "html": "HTML"}).to_string();
        let (before, after) = line.split_once("HTML").unwrap();
        jsonl.extend([before.as_bytes(), &body, after.as_bytes(), b"\n"].concat());
        // As Python writes a page decoded with errors="surrogateescape": each invalid byte a lone surrogate escape.
        let text = if n == 2 {
            article_with_invalid_bytes(n).iter().map(|&b| if b == 0xe9 { '#' } else { b as char }).collect()
        } else {
            article(n)
        };
        let line = serde_json::json!({"url": format!("http://k.test/a{n}.html"), "html": text}).to_string();
        escaped += &(line.replace('#', "\\udce9") + "\n");
    }
    std::fs::write(&warc_path, warc).unwrap();
    std::fs::write(&jsonl_path, jsonl).unwrap();
    std::fs::write(&escaped_path, escaped).unwrap();
    let inputs = [&folder, &warc_path, &jsonl_path, &escaped_path].map(|p| p.to_str().unwrap());
    let (pages, summary, stderr) = run(&inputs);
    assert_eq!(pages.len(), 20, "every page kept ({stderr})");
    assert_eq!(summary["rejected"], serde_json::json!({}), "{stderr}");
    let replaced: Vec<&Value> = pages.iter().filter(|p| p.get("replaced_bytes").is_some()).collect();
    assert_eq!(replaced.len(), 4, "{stderr}");
    for p in replaced {
        assert!(p["url"].as_str().unwrap().ends_with("/a2.html"), "{p}");
        assert_eq!(p["replaced_bytes"], 2, "{p}");
        assert!(p["content_text"].as_str().unwrap().contains("caf\u{fffd} cr\u{fffd}me words of the charlie"), "{p}");
    }
    assert_eq!((summary["replaced_pages"].as_u64(), summary["replaced_bytes"].as_u64()), (Some(4), Some(8)));
    assert!(summary["sites"].as_array().unwrap().iter().all(|s| s["replaced_pages"] == 1), "{summary}");
    assert!(stderr.contains("4 pages kept with 8 bytes invalid in their charset"), "{stderr}");
}

fn flate(bytes: &[u8]) -> std::io::Cursor<Vec<u8>> {
    let mut e = libflate::gzip::Encoder::new(std::io::Cursor::new(Vec::new())).unwrap();
    e.write_all(bytes).unwrap();
    let mut c = e.finish().into_result().unwrap();
    c.set_position(0);
    c
}

#[test]
fn an_input_that_is_neither_folder_warc_nor_jsonl_is_refused_in_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("pages.csv");
    std::fs::write(&odd, "a,b").unwrap();
    let output = cargo_bin_cmd!("tex").args(["collect", odd.to_str().unwrap()]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is neither a site folder, a WARC file"), "{stderr}");
    let missing = cargo_bin_cmd!("tex").args(["collect", "/nonexistent/crawl.warc"]).output().unwrap();
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/crawl.warc does not exist."));
}

#[test]
fn sorted_streaming_gives_the_same_pages_as_grouping_first() {
    let set = Path::new("../shared/bench/dev");
    if !set.join("index.json").is_file() {
        eprintln!("skipped: ../shared/bench/dev is missing, so the collection cannot run on it");
        return;
    }
    let folders: Vec<String> =
        ["httpx", "jinja", "lesscss"].iter().map(|s| set.join(s).join("site").display().to_string()).collect();
    let args: Vec<&str> = folders.iter().map(String::as_str).collect();
    let (grouped, summary, _) = run(&args);
    let (streamed, _, _) = run(&[args.as_slice(), &["--sorted", "--jobs", "1"]].concat());
    let key = |v: &Vec<Value>| {
        let mut l: Vec<String> = v.iter().map(|p| p.to_string()).collect();
        l.sort();
        l
    };
    assert_eq!(key(&grouped), key(&streamed));
    assert_eq!(summary["pages"], 23 + 13 + 6);
}

#[test]
fn markdown_is_added_only_when_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    for n in 1..=5 {
        std::fs::write(dir.path().join(format!("a{n}.html")), article(n)).unwrap();
    }
    let folder = dir.path().to_str().unwrap();
    let (plain, _, _) = run(&[folder]);
    assert!(plain.iter().all(|p| p.get("content_markdown").is_none()), "absent unless asked for");
    let (pages, _, _) = run(&[folder, "--markdown"]);
    assert_eq!(pages.len(), 5);
    for p in &pages {
        let md = p["content_markdown"].as_str().unwrap();
        assert!(md.starts_with("# Article about "), "the heading as Markdown: {md}");
        assert!(md.contains("article words of the") && !md.contains("Site footer"), "{md}");
    }
}

#[test]
fn fast_serves_the_cluster_with_zero_loads_and_the_default_compares_each_page() {
    let dir = tempfile::tempdir().unwrap();
    for n in 1..=5 {
        std::fs::write(dir.path().join(format!("a{n}.html")), article(n)).unwrap();
    }
    let folder = dir.path().to_str().unwrap();
    let statuses =
        |pages: &[Value]| pages.iter().map(|p| p["status"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    let loads = |summary: &Value| summary["sites"][0]["clusters"][0]["loads"].as_u64().unwrap();
    let (compared, compared_summary, _) = run(&[folder]);
    let (fast, fast_summary, _) = run(&[folder, "--fast"]);
    for (pages, other) in [(&compared, "compared"), (&fast, "served")] {
        let s = statuses(pages);
        assert_eq!(s.iter().filter(|s| *s == "representative").count(), 1, "{s:?}");
        assert!(s.iter().all(|s| s == "representative" || s == other), "{s:?}");
        for p in pages {
            let text = p["content_text"].as_str().unwrap();
            assert!(text.starts_with("Article about") && !text.contains("footer"), "{text}");
        }
    }
    assert!(loads(&compared_summary) > loads(&fast_summary), "each compared page loads its own neighbours");
}

/// Under `--sorted` a host that comes back after another began stops the
/// run with a sentence naming it; without `--sorted` the same file is
/// grouped and every page comes out.
#[test]
fn sorted_stops_at_a_host_that_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let line =
        |host: &str, n: usize| serde_json::json!({"url": format!("http://{host}/a{n}.html"), "html": article(n)});
    let hosts = ["one.test", "one.test", "two.test", "two.test", "one.test", "one.test", "one.test"];
    let lines: Vec<String> = hosts.iter().enumerate().map(|(i, h)| line(h, i + 1).to_string()).collect();
    let path = dir.path().join("mixed.jsonl");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let (ok, _, _, stderr) = run_any(&[path.to_str().unwrap(), "--sorted", "--jobs", "1"]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(
            "is not sorted by site, as --sorted requires: http://one.test came again (http://one.test/a5.html)"
        ),
        "{stderr}"
    );
    let (pages, _, _) = run(&[path.to_str().unwrap()]);
    assert_eq!(pages.len(), 7);
}

/// Five pages of one site, each a list of 199,900 like items (the most a
/// page may have with the rest of its elements) under a menu of the five
/// and a heading of its own: every item is template, in every mode, and
/// each page's content is its heading. Serving the representatives'
/// skeletons onto such a page paired their lists item by item from the
/// first (issue 37: 191 s of CPU); how its time grows is the benchmark's
/// (`./build.sh serve-growth`), not this test's.
#[test]
fn a_site_of_200000_sibling_pages_keeps_only_each_pages_heading_in_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["a", "b", "c", "d", "e"];
    let menu: String = names.iter().map(|n| format!("<a href={n}.html>{n}</a>")).collect();
    for n in names {
        let page = format!(
            "<html><head><title>{n}</title></head><body><nav>{menu}</nav><h2>page {n}</h2><div>{}</div></body></html>",
            "<i>x</i>".repeat(199_900)
        );
        std::fs::write(dir.path().join(format!("{n}.html")), page).unwrap();
    }
    let folder = dir.path().to_str().unwrap();
    for mode in [None, Some("--fast"), Some("--selective")] {
        let (mut pages, summary, _) = run(&[[folder].as_slice(), mode.as_slice()].concat());
        pages.sort_by_key(|p| p["url"].as_str().unwrap().to_string());
        let contents: Vec<&str> = pages.iter().map(|p| p["content_text"].as_str().unwrap()).collect();
        assert_eq!(contents, names.map(|n| format!("page {n}")), "{mode:?}");
        assert_eq!(summary["sites"][0]["clusters"][0]["pages"], 5, "{mode:?}: one layout");
    }
}

/// A forum as `wget --adjust-extension --convert-links` saves it: the page
/// at `index.php?topic=N` is the file `index.php?topic=N.html`, linked as
/// `index.php%3Ftopic=N.html`. Each such file is its own page (not the
/// forum's front page with a query), so the topics find each other and
/// lose their template.
#[test]
fn pages_saved_with_their_query_in_the_file_name_are_pages_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    for n in 1..=5 {
        let html = article(n).replace("href=/a", "href=/index.php%3Ftopic=");
        std::fs::write(dir.path().join(format!("index.php?topic={n}.html")), html).unwrap();
    }
    let (pages, _, _) = run(&[dir.path().to_str().unwrap()]);
    assert_eq!(pages.len(), 5);
    for p in &pages {
        assert!(p["url"].as_str().unwrap().starts_with("http://site.local/index.php%3Ftopic="), "{p}");
        assert!(matches!(p["status"].as_str(), Some("representative" | "compared")), "{}", p["status"]);
        let text = p["content_text"].as_str().unwrap();
        assert!(text.starts_with("Article about") && !text.contains("footer"), "{text}");
    }
}

/// `tex` runs on jemalloc with its own options (src/bin/tex/allocator.rs):
/// the options are a linked symbol jemalloc reads at start-up, which a
/// changed build could leave out without any error. jemalloc prints the
/// options it runs with when asked to through its environment variable.
#[cfg(feature = "jemalloc")]
#[test]
fn tex_runs_on_jemalloc_with_its_own_options() {
    let output = cargo_bin_cmd!("tex").arg("--version").env("_RJEM_MALLOC_CONF", "stats_print:true").output().unwrap();
    let stats = String::from_utf8_lossy(&output.stderr);
    for option in [
        "opt.percpu_arena: \"percpu\"",
        "opt.dirty_decay_ms: 250",
        "opt.muzzy_decay_ms: 0",
        "opt.oversize_threshold: 0",
    ] {
        assert!(stats.contains(option), "{option} not in jemalloc's statistics:\n{stats}");
    }
}

/// `tex collect` with the given arguments and a summary file: whether it
/// succeeded, its page lines, its summary (if written) and its stderr.
fn run_any(args: &[&str]) -> (bool, Vec<Value>, Option<Value>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (out, summary) = (dir.path().join("out.jsonl"), dir.path().join("summary.json"));
    let output = cargo_bin_cmd!("tex")
        .arg("collect")
        .args(args)
        .args(["--out", out.to_str().unwrap(), "--summary", summary.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let lines = std::fs::read_to_string(&out)
        .map(|t| t.lines().map(|l| serde_json::from_str(l).unwrap()).collect())
        .unwrap_or_default();
    let summary = std::fs::read_to_string(&summary).ok().and_then(|t| serde_json::from_str(&t).ok());
    (output.status.success(), lines, summary, stderr)
}

/// Five article pages of one site as a WARC of response records, each
/// record's HTTP head given by `head` (the body's length in, the head out).
fn article_warc(host: &str, head: impl Fn(usize) -> String, body: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut warc = Vec::new();
    for n in 1..=5 {
        let page = body(article(n).as_bytes());
        let mut block = head(page.len()).into_bytes();
        block.extend_from_slice(&page);
        warc.extend(warc_record("response", &format!("http://{host}/a{n}.html"), &block));
    }
    warc
}

fn plain_head(len: usize) -> String {
    format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {len}\r\n\r\n")
}

fn chunked_head(_: usize) -> String {
    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n".into()
}

fn assert_articles(pages: &[Value], host: &str) {
    let ours: Vec<&Value> = pages.iter().filter(|p| p["site"] == format!("http://{host}")).collect();
    assert_eq!(ours.len(), 5, "{pages:?}");
    for p in ours {
        let text = p["content_text"].as_str().unwrap();
        assert!(text.starts_with("Article about") && !text.contains("footer"), "{text}");
    }
}

#[test]
fn an_input_that_gives_no_record_is_named_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    std::fs::write(path("garbage.warc.gz"), flate(b"\x00\x17 no warc here \xff\xfe\r\n\r\nat all").get_ref()).unwrap();
    std::fs::write(path("broken.warc.gz"), b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03 garbage garbage").unwrap();
    std::fs::write(path("text.warc.gz"), "these are notes\nnot a crawl\n").unwrap();
    std::fs::write(path("empty.warc"), "").unwrap();
    std::fs::write(path("empty.jsonl"), "").unwrap();
    std::fs::write(path("lines.jsonl"), "not json\n{\"url\": 1}\n").unwrap();
    std::fs::create_dir(path("nohtml")).unwrap();
    std::fs::write(path("nohtml/readme.txt"), "hello").unwrap();
    let lf = String::from_utf8(article_warc("lf.test", plain_head, |b| b.to_vec())).unwrap().replace("\r\n", "\n");
    std::fs::write(path("lf.warc"), lf).unwrap();
    let requests = warc_record("request", "http://r.test/", b"GET / HTTP/1.1\r\n\r\n");
    std::fs::write(path("requests.warc"), requests).unwrap();
    let good = path("good.warc");
    std::fs::write(&good, article_warc("good.test", plain_head, |b| b.to_vec())).unwrap();
    for (name, says) in [
        ("garbage.warc.gz", "garbage.warc.gz is not a WARC file: it does not begin with a WARC/1.0 or WARC/1.1 line."),
        ("broken.warc.gz", "broken.warc.gz is not a readable gzip file ("),
        ("text.warc.gz", "text.warc.gz is not a WARC file: it does not begin with a WARC/1.0 or WARC/1.1 line (it is named .gz but is not gzip-compressed)."),
        ("empty.warc", "empty.warc is empty."),
        ("empty.jsonl", "empty.jsonl is empty."),
        ("lines.jsonl", "lines.jsonl holds no line {\"url\": …, \"html\": …}: line 1 is the first"),
        ("nohtml", "nohtml holds no .html, .htm or .xhtml file."),
        ("lf.warc", "lf.warc cannot be read as WARC: its header lines end in LF only"),
        ("requests.warc", "requests.warc holds no WARC response record nor HTML resource record (1 records of other kinds)."),
    ] {
        let bad = path(name);
        let (ok, pages, _, stderr) = run_any(&[bad.to_str().unwrap()]);
        assert!(!ok && pages.is_empty(), "{name} alone must fail: {stderr}");
        assert!(stderr.contains(says), "{name}: {stderr}");
        let (ok, pages, summary, stderr) = run_any(&[bad.to_str().unwrap(), good.to_str().unwrap()]);
        assert!(ok, "{name} beside a good input: {stderr}");
        assert_articles(&pages, "good.test");
        assert!(stderr.contains(&format!("not read: {}", bad.display())) && stderr.contains(says), "{name}: {stderr}");
        let unreadable = summary.unwrap()["unreadable"].clone();
        assert!(unreadable.to_string().contains(name), "{name}: {unreadable}");
    }
    let all = [path("empty.warc"), path("nohtml")];
    let (ok, _, _, stderr) = run_any(&[all[0].to_str().unwrap(), all[1].to_str().unwrap()]);
    assert!(!ok && stderr.contains("No input could be read") && stderr.contains("empty.warc is empty."), "{stderr}");
}

#[test]
fn a_chunked_header_over_a_body_stored_de_chunked_gives_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let stored = dir.path().join("stored.warc");
    std::fs::write(&stored, article_warc("stored.test", chunked_head, |b| b.to_vec())).unwrap();
    let chunked = dir.path().join("chunked.warc");
    let chunk = |b: &[u8]| {
        let mut out = Vec::new();
        for part in b.chunks(100) {
            out.extend(format!("{:x};ext=1\r\n", part.len()).into_bytes());
            out.extend_from_slice(part);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
        out
    };
    std::fs::write(&chunked, article_warc("chunked.test", chunked_head, chunk)).unwrap();
    let (pages, summary, stderr) = run(&[stored.to_str().unwrap(), chunked.to_str().unwrap()]);
    assert_eq!(summary["rejected"], serde_json::json!({}), "{stderr}");
    assert_articles(&pages, "stored.test");
    assert_articles(&pages, "chunked.test");
    for p in &pages {
        let html = p["content_html"].as_str().unwrap();
        assert!(!html.contains("ext=1") && !html.contains("\r\n64"), "chunk sizes left in: {html}");
    }
}

#[test]
fn resource_records_of_html_are_pages_and_others_are_no_records() {
    let dir = tempfile::tempdir().unwrap();
    let mut warc = Vec::new();
    for n in 1..=5 {
        let record = warc_record("resource", &format!("http://res.test/a{n}.html"), article(n).as_bytes())
            .into_iter()
            .collect::<Vec<u8>>();
        let text = String::from_utf8(record).unwrap();
        warc.extend(text.replace("application/http; msgtype=response", "text/html; charset=utf-8").into_bytes());
    }
    let log = warc_record("resource", "metadata://gnu.org/software/wget/warc/wget.log", b"wget's log");
    warc.extend(
        String::from_utf8(log).unwrap().replace("application/http; msgtype=response", "text/plain").into_bytes(),
    );
    let path = dir.path().join("res.warc");
    std::fs::write(&path, warc).unwrap();
    let (pages, _, stderr) = run(&[path.to_str().unwrap()]);
    assert_articles(&pages, "res.test");
    assert!(!stderr.contains("left out"), "{stderr}");
}

#[test]
fn a_warc_gz_cut_inside_a_record_keeps_the_records_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut gz = Vec::new();
    for n in 1..=6 {
        let host = if n <= 5 { "cut.test" } else { "lost.test" };
        let body = article(n);
        let mut block = plain_head(body.len()).into_bytes();
        block.extend_from_slice(body.as_bytes());
        let member = flate(&warc_record("response", &format!("http://{host}/a{n}.html"), &block)).into_inner();
        // The last member, cut in the middle, as a download stopped short.
        gz.extend_from_slice(if n <= 5 { &member } else { &member[..member.len() / 2] });
    }
    let path = dir.path().join("cut.warc.gz");
    std::fs::write(&path, gz).unwrap();
    let (pages, summary, stderr) = run(&[path.to_str().unwrap()]);
    assert_articles(&pages, "cut.test");
    assert_eq!(pages.len(), 5);
    assert_eq!(summary["rejected"], serde_json::json!({"truncated": 1}), "{stderr}");
    assert!(stderr.contains("cut.warc.gz ends inside WARC record 6"), "{stderr}");
}

#[test]
fn an_unwritable_summary_fails_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.warc");
    std::fs::write(&good, article_warc("good.test", plain_head, |b| b.to_vec())).unwrap();
    let (out, summary) = (dir.path().join("out.jsonl"), dir.path().join("no/such/folder/summary.json"));
    let output = cargo_bin_cmd!("tex")
        .args(["collect", good.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .args(["--summary", summary.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains(&format!("Cannot write {}", summary.display())), "{stderr}");
    let written = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(written.is_empty(), "the run must not have started: {written}");
}

#[test]
fn sites_with_no_page_are_counted_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    let mut warc = article_warc("good.test", plain_head, |b| b.to_vec());
    for host in ["gone1.test", "gone2.test", "gone3.test"] {
        warc.extend(warc_record(
            "response",
            &format!("http://{host}/logo.png"),
            &response("image/png", b"\x89PNG\r\n"),
        ));
    }
    let path = dir.path().join("mixed.warc");
    std::fs::write(&path, warc).unwrap();
    let (pages, _, stderr) = run(&[path.to_str().unwrap()]);
    assert_articles(&pages, "good.test");
    assert!(stderr.contains("http://good.test: 5 pages"), "{stderr}");
    assert!(!stderr.contains("gone1.test"), "{stderr}");
    assert!(stderr.contains("and 3 sites with no page"), "{stderr}");
}

/// A page of a layout whose intro `<div id=intro>`, on every page, holds the
/// page's own lead paragraph as text directly inside it and one link every
/// page has. Its id pairs it with the other pages' whatever its text.
fn page_with_lead(n: usize) -> String {
    let topic = ["rivers", "mountains", "forests", "deserts", "islands", "glaciers"][n];
    let links: String = (0..6).map(|m| format!("<li><a href=/p{m}.html>Page {m}</a></li>")).collect();
    format!(
        "<!doctype html><html><head><title>P{n}</title></head><body><nav><ul>{links}</ul></nav>\
         <div id=intro>Our volunteers study {topic} in every season and publish what they find about {topic} \
         here, so that anyone who cares about {topic} can read it <a href=/about.html>About us</a></div>\
         <main><h2>More on {topic}</h2><p>{}</p></main><footer><p>Site footer text</p></footer></body></html>",
        format!("notes on {topic} ").repeat(n + 4)
    )
}

#[test]
fn a_lead_paragraph_directly_inside_a_template_element_is_content() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("site");
    std::fs::create_dir(&folder).unwrap();
    for n in 0..6 {
        std::fs::write(folder.join(format!("p{n}.html")), page_with_lead(n)).unwrap();
    }
    std::fs::write(folder.join("about.html"), page_with_lead(5).replace("glaciers", "ourselves")).unwrap();
    // Served pages too: the representatives' skeletons, learnt without their own leads, leave it out.
    for mode in [None, Some("--fast"), Some("--selective")] {
        let (pages, _, stderr) = run(&[Some(folder.to_str().unwrap()), mode].into_iter().flatten().collect::<Vec<_>>());
        for p in &pages {
            let text = p["content_text"].as_str().unwrap();
            assert!(text.contains("Our volunteers study"), "{mode:?}: the lead is content: {p} ({stderr})");
            assert!(!text.contains("Page 2") && !text.contains("footer"), "{mode:?}: the menu and footer are not: {p}");
            assert!(p["content_html"].as_str().unwrap().contains("<div id=\"intro\">Our volunteers"), "{p}");
        }
    }
}
