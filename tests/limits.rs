//! The CLI under the extension's limits (issue 10): byte limits per page,
//! binary data refused, legacy charsets decoded, and a total time that
//! includes the key page.

use std::path::PathBuf;
use std::process::{Command, Output};

use template_extractor::page::page_body::MAX_PAGE_BYTES;

fn tex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tex")).args(args).output().expect("tex runs")
}

/// A site of raw files in a fresh temporary folder, removed on drop.
struct Site(PathBuf);

impl Site {
    fn new(name: &str, files: &[(&str, Vec<u8>)]) -> Self {
        let dir = std::env::temp_dir().join(format!("tex-limits-{}-{name}", std::process::id()));
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
    fn file(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn page(title: &str, links: &[(&str, &str)], head: &str) -> String {
    let menu: String = links.iter().map(|(h, l)| format!("<li><a href=\"{h}\">{l}</a></li>")).collect();
    format!(
        "<!doctype html><html><head>{head}<title>{title}</title></head><body><nav><ul>{menu}</ul></nav>\
         <main><h1>{title}</h1><p>Own text of {title}.</p></main><footer><p>Подвал сайта</p></footer></body></html>"
    )
}

#[test]
fn huge_and_binary_candidates_are_refused_and_the_extraction_goes_on() {
    let links = [("a.html", "A"), ("b.html", "B"), ("huge.html", "Huge"), ("bin.html", "Bin"), ("c.html", "C")];
    let mut files: Vec<(&str, Vec<u8>)> =
        ["index.html", "a.html", "b.html", "c.html"].iter().map(|n| (*n, page(n, &links, "").into_bytes())).collect();
    files.push(("huge.html", vec![b'a'; MAX_PAGE_BYTES + 1]));
    files.push(("bin.html", vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]));
    let site = Site::new("huge", &files);
    let json = site.file("out.json");
    let o = tex(&["extract", site.path(), "index.html", "--json", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let kind = |name: &str| {
        v["load_log"].as_array().unwrap().iter().find(|r| r["url"].as_str().unwrap().ends_with(name)).unwrap()["error"]
            ["kind"]
            .clone()
    };
    assert_eq!(kind("huge.html"), "too_many_bytes");
    assert_eq!(kind("bin.html"), "binary");
}

#[test]
fn a_windows_1251_key_page_is_written_as_its_template_and_the_total_includes_it() {
    let links = [("a.html", "Новости"), ("b.html", "Статьи"), ("c.html", "О нас")];
    let encode = |s: String| encoding_rs::WINDOWS_1251.encode(&s).0.into_owned();
    let head = "<meta charset=\"windows-1251\">";
    let files: Vec<(&str, Vec<u8>)> =
        ["index.html", "a.html", "b.html", "c.html"].iter().map(|n| (*n, encode(page(n, &links, head)))).collect();
    let site = Site::new("cp1251", &files);
    let out = site.file("template.html");
    let o = tex(&["extract", site.path(), "index.html", "--html", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(out).unwrap();
    assert!(html.contains("Новости") && html.contains("Подвал сайта"), "the template keeps the decoded menu: {html}");

    let stdout = String::from_utf8_lossy(&o.stdout);
    let line = stdout.lines().find(|l| l.trim_start().starts_with("time")).unwrap();
    let number = |after: &str| -> f64 {
        let rest = if after.is_empty() {
            line.trim_start().trim_start_matches("time").trim_start()
        } else {
            &line[line.find(after).unwrap() + after.len()..]
        };
        rest.trim_start().split(|c: char| !(c.is_ascii_digit() || c == '.')).next().unwrap().parse().unwrap()
    };
    let (total, fetch, parse, snapshot) = (number(""), number("fetch "), number("parse "), number("snapshot "));
    assert!(total + 0.2 >= fetch + parse + snapshot, "total {total} covers the loads and parses of every page: {line}");
}

#[test]
fn a_key_page_holding_a_nul_byte_is_read_as_browsers_render_it() {
    let links = [("a.html", "A"), ("b.html", "B"), ("c.html", "C")];
    let mut files: Vec<(&str, Vec<u8>)> =
        ["a.html", "b.html", "c.html"].iter().map(|n| (*n, page(n, &links, "").into_bytes())).collect();
    files.push(("index.html", page("index", &links, "").replace("Own text", "Own\0text").into_bytes()));
    let site = Site::new("nul", &files);
    let o = tex(&["extract", site.path(), "index.html"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("CS              Complete"));
}

#[test]
fn a_costly_key_page_is_refused_in_one_sentence_naming_the_setting_and_a_costly_link_is_skipped() {
    let links = [("costly.html", "Costly"), ("a.html", "A"), ("b.html", "B"), ("c.html", "C")];
    // Every paragraph reopens the formatting elements before it: n tags make up to 64·n elements.
    let costly: String = (0..20_000).map(|i| format!("<p><b id=b{i}></p>")).collect();
    let mut files: Vec<(&str, Vec<u8>)> =
        ["index.html", "a.html", "b.html", "c.html"].iter().map(|n| (*n, page(n, &links, "").into_bytes())).collect();
    files.push(("costly.html", costly.clone().into_bytes()));
    files.push(("costly-key.html", page("key", &links, "").replace("<main>", &format!("<main>{costly}")).into_bytes()));
    let site = Site::new("costly", &files);
    let json = site.file("out.json");
    let o = tex(&["extract", site.path(), "index.html", "--json", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let costly_load =
        v["load_log"].as_array().unwrap().iter().find(|r| r["url"].as_str().unwrap().ends_with("costly.html"));
    assert_eq!(costly_load.unwrap()["error"]["kind"], "too_large");

    let o = tex(&["extract", site.path(), "costly-key.html"]);
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("more than the limit of 200000; the max_nodes setting raises it"), "{stderr}");
}
