//! Alignment throughput (live elements per second) of a served page with its
//! live page: synthetic pages of 1,000 to 100,000 elements where scripts
//! inserted a banner, a wrapper around every 20th row and a class on every
//! image, and the largest dev key page aligned with itself (a static page,
//! where served and live coincide). A linear alignment keeps the rate flat.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use template_extractor::candidates::page_source::PageSource;
use template_extractor::eval::bench::read_set;
use template_extractor::page::dom::{Tree, TreeBuilder};
use template_extractor::served::served_alignment::align;
use template_extractor::sources::site_folder::SiteFolder;

/// `rows` rows of ten elements; `live` adds what scripts add.
fn page(rows: usize, live: bool) -> Tree {
    let mut b = TreeBuilder::new();
    b.open("html", []);
    b.open("body", []);
    if live {
        b.open("div", [("id", "consent")]);
        b.text("We use cookies");
        b.close();
    }
    for r in 0..rows {
        let wrapped = live && r % 20 == 0;
        if wrapped {
            b.open("div", [("class", "sticky-wrap")]);
        }
        b.open("section", [("class", "row")]);
        b.open("h2", []);
        b.text(&format!("Row {r}"));
        b.close();
        for _ in 0..4 {
            b.open("p", []);
            b.text("Some words of the row");
            b.close();
        }
        b.open("ul", []);
        for _ in 0..2 {
            b.open("li", []);
            b.close();
        }
        b.close();
        b.open("img", [("class", if live { "lazyloaded" } else { "lazyload" })]);
        b.close();
        b.close();
        if wrapped {
            b.close();
        }
    }
    b.finish().expect("has html")
}

fn alignment(c: &mut Criterion) {
    let mut group = c.benchmark_group("served_alignment");
    for rows in [100, 1_000, 10_000] {
        let (served, live) = (page(rows, false), page(rows, true));
        group.throughput(Throughput::Elements(live.len() as u64));
        group.bench_function(format!("synthetic, {} live elements", live.len()), |b| b.iter(|| align(&served, &live)));
    }
    if let Ok(sites) = read_set(Path::new("../shared/bench/dev")) {
        let largest = sites
            .iter()
            .filter_map(|site| {
                let src = SiteFolder::new(&site.dir, usize::MAX);
                futures::executor::block_on(src.load(&src.url_of(&site.key))).ok().map(|p| (site.id.clone(), p.tree))
            })
            .max_by_key(|(_, t)| t.len());
        if let Some((id, tree)) = largest {
            group.throughput(Throughput::Elements(tree.len() as u64));
            group.bench_function(format!("{id} ({} elements) with itself", tree.len()), |b| {
                b.iter(|| align(&tree, &tree))
            });
        }
    } else {
        eprintln!("skipped the dev pages: ../shared/bench/dev is missing");
    }
    group.finish();
}

criterion_group!(benches, alignment);
criterion_main!(benches);
