//! Mapping throughput (key-page nodes per second) on the largest dev pages:
//! each key page is mapped onto the first page of its complete subdigraph,
//! with ETDM and with RTDM-TD, so the two are compared in one run.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use template_extractor::bench::read_set;
use template_extractor::config::{Algorithm, Config};
use template_extractor::extract::extract;
use template_extractor::page_source::PageSource;
use template_extractor::site_folder::SiteFolder;
use template_extractor::template::map_page;

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
            group.bench_function(format!("{alg:?}/{id} ({} nodes)", key.len()), |b| {
                b.iter(|| map_page(&cfg, key, other))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, mapping);
criterion_main!(benches);
