//! Candidate pages fetched from the page's own origin and parsed by the
//! browser's own parser, so a candidate's snapshot is the tree the browser
//! would build for it. gloo-net builds the requests and reads the responses'
//! status and headers; the fetch and body promises are awaited here.

use gloo_net::http::{Request, Response};
use url::{Origin, Url};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, Performance, RequestCredentials, RequestMode, RequestRedirect};

use crate::error::LoadError;
use crate::page_source::{LoadedPage, PageSource};

/// Loads same-origin pages with gloo-net. `on_loaded` hears of every
/// finished load (success or not) so the popup can show progress.
pub struct FetchSource {
    origin: Origin,
    timeout_ms: u32,
    max_nodes: usize,
    performance: Performance,
    on_loaded: Box<dyn Fn()>,
}

impl FetchSource {
    pub fn new(
        origin: Origin,
        timeout_ms: u32,
        max_nodes: usize,
        performance: Performance,
        on_loaded: Box<dyn Fn()>,
    ) -> Self {
        Self { origin, timeout_ms, max_nodes, performance, on_loaded }
    }

    /// The body of an HTML page at `url`. `same-origin` mode makes the
    /// browser refuse, before sending anything, a redirect to another origin:
    /// no request ever leaves the page's origin.
    async fn fetch_html(&self, url: &Url) -> Result<String, LoadError> {
        let signal = AbortSignal::timeout_with_u32(self.timeout_ms);
        let failed = |reason: String| {
            if signal.aborted() {
                LoadError::Timeout { url: url.to_string(), timeout_ms: self.timeout_ms }
            } else {
                LoadError::Unreadable { url: url.to_string(), reason }
            }
        };
        let request: web_sys::Request = Request::get(url.as_str())
            .mode(RequestMode::SameOrigin)
            .redirect(RequestRedirect::Follow)
            .credentials(RequestCredentials::SameOrigin)
            .abort_signal(Some(&signal))
            .build()
            .map_err(|e| failed(e.to_string()))?
            .into();
        let window = web_sys::window().ok_or_else(|| failed("this script has no window".into()))?;
        let fetched = settle(window.fetch_with_request(&request)).await.map_err(failed)?;
        let response = Response::from(fetched.unchecked_into::<web_sys::Response>());
        let landed = Url::parse(&response.url()).map(|u| u.origin() == self.origin).unwrap_or(false);
        if !landed {
            return Err(LoadError::OffOrigin { url: url.to_string() });
        }
        match response.status() {
            404 | 410 => return Err(LoadError::NotFound(url.to_string())),
            s if !(200..300).contains(&s) => return Err(LoadError::Http { url: url.to_string(), status: s }),
            _ => {}
        }
        let content_type = response.headers().get("content-type").unwrap_or_default();
        let mime = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        if !matches!(mime.as_str(), "text/html" | "application/xhtml+xml") {
            let content_type = if content_type.is_empty() { "no content type".to_string() } else { content_type };
            return Err(LoadError::NotHtml { url: url.to_string(), content_type });
        }
        let body = web_sys::Response::from(response).text().map_err(|e| failed(reason(&e)))?;
        Ok(settle(body).await.map_err(failed)?.as_string().unwrap_or_default())
    }

    async fn load_page(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        if url.origin() != self.origin {
            return Err(LoadError::OffOrigin { url: url.to_string() });
        }
        let t0 = self.now_ms();
        let html = self.fetch_html(url).await?;
        let t1 = self.now_ms();
        // html5ever in wasm (the CLI's parser): the body is already here, and
        // parsing it here beats DOMParser plus a web-sys walk of its document.
        let doc = crate::html::parse(&html);
        let t2 = self.now_ms();
        let tree = crate::html::snapshot(&doc).ok_or_else(|| LoadError::Empty { url: url.to_string() })?;
        let t3 = self.now_ms();
        if tree.len() > self.max_nodes {
            return Err(LoadError::TooLarge { url: url.to_string(), nodes: tree.len(), limit: self.max_nodes });
        }
        Ok(LoadedPage { url: url.clone(), tree, fetch_ms: t1 - t0, parse_ms: t2 - t1, snapshot_ms: t3 - t2 })
    }
}

/// Awaits a promise, turning a rejection into its message. gloo-net's own
/// `send` and `text` would panic on a rejection that is not an `Error` of
/// this script's realm, which is what a Firefox content script receives.
async fn settle(promise: js_sys::Promise) -> Result<JsValue, String> {
    JsFuture::from(promise).await.map_err(|e| reason(&e))
}

fn reason(error: &JsValue) -> String {
    js_sys::Reflect::get(error, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the browser refused the request".to_string())
}

impl PageSource for FetchSource {
    async fn load(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        let result = self.load_page(url).await;
        (self.on_loaded)();
        result
    }

    fn now_ms(&self) -> f64 {
        self.performance.now()
    }
}
