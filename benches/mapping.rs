//! Mapping throughput (key-page nodes per second) on the largest dev pages,
//! with ETDM and with RTDM-TD in one run: each key page mapped onto the first
//! page of its complete subdigraph (the real case, where unmapped subtrees
//! are never visited) and onto a copy of itself (the worst case: every node
//! maps, so every sibling list is compared). ETDM also runs without the
//! state markers (`state_marker`), to show what looking for them costs.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use template_extractor::base::config::{Algorithm, Config, Equality};
use template_extractor::candidates::page_source::PageSource;
use template_extractor::decide::template::map_page;
use template_extractor::eval::bench::read_set;
use template_extractor::extraction::extract::extract;
use template_extractor::sources::site_folder::SiteFolder;

fn mapping(c: &mut Criterion) {
    let set = Path::new("../shared/bench/dev");
    let Ok(sites) = read_set(set) else {
        eprintln!("skipped: ../shared/bench/dev is missing");
        return;
    };
    let cfg = Config::default();
    let mut pages = Vec::new();
    for site in &sites {
        let src = SiteFolder::new(&site.dir, cfg.max_nodes);
        let (key, x) = futures::executor::block_on(async {
            let key = src.load(&src.url_of(&site.key)).await.expect("key page loads");
            let x = extract(&cfg, &src, &key).await.expect("extraction runs");
            (key, x)
        });
        let other = futures::executor::block_on(src.load(&x.cs.pages[0])).expect("CS page loads");
        pages.push((site.id.clone(), key.tree, other.tree));
    }
    pages.sort_by_key(|(_, k, _)| std::cmp::Reverse(k.len()));
    let mut group = c.benchmark_group("mapping");
    for (id, key, other) in pages.iter().take(3) {
        group.throughput(Throughput::Elements(key.len() as u64));
        for alg in [Algorithm::Etdm, Algorithm::Rtdm] {
            let cfg = Config { algorithm: alg, ..Config::default() };
            group.bench_function(format!("{alg:?}/{id} ({} nodes) onto CS page", key.len()), |b| {
                b.iter(|| map_page(&cfg, key, other))
            });
            group.bench_function(format!("{alg:?}/{id} ({} nodes) onto itself", key.len()), |b| {
                b.iter(|| map_page(&cfg, key, key))
            });
        }
        let plain = Config { equality: Equality { state_markers: false, ..Equality::default() }, ..Config::default() };
        group.bench_function(format!("Etdm without state markers/{id} ({} nodes) onto CS page", key.len()), |b| {
            b.iter(|| map_page(&plain, key, other))
        });
        group.bench_function(format!("Etdm without state markers/{id} ({} nodes) onto itself", key.len()), |b| {
            b.iter(|| map_page(&plain, key, key))
        });
    }
    group.finish();
}

criterion_group!(benches, mapping);
criterion_main!(benches);
