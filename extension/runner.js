// Runs the core in a tab: injects the wasm glue and the content script on
// demand (activeTab + scripting, no standing access to any site), falls back
// to the wasm2js build where the page's CSP forbids WebAssembly, and calls
// the content script's entry points. Shared by the popup and the background.
'use strict';

const api = globalThis.browser ?? globalThis.chrome;

/** The stored core configuration (a partial core Config; the core fills in defaults). */
async function storedConfig() {
  const { config } = await api.storage.local.get('config');
  return config ?? {};
}

/** The core's default `max_loads` (`Config::default`; tests/metadata.rs keeps them equal). */
const DEFAULT_MAX_LOADS = 25;

async function inTab(tabId, func, args = []) {
  const [result] = await api.scripting.executeScript({ target: { tabId }, func, args });
  return result?.result;
}

/** What runs the core in a page, in order: injected on demand here, registered for auto-apply (memory-store.js). */
const CORE_FILES = ['tex.js', 'live-dom.js', 'i18n.js', 'reading-copy.js', 'page-view.js', 'memory-store.js', 'route-watch.js', 'content.js'];

/** The tabs whose core this context is starting: a Cancel clicked meanwhile waits for the same start. */
const starting = new Map();

/**
 * Makes sure the core runs in the tab; resolves to 'wasm' or 'wasm2js'. Calls made while it starts
 * share one start: injecting the files twice redeclares the glue, and a second instance of the wasm
 * module would take over the glue from an extraction running in the first.
 */
function ensureCore(tabId) {
  if (!starting.has(tabId)) starting.set(tabId, startCore(tabId).finally(() => starting.delete(tabId)));
  return starting.get(tabId);
}

async function startCore(tabId) {
  // A script registered for the site's host (auto-apply, learning) may have loaded the core without starting it.
  const loaded = await inTab(tabId, () => (globalThis.texCore ? globalThis.texCore.engine ?? 'not started' : null));
  if (loaded && loaded !== 'not started') return loaded;
  if (!loaded) await api.scripting.executeScript({ target: { tabId }, files: CORE_FILES });
  const engine = await inTab(tabId, () => globalThis.texCore.init());
  if (engine !== 'needs-wasm2js') return engine;
  await api.scripting.executeScript({ target: { tabId }, files: ['tex_asm_data.js', 'tex_asm.js'] });
  return inTab(tabId, () => globalThis.texCore.initFromAsm());
}

/**
 * Calls `texCore[method](...args)` in the tab; resolves to `{ ok, value | error }`.
 * One script round trip when the core already runs there (every click after the first).
 */
async function callCore(tabId, method, ...args) {
  const call = (m, a) => (globalThis.texCore?.engine ? globalThis.texCore.call(m, a) : { notLoaded: true });
  const answer = await inTab(tabId, call, [method, args]);
  if (!answer?.notLoaded) return answer;
  await ensureCore(tabId);
  return inTab(tabId, call, [method, args]);
}
