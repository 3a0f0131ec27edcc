//! `tex`: the extractor on the command line.
//!
//! `tex extract SITE_DIR KEY_PAGE` treats the folder as the root of an
//! origin; `tex bench SET_DIR` scores every site of a benchmark set.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use template_extractor::bench::{read_set, run_set, ConfigRun};
use template_extractor::config::{Config, PRESETS};
use template_extractor::error::ExtractError;
use template_extractor::extract::{extract, template_paths};
use template_extractor::html::{parse, template_html};
use template_extractor::page_source::PageSource;
use template_extractor::score::{disagreement, has_gold, score};
use template_extractor::site_folder::SiteFolder;

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
        /// Write the template as a standalone HTML file here.
        #[arg(long)]
        html: Option<PathBuf>,
    },
    /// Score every site of a benchmark set, one or more configurations side by side.
    Bench {
        /// Benchmark set folder (e.g. ../shared/bench/dev).
        set: PathBuf,
        /// Presets to run (repeatable); default: paper, intersection, rtdm.
        #[arg(long)]
        preset: Vec<String>,
        /// JSON files overriding the default preset, run as well (repeatable); named by file stem.
        #[arg(long)]
        config: Vec<PathBuf>,
        /// Write the report as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
    },
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

fn run_extract(
    site: PathBuf,
    key: String,
    cfg: Config,
    json: Option<PathBuf>,
    html: Option<PathBuf>,
) -> Result<(), String> {
    if !site.is_dir() {
        return Err(format!("The site folder {} does not exist.", site.display()));
    }
    let source = SiteFolder::new(&site, cfg.max_nodes);
    let url = source.url_of(&key);
    let started = std::time::Instant::now();
    let (doc, x, tree) = futures::executor::block_on(async {
        let loaded = source.load(&url).await.map_err(|e| ExtractError::KeyPage(e).to_string())?;
        let x = extract(&cfg, &source, &loaded).await.map_err(|e| e.to_string())?;
        let text = source.text(&url).map_err(|e| ExtractError::KeyPage(e).to_string())?;
        Ok::<_, String>((text, x, loaded.tree))
    })?;
    let wall_ms = started.elapsed().as_secs_f64() * 1000.0;
    let t = &x.timings;
    println!("Template of {} ({})", key, site.display());
    println!(
        "  template nodes  {} / {} ({:.1} %)",
        x.template_nodes,
        x.total_nodes,
        100.0 * x.template_nodes as f64 / x.total_nodes as f64
    );
    println!("  links           {} same-origin", x.links);
    println!(
        "  CS              {:?}, {} of {} wanted, {} votes needed",
        x.cs.kind, x.cs.size, x.cs.wanted, x.votes_needed
    );
    for p in &x.cs.pages {
        println!("                  {}", p.path());
    }
    println!("  loads           {} (key page included; {} fetched)", x.loads, x.fetched + 1);
    println!(
        "  time            {:.1} ms total (key page included): fetch {:.1}, parse {:.1}, snapshot {:.1}, link order {:.1}, CS search {:.1}, mapping {:.1}",
        wall_ms, t.fetch_ms, t.parse_ms, t.snapshot_ms, t.link_order_ms, t.cs_search_ms, t.mapping_ms
    );
    let gold = has_gold(&tree).then(|| (score(&tree, &x.template), disagreement(&tree, &x.template)));
    if let Some((s, d)) = &gold {
        println!(
            "  gold            recall {:.2} %, precision {:.2} %, F1 {:.2} % ({} retrieved, {} gold)",
            100.0 * s.recall,
            100.0 * s.precision,
            100.0 * s.f1,
            s.retrieved,
            s.gold
        );
        for (label, ids) in [("false hit", &d.false_hits), ("miss", &d.misses)] {
            for id in ids.iter().take(12) {
                println!("  {label:<15} {}", tree.path(*id));
            }
        }
    }
    if let Some(path) = json {
        let mut v = serde_json::to_value(&x).expect("extraction serialises");
        v["template_paths"] = serde_json::json!(template_paths(&tree, &x.template));
        if let Some((s, d)) = &gold {
            let paths = |ids: &[template_extractor::dom::NodeId]| ids.iter().map(|&i| tree.path(i)).collect::<Vec<_>>();
            v["score"] = serde_json::json!(s);
            v["false_hits"] = serde_json::json!(paths(&d.false_hits));
            v["misses"] = serde_json::json!(paths(&d.misses));
        }
        write(&path, &serde_json::to_string_pretty(&v).expect("json"))?;
        println!("  wrote           {}", path.display());
    }
    if let Some(path) = html {
        write(&path, &template_html(&parse(&doc), &x.template))?;
        println!("  wrote           {}", path.display());
    }
    Ok(())
}

fn pct(v: f64) -> String {
    format!("{:6.2}", 100.0 * v)
}

fn print_run(run: &ConfigRun) {
    println!("\n== {} ==", run.name);
    println!(
        "{:<12} {:>6} {:>6} {:>6} {:>7} {:>7} {:>7} {:>5} {:>4} {:>9}",
        "site", "nodes", "gold", "retr", "recall", "prec", "F1", "loads", "CS", "ms"
    );
    for r in &run.sites {
        if let Some(e) = &r.error {
            println!("{:<12} error: {e}", r.site);
            continue;
        }
        let s = &r.score;
        println!(
            "{:<12} {:>6} {:>6} {:>6} {:>7} {:>7} {:>7} {:>5} {:>4} {:>9.1}",
            r.site,
            s.nodes,
            s.gold,
            s.retrieved,
            pct(s.recall),
            pct(s.precision),
            pct(s.f1),
            r.loads,
            r.cs_size,
            r.timings.total_ms
        );
    }
    let a = &run.average;
    println!(
        "{:<12} {:>6} {:>6} {:>6} {:>7} {:>7} {:>7} {:>5.1} {:>4} {:>9.1}",
        "macro avg",
        "",
        "",
        "",
        pct(a.recall),
        pct(a.precision),
        pct(a.f1),
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
    println!("\n{:<14} {:>7} {:>7} {:>7} {:>6} {:>9}", "config", "recall", "prec", "F1", "loads", "ms/site");
    for r in &runs {
        let a = &r.average;
        println!(
            "{:<14} {:>7} {:>7} {:>7} {:>6.1} {:>9.1}",
            r.name,
            pct(a.recall),
            pct(a.precision),
            pct(a.f1),
            r.mean_loads,
            r.mean_total_ms
        );
    }
    if let Some(path) = json {
        let report = serde_json::json!({ "set": set.display().to_string(), "runs": runs });
        write(&path, &serde_json::to_string_pretty(&report).expect("json"))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Extract { site, key, preset, config, json, html } => {
            load_config(&preset, config.as_ref()).and_then(|cfg| run_extract(site, key, cfg, json, html))
        }
        Command::Bench { set, preset, config, json } => run_bench(set, preset, config, json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
