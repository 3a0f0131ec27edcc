//! `tex collect`: a crawl's inputs grouped into sites, sites processed in
//! parallel, one JSONL line per page and a summary per site. Glue only:
//! reading, threads and writing; each site is `collection::site_collection`.
//!
//! Memory: by default every record is read and grouped by site first, so
//! the whole collection's HTML is held at once (grouping costs memory, not
//! time). With `sorted` the input is taken to be ordered by site and each
//! site is handed on as soon as the next begins, so at most `2 × jobs + 1`
//! sites are held: memory is bounded by the largest sites, not the crawl.
//! A site that comes back after another began stops the run ([`NotSorted`]):
//! its first pages were processed without the rest.

use std::collections::{BTreeMap, HashSet};
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use crate::base::config::Config;
use crate::collection::input::{read_inputs, Input, InputError, Record};
use crate::collection::page_admission::admit;
use crate::collection::page_content::markdown;
use crate::collection::page_store::PageStore;
use crate::collection::rejection::{Rejection, Rejections};
use crate::collection::site_collection::{collect_site, CollectOptions, PageOutcome, SiteInput};
use crate::collection::site_summary::SiteSummary;
use crate::collection::whole_page::WholeReason;

/// Why a `--sorted` run stopped: a site's records came again after
/// another site's, and its earlier records had already been processed.
#[derive(Debug, Error)]
#[error(
    "The input is not sorted by site, as --sorted requires: {site} came again ({url}) after another site's pages, \
     when its earlier pages had already been processed; the lines written so far are incomplete. Run without --sorted \
     to group the pages by site first."
)]
pub struct NotSorted {
    site: String,
    url: String,
}

/// How to run a collection.
pub struct RunOptions {
    pub inputs: Vec<Input>,
    pub config: Config,
    pub collect: CollectOptions,
    pub jobs: usize,
    pub sorted: bool,
    pub progress: bool,
    /// Add each page's content as Markdown.
    pub markdown: bool,
}

/// One output line.
#[derive(Serialize)]
pub struct PageLine<'a> {
    pub url: &'a str,
    pub site: &'a str,
    pub cluster: Option<usize>,
    pub status: crate::collection::site_collection::PageStatus,
    pub template_share: f64,
    pub content_text: &'a str,
    pub content_html: &'a str,
    /// Bytes invalid in the page's charset, shown as U+FFFD (as a browser
    /// shows them), when there were any.
    #[serde(skip_serializing_if = "is_zero")]
    pub replaced_bytes: usize,
    /// Why the page's template is not to be trusted, in one sentence: its
    /// content may hold template, or miss text (`decide::evidence`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// Why no element of the page's body is template, in one sentence
    /// (`collection::whole_page`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
    /// Present when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_markdown: Option<String>,
}

impl<'a> PageLine<'a> {
    /// The line of page `p`, with its content as Markdown when `with_markdown`.
    pub fn new(site: &'a str, p: &'a PageOutcome, with_markdown: bool) -> Self {
        PageLine {
            url: p.url.as_str(),
            site,
            cluster: p.cluster,
            status: p.status,
            template_share: p.content.template_share,
            content_text: &p.content.text,
            content_html: &p.content.html,
            replaced_bytes: p.replaced_bytes,
            warning: p.weakness.map(|w| w.to_string()),
            reason: p.whole.as_ref().map(|w| w.sentence.as_str()),
            content_markdown: with_markdown.then(|| markdown(&p.content.html).unwrap_or_default()),
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The whole run's report.
#[derive(Serialize)]
pub struct RunReport {
    pub sites: Vec<SiteSummary>,
    pub pages: usize,
    pub bytes: usize,
    /// Records left out before they had a site (unreadable URLs, broken files).
    pub unattributed: Rejections,
    /// Every left-out record, by reason.
    pub rejected: Rejections,
    /// Pages that came out whole, by reason, over every site.
    pub whole: BTreeMap<WholeReason, usize>,
    /// Pages kept with bytes invalid in their charset (shown as U+FFFD),
    /// and those bytes, over every site.
    pub replaced_pages: usize,
    pub replaced_bytes: usize,
    /// Inputs nothing could be read from, one sentence each.
    pub unreadable: Vec<String>,
    /// What broke in inputs that were read otherwise (a malformed line, a
    /// file cut short), one sentence each naming the file and where.
    pub damaged: Vec<String>,
    /// How many inputs were given.
    pub inputs: usize,
    pub seconds: f64,
    /// The process's peak resident memory, where the system tells it (Linux).
    pub peak_rss_mb: Option<f64>,
}

/// Peak resident memory of this process in MB (VmHWM), `None` off Linux.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 =
        status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb / 1024.0)
}

/// Admits a site's records into a page store; the rest are counted.
pub fn site_input(site: String, records: Vec<Record>, max_nodes: usize) -> SiteInput {
    let mut store = PageStore::new();
    let mut rejected = Rejections::default();
    for r in records {
        match admit(&r.body, r.content_type.as_deref(), max_nodes) {
            Ok(mut a) => {
                a.replaced_bytes += r.replaced_bytes;
                if !store.insert(r.url, a) {
                    rejected.add(Rejection::Duplicate);
                }
            }
            Err(reason) => rejected.add(reason),
        }
    }
    SiteInput { site, store, rejected }
}

/// Runs the collection, writing page lines to `out`.
pub fn run(opts: &RunOptions, out: Box<dyn Write + Send>) -> Result<RunReport, String> {
    let started = Instant::now();
    let out = Arc::new(Mutex::new(std::io::BufWriter::new(out)));
    let jobs = opts.jobs.max(1);
    let (tx, rx) = sync_channel::<(String, Vec<Record>)>(jobs);
    let rx = Arc::new(Mutex::new(rx));
    let summaries = Arc::new(Mutex::new(Vec::<SiteSummary>::new()));
    let progress = opts.progress;
    let write_error = Arc::new(Mutex::new(None::<String>));
    let mut unattributed = Rejections::default();
    let mut unreadable = Vec::new();
    let mut damaged = Vec::new();
    let mut unsorted = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (rx, out, summaries, write_error) = (rx.clone(), out.clone(), summaries.clone(), write_error.clone());
            scope.spawn(move || loop {
                let next = rx.lock().expect("queue").recv();
                let Ok((site, records)) = next else { return };
                let input = site_input(site.clone(), records, opts.config.max_nodes);
                let mut lines = Vec::new();
                let summary = collect_site(&opts.config, &opts.collect, input, |p| {
                    let line = serde_json::to_string(&PageLine::new(&site, p, opts.markdown)).expect("line serialises");
                    lines.push(line);
                    if lines.len() >= 64 {
                        flush(&out, &mut lines, &write_error);
                    }
                });
                flush(&out, &mut lines, &write_error);
                let mut all = summaries.lock().expect("summaries");
                all.push(summary);
                if progress {
                    let pages: usize = all.iter().map(|s| s.pages).sum();
                    eprint!("\r{} sites, {pages} pages, {:.0} s", all.len(), started.elapsed().as_secs_f64());
                }
            });
        }
        let send = |site: String, records: Vec<Record>| tx.send((site, records)).is_ok();
        // Every readable record of every input, in input order; unreadable
        // inputs and bad records are counted by reason.
        let mut each_record = |f: &mut dyn FnMut(Record) -> ControlFlow<()>| {
            for (input, outcome) in opts.inputs.iter().zip(read_inputs(&opts.inputs, &mut unattributed, f)) {
                unreadable.extend(outcome.unread.map(|e| e.to_string()));
                damaged.extend(outcome.damage.iter().map(ToString::to_string));
                if outcome.more_damage > 0 {
                    damaged.push(format!(
                        "{}: {} more places like those were left out.",
                        input.path().display(),
                        outcome.more_damage
                    ));
                }
            }
        };
        if opts.sorted {
            let mut current: Option<(String, Vec<Record>)> = None;
            let mut handed_on = HashSet::new();
            each_record(&mut |r| {
                match &mut current {
                    Some((site, rs)) if *site == r.site => rs.push(r),
                    _ if handed_on.contains(&r.site) => {
                        unsorted = Some(NotSorted { site: r.site, url: r.url.to_string() });
                        return ControlFlow::Break(());
                    }
                    _ => {
                        if let Some((site, rs)) = current.replace((r.site.clone(), vec![r])) {
                            handed_on.insert(site.clone());
                            send(site, rs);
                        }
                    }
                }
                ControlFlow::Continue(())
            });
            if let Some((site, rs)) = current.filter(|_| unsorted.is_none()) {
                send(site, rs);
            }
        } else {
            let mut sites: BTreeMap<String, Vec<Record>> = BTreeMap::new();
            each_record(&mut |r| {
                sites.entry(r.site.clone()).or_default().push(r);
                ControlFlow::Continue(())
            });
            for (site, rs) in sites {
                send(site, rs);
            }
        }
        drop(tx);
    });
    if progress {
        eprintln!();
    }
    out.lock().expect("output").flush().map_err(|e| format!("Cannot write the output: {e}."))?;
    if let Some(e) = write_error.lock().expect("error").take() {
        return Err(e);
    }
    if let Some(e) = unsorted {
        return Err(e.to_string());
    }
    let mut sites = Arc::try_unwrap(summaries).expect("threads ended").into_inner().expect("summaries");
    sites.sort_by(|a, b| a.site.cmp(&b.site));
    let mut rejected = unattributed.clone();
    sites.iter().for_each(|s| rejected.merge(&s.rejected));
    let mut whole = BTreeMap::new();
    for (reason, n) in sites.iter().flat_map(|s| &s.whole) {
        *whole.entry(*reason).or_default() += n;
    }
    Ok(RunReport {
        pages: sites.iter().map(|s| s.pages).sum(),
        bytes: sites.iter().map(|s| s.bytes).sum(),
        replaced_pages: sites.iter().map(|s| s.replaced_pages).sum(),
        replaced_bytes: sites.iter().map(|s| s.replaced_bytes).sum(),
        sites,
        unattributed,
        rejected,
        whole,
        unreadable,
        damaged,
        inputs: opts.inputs.len(),
        seconds: started.elapsed().as_secs_f64(),
        peak_rss_mb: peak_rss_mb(),
    })
}

fn flush(
    out: &Mutex<std::io::BufWriter<Box<dyn Write + Send>>>,
    lines: &mut Vec<String>,
    error: &Mutex<Option<String>>,
) {
    let mut out = out.lock().expect("output");
    for line in lines.drain(..) {
        if let Err(e) = writeln!(out, "{line}") {
            error.lock().expect("error").get_or_insert(format!("Cannot write the output: {e}."));
            return;
        }
    }
}

/// Whether progress goes to stderr by default: only on a terminal.
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// `tex collect`'s arguments, after clap.
pub struct CommandArgs {
    pub inputs: Vec<std::path::PathBuf>,
    pub out: Option<std::path::PathBuf>,
    pub summary: Option<std::path::PathBuf>,
    pub config: Config,
    pub collect: CollectOptions,
    pub jobs: Option<usize>,
    pub sorted: bool,
    pub progress: bool,
    pub markdown: bool,
}

/// Runs `tex collect`: pages to `--out` (or stdout), the summary to
/// `--summary` and a short report on stderr. Fails when an input is
/// missing or of no known kind, when the output or the summary cannot be
/// created (both checked before reading), or when no input at all could be
/// read; inputs that gave nothing beside others that did are reported, and
/// bad records counted.
pub fn command(args: CommandArgs) -> Result<(), String> {
    if args.inputs.is_empty() {
        return Err("Give at least one input: a site folder, a WARC file or a JSONL file.".into());
    }
    let inputs =
        args.inputs.iter().map(|p| Input::of(p)).collect::<Result<Vec<_>, InputError>>().map_err(|e| e.to_string())?;
    let create = |path: &std::path::Path| {
        std::fs::File::create(path).map_err(|e| format!("Cannot write {}: {e}.", path.display()))
    };
    let out: Box<dyn Write + Send> = match &args.out {
        Some(path) => Box::new(create(path)?),
        None => Box::new(std::io::stdout()),
    };
    let summary = args.summary.as_deref().map(|path| create(path).map(|f| (path, f))).transpose()?;
    let opts = RunOptions {
        inputs,
        config: args.config,
        collect: args.collect,
        jobs: args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        sorted: args.sorted,
        progress: args.progress || stderr_is_terminal(),
        markdown: args.markdown,
    };
    let report = run(&opts, out)?;
    if let Some((path, mut file)) = summary {
        file.write_all(serde_json::to_string_pretty(&report).expect("report serialises").as_bytes())
            .map_err(|e| format!("Cannot write {}: {e}.", path.display()))?;
    }
    eprintln!(
        "{} sites, {} pages, {:.1} MB in {:.2} s ({:.0} pages/s){}",
        report.sites.len(),
        report.pages,
        report.bytes as f64 / 1e6,
        report.seconds,
        report.pages as f64 / report.seconds.max(1e-9),
        report.peak_rss_mb.map_or(String::new(), |mb| format!(", peak RSS {mb:.0} MB"))
    );
    for s in report.sites.iter().filter(|s| s.pages > 0) {
        let sizes: Vec<String> = s.clusters.iter().map(|c| c.pages.to_string()).collect();
        eprintln!(
            "  {}: {} pages, clusters [{}], {} unclustered, {:.0} % of bytes and {:.0} % of words removed{}",
            s.site,
            s.pages,
            sizes.join(" "),
            s.unclustered,
            100.0 * s.bytes_removed,
            100.0 * s.words_removed,
            if s.weak > 0 {
                format!(", {} with weak evidence (see each line's warning)", s.weak)
            } else {
                String::new()
            }
        );
    }
    let empty = report.sites.iter().filter(|s| s.pages == 0).count();
    if empty > 0 {
        eprintln!("  and {empty} sites with no page (every record of theirs left out)");
    }
    if !report.whole.is_empty() {
        let reasons: Vec<String> = report.whole.iter().map(|(r, n)| format!("{n} {r}")).collect();
        let pages: usize = report.whole.values().sum();
        eprintln!("{pages} pages came out whole, no part of them template: {}", reasons.join("; "));
    }
    if report.replaced_pages > 0 {
        eprintln!(
            "{} pages kept with {} bytes invalid in their charset, shown as U+FFFD (each line's replaced_bytes)",
            report.replaced_pages, report.replaced_bytes
        );
    }
    if report.rejected.total() > 0 {
        let reasons: Vec<String> = report.rejected.iter().map(|(r, n)| format!("{n} {r}")).collect();
        eprintln!("left out {} records: {}", report.rejected.total(), reasons.join("; "));
    }
    for d in &report.damaged {
        eprintln!("damaged: {d}");
    }
    if report.unreadable.len() < report.inputs {
        for u in &report.unreadable {
            eprintln!("not read: {u}");
        }
        Ok(())
    } else if report.unreadable.len() == 1 {
        Err(report.unreadable[0].clone())
    } else {
        Err(format!("No input could be read:\n  {}", report.unreadable.join("\n  ")))
    }
}
