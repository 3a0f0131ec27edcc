//! Parse time against page size for the input shapes that make HTML tree
//! construction superlinear (issue 24): prints the time per byte at each size
//! and the growth exponent between the smallest and the largest size (1 is
//! linear, 2 quadratic). Run: `cargo run --release --example parse_growth`
//! (`-- 65536 5000000` for other sizes, `-- table` for the shapes whose name
//! contains `table`; a shape stops growing once one parse takes longer than 30 s).

use std::time::{Duration, Instant};

use template_extractor::page::html;

/// `head`, then `unit(0)`, `unit(1)`… each followed later by one `close`
/// (written in reverse at the end), then `tail`: a page of about `bytes`.
fn fill(bytes: usize, head: &str, unit: impl Fn(usize) -> String, close: &str, tail: &str) -> String {
    let mut s = String::from(head);
    let mut n = 0;
    while s.len() + n * close.len() + tail.len() < bytes {
        s.push_str(&unit(n));
        n += 1;
    }
    s.push_str(&close.repeat(n));
    s.push_str(tail);
    s
}

type Shape = (&'static str, fn(usize) -> String);

const SHAPES: &[Shape] = &[
    ("deep unclosed <div>", |b| fill(b, "<body>", |_| "<div>".into(), "", "")),
    ("deep closed <div>", |b| fill(b, "<body>", |_| "<div>".into(), "</div>", "")),
    ("deep <div> in <object>", |b| fill(b, "<body><p><object>", |_| "<div>".into(), "", "")),
    ("unclosed <b>", |b| fill(b, "<body>", |_| "<b>x".into(), "", "")),
    ("unclosed <b id=n>", |b| fill(b, "<body>", |i| format!("<b id={i}>x"), "", "")),
    ("reopened formatting", |b| fill(b, "<body>", |i| format!("<p><b id={i}></p>"), "", "")),
    ("misnested </b> (adoption agency)", |b| fill(b, "<body>", |_| "<b><div>x</b>".into(), "", "")),
    ("nested <a> in <div>s", |b| fill(b, "<body>", |i| format!("<div><a href=#{i}>x"), "", "")),
    ("many attributes", |b| fill(b, "<body><div", |i| format!(" a{i}=x"), "", ">")),
    ("long attribute value", |b| fill(b, "<body><div title=\"", |_| "abcdefgh".into(), "", "\">")),
    ("huge table", |b| fill(b, "<body><table>", |i| format!("<tr><td>{i}</td><td>x</td></tr>"), "", "")),
    ("nested <template>", |b| fill(b, "<body>", |_| "<template>".into(), "", "")),
    ("nested <svg><g>", |b| fill(b, "<body><svg>", |_| "<g>".into(), "", "")),
    ("nested <math><mi>", |b| fill(b, "<body><math>", |_| "<mi><mo>".into(), "", "")),
    ("nested <table>", |b| fill(b, "<body>", |_| "<table><tr><td>".into(), "", "")),
    ("wide flat <p>", |b| fill(b, "<body>", |i| format!("<p>{i}</p>"), "", "")),
];

/// Parses `page` and walks it into a snapshot, as every page is read.
fn parse_time(page: &str) -> (Duration, usize) {
    let start = Instant::now();
    let doc = html::parse(page);
    if std::env::var_os("PARSE_ONLY").is_some() {
        return (start.elapsed(), doc.tree.nodes().filter(|n| n.value().is_element()).count());
    }
    let elements = html::snapshot(&doc).map_or(0, |t| t.len());
    (start.elapsed(), elements)
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).filter(|a| a.parse::<usize>().is_err()).collect();
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (low, high) = match args[..] {
        [low, high, ..] => (low, high),
        _ => (64 << 10, template_extractor::page::page_body::MAX_PAGE_BYTES),
    };
    let mut sizes = vec![low];
    while *sizes.last().unwrap() * 4 < high {
        sizes.push(sizes.last().unwrap() * 4);
    }
    sizes.push(high);
    println!("{:<34} {:>9} {:>9} {:>10} {:>9}", "shape", "bytes", "elements", "ms", "ns/byte");
    for (name, make) in
        SHAPES.iter().filter(|(name, _)| only.is_empty() || only.iter().any(|o| name.contains(o.as_str())))
    {
        let mut first = None;
        let mut last = None;
        for &size in &sizes {
            let page = make(size);
            let (time, elements) = parse_time(&page);
            let ns_per_byte = time.as_nanos() as f64 / page.len() as f64;
            println!(
                "{name:<34} {:>9} {elements:>9} {:>10.1} {ns_per_byte:>9.1}",
                page.len(),
                time.as_secs_f64() * 1e3
            );
            first.get_or_insert((page.len() as f64, time.as_secs_f64()));
            last = Some((page.len() as f64, time.as_secs_f64()));
            if time > Duration::from_secs(30) {
                break;
            }
        }
        if let (Some((b0, t0)), Some((b1, t1))) = (first, last) {
            if b1 > b0 {
                println!("{name:<34} growth exponent {:.2}", (t1 / t0).ln() / (b1 / b0).ln());
            }
        }
    }
}
