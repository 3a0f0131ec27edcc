//! `tex`: the extractor on the command line.
//!
//! `tex extract SITE_DIR KEY_PAGE` treats the folder as the root of an
//! origin; `tex bench SET_DIR` scores every site of a benchmark set;
//! `tex robust CORPUS_DIR` measures what needs no gold on an unlabelled corpus.

#[cfg(feature = "jemalloc")]
#[path = "tex/allocator.rs"]
mod allocator;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use template_extractor::base::config::{Config, PRESETS};
use template_extractor::base::error::ExtractError;
use template_extractor::collection::run;
use template_extractor::collection::site_collection::{CollectOptions, Serving};
use template_extractor::eval::bench::{
    everything_is_template, read_set, run_memory_check, run_set, ConfigRun, MemoryCheck, SiteResult,
};
use template_extractor::eval::score::{disagreement, has_gold, score};
use template_extractor::eval::{collection_bench, robustness};
use template_extractor::extraction::extract::extract;
use template_extractor::extraction::template_paths::template_paths;
use template_extractor::memory::template_memory::{Memory, Recall};
use template_extractor::page::dom::Tree;
use template_extractor::page::html::{parse, saved_template_html, SavedHead};
use template_extractor::page::saved_template::{neutral_title, saved_keep};
use template_extractor::sources::site_folder::SiteFolder;

/// `println!` that ignores a closed stdout: `tex extract … | head` must not
/// panic on the broken pipe, and still writes its `--json` and `--html` files.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

#[derive(Parser)]
#[command(name = "tex", version, about = "Site-level web template extraction")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Extract the template of one page of a site folder.
    Extract {
        /// Folder served as the root of the site's origin.
        site: PathBuf,
        /// Key page, relative to the folder (e.g. news/index.html).
        key: String,
        /// Preset: default, paper, intersection or rtdm.
        #[arg(long, default_value = "default")]
        preset: String,
        /// JSON file with configuration fields (overrides the preset's).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Write the result as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Write the template as a standalone HTML file here, with the
        /// page's head (stylesheets, charset) and a `<base href>`.
        #[arg(long)]
        html: Option<PathBuf>,
        /// With --json, also write every template node's readable path
        /// (`template_paths`; false hits and misses as paths, not ids): their
        /// size is the template's nodes times the page's depth.
        #[arg(long)]
        paths: bool,
        /// The key page's address for the saved template's `<base href>`
        /// (e.g. http://127.0.0.1:8000/news/index.html where the folder is
        /// served); default: the key page's file, where links relative to
        /// the page resolve but links from the site's root do not.
        #[arg(long)]
        base: Option<String>,
        /// Template memory file: a page whose layout matches a remembered
        /// cluster of this site is served with zero loads; otherwise the full
        /// method runs and the file gains a cluster (created when missing).
        #[arg(long)]
        memory: Option<PathBuf>,
    },
    /// Score every site of a benchmark set, one or more configurations side by side.
    Bench {
        /// Benchmark set folder (e.g. ../shared/bench/dev).
        set: PathBuf,
        /// Presets to run (repeatable); default: all of them (default, paper, intersection, rtdm), or with
        /// --memory-check, default.
        #[arg(long)]
        preset: Vec<String>,
        /// JSON files overriding the default preset, run as well (repeatable); named by file stem.
        #[arg(long)]
        config: Vec<PathBuf>,
        /// Write the report as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Instead of scoring: per site, learn the template of other pages
        /// (link order) into a memory, serve the key page from it with zero
        /// loads and score that beside the full extraction.
        #[arg(long)]
        memory_check: bool,
    },
    /// Remove each site's template from every page of a crawl: site
    /// folders, WARC / WARC.gz files and JSONL lines {"url", "html"}; one
    /// JSONL line per page (url, site, cluster, status, template_share,
    /// content_text, content_html).
    Collect {
        /// Inputs, any mix of site folders, .warc / .warc.gz and .jsonl files.
        inputs: Vec<PathBuf>,
        /// Write the pages here instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write the per-site summary (clusters, pages left out by reason) here as JSON.
        #[arg(long)]
        summary: Option<PathBuf>,
        /// Preset: default, paper, intersection or rtdm.
        #[arg(long, default_value = "default")]
        preset: String,
        /// JSON file with configuration fields (overrides the preset's).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Fewest pages of one layout that form a cluster; smaller groups are reported as unclustered.
        #[arg(long, default_value_t = 2)]
        min_cluster: usize,
        /// Sites processed at once (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
        /// The input is ordered by site: stream site by site instead of grouping everything first.
        #[arg(long)]
        sorted: bool,
        /// Show progress on stderr even when it is not a terminal.
        #[arg(long)]
        progress: bool,
        /// Add each page's content as Markdown (content_markdown).
        #[arg(long)]
        markdown: bool,
        /// Serve a cluster's pages from its representatives' templates alone, with zero loads: faster, less accurate.
        #[arg(long, conflicts_with = "selective")]
        fast: bool,
        /// Compare a page with its own linked pages only where its frame shows a part none of its cluster's representatives' pages had; serve the rest their templates with zero loads.
        #[arg(long)]
        selective: bool,
    },
    /// Score the collection mode on a benchmark set: each site's folder as
    /// a collection, its key page's template beside the key-page method, a
    /// cross-page text-frequency baseline and page-level extractors.
    CollectBench {
        /// Benchmark set folder (e.g. ../shared/bench/dev).
        set: PathBuf,
        /// Extracted text of page-level extractors per site, as written by scripts/collection_peers.py.
        #[arg(long)]
        peers: Option<PathBuf>,
        /// Fewest pages of one layout that form a cluster.
        #[arg(long, default_value_t = 2)]
        min_cluster: usize,
        /// Write the results as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Measure what needs no gold on an unlabelled corpus (an unpacked
    /// robustness corpus: index.json and a folder per site): self-agreement
    /// of three key pages of one layout, single-voter, copy, share and error
    /// rates, and agreement with the collection mode; per genre, per
    /// language and overall.
    Robust {
        /// The unpacked corpus (e.g. target/robust, from the corpus's unpack.sh).
        corpus: PathBuf,
        /// Preset: default, paper, intersection or rtdm.
        #[arg(long, default_value = "default")]
        preset: String,
        /// JSON file with configuration fields overriding the preset's (a
        /// change tried here and with `tex bench --config` before it is made)
        #[arg(long)]
        config: Option<PathBuf>,
        /// Write every per-site and per-key figure as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
    },
}

/// The serving `tex collect`'s flags ask for (clap keeps them apart).
fn serving(fast: bool, selective: bool) -> Serving {
    match (fast, selective) {
        (true, _) => Serving::Fast,
        (_, true) => Serving::Selective,
        _ => Serving::Compared,
    }
}

fn load_config(preset: &str, file: Option<&PathBuf>) -> Result<Config, String> {
    let base = Config::preset(preset)
        .ok_or_else(|| format!("Unknown preset '{preset}'; choose one of {}.", PRESETS.join(", ")))?;
    let Some(file) = file else { return Ok(base) };
    let text = std::fs::read_to_string(file).map_err(|e| format!("Cannot read {}: {e}.", file.display()))?;
    let mut merged = serde_json::to_value(&base).expect("config serialises");
    let overrides: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not valid JSON: {e}.", file.display()))?;
    merge(&mut merged, overrides);
    serde_json::from_value(merged).map_err(|e| format!("{} is not a valid configuration: {e}.", file.display()))
}

/// Overlays `patch` on `base`, object fields recursively.
fn merge(base: &mut serde_json::Value, patch: serde_json::Value) {
    match (base, patch) {
        (serde_json::Value::Object(b), serde_json::Value::Object(p)) => {
            for (k, v) in p {
                merge(b.entry(k).or_insert(serde_json::Value::Null), v);
            }
        }
        (b, p) => *b = p,
    }
}

fn write(path: &PathBuf, content: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("Cannot create {}: {e}.", dir.display()))?;
    }
    std::fs::write(path, content).map_err(|e| format!("Cannot write {}: {e}.", path.display()))
}

/// A folder and a key page inside it, or one sentence saying what to give
/// instead: the CLI reads files, never the web, and names pages relative to
/// the folder, which plays the root of the site.
fn check_site_and_key(site: &std::path::Path, key: &str) -> Result<(), String> {
    let is_url = |s: &str| s.starts_with("http://") || s.starts_with("https://");
    if is_url(&site.to_string_lossy()) || is_url(key) {
        return Err("tex reads a site from a folder on disk, not from the web: save the site's pages into a folder \
                    and give the folder and the key page's path inside it (the browser extension reads live pages)."
            .into());
    }
    if !site.is_dir() {
        return Err(format!("The site folder {} does not exist.", site.display()));
    }
    let inside = key.trim_start_matches('/');
    if !site.join(inside).exists() {
        let given = std::path::Path::new(key);
        return Err(match given.strip_prefix(site).ok().filter(|_| given.exists()) {
            Some(relative) => format!(
                "The key page is named relative to the site folder: give {} instead of {key}.",
                relative.display()
            ),
            None => format!(
                "{} has no page {inside}; the key page is named relative to the folder (e.g. news/index.html).",
                site.display()
            ),
        });
    }
    Ok(())
}

/// The saved template of `text` (the key page `key` of `site`): its head,
/// a neutral title naming the folder, and a base that finds the page's files.
fn saved_html(
    site: &std::path::Path,
    key: &str,
    text: &str,
    tree: &Tree,
    template: &[bool],
    base: Option<String>,
) -> Result<String, String> {
    let file = site.join(key.trim_start_matches('/'));
    let base = match base {
        Some(base) => base,
        None => std::fs::canonicalize(&file)
            .ok()
            .and_then(|f| url::Url::from_file_path(f).ok())
            .ok_or_else(|| format!("Cannot make a file address of {}; pass --base.", file.display()))?
            .to_string(),
    };
    let name = std::fs::canonicalize(site).ok().and_then(|s| s.file_name().map(|n| n.to_string_lossy().into_owned()));
    let title = neutral_title(&name.unwrap_or_else(|| site.display().to_string()));
    Ok(saved_template_html(&parse(text), &saved_keep(tree, template), &SavedHead { title, base }))
}

/// Where `extract` writes its result, besides the summary on stdout.
struct Output {
    json: Option<PathBuf>,
    html: Option<PathBuf>,
    /// Readable paths in the JSON (see `--paths`); node ids otherwise.
    paths: bool,
    /// The saved template's `<base href>` (see `--base`).
    base: Option<String>,
}

fn run_extract(site: PathBuf, key: String, cfg: Config, out: Output) -> Result<(), String> {
    let Output { json, html, paths: with_paths, base } = out;
    check_site_and_key(&site, &key)?;
    let source = SiteFolder::new(&site, cfg.max_nodes);
    let url = source.url_of(&key);
    let started = std::time::Instant::now();
    let (doc, x, tree) = futures::executor::block_on(async {
        let loaded = source.load_key(&url).await.map_err(|e| ExtractError::KeyPage(e).to_string())?;
        let x = extract(&cfg, &source, &loaded).await.map_err(|e| e.to_string())?;
        let text = source.text(&url).map_err(|e| ExtractError::KeyPage(e).to_string())?;
        Ok::<_, String>((text, x, loaded.tree))
    })?;
    let wall_ms = started.elapsed().as_secs_f64() * 1000.0;
    let t = &x.timings;
    say!("Template of {} ({})", key, site.display());
    say!(
        "  template nodes  {} / {} ({:.1} %)",
        x.template_nodes,
        x.total_nodes,
        100.0 * x.template_nodes as f64 / x.total_nodes as f64
    );
    say!("  links           {} same-origin", x.links);
    say!("  CS              {:?}, {} of {} wanted, {} votes needed", x.cs.kind, x.cs.size, x.cs.wanted, x.votes_needed);
    for p in &x.cs.pages {
        say!("                  {}", p.path());
    }
    say!("  loads           {} (key page included; {} fetched)", x.loads, x.fetched + 1);
    if x.evidence.copies > 0 {
        say!("  set aside       {} page(s) holding this page's own text", x.evidence.copies);
    }
    if let Some(warning) = &x.evidence.warning {
        say!("  weak evidence   {warning}");
    }
    say!(
        "  time            {:.1} ms total (key page included): fetch {:.1}, parse {:.1}, snapshot {:.1}, link order {:.1}, CS search {:.1}, mapping {:.1}",
        wall_ms, t.fetch_ms, t.parse_ms, t.snapshot_ms, t.link_order_ms, t.cs_search_ms, t.mapping_ms
    );
    let gold = has_gold(&tree).then(|| (score(&tree, &x.template), disagreement(&tree, &x.template)));
    if let Some((s, d)) = &gold {
        say!(
            "  gold            recall {:.2} %, precision {:.2} %, F1 {:.2} % ({} retrieved, {} gold)",
            100.0 * s.recall,
            100.0 * s.precision,
            100.0 * s.f1,
            s.retrieved,
            s.gold
        );
        for (label, ids) in [("false hit", &d.false_hits), ("miss", &d.misses)] {
            for id in ids.iter().take(12) {
                say!("  {label:<15} {}", tree.path(*id));
            }
        }
    }
    if let Some(path) = json {
        let mut v = serde_json::to_value(&x).expect("extraction serialises");
        if with_paths {
            v["template_paths"] = serde_json::json!(template_paths(&tree, &x.template));
        }
        if let Some((s, d)) = &gold {
            let nodes = |ids: &[template_extractor::page::dom::NodeId]| match with_paths {
                true => serde_json::json!(ids.iter().map(|&i| tree.path(i)).collect::<Vec<_>>()),
                false => serde_json::json!(ids.iter().map(|i| i.index()).collect::<Vec<_>>()),
            };
            v["score"] = serde_json::json!(s);
            v["false_hits"] = nodes(&d.false_hits);
            v["misses"] = nodes(&d.misses);
        }
        write(&path, &serde_json::to_string_pretty(&v).expect("json"))?;
        say!("  wrote           {}", path.display());
    }
    if let Some(path) = html {
        write(&path, &saved_html(&site, &key, &doc, &tree, &x.template, base)?)?;
        say!("  wrote           {}", path.display());
    }
    Ok(())
}

fn pct(v: f64) -> String {
    format!("{:6.2}", 100.0 * v)
}

fn print_run(run: &ConfigRun) {
    say!("\n== {} ==", run.name);
    say!(
        "{:<14} {:>6} {:>6} {:>6} {:>7} {:>7} {:>7} {:>7} {:>5} {:>4} {:>9}",
        "site",
        "nodes",
        "gold",
        "retr",
        "recall",
        "prec",
        "F1",
        "cF1",
        "loads",
        "CS",
        "ms"
    );
    let weak = |r: &SiteResult| {
        r.weakness
            .map(|w| format!("  weak: {}", serde_json::to_value(w).expect("a name").as_str().unwrap_or("")))
            .unwrap_or_default()
    };
    for r in &run.sites {
        if let Some(e) = &r.error {
            say!("{:<14} error: {e}", r.site);
            continue;
        }
        let s = &r.score;
        say!(
            "{:<14} {:>6} {:>6} {:>6} {:>7} {:>7} {:>7} {:>7} {:>5} {:>4} {:>9.1}{}",
            r.site,
            s.nodes,
            s.gold,
            s.retrieved,
            pct(s.recall),
            pct(s.precision),
            pct(s.f1),
            pct(s.content_f1),
            r.loads,
            r.cs_size,
            r.timings.total_ms,
            weak(r)
        );
    }
    let a = &run.average;
    say!(
        "{:<14} {:>6} {:>6} {:>6} {:>7} {:>7} {:>7} {:>7} {:>5.1} {:>4} {:>9.1}",
        "macro avg",
        "",
        "",
        "",
        pct(a.recall),
        pct(a.precision),
        pct(a.f1),
        pct(a.content_f1),
        run.mean_loads,
        "",
        run.mean_total_ms
    );
}

fn run_bench(set: PathBuf, presets: Vec<String>, configs: Vec<PathBuf>, json: Option<PathBuf>) -> Result<(), String> {
    let sites = read_set(&set).map_err(|e| format!("{e}."))?;
    let mut named: Vec<(String, Config)> = Vec::new();
    let presets = if presets.is_empty() && configs.is_empty() {
        PRESETS.iter().map(|s| s.to_string()).collect()
    } else {
        presets
    };
    for p in presets {
        named.push((p.clone(), load_config(&p, None)?));
    }
    for c in configs {
        let name = c.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        named.push((name, load_config("default", Some(&c))?));
    }
    let runs: Vec<ConfigRun> = named.iter().map(|(n, c)| run_set(n, c, &sites)).collect();
    for r in &runs {
        print_run(r);
    }
    say!(
        "\n{:<24} {:>7} {:>7} {:>7} {:>7} {:>6} {:>9} {:>5}",
        "config",
        "recall",
        "prec",
        "F1",
        "cF1",
        "loads",
        "ms/site",
        "weak"
    );
    for r in &runs {
        let a = &r.average;
        say!(
            "{:<24} {:>7} {:>7} {:>7} {:>7} {:>6.1} {:>9.1} {:>5}",
            r.name,
            pct(a.recall),
            pct(a.precision),
            pct(a.f1),
            pct(a.content_f1),
            r.mean_loads,
            r.mean_total_ms,
            r.weak
        );
    }
    let everything = everything_is_template(&sites);
    say!(
        "{:<24} {:>7} {:>7} {:>7} {:>7} {:>6} {:>9}",
        "everything is template",
        pct(everything.recall),
        pct(everything.precision),
        pct(everything.f1),
        pct(everything.content_f1),
        "-",
        "-"
    );
    say!("(F1: template F1; cF1: content F1, the not-template class a reader of the Content view sees)");
    if let Some(path) = json {
        let report = serde_json::json!({
            "set": set.display().to_string(),
            "runs": runs,
            "everything_is_template": everything,
        });
        write(&path, &serde_json::to_string_pretty(&report).expect("json"))?;
        say!("wrote {}", path.display());
    }
    Ok(())
}

/// `extract --memory`: serve the page from the site's remembered clusters,
/// or extract it in full and remember it.
fn run_extract_memory(site: PathBuf, key: String, cfg: Config, out: Output, file: PathBuf) -> Result<(), String> {
    let Output { json, html, paths: with_paths, base } = out;
    check_site_and_key(&site, &key)?;
    let mut memory = if file.exists() {
        let text = std::fs::read_to_string(&file).map_err(|e| format!("Cannot read {}: {e}.", file.display()))?;
        Memory::from_json(&text).map_err(|e| format!("{} cannot be used: {e}.", file.display()))?
    } else {
        Memory::new()
    };
    // The CLI's origin is the same for every folder, so the folder names the site.
    let site_key = std::fs::canonicalize(&site).unwrap_or_else(|_| site.clone()).display().to_string();
    let source = SiteFolder::new(&site, cfg.max_nodes);
    let url = source.url_of(&key);
    let start = std::time::Instant::now();
    let (recall, tree) = futures::executor::block_on(async {
        let loaded = source.load_key(&url).await.map_err(|e| ExtractError::KeyPage(e).to_string())?;
        let r = memory.recall(&site_key, &cfg, &source, &loaded).await.map_err(|e| e.to_string())?;
        Ok::<_, String>((r, loaded.tree))
    })?;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let template = recall.template();
    let nodes = template.iter().filter(|&&t| t).count();
    say!("Template of {} ({})", key, site.display());
    say!("  template nodes  {} / {} ({:.1} %)", nodes, tree.len(), 100.0 * nodes as f64 / tree.len() as f64);
    match &recall {
        Recall::Reused { cluster, similarity, .. } => {
            say!("  memory          cluster {cluster} of this site, layout similarity {similarity:.2}: 0 loads")
        }
        Recall::Extracted(x) => match memory.sites.get(&site_key) {
            Some(clusters) if !clusters.is_empty() => say!(
                "  memory          no cluster fits: full method, {} loads; learnt as cluster {}",
                x.loads,
                clusters.len() - 1
            ),
            _ => say!("  memory          no cluster fits: full method, {} loads; nothing learnt", x.loads),
        },
    }
    say!("  time            {ms:.1} ms (key page load included)");
    if has_gold(&tree) {
        let s = score(&tree, template);
        say!(
            "  gold            recall {:.2} %, precision {:.2} %, F1 {:.2} %",
            100.0 * s.recall,
            100.0 * s.precision,
            100.0 * s.f1
        );
    }
    write(&file, &memory.to_json())?;
    say!("  wrote           {}", file.display());
    if let Some(path) = json {
        let mut v = serde_json::json!({
            "key": key,
            "reused": matches!(recall, Recall::Reused { .. }),
            "loads": recall.loads(),
            "template_nodes": nodes,
            "total_nodes": tree.len(),
            "template_ids": (0..tree.len()).filter(|&i| template[i]).collect::<Vec<_>>(),
        });
        if with_paths {
            v["template_paths"] = serde_json::json!(template_paths(&tree, template));
        }
        write(&path, &serde_json::to_string_pretty(&v).expect("json"))?;
        say!("  wrote           {}", path.display());
    }
    if let Some(path) = html {
        let text = std::fs::read_to_string(site.join(key.trim_start_matches('/'))).unwrap_or_default();
        write(&path, &saved_html(&site, &key, &text, &tree, template, base)?)?;
        say!("  wrote           {}", path.display());
    }
    Ok(())
}

/// `bench --memory-check`: memory reuse against the full method, per site.
fn run_memory_check_set(set: PathBuf, presets: Vec<String>, json: Option<PathBuf>) -> Result<(), String> {
    let sites = read_set(&set).map_err(|e| format!("{e}."))?;
    let presets = if presets.is_empty() { vec!["default".to_string()] } else { presets };
    let mut report = Vec::new();
    for p in presets {
        let cfg = load_config(&p, None)?;
        let checks: Vec<MemoryCheck> = sites.iter().map(|s| run_memory_check(&cfg, s)).collect();
        say!("\n== {p}: key page from memory (0 loads) vs full extraction ==");
        say!(
            "{:<14} {:>5} {:>5} {:>7} {:>7} {:>5} {:>7} {:>8}  learnt from",
            "site",
            "pages",
            "sim",
            "F1 mem",
            "F1 full",
            "loads",
            "ms mem",
            "ms full"
        );
        for c in &checks {
            if let Some(e) = &c.error {
                say!("{:<14} error: {e}", c.site);
                continue;
            }
            say!(
                "{:<14} {:>5} {:>5} {:>7} {:>7} {:>5} {:>7.2} {:>8.1}  {}",
                c.site,
                c.learnt.len(),
                c.similarity.map_or("-".to_string(), |s| format!("{s:.2}")),
                c.reused.map_or("no fit".to_string(), |s| pct(s.f1)),
                pct(c.full.f1),
                c.full_loads,
                c.reuse_ms,
                c.full_ms,
                c.learnt.join(" ")
            );
        }
        let ok: Vec<&MemoryCheck> = checks.iter().filter(|c| c.error.is_none()).collect();
        let served: Vec<&&MemoryCheck> = ok.iter().filter(|c| c.reused.is_some()).collect();
        let n = ok.len().max(1) as f64;
        // A key page no cluster fits is served by the full method, as `recall` does.
        let with_fallback = ok.iter().map(|c| c.reused.unwrap_or(c.full).f1).sum::<f64>() / n;
        let full = ok.iter().map(|c| c.full.f1).sum::<f64>() / n;
        let mut reuse_ms: Vec<f64> = served.iter().map(|c| c.reuse_ms).collect();
        reuse_ms.sort_by(f64::total_cmp);
        let median = reuse_ms.get(reuse_ms.len() / 2).copied().unwrap_or(0.0);
        say!(
            "macro F1: memory {} (sites without a fitting cluster fall back to the full method), full {}; \
             served from memory {}/{} sites, median {median:.2} ms",
            pct(with_fallback).trim(),
            pct(full).trim(),
            served.len(),
            ok.len()
        );
        let m = served.len().max(1) as f64;
        say!(
            "on the {} sites served from memory: macro F1 memory {}, full {}",
            served.len(),
            pct(served.iter().map(|c| c.reused.map_or(0.0, |s| s.f1)).sum::<f64>() / m).trim(),
            pct(served.iter().map(|c| c.full.f1).sum::<f64>() / m).trim()
        );
        report.push(serde_json::json!({ "preset": p, "sites": checks }));
    }
    if let Some(path) = json {
        write(&path, &serde_json::to_string_pretty(&report).expect("json"))?;
        say!("wrote {}", path.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Extract { site, key, preset, config, json, html, paths, base, memory: Some(memory) } => {
            load_config(&preset, config.as_ref())
                .and_then(|cfg| run_extract_memory(site, key, cfg, Output { json, html, paths, base }, memory))
        }
        Command::Extract { site, key, preset, config, json, html, paths, base, memory: None } => {
            load_config(&preset, config.as_ref())
                .and_then(|cfg| run_extract(site, key, cfg, Output { json, html, paths, base }))
        }
        Command::Bench { set, preset, json, memory_check: true, .. } => run_memory_check_set(set, preset, json),
        Command::Bench { set, preset, config, json, memory_check: false } => run_bench(set, preset, config, json),
        Command::CollectBench { set, peers, min_cluster, json } => {
            collection_bench::command(&set, peers.as_deref(), min_cluster, json.as_deref())
        }
        Command::Robust { corpus, preset, config, json } => {
            let label = match &config {
                Some(file) => format!("{preset} with {}", file.display()),
                None => preset.clone(),
            };
            load_config(&preset, config.as_ref())
                .and_then(|cfg| robustness::command(&corpus, &label, &cfg, json.as_deref()))
        }
        Command::Collect {
            inputs,
            out,
            summary,
            preset,
            config,
            min_cluster,
            jobs,
            sorted,
            progress,
            markdown,
            fast,
            selective,
        } => load_config(&preset, config.as_ref()).and_then(|config| {
            run::command(run::CommandArgs {
                inputs,
                out,
                summary,
                config,
                collect: CollectOptions { min_cluster, serving: serving(fast, selective) },
                jobs,
                sorted,
                progress,
                markdown,
            })
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
