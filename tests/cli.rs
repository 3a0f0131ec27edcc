//! The `tex` binary end to end: the demo site, bad input, and the dev set.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tex")).args(args).output().expect("tex runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A site written to a fresh temporary folder, removed on drop.
struct Site(PathBuf);

impl Site {
    fn new(name: &str, files: &[(&str, String)]) -> Self {
        let dir = std::env::temp_dir().join(format!("tex-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (rel, content) in files {
            let p = dir.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, content).unwrap();
        }
        Self(dir)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
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
    let out = std::env::temp_dir().join(format!("tex-demo-{}", std::process::id()));
    let (json, html) = (out.join("t.json"), out.join("t.html"));
    let o =
        tex(&["extract", "www", "news/index.html", "--json", json.to_str().unwrap(), "--html", html.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("CS              Complete, 3 of 3"), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let (t, n) = (v["template_nodes"].as_u64().unwrap(), v["total_nodes"].as_u64().unwrap());
    assert!(t > 20 && t < n, "{t} of {n}");
    assert_eq!(v["template_paths"].as_array().unwrap().len() as u64, t);
    let paths: Vec<&str> = v["template_paths"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(paths.iter().any(|p| p.contains("/header")) && paths.iter().any(|p| p.contains("/footer")));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<header") && page.contains("<footer"));
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn finds_the_template_of_a_small_site() {
    let files: Vec<(&str, String)> = vec![
        ("a.html", page("<article><h1>A</h1><p>one</p><table><tr><td>x</td></tr></table></article>")),
        ("b.html", page("<section><h2>B</h2><ul><li>1</li></ul></section>")),
        ("c.html", page("<form><input name=q></form>")),
        ("d.html", page("<div><p>d</p><p>d</p></div>")),
    ];
    let site = Site::new("small", &files);
    let json = site.0.join("out.json");
    let o = tex(&["extract", site.path(), "a.html", "--json", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let paths: Vec<&str> = v["template_paths"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert!(paths.contains(&"/html/body/header/nav/a[4]"), "{paths:?}");
    assert!(paths.contains(&"/html/body/main") && paths.contains(&"/html/body/footer/p"));
    assert!(!paths.iter().any(|p| p.contains("article")), "content is not template: {paths:?}");
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
    let site = Site::new("bad", &files);
    let cases = [
        (
            vec!["extract", site.path(), "missing.html"],
            "The key page could not be loaded: http://site.local/missing.html was not found.",
        ),
        (vec!["extract", site.path(), "style.css"], "is not an HTML page"),
        (vec!["extract", site.path(), "lonely.html"], "The page has no links to other pages of the same site"),
        (vec!["extract", site.path(), "orphan.html"], "None of the 4 linked pages could be loaded"),
        (vec!["extract", "/nonexistent/folder", "a.html"], "does not exist"),
        (vec!["extract", "www", "news/index.html", "--preset", "best"], "Unknown preset 'best'"),
        (vec!["bench", site.path()], "is not a benchmark set"),
    ];
    for (args, message) in cases {
        let o = tex(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(!err.contains("panicked"));
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
    let site = Site::new("huge", &files);
    let o = tex(&["extract", site.path(), "a.html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("/ 500"), "50,000-element page extracted: {}", stdout(&o));
    let o = tex(&["extract", site.path(), "c.html"]);
    assert!(o.status.success(), "malformed key page: {}", stderr(&o));
}

#[test]
fn bench_scores_the_dev_set() {
    let set = Path::new("../shared/bench/dev");
    let Ok(index) = std::fs::read_to_string(set.join("index.json")) else {
        eprintln!("skipped: ../shared/bench/dev is missing, so the dev-set benchmark test cannot run");
        return;
    };
    let sites: Vec<String> = serde_json::from_str(&index).expect("index.json lists the sites");
    let json = std::env::temp_dir().join(format!("tex-bench-{}.json", std::process::id()));
    let o = tex(&[
        "bench",
        set.to_str().unwrap(),
        "--preset",
        "default",
        "--preset",
        "paper",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(json).unwrap();
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
