//! Addresses in any script: a Cyrillic wiki, a CJK blog of folders with
//! an index page each, an Arabic and an accented site, hand-made, each as
//! a folder, a WARC and a JSONL file whose records and links spell one
//! address three ways (raw UTF-8, escapes in capitals, escapes in small
//! letters). Every page finds its neighbours whatever the spelling, comes
//! out under one URL in every input, and `tex collect-bench` finds a key
//! page named in Cyrillic.

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

/// Each site's pages, by path under its root; the first is its key page.
const SITES: [(&str, &[&str]); 4] = [
    (
        "wiki",
        &[
            "wiki/Пример.html",
            "wiki/Москва.html",
            "wiki/Заглавная_страница.html",
            "wiki/Служебная:Поиск.html",
            "wiki/Кот.html",
        ],
    ),
    (
        "blog",
        &[
            "2021/01/03/示例-文章/index.html",
            "2021/01/04/你好/index.html",
            "2021/02/01/博客/index.html",
            "2021/02/07/測試/index.html",
            "2022/03/01/关于/index.html",
        ],
    ),
    ("arabic", &["مقالات/مثال.html", "مقالات/أخبار.html", "مقالات/رياضة.html", "مقالات/ثقافة.html"]),
    ("accents", &["café/élève.html", "café/crème-brûlée.html", "café/à-propos.html", "café/garçon.html"]),
];

/// A path spelt one of three ways: raw, its UTF-8 bytes escaped in
/// capitals, or in small letters.
fn spelt(path: &str, way: usize) -> String {
    match way % 3 {
        0 => path.to_string(),
        1 => escaped(path, |b| format!("%{b:02X}")),
        _ => escaped(path, |b| format!("%{b:02x}")),
    }
}

/// `path` with each byte of a non-ASCII character escaped by `escape`.
fn escaped(path: &str, escape: impl Fn(u8) -> String) -> String {
    path.bytes().map(|b| if b.is_ascii() { char::from(b).to_string() } else { escape(b) }).collect()
}

/// Page `n` of a site: a menu linking every page (a folder's index page
/// as its folder, `…/`), each link spelt another way, the article, a footer.
fn page(name: &str, pages: &[&str], n: usize) -> String {
    let menu: String = pages
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let target = spelt(p.trim_end_matches("index.html"), i + n);
            format!("<li><a href=\"/{target}\">{}</a></li>", p.split('/').rev().find(|s| *s != "index.html").unwrap())
        })
        .collect();
    let words = ["alpha", "bravo", "charlie", "delta", "echo"][n];
    format!(
        "<!doctype html><html><head><meta charset=utf-8><title>{name}</title></head><body>\
         <header><p>Site {name}</p><nav><ul>{menu}</ul></nav></header>\
         <main class=\"notTemplate mainContent\"><h1>About {words}</h1><p>{}</p></main>\
         <footer><p>Footer of {name}</p></footer></body></html>",
        format!("words about {words} ").repeat(n + 3)
    )
}

fn warc_record(uri: &str, body: &[u8]) -> Vec<u8> {
    let mut http =
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n", body.len())
            .into_bytes();
    http.extend_from_slice(body);
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{:012x}>\r\n\
         WARC-Date: 2024-05-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        uri.len() * 7919 + body.len(),
        http.len()
    )
    .into_bytes();
    r.extend_from_slice(&http);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// Writes the sites as folders under `dir/folders`, as `dir/all.warc`
/// (each record's URI spelt another way, and the key pages once more
/// under another spelling) and as `dir/all.jsonl` (spelt yet another way).
fn write_inputs(dir: &Path) {
    let (mut warc, mut jsonl) = (Vec::new(), String::new());
    for (name, pages) in SITES {
        for (n, path) in pages.iter().enumerate() {
            let html = page(name, pages, n);
            let file = dir.join("folders").join(name).join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, &html).unwrap();
            warc.extend(warc_record(&format!("http://{name}.test/{}", spelt(path, n + 1)), html.as_bytes()));
            let line = serde_json::json!({"url": format!("http://{name}.test/{}", spelt(path, n + 2)), "html": html});
            jsonl.push_str(&format!("{line}\n"));
        }
        warc.extend(warc_record(&format!("http://{name}.test/{}", spelt(pages[0], 2)), b"<p>the key page again"));
    }
    std::fs::write(dir.join("all.warc"), warc).unwrap();
    std::fs::write(dir.join("all.jsonl"), jsonl).unwrap();
}

/// `tex collect` over `inputs`: its lines and its summary.
fn collect(dir: &Path, inputs: &[&Path]) -> (Vec<Value>, Value) {
    let (out, summary) = (dir.join("out.jsonl"), dir.join("summary.json"));
    let output = cargo_bin_cmd!("tex")
        .arg("collect")
        .args(inputs)
        .arg("--out")
        .arg(&out)
        .arg("--summary")
        .arg(&summary)
        .output();
    let output = output.unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = std::fs::read_to_string(&out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (lines, serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap())
}

/// Each page's content by its site and path (as escaped in its URL), after
/// checking that every page was found by its neighbours' links.
fn contents(lines: &[Value], site_of: impl Fn(&Value) -> String) -> Vec<(String, String, String)> {
    let mut out: Vec<_> = lines
        .iter()
        .map(|p| {
            let url = p["url"].as_str().unwrap();
            assert!(url.is_ascii(), "{url}");
            assert!(matches!(p["status"].as_str(), Some("representative" | "compared")), "{p}");
            let text = p["content_text"].as_str().unwrap().to_string();
            assert!(text.starts_with("About ") && !text.contains("Footer") && !text.contains("Site "), "{text}");
            let path = url.splitn(4, '/').nth(3).unwrap().to_string();
            (site_of(p), path, text)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_page_is_one_page_however_its_address_is_spelt() {
    let dir = tempfile::tempdir().unwrap();
    write_inputs(dir.path());
    let folders: Vec<_> = SITES.iter().map(|(name, _)| dir.path().join("folders").join(name)).collect();
    let folder_refs: Vec<&Path> = folders.iter().map(|p| p.as_path()).collect();
    let (from_folders, _) = collect(dir.path(), &folder_refs);
    let folder_name = |p: &Value| p["site"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    let by_folder = contents(&from_folders, folder_name);
    let host =
        |p: &Value| p["site"].as_str().unwrap().trim_start_matches("http://").trim_end_matches(".test").to_string();
    let (from_warc, summary) = collect(dir.path(), &[&dir.path().join("all.warc")]);
    assert_eq!(contents(&from_warc, host), by_folder, "the WARC's pages are the folders'");
    assert_eq!(summary["rejected"]["duplicate"], 4, "a key page under another spelling is a duplicate");
    let (from_jsonl, _) = collect(dir.path(), &[&dir.path().join("all.jsonl")]);
    assert_eq!(contents(&from_jsonl, host), by_folder, "the JSONL file's pages are the folders'");
    let pages: usize = SITES.iter().map(|(_, p)| p.len()).sum();
    assert_eq!(by_folder.len(), pages);
    for (name, paths) in SITES {
        for path in paths {
            let url = format!("http://{name}.test/{}", spelt(path, 1));
            assert!(from_jsonl.iter().any(|p| p["url"] == url), "{url} is every spelling's URL");
        }
    }
}

/// The benchmark finds its key page whatever script its file is named in
/// (it compared the URL's escaped path with the raw file name).
#[test]
fn collect_bench_finds_a_key_page_named_in_cyrillic() {
    let set = tempfile::tempdir().unwrap();
    write_inputs(set.path());
    let (name, pages) = SITES[0];
    std::fs::write(set.path().join("index.json"), format!("[\"{name}\"]")).unwrap();
    let site = set.path().join(name);
    std::fs::create_dir(&site).unwrap();
    std::fs::rename(set.path().join("folders").join(name), site.join("site")).unwrap();
    let bench = serde_json::json!({"id": name, "genre": "wiki", "key": pages[0]});
    std::fs::write(site.join("bench.json"), bench.to_string()).unwrap();
    let json = set.path().join("bench-out.json");
    let output = cargo_bin_cmd!("tex").arg("collect-bench").arg(set.path()).arg("--json").arg(&json).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let results: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let result = &results[0];
    assert_eq!(result["error"], Value::Null, "{result}");
    assert_eq!(result["pages"], pages.len());
    assert!(result["collection"]["template_f1"].as_f64().unwrap() > 0.9, "{result}");
}
