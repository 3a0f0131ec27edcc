//! Candidate pages fetched from the page's own origin and parsed in wasm by
//! html5ever, the CLI's parser and a spec-conformant one, so a candidate's
//! snapshot is the tree the browser would build for it (without running its
//! scripts) and the CLI's tree as well. gloo-net builds the requests and reads the responses'
//! status and headers; the fetch and body promises are awaited here.
//!
//! Safety rules (docs/design.md, "Limits"): no credentials are
//! sent, no request leaves the origin, a body is read as a stream and
//! dropped at the byte limits of [`crate::page::page_body`], binary data is
//! refused before parsing, and text is decoded with the page's charset.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_net::http::Response;
use url::{Origin, Url};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Performance, ReadableStreamDefaultReader, RequestCredentials, RequestInit, RequestMode,
    RequestRedirect, ResponseType,
};

use super::slices::{NextTask, SLICE_MS};
use crate::base::error::LoadError;
use crate::candidates::page_source::{LoadedPage, PageSource};
use crate::page::page_body::{check_text, decode, ByteBudget, MAX_PAGE_BYTES};

/// What the source reports as the extraction goes, so the popup can show progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A load finished, successfully or not.
    Loaded,
    /// The core compared the key page with this many loaded pages so far.
    Compared(usize),
}

/// Loads same-origin pages with gloo-net. `on_step` hears of every finished
/// load and every comparison after the loads.
pub struct FetchSource {
    origin: Origin,
    timeout_ms: u32,
    max_nodes: usize,
    performance: Performance,
    budget: ByteBudget,
    /// Time spent parsing and walking candidates so far (see [`Deadline`]).
    busy_ms: Rc<Cell<f64>>,
    /// When the core last let the event loop run (see [`FetchSource::pause`]);
    /// a new source starts a slice, so the first page is compared without a
    /// needless wait behind every task queued in the page.
    yielded_at: Cell<f64>,
    /// The one message that wakes loads waiting for a turn, and whether a
    /// load already works in the current task (see [`FetchSource::yield_now`]).
    next_turn: RefCell<Option<NextTask>>,
    turn_taken: Rc<Cell<bool>>,
    /// Pauses so far: the core pauses before each comparison.
    pauses: Cell<usize>,
    on_step: Box<dyn Fn(Step)>,
}

/// A body this big takes several milliseconds to parse: let the event loop
/// run before it (the body of a small page is parsed at once).
const BIG_BODY_CHARS: usize = 200_000;

/// Edges of a candidate's snapshot walked between two looks at the clock
/// (about 5 ms on a 100,000-element page in Chromium).
const SNAPSHOT_EDGES: usize = 8_192;

/// How often the timeout's clock is read, in milliseconds (a hidden tab's
/// timers may run only once a second, which then bounds the precision).
const TICK_MS: i32 = 100;

/// A request's timeout that does not count the time the core itself kept
/// the main thread busy (parsing and walking other candidates): an answer
/// that arrived meanwhile could not be read, and that is not the server's
/// delay. `busy_ms` is the source's running total of such work.
struct Deadline {
    controller: AbortController,
    expired: Rc<Cell<bool>>,
    /// The body was read whole: nothing is left to abort.
    finished: Cell<bool>,
    interval: i32,
    _tick: Closure<dyn FnMut()>,
}

impl Deadline {
    fn start(timeout_ms: u32, performance: Performance, busy_ms: Rc<Cell<f64>>) -> Result<Self, JsValue> {
        let controller = AbortController::new()?;
        let expired = Rc::new(Cell::new(false));
        let (abort, flag) = (controller.clone(), expired.clone());
        let (started, busy_before) = (performance.now(), busy_ms.get());
        let tick = Closure::<dyn FnMut()>::new(move || {
            let waited = performance.now() - started - (busy_ms.get() - busy_before);
            if waited >= f64::from(timeout_ms) && !flag.get() {
                flag.set(true);
                abort.abort();
            }
        });
        let window = web_sys::window().ok_or("this script has no window")?;
        let interval =
            window.set_interval_with_callback_and_timeout_and_arguments_0(tick.as_ref().unchecked_ref(), TICK_MS)?;
        Ok(Self { controller, expired, finished: Cell::new(false), interval, _tick: tick })
    }
}

/// Dropping a load ends its request: a speculative fetch the search no
/// longer needs (the CS was found first) or a cancelled one stops using the
/// network and the main thread at once. A body read whole needs no abort.
impl Drop for Deadline {
    fn drop(&mut self) {
        if !self.finished.get() {
            self.controller.abort();
        }
        if let Some(window) = web_sys::window() {
            window.clear_interval_with_handle(self.interval);
        }
    }
}

impl FetchSource {
    pub fn new(
        origin: Origin,
        timeout_ms: u32,
        max_nodes: usize,
        performance: Performance,
        on_step: Box<dyn Fn(Step)>,
    ) -> Self {
        let started = performance.now();
        Self {
            origin,
            timeout_ms,
            max_nodes,
            performance,
            budget: ByteBudget::default(),
            busy_ms: Rc::default(),
            yielded_at: Cell::new(started),
            next_turn: RefCell::default(),
            turn_taken: Rc::default(),
            pauses: Cell::new(0),
            on_step,
        }
    }

    /// Built with web-sys, not gloo-net: gloo-net's builder panics on an
    /// error that is not an `Error` of this script's realm, which is what
    /// Firefox throws into a content script for a URL it will not request.
    fn request(&self, url: &Url, redirect: RequestRedirect, deadline: &Deadline) -> Result<web_sys::Request, String> {
        let init = RequestInit::new();
        init.set_method("GET");
        init.set_mode(RequestMode::SameOrigin);
        init.set_redirect(redirect);
        init.set_credentials(RequestCredentials::Omit);
        init.set_signal(Some(&deadline.controller.signal()));
        web_sys::Request::new_with_str_and_init(url.as_str(), &init).map_err(|e| reason(&e))
    }

    /// The decoded body of an HTML page at `url`. `same-origin` mode makes
    /// the browser refuse, before sending anything, a redirect to another
    /// origin: no request ever leaves the page's origin. `omit` sends no
    /// cookies or HTTP authentication, so a fetch never acts as the user.
    async fn fetch_html(&self, url: &Url) -> Result<String, LoadError> {
        let deadline = Deadline::start(self.timeout_ms, self.performance.clone(), self.busy_ms.clone())
            .map_err(|e| LoadError::Unreadable { url: url.to_string(), reason: reason(&e) })?;
        let failed = |reason: String| {
            if deadline.expired.get() {
                LoadError::Timeout { url: url.to_string(), timeout_ms: self.timeout_ms }
            } else {
                LoadError::Unreadable { url: url.to_string(), reason }
            }
        };
        let window = web_sys::window().ok_or_else(|| failed("this script has no window".into()))?;
        let request = self.request(url, RequestRedirect::Follow, &deadline).map_err(failed)?;
        let fetched = match settle(window.fetch_with_request(&request)).await {
            Ok(fetched) => fetched,
            Err(e) => {
                if !deadline.expired.get() && self.redirects(&window, url, &deadline).await {
                    return Err(LoadError::Redirect { url: url.to_string() });
                }
                return Err(failed(e));
            }
        };
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
        let declared: Option<usize> = response.headers().get("content-length").and_then(|l| l.trim().parse().ok());
        if declared.is_some_and(|length| length > MAX_PAGE_BYTES) {
            return Err(LoadError::TooManyBytes { url: url.to_string(), limit: MAX_PAGE_BYTES });
        }
        let body = self.read_body(url, web_sys::Response::from(response)).await.map_err(|e| match e {
            Read::Refused(e) => {
                // Cancelling the reader alone lets some browsers keep
                // downloading into their buffers; aborting closes the connection.
                deadline.controller.abort();
                e
            }
            Read::Failed(r) => failed(r),
        })?;
        deadline.finished.set(true);
        check_text(url.as_str(), &body)?;
        Ok(decode(&body, Some(&content_type)))
    }

    /// Whether `url` answers with a redirect: asked after a fetch failed
    /// without a status, because same-origin mode reports a redirect to
    /// another origin or a redirect loop only as a network error.
    async fn redirects(&self, window: &web_sys::Window, url: &Url, deadline: &Deadline) -> bool {
        let Ok(request) = self.request(url, RequestRedirect::Manual, deadline) else { return false };
        match settle(window.fetch_with_request(&request)).await {
            Ok(r) => r.unchecked_into::<web_sys::Response>().type_() == ResponseType::Opaqueredirect,
            Err(_) => false,
        }
    }

    /// The body's bytes, read chunk by chunk and cancelled as soon as a byte
    /// limit is passed, so a huge page or a gzip bomb is never held whole.
    async fn read_body(&self, url: &Url, response: web_sys::Response) -> Result<Vec<u8>, Read> {
        let Some(stream) = response.body() else { return Ok(Vec::new()) };
        let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
        let mut body = Vec::new();
        loop {
            let chunk = settle(reader.read()).await.map_err(Read::Failed)?;
            let done = js_sys::Reflect::get(&chunk, &"done".into()).map(|d| d.is_truthy()).unwrap_or(true);
            if done {
                return Ok(body);
            }
            let value = js_sys::Reflect::get(&chunk, &"value".into()).map_err(|e| Read::Failed(reason(&e)))?;
            let bytes = js_sys::Uint8Array::new(&value);
            if let Err(e) = self.budget.take(url.as_str(), body.len(), bytes.length() as usize) {
                let _ = reader.cancel();
                return Err(Read::Refused(e));
            }
            let at = body.len();
            body.resize(at + bytes.length() as usize, 0);
            bytes.copy_to(&mut body[at..]);
        }
    }

    /// Runs `work` on the main thread and counts its duration as busy, so
    /// no request's timeout runs meanwhile (see [`Deadline`]); returns its
    /// result and duration.
    pub fn busy<T>(&self, work: impl FnOnce() -> T) -> (T, f64) {
        let t0 = self.now_ms();
        let out = work();
        let ms = self.now_ms() - t0;
        self.busy_ms.set(self.busy_ms.get() + ms);
        (out, ms)
    }

    /// One chunk of a parse, its duration added to both totals.
    fn busy_step(
        &self,
        parse: &mut crate::page::html::ChunkedParse,
        total: &mut f64,
        unyielded: &mut f64,
    ) -> Result<bool, usize> {
        let (step, ms) = self.busy(|| parse.step());
        *total += ms;
        *unyielded += ms;
        step
    }

    /// Whether the current slice of work has lasted [`SLICE_MS`].
    fn slice_spent(&self) -> bool {
        self.now_ms() - self.yielded_at.get() >= SLICE_MS
    }

    /// Lets the event loop run, then takes a turn of work. Loads parse side
    /// by side: with a message each, every waiting load's slice would run
    /// in a row, queued before the page's timer that fell due meanwhile, and
    /// the page would wait for all of them. So the waiting loads share one
    /// message; the first to wake works, the others wait for the next one.
    async fn yield_now(&self) {
        loop {
            let turn = self.next_turn.borrow_mut().get_or_insert_with(NextTask::post).promise.clone();
            let _ = JsFuture::from(turn).await;
            if !self.turn_taken.replace(true) {
                self.next_turn.borrow_mut().take();
                break;
            }
        }
        let taken = self.turn_taken.clone();
        // A microtask queued now runs once this task's futures have all run.
        let release = Closure::once_into_js(move || taken.set(false));
        match web_sys::window() {
            Some(window) => window.queue_microtask(release.unchecked_ref()),
            None => self.turn_taken.set(false),
        }
        self.yielded_at.set(self.now_ms());
    }

    async fn load_page(&self, url: &Url) -> Result<LoadedPage, LoadError> {
        if url.origin() != self.origin {
            return Err(LoadError::OffOrigin { url: url.to_string() });
        }
        let t0 = self.now_ms();
        let html = self.fetch_html(url).await?;
        let t1 = self.now_ms();
        if html.len() >= BIG_BODY_CHARS {
            // Other responses and the page's own events go first; a load the
            // search no longer needs is dropped here, before it is parsed.
            self.yield_now().await;
        }
        // html5ever in wasm (the CLI's parser): the body is already here, and
        // parsing it here beats DOMParser plus a web-sys walk of its document.
        // In chunks, letting the page run once half a slice of parsing is
        // spent: a big or deep page no longer holds the main thread for its
        // whole parse, and a small one is parsed at once, as before.
        let too_large =
            |nodes, parse_ms| LoadError::TooLarge { url: url.to_string(), nodes, limit: self.max_nodes, parse_ms };
        let mut parse = crate::page::html::ChunkedParse::new(&html, self.max_nodes);
        let (mut parse_ms, mut unyielded_ms) = (0.0, 0.0);
        while self
            .busy_step(&mut parse, &mut parse_ms, &mut unyielded_ms)
            .map_err(|nodes| too_large(nodes, parse_ms))?
        {
            if unyielded_ms >= SLICE_MS / 2.0 {
                self.yield_now().await;
                unyielded_ms = 0.0;
            }
        }
        let (doc, finish_ms) = self.busy(|| parse.finish());
        parse_ms += finish_ms;
        if parse_ms >= SLICE_MS / 2.0 {
            self.yield_now().await;
        }
        // The walk too, in steps: a 100,000-element page takes a few hundred milliseconds.
        let mut walk = crate::page::html::SnapshotWalk::new(&doc);
        let (mut snapshot_ms, mut unyielded_ms) = (0.0, 0.0);
        loop {
            let (more, ms) = self.busy(|| walk.step(SNAPSHOT_EDGES));
            snapshot_ms += ms;
            unyielded_ms += ms;
            if !more {
                break;
            }
            if unyielded_ms >= SLICE_MS / 2.0 {
                self.yield_now().await;
                unyielded_ms = 0.0;
            }
        }
        // Finishing the tree (numbering each element among its siblings) and
        // freeing the parsed document each take tens of milliseconds on a
        // page of 100,000 elements: a step of their own on such a page.
        let big = parse_ms + snapshot_ms >= SLICE_MS / 2.0;
        if big {
            self.yield_now().await;
        }
        let (tree, _) = self.busy(|| walk.finish());
        if big {
            self.yield_now().await;
        }
        self.busy(|| drop(doc));
        let tree = tree.ok_or_else(|| LoadError::Empty { url: url.to_string() })?;
        if tree.len() > self.max_nodes {
            return Err(too_large(tree.len(), parse_ms));
        }
        Ok(LoadedPage { url: url.clone(), tree: tree.into(), fetch_ms: t1 - t0, parse_ms, snapshot_ms })
    }
}

/// Why reading a body stopped: a limit (its own sentence) or the network.
enum Read {
    Refused(LoadError),
    Failed(String),
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
        (self.on_step)(Step::Loaded);
        result
    }

    fn now_ms(&self) -> f64 {
        self.performance.now()
    }

    /// The core pauses before each comparison of the key page with a
    /// loaded page: once a slice of work has passed, the popup hears how
    /// far it got and the tab handles input and paints.
    async fn pause(&self) {
        self.pauses.set(self.pauses.get() + 1);
        if self.slice_spent() {
            (self.on_step)(Step::Compared(self.pauses.get() - 1));
            self.yield_now().await;
        }
    }

    async fn pause_while_loading(&self) {
        if self.slice_spent() {
            self.yield_now().await;
        }
    }
}
