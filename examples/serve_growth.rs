//! How `tex collect` and a template memory's recall grow with a page's
//! siblings (issue 37). A site of five pages, each a list of N like items
//! under a menu of the five and a heading of its own, N from 1,000 to
//! 199,900 (200,000 elements with the rest of the page, the element limit).
//!
//! Per size it prints the seconds of `tex extract` on one page and of
//! `tex collect` on the folder by default, `--fast` and `--selective`, each
//! collect's ratio to the extract, and a remembered cluster's recall onto
//! one page (in process: finding the cluster and mapping its skeleton, as
//! `Memory::recall` does; the cluster is learnt from a page of the same
//! site whose list is cut to what a memory keeps, 19,980 items at most).
//! Then the growth exponent in siblings of each, from the smallest to the
//! largest size and between the two largest (1 is linear, 2 quadratic).
//!
//! Within a round the commands alternate, and each figure is the median of
//! the rounds: the ratios compare figures of one run on one machine. Times
//! are wall seconds of one process, which runs on one core here (one site).
//!
//! Run: `./build.sh serve-growth [ROUNDS]`, or
//! `cargo run --release --example serve_growth -- TEX_BINARY [ROUNDS] [SIZES...]`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use template_extractor::base::config::Config;
use template_extractor::memory::template_memory::{Memory, MAX_SKELETON_NODES};
use template_extractor::page::html::{parse, snapshot};
use url::Url;

const NAMES: [&str; 5] = ["a", "b", "c", "d", "e"];

/// Page `name` of the site, its list `items` long.
fn page(name: &str, items: usize) -> String {
    let menu: String = NAMES.iter().map(|n| format!("<a href={n}.html>{n}</a>")).collect();
    format!(
        "<html><head><title>{name}</title></head><body><nav>{menu}</nav><h2>page {name}</h2><div>{}</div></body></html>",
        "<i>x</i>".repeat(items)
    )
}

/// Wall seconds of one run of `tex` with `args`, which must succeed.
fn tex(binary: &Path, args: &[&str]) -> f64 {
    let start = Instant::now();
    let out = Command::new(binary).args(args).output().expect("tex runs");
    let seconds = start.elapsed().as_secs_f64();
    assert!(out.status.success(), "tex {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    seconds
}

/// Seconds of finding the remembered cluster for page `b` and mapping its
/// skeleton onto it; the cluster is learnt from page `a` with at most the
/// items a memory keeps, its template all but the title and heading (what
/// the full method finds on these pages).
fn recall(items: usize) -> f64 {
    let cfg = Config::default();
    let learnt_items = items.min(MAX_SKELETON_NODES - 20);
    let learnt = snapshot(&parse(&page("a", learnt_items))).expect("elements");
    let served = snapshot(&parse(&page("b", items))).expect("elements");
    let template: Vec<bool> = learnt.nodes().map(|(_, n)| !matches!(&*n.tag, "title" | "h2")).collect();
    let mut memory = Memory::new();
    let url = Url::parse("http://site.local/a.html").expect("url");
    assert!(memory.learn("site", &cfg, &url, &learnt, &template), "the template is remembered");
    let start = Instant::now();
    let (cluster, _) = memory.find("site", &cfg, &served).expect("the page fits its cluster");
    let mapped = memory.sites["site"][cluster].apply(&cfg, &served);
    let seconds = start.elapsed().as_secs_f64();
    assert_eq!(mapped.iter().filter(|&&t| t).count(), served.len() - 2 - (items - learnt_items));
    seconds
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn exponent((n0, t0): (f64, f64), (n1, t1): (f64, f64)) -> f64 {
    (t1 / t0).ln() / (n1 / n0).ln()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let binary = PathBuf::from(args.first().expect("usage: serve_growth TEX_BINARY [ROUNDS] [SIZES...]"));
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(3);
    let mut sizes: Vec<usize> = args.iter().skip(2).filter_map(|s| s.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![1_000, 5_000, 25_000, 100_000, 199_900];
    }
    let work = tempfile::tempdir().expect("work folder");
    let modes: [(&str, &[&str]); 3] = [("collect", &[]), ("--fast", &["--fast"]), ("--selective", &["--selective"])];
    println!(
        "{:>8} {:>9} {:>9} {:>6} {:>9} {:>6} {:>11} {:>6} {:>9}",
        "siblings", "extract", "collect", "ratio", "--fast", "ratio", "--selective", "ratio", "recall"
    );
    // Per column (extract, the three modes, recall): (siblings, median seconds) at each size.
    let mut columns: Vec<Vec<(f64, f64)>> = vec![Vec::new(); 5];
    for &items in &sizes {
        let site = work.path().join(format!("s{items}"));
        std::fs::create_dir_all(&site).expect("site folder");
        for n in NAMES {
            std::fs::write(site.join(format!("{n}.html")), page(n, items)).expect("page written");
        }
        let folder = site.to_str().expect("utf-8 path");
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); 5];
        for _ in 0..rounds {
            times[0].push(tex(&binary, &["extract", folder, "a.html"]));
            for (k, (_, flags)) in modes.iter().enumerate() {
                times[k + 1].push(tex(&binary, &[&["collect", folder, "--out", "/dev/null"], *flags].concat()));
            }
            times[4].push(recall(items));
        }
        let m: Vec<f64> = times.into_iter().map(median).collect();
        for (column, &t) in columns.iter_mut().zip(&m) {
            column.push((items as f64, t));
        }
        println!(
            "{items:>8} {:>9.3} {:>9.3} {:>6.2} {:>9.3} {:>6.2} {:>11.3} {:>6.2} {:>9.4}",
            m[0],
            m[1],
            m[1] / m[0],
            m[2],
            m[2] / m[0],
            m[3],
            m[3] / m[0],
            m[4]
        );
        std::fs::remove_dir_all(&site).expect("site removed");
    }
    println!("growth exponent in siblings (first to last size; last two sizes):");
    let names = ["tex extract", "tex collect", "tex collect --fast", "tex collect --selective", "memory recall"];
    for (name, column) in names.iter().zip(&columns) {
        if let [first, .., before, last] = column[..] {
            println!("  {name:<24} {:.2}  {:.2}", exponent(first, last), exponent(before, last));
        }
    }
}
