// The content script: owns the wasm core inside the page (it reads and marks
// the live DOM itself through web-sys) and the extraction's state, so that
// closing the popup loses nothing: the popup and the background only start,
// cancel and read. Injected only on demand, with tex.js, i18n.js, reading-copy.js, page-view.js.
'use strict';

if (!globalThis.texCore) {
  const api = globalThis.browser ?? globalThis.chrome;
  // tex.js declares `let wasm_bindgen`: a global binding, not a property of globalThis.
  const core = wasm_bindgen;
  const { sentence } = globalThis.texI18n;
  const pageView = globalThis.texPageView;
  const memory = globalThis.texMemory;

  /**
   * A badge or a progress line that would be gone within a third of a second
   * only flickers, and drawing it (in the page, and in the popup that hears of
   * it) takes the cores the extraction's fetches and parses need: most clicks
   * end before this, so they show their result and nothing before it.
   */
  const PROGRESS_DELAY_MS = 300;

  /** status: idle | running | done | error; the report stays here, in the page. */
  let state = { status: 'idle', progress: null, summary: null, error: null, view: null, highlight: false };
  let report = null;
  let running = null;
  /** Once the core has panicked: its sentence. The instance is not used again (its state may be half-updated). */
  let broken = null;
  /** Rejects the running extraction: a panic traps inside the core, and its own promise never settles. */
  let failRunning = null;
  /**
   * Cancel was clicked during this run. The core forgets a Cancel that came before its extraction began
   * (a previous run's must not stop this one), so one clicked during template memory's look-up is kept here.
   */
  let cancelRequested = false;
  const CANCELLED = { message: 'The extraction was cancelled.', key: 'errorCancelled', args: [] };

  function panicked(message) {
    broken = { message: `The extraction stopped on an internal error (${message}); reload the page to try again.`, key: 'errorPanic', args: [message] };
    failRunning?.(broken);
  }

  const tell = () => api.runtime.sendMessage({ type: 'tex-state', status: state.status, progress: state.progress }).catch(() => {});
  /** Shows the state on the page, then tells the popup; resolves once the page shows it. */
  const changed = async () => {
    await pageView.render(state);
    tell();
  };

  /**
   * The whole report, with the template's node paths, which only readers of the whole report need; past
   * their byte budget (a page deep and wide) the rest are counted in `template_paths_omitted`.
   */
  function fullReport() {
    if (report && !report.template_paths) {
      const { paths, omitted } = core.template_paths();
      report.template_paths = paths;
      report.template_paths_omitted = omitted;
    }
    return report;
  }

  /** What the popup and the background need of a report: small enough for any message. */
  function summarize(r, engine) {
    return {
      key_url: r.key_url, template_nodes: r.template_nodes, total_nodes: r.total_nodes, links: r.links,
      cs: r.cs, votes_needed: r.votes_needed, loads: r.loads, fetched: r.fetched, engine,
      timings: r.timings, key_snapshot_ms: r.key_snapshot_ms, key_snapshot_kept: r.key_snapshot_kept, check: r.check ?? null,
      key_source: r.key_source, key_fallback_reason: r.key_fallback_reason ?? null, evidence: r.evidence ?? null,
    };
  }

  /** What the popup needs of a result from visited routes: the pages compared were visited, none loaded. */
  function summarizeVisited(r, engine) {
    return { ...summarize(r, engine), loads: 0, fetched: 0, visited: r.visited };
  }

  /** What keeping each of the last routes cost ({others, elements, snapshot_ms}), newest last: the same bound as the snapshots. */
  const routesKept = [];
  function rememberRoute() {
    const kept = core.remember_route();
    if (kept) routesKept.push(kept);
    routesKept.splice(0, routesKept.length - 8);
  }

  /** Whether Extract learns from the visited routes of this site ("Learn from pages I visit"). */
  const learning = async () => Boolean((await memory.learnSites())[location.origin]);

  /** What the popup needs of a template recalled from memory: no pages compared, no loads. */
  function summarizeRecall(r, engine) {
    return {
      key_url: r.key_url, template_nodes: r.template_nodes, total_nodes: r.total_nodes, loads: 0, fetched: 0, engine,
      key_snapshot_ms: r.key_snapshot_ms, key_snapshot_kept: r.key_snapshot_kept, check: r.check ?? null, timings: null, cs: null,
      memory: { similarity: r.similarity, learnt_from: r.learnt_from, read_ms: r.read_ms, match_ms: r.match_ms },
    };
  }

  /**
   * The template of this page from its site's remembered clusters (0 loads),
   * installed as the current result; null when memory is off or none fits.
   * A stored memory this build cannot read is dropped (learning rewrites it).
   */
  async function recall(configJson) {
    const stored = await memory.readIfEnabled(location.origin);
    if (!stored) return null;
    try {
      return await core.memory_recall(stored.memory, configJson);
    } catch (e) {
      if (e?.key !== 'errorMemoryInvalid') throw e;
      await memory.forget(location.origin);
      return null;
    }
  }

  /** Remembers the result just extracted as a cluster of this page's site. */
  async function learn(configJson) {
    if (!(await memory.enabled())) return;
    const stored = await memory.read(location.origin);
    const learnt = core.memory_learn(stored?.memory ?? '', configJson);
    if (!learnt) return;
    await memory.write([{ origin: location.origin, memory: learnt.memory, clusters: learnt.clusters }]);
  }

  /**
   * `mode`: 'use' (a remembered template if one fits, else extract and learn),
   * 'relearn' (extract and learn, ignoring memory), 'only' (a remembered template or
   * nothing: auto-apply never loads pages), absent (extract, memory untouched:
   * Check benchmarks and the perf benchmark measure the method itself).
   */
  async function run(config, mode) {
    report = null;
    cancelRequested = false;
    state = { status: 'running', progress: { phase: 'snapshot', loaded: 0, planned: 0 }, summary: null, error: null, view: null, highlight: false };
    const configJson = JSON.stringify(config ?? {});
    if (mode === 'use' || mode === 'only') {
      let recalled = null;
      try {
        recalled = await recall(configJson);
      } catch (e) {
        state = { ...state, status: 'error', error: sentence(e) };
        changed();
        return;
      }
      if (recalled) {
        report = { ...recalled, engine: globalThis.texCore.engine, from_memory: true };
        state = { ...state, status: 'done', summary: summarizeRecall(recalled, report.engine), view: 'original', highlight: true };
        changed();
        return;
      }
      if (mode === 'only') {
        state = { ...state, status: 'idle' };
        return;
      }
    }
    // Progress shows only once the extraction has lasted PROGRESS_DELAY_MS.
    let shown = false;
    const onProgress = (p) => {
      state.progress = p;
      if (!shown) return;
      api.runtime.sendMessage({ type: 'tex-progress', ...p }).catch(() => {});
      pageView.progress(state);
    };
    const reveal = setTimeout(() => {
      shown = true;
      changed();
    }, PROGRESS_DELAY_MS);
    try {
      // The core reads the page before its first await: no badge is ever in the snapshot.
      const panic = new Promise((_, reject) => { failRunning = reject; });
      // With "Learn from pages I visit" on, the visited routes are the candidates: nothing is loaded.
      const visited = mode !== undefined && (await learning());
      if (cancelRequested) throw CANCELLED;
      report = await Promise.race([visited ? core.extract_visited(configJson) : core.extract(configJson, onProgress), panic]);
      report.engine = globalThis.texCore.engine;
      const summary = (visited ? summarizeVisited : summarize)(report, report.engine);
      state = { ...state, status: 'done', summary, view: 'original', highlight: true };
    } catch (e) {
      state = { ...state, status: 'error', error: sentence(broken ?? e), view: null };
    }
    failRunning = null;
    clearTimeout(reveal);
    // The caller that awaits this run gets the answer before the page draws the result (in the next task, a
    // state no newer one has replaced): on a large page the outline takes longer than the answer's journey.
    // A popup that saw this run's progress hears of its end.
    const ended = state;
    setTimeout(() => state === ended && pageView.render(ended), 0);
    if (shown) tell();
    // Before the answer (a few ms of storage), so a page closed right after it keeps what it learnt;
    // failing to remember must not spoil the result.
    if (state.status === 'done' && (mode === 'use' || mode === 'relearn')) await learn(configJson).catch(() => {});
  }

  /**
   * Shows `view` once the running extraction has ended and tells the background how it ended: the
   * background started it (shortcut, context menu) but holds nothing while it runs, since Firefox
   * suspends an idle event page and a promise it awaited would never settle.
   */
  async function announce(view) {
    await running;
    let message = { ok: false, error: state.error };
    if (state.status === 'done') {
      try {
        await globalThis.texCore.setView(view);
        message = { ok: true, template_nodes: state.summary.template_nodes, total_nodes: state.summary.total_nodes };
      } catch (e) {
        message = { ok: false, error: sentence(broken ?? e) };
      }
    }
    api.runtime.sendMessage({ type: 'tex-ended', ...message }).catch(() => {});
  }

  /** Starts an extraction with `[config, mode]` unless one runs: a second Extract joins the first. */
  function begin([config, mode]) {
    if (state.status !== 'running') running = run(config, mode);
  }

  /** The answer to an Extract once the extraction running, or the last one, has ended. */
  async function ended() {
    await running;
    return state.status === 'error' ? { ok: false, error: state.error } : { ok: true, value: state.summary };
  }

  /**
   * The core's wasm: its per-session address where it is web-accessible (Chromium), else its bytes,
   * read by the background: Firefox's build lists no web-accessible file (scripts/manifest.mjs),
   * and its content scripts fetch as the page does.
   */
  const wasmSource = async () => (api.runtime.getManifest().web_accessible_resources
    ? api.runtime.getURL('tex_bg.wasm')
    : api.runtime.sendMessage({ type: 'tex-wasm' }));

  globalThis.texCore = {
    engine: null,
    /** The instantiation under way or done: see `init`. */
    starting: null,

    /**
     * Instantiates the wasm build, once however many callers start it (the popup, auto-apply,
     * learning): a second instance would take the glue over from an extraction running in the first.
     * Pages whose CSP lacks 'wasm-unsafe-eval' refuse it in Chromium.
     */
    init() {
      this.starting ??= wasmSource().then((source) => core({ module_or_path: source })).then(() => {
        core.on_panic(panicked);
        this.engine = 'wasm';
        return this.engine;
      }, () => 'needs-wasm2js');
      return this.starting;
    },

    /** The same core translated to JavaScript by wasm2js (tex_asm.js, its data segments in tex_asm_data.js). */
    initFromAsm() {
      if (this.engine) return this.engine;
      core.initFromExports(globalThis.texAsm);
      core.on_panic(panicked);
      this.engine = 'wasm2js';
      return this.engine;
    },

    /** Shows `view` on the page (in steps: a big page keeps running); a chosen view ends the first outline. */
    async setView(view) {
      const shown = await core.set_view(view);
      state = { ...state, view: shown, highlight: false, dismissed: false };
      // The reading column is copied in slices: the view is shown once it is in place.
      await changed();
      return shown;
    },

    /** Runs one entry point; failures come back as one sentence in the UI language. */
    async call(method, args) {
      if (broken && method !== 'state') return { ok: false, error: sentence(broken) };
      try {
        let value;
        switch (method) {
          case 'extract':
            begin(args);
            return await ended();
          case 'begin':
            begin(args);
            value = null;
            break;
          case 'ended': return await ended();
          case 'start':
            begin(args);
            announce(args[2]);
            value = null;
            break;
          case 'state': value = args[0] ? { ...state, report: fullReport() } : state; break;
          case 'cancel':
            cancelRequested = state.status === 'running';
            core.cancel();
            value = state;
            break;
          case 'setView': value = await this.setView(args[0]); break;
          case 'dismiss':
            if (state.view && state.view !== 'original') await this.setView('original');
            state = { ...state, highlight: false, dismissed: true };
            changed();
            value = state;
            break;
          case 'templateHtml': value = core.template_html(); break;
          case 'learnRoutes': globalThis.texRouteWatch.start(rememberRoute); value = core.visited_count(); break;
          case 'visitedRoutes': value = routesKept; break;
          default: throw new Error(`unknown method ${method}`);
        }
        return { ok: true, value };
      } catch (e) {
        return { ok: false, error: sentence(broken ?? e) };
      }
    },
  };

  pageView.connect({
    setView: (view) => globalThis.texCore.call('setView', [view]),
    cancel: () => globalThis.texCore.call('cancel', []),
    dismiss: () => globalThis.texCore.call('dismiss', []),
    regions: (kind, max) => core.regions(kind, max),
    host: (tag) => core.own_host(tag),
  });
}
