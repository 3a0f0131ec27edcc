//! The `tex` binary end to end: the demo site, bad input, and the dev set.

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

fn tex(args: &[&str]) -> Command {
    let mut cmd = cargo_bin_cmd!("tex");
    cmd.args(args);
    cmd
}

/// A site written to a fresh temporary folder, removed on drop.
fn site(files: &[(&str, String)]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, content) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }
    dir
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A page of a small site whose menu links the four pages to each other.
fn page(body: &str) -> String {
    format!(
        "<!doctype html><html><head><title>t</title></head><body><header class='top'><nav class='menu'>\
         <a href='/a.html'>A</a><a href='/b.html'>B</a><a href='/c.html'>C</a><a href='/d.html'>D</a></nav></header>\
         <main class='content'>{body}</main><footer class='foot'><p>footer</p></footer></body></html>"
    )
}

#[test]
fn extracts_the_demo_site_and_writes_json_and_html() {
    let out = tempfile::tempdir().unwrap();
    // A folder that does not exist yet: tex creates it.
    let (json, html) = (out.path().join("new/t.json"), out.path().join("new/t.html"));
    tex(&["extract", "www", "news/index.html", "--json", arg(&json), "--html", arg(&html), "--paths"])
        .assert()
        .success()
        .stdout(predicate::str::contains("CS              Complete, 3 of 3"));
    let v = read_json(&json);
    let (t, n) = (v["template_nodes"].as_u64().unwrap(), v["total_nodes"].as_u64().unwrap());
    assert!(t > 20 && t < n, "{t} of {n}");
    assert_eq!(v["template_paths"].as_array().unwrap().len() as u64, t);
    let paths: Vec<&str> = v["template_paths"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(paths.iter().any(|p| p.contains("/header")) && paths.iter().any(|p| p.contains("/footer")));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<header") && page.contains("<footer"));
    // The key page's head is not template (its title names the article), yet
    // the saved file keeps its stylesheet and charset, with a base and a neutral title.
    assert!(page.contains(r#"<link href="/css/style.css" rel="stylesheet">"#), "{page}");
    assert!(page.contains(r#"<meta charset="utf-8">"#) && page.contains("<title>Template of www</title>"), "{page}");
    assert!(page.contains(r#"<base href="file:///"#) && page.contains(r#"/www/news/index.html">"#), "{page}");
    assert!(!page.contains("News &ndash;") && !page.contains("News –"), "{page}");
    let served = out.path().join("served.html");
    tex(&[
        "extract",
        "www",
        "news/index.html",
        "--html",
        arg(&served),
        "--base",
        "http://127.0.0.1:8000/news/index.html",
    ])
    .assert()
    .success();
    let page = std::fs::read_to_string(&served).unwrap();
    assert!(page.contains(r#"<base href="http://127.0.0.1:8000/news/index.html">"#), "{page}");
}

#[test]
fn finds_the_template_of_a_small_site() {
    let files: Vec<(&str, String)> = vec![
        ("a.html", page("<article><h1>A</h1><p>one</p><table><tr><td>x</td></tr></table></article>")),
        ("b.html", page("<section><h2>B</h2><ul><li>1</li></ul></section>")),
        ("c.html", page("<form><input name=q></form>")),
        ("d.html", page("<div><p>d</p><p>d</p></div>")),
    ];
    let site = site(&files);
    let json = site.path().join("out.json");
    tex(&["extract", arg(site.path()), "a.html", "--json", arg(&json), "--paths"]).assert().success();
    let v = read_json(&json);
    let paths: Vec<&str> = v["template_paths"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(paths.contains(&"/html/body/header/nav/a[4]"), "{paths:?}");
    assert!(paths.contains(&"/html/body/main") && paths.contains(&"/html/body/footer/p"));
    assert!(!paths.iter().any(|p| p.contains("article")), "content is not template: {paths:?}");
}

/// A Next.js static export (`output: 'export'`): `/articles/x` is the file
/// `articles/x.html`, written beside the folder `articles/x/` that holds the
/// route's children, so every page the key page links to loads.
#[test]
fn resolves_a_next_js_export_folder_as_its_static_host_does() {
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("next.json");
    let site = "tests/fixtures/next-export";
    tex(&["extract", site, "articles/river-survey.html", "--json", arg(&json), "--paths"]).assert().success();
    let v = read_json(&json);
    let log = v["load_log"].as_array().unwrap();
    let failed: Vec<&serde_json::Value> = log.iter().filter(|l| !l["error"].is_null()).collect();
    assert!(failed.is_empty(), "every linked page loads: {failed:?}");
    let urls: Vec<&str> = log.iter().map(|l| l["url"].as_str().unwrap()).collect();
    assert!(urls.contains(&"http://site.local/articles/moss-count"), "{urls:?}");
    let paths: Vec<&str> = v["template_paths"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(paths.iter().any(|p| p.ends_with("/header/nav/ul/li[6]/a")), "{paths:?}");
    assert!(paths.iter().any(|p| p.ends_with("/footer/p[2]/a")), "{paths:?}");
    let text = ["/article/h1", "/article/p[1]", "/article/p[2]"];
    assert!(!paths.iter().any(|p| text.iter().any(|t| p.ends_with(t))), "the article's text is content: {paths:?}");
}

/// A server-rendered site (hand-written like a Next.js + styled-components
/// export) whose menu marks the page's own section (`a.active`,
/// `aria-current`), and whose footer menu gives that entry another
/// generated class: the current entries are template like the others.
#[test]
fn the_menu_item_of_the_page_itself_is_template() {
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("hydrated.json");
    tex(&["extract", "tests/e2e/fixtures", "hydrated/rivers.html", "--json", arg(&json), "--paths"]).assert().success();
    let v = read_json(&json);
    let paths: Vec<&str> = v["template_paths"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    for entry in 1..=5 {
        let (header, footer) = (format!("/header/nav/a[{entry}]"), format!("/footer/ul/li[{entry}]/a"));
        assert!(paths.iter().any(|p| p.ends_with(&header)), "{header} (a[2] is the current section): {paths:?}");
        assert!(paths.iter().any(|p| p.ends_with(&footer)), "{footer}: {paths:?}");
    }
    assert!(!paths.iter().any(|p| p.contains("/article/")), "the article is content: {paths:?}");
}

#[test]
fn bad_input_gets_one_readable_error() {
    let files = vec![
        (
            "lonely.html",
            "<html><body><p>No links here.</p><a href='http://elsewhere.org/'>x</a></body></html>".to_string(),
        ),
        ("style.css", "body{}".to_string()),
        ("orphan.html", page("<p>links to pages that do not exist</p>")),
    ];
    let site = site(&files);
    let dir = arg(site.path());
    let cases = [
        (
            vec!["extract", dir, "missing.html"],
            "has no page missing.html; the key page is named relative to the folder",
        ),
        (
            vec!["extract", "www", "www/news/index.html"],
            "The key page is named relative to the site folder: give news/index.html instead of www/news/index.html.",
        ),
        (
            vec!["extract", "http://127.0.0.1:8000/", "news/index.html"],
            "tex reads a site from a folder on disk, not from the web",
        ),
        (vec!["extract", dir, "style.css"], "is not an HTML page"),
        (vec!["extract", dir, "lonely.html"], "The page has no links to other pages of the same site"),
        (
            vec!["extract", dir, "orphan.html"],
            "None of the 4 linked pages could be loaded, so there is nothing to compare the page with (the first: ",
        ),
        (vec!["extract", "/nonexistent/folder", "a.html"], "does not exist"),
        (vec!["extract", "www", "news/index.html", "--preset", "best"], "Unknown preset 'best'"),
        (vec!["bench", dir], "is not a benchmark set"),
    ];
    for (args, message) in cases {
        let one_line = predicate::function(|err: &str| err.trim().lines().count() == 1);
        tex(&args)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(message).and(one_line).and(predicate::str::contains("panicked").not()));
    }
}

#[test]
fn survives_huge_and_malformed_pages() {
    let big = format!("<ul class='huge'>{}</ul>", "<li><span>item</span></li>".repeat(25_000));
    let files = vec![
        ("a.html", page(&big)),
        ("b.html", page(&big)),
        ("c.html", "<html><body><header class=top><nav class=menu><a href=/a.html>A<a href=/b.html>B</a><a href=/d.html>D</nav><main class=content><p><b><i>unclosed<table><td>x</main><footer class=foot><p>f".to_string()),
        ("d.html", page("<div>d")),
    ];
    let site = site(&files);
    // The 50,000-element page is extracted.
    tex(&["extract", arg(site.path()), "a.html"]).assert().success().stdout(predicate::str::contains("/ 500"));
    tex(&["extract", arg(site.path()), "c.html"]).assert().success();
}

#[test]
fn bench_scores_the_dev_set() {
    let set = Path::new("../shared/bench/dev");
    let Ok(index) = std::fs::read_to_string(set.join("index.json")) else {
        eprintln!("skipped: ../shared/bench/dev is missing, so the dev-set benchmark test cannot run");
        return;
    };
    let sites: Vec<String> = serde_json::from_str(&index).expect("index.json lists the sites");
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("bench.json");
    tex(&["bench", arg(set), "--preset", "default", "--preset", "paper", "--json", arg(&json)]).assert().success();
    let v = read_json(&json);
    for run in v["runs"].as_array().unwrap() {
        let scored = run["sites"].as_array().unwrap();
        let names: Vec<&str> = scored.iter().map(|s| s["site"].as_str().unwrap()).collect();
        assert_eq!(names, sites, "every site of the index is scored, in its order");
        assert!(scored.iter().all(|s| s["error"].is_null()), "{}", run["name"]);
        let f1s: Vec<f64> = scored.iter().map(|s| s["f1"].as_f64().unwrap()).collect();
        assert!(f1s.iter().all(|f| (0.0..=1.0).contains(f)));
        let mean = f1s.iter().sum::<f64>() / f1s.len() as f64;
        assert!((run["average"]["f1"].as_f64().unwrap() - mean).abs() < 1e-9, "the macro F1 is the mean of the sites'");
        assert!(mean > 0.7, "{}: macro F1 {mean} — the extractor has stopped finding templates", run["name"]);
    }
}

#[test]
fn json_gives_node_ids_and_paths_only_on_request() {
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("t.json");
    tex(&["extract", "www", "news/index.html", "--json", arg(&json)]).assert().success();
    let v = read_json(&json);
    assert!(v.get("template_paths").is_none(), "paths only with --paths: their size is nodes times depth");
    assert_eq!(v["template_ids"].as_array().unwrap().len() as u64, v["template_nodes"].as_u64().unwrap());
}

#[test]
fn a_closed_stdout_neither_panics_nor_loses_the_files() {
    let out = tempfile::tempdir().unwrap();
    let (json, html) = (out.path().join("t.json"), out.path().join("t.html"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tex"))
        .args(["extract", "www", "news/index.html", "--json", arg(&json), "--html", arg(&html)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // As `| head -0` does: the reader is gone before the first line.
    drop(child.stdout.take());
    let status = child.wait_with_output().unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    assert!(json.is_file() && html.is_file());
}

#[test]
fn bench_help_names_every_preset_it_runs_by_default() {
    tex(&["bench", "--help"]).assert().success().stdout(predicate::str::contains("default, paper, intersection, rtdm"));
}

/// `tex robust --config` reads its configuration as `tex bench --config`
/// does: a bad file is named before any site is read.
#[test]
fn robust_takes_a_configuration_file_and_names_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"patience\": \"many\"}").unwrap();
    tex(&["robust", arg(dir.path()), "--config", arg(&bad)])
        .assert()
        .failure()
        .stderr(predicate::str::contains("bad.json is not a valid configuration"));
    let good = dir.path().join("good.json");
    std::fs::write(&good, "{\"dead_links_last\": false}").unwrap();
    tex(&["robust", arg(&dir.path().join("no-corpus")), "--config", arg(&good)])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no-corpus"));
}
