//! Python bindings of the collection mode: the same core as `tex collect`,
//! over one site's pages at a time, so an engine that groups a crawl by
//! site (Spark's `groupBy(...).applyInPandas`) runs it unchanged. Glue
//! only: every decision is `template_extractor::collection`'s.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use template_extractor::base::config::{Config, PRESETS};
use template_extractor::collection::input::{web_url, Input, Item, Record};
use template_extractor::collection::rejection::{Rejection, Rejections};
use template_extractor::collection::run::{site_input, PageLine};
use template_extractor::collection::site_collection::{collect_site as collect, CollectOptions, Serving};

/// Serde value to a Python object, through Python's own `json` module.
fn to_python<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// One page handed to `collect_site`: `replaced_bytes` is what
/// `read_jsonl` already replaced (a line's bytes that were not UTF-8), so
/// the page's row counts them as `tex collect` does.
#[derive(FromPyObject)]
enum PageArg {
    Counted((String, Vec<u8>, Option<String>, usize)),
    Plain((String, Vec<u8>, Option<String>)),
}

/// Removes the site's template from each of its pages.
///
/// `pages` is a list of `(url, body, content_type)` tuples, `body` the
/// page's bytes as captured and `content_type` the HTTP header or `None`,
/// or `(url, body, content_type, replaced_bytes)` with a page dict's
/// `replaced_bytes` from `read_jsonl`;
/// a URL is read as `tex collect` reads a record's (http or https, in the
/// one spelling its links are resolved in).
/// Returns `(rows, summary)`: one dict per admitted page (url, site,
/// cluster, status, template_share, content_text, content_html, warning
/// and reason when there is one, and content_markdown when `markdown`) in URL order, and the site's summary (clusters, pages left out by reason,
/// shares of bytes and words removed). `serving` is how a cluster's pages
/// get their template, as `tex collect` gives it by default (`"compared"`),
/// with `--selective` (`"selective"`) or with `--fast` (`"fast"`).
#[pyfunction]
#[pyo3(signature = (site, pages, preset = "default", min_cluster = 2, markdown = false, serving = "compared"))]
fn collect_site<'py>(
    py: Python<'py>,
    site: String,
    pages: Vec<PageArg>,
    preset: &str,
    min_cluster: usize,
    markdown: bool,
    serving: &str,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyAny>)> {
    let cfg = Config::preset(preset).ok_or_else(|| {
        PyValueError::new_err(format!("Unknown preset '{preset}'; choose one of {}.", PRESETS.join(", ")))
    })?;
    let serving = match serving {
        "compared" => Serving::Compared,
        "selective" => Serving::Selective,
        "fast" => Serving::Fast,
        other => {
            return Err(PyValueError::new_err(format!(
                "Unknown serving '{other}'; choose one of compared, selective, fast."
            )))
        }
    };
    let mut rejected_urls = 0usize;
    let records: Vec<Record> = pages
        .into_iter()
        .map(|page| match page {
            PageArg::Counted(page) => page,
            PageArg::Plain((url, body, content_type)) => (url, body, content_type, 0),
        })
        .filter_map(|(url, body, content_type, replaced_bytes)| match web_url(&url) {
            Ok(url) => Some(Record { site: site.clone(), url, body, content_type, replaced_bytes }),
            Err(_) => {
                rejected_urls += 1;
                None
            }
        })
        .collect();
    let (lines, summary) = py.detach(|| {
        let mut input = site_input(site.clone(), records, cfg.max_nodes);
        (0..rejected_urls).for_each(|_| input.rejected.add(Rejection::BadUrl));
        let mut lines = Vec::new();
        let summary = collect(&cfg, &CollectOptions { min_cluster, serving }, input, |p| {
            lines.push(serde_json::to_string(&PageLine::new(&site, p, markdown)).expect("line serialises"))
        });
        (lines, summary)
    });
    let loads = py.import("json")?.getattr("loads")?;
    let rows = PyList::empty(py);
    for line in lines {
        rows.append(loads.call1((line,))?)?;
    }
    Ok((rows, to_python(py, &summary)?))
}

/// Reads the HTML response records of a WARC or WARC.gz file.
///
/// Returns `(pages, rejected)`: `pages` a list of dicts (site, url, body,
/// content_type, replaced_bytes: bytes of a JSONL line already replaced)
/// with the site being the URL's origin, and `rejected` the
/// records left out while reading, by reason.
#[pyfunction]
fn read_warc<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyDict>)> {
    read(py, &path, |input| matches!(input, Input::Warc(_)), "a WARC file (.warc, .warc.gz)")
}

/// Reads the `{"url": ..., "html": ...}` lines of a JSONL file, as
/// `read_warc` reads a WARC file (content_type is `None`).
#[pyfunction]
fn read_jsonl<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyDict>)> {
    read(py, &path, |input| matches!(input, Input::Jsonl(_)), "a JSONL file (.jsonl, .ndjson)")
}

/// The pages of an input of the kind `kind` accepts, read as `tex collect`
/// reads them, and the records left out by reason.
fn read<'py>(
    py: Python<'py>,
    path: &std::path::Path,
    kind: impl Fn(&Input) -> bool,
    kind_name: &str,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyDict>)> {
    let input = Input::of(path).map_err(|e| PyOSError::new_err(e.to_string()))?;
    if !kind(&input) {
        return Err(PyValueError::new_err(format!("{} is not {kind_name}.", path.display())));
    }
    let records = input.records().map_err(|e| PyOSError::new_err(e.to_string()))?;
    let pages = PyList::empty(py);
    let mut rejected = Rejections::default();
    for item in records {
        match item {
            Item::Page(r) => {
                let d = PyDict::new(py);
                d.set_item("site", r.site)?;
                d.set_item("url", r.url.as_str())?;
                d.set_item("body", pyo3::types::PyBytes::new(py, &r.body))?;
                d.set_item("content_type", r.content_type)?;
                d.set_item("replaced_bytes", r.replaced_bytes)?;
                pages.append(d)?;
            }
            Item::Left(reason) => rejected.add(reason),
            Item::Damaged(d) => rejected.add(d.rejection()),
            Item::Unread(e) => return Err(PyOSError::new_err(e.to_string())),
        }
    }
    let counts = PyDict::new(py);
    for (reason, n) in rejected.iter() {
        counts.set_item(serde_json::to_value(reason).expect("reason").as_str().unwrap_or_default(), n)?;
    }
    Ok((pages, counts))
}

#[pymodule]
#[pyo3(name = "template_extractor")]
fn python_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(collect_site, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(read_jsonl, m)?)?;
    Ok(())
}
