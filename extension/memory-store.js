// Where remembered templates live: storage.local, one key per origin
// (`memory:<origin>` → { memory, clusters, updated }), so a page reads only
// its own site's clusters and forgetting one site touches nothing else. The
// memory itself is the core's JSON, kept as a string: its 64-bit hashes would
// be rounded by JSON.parse. Sizes are bounded: the core keeps at most 8
// clusters per origin (src/wasm/memory.rs), and here at most MAX_SITES
// origins, the least recently learnt dropped first. Also the opt-in
// auto-apply sites (`autoApply` → { origin: view }) and the sites whose
// visited pages Extract learns from (`learnRoutes` → { origin: true }).
// Loaded by the content script, the popup and the options page.
'use strict';

globalThis.texMemory ??= (() => {
  const api = globalThis.browser ?? globalThis.chrome;
  const PREFIX = 'memory:';
  /** At ~20–60 kB per origin this stays well inside storage.local's 10 MB. */
  const MAX_SITES = 100;

  const key = (origin) => PREFIX + origin;

  /** Whether "Remember site templates" is on (the default). */
  async function enabled() {
    const { rememberTemplates } = await api.storage.local.get('rememberTemplates');
    return rememberTemplates !== false;
  }

  async function setEnabled(on) {
    await api.storage.local.set({ rememberTemplates: on });
  }

  /** The stored entry of `origin`, or null. */
  async function read(origin) {
    return (await api.storage.local.get(key(origin)))[key(origin)] ?? null;
  }

  /** The stored entry of `origin` when remembering is on, else null: one storage read per click. */
  async function readIfEnabled(origin) {
    const got = await api.storage.local.get(['rememberTemplates', key(origin)]);
    return got.rememberTemplates === false ? null : got[key(origin)] ?? null;
  }

  /** Every remembered origin as { origin, clusters, updated }, most recent first. */
  async function list() {
    const all = await api.storage.local.get(null);
    return Object.entries(all)
      .filter(([k]) => k.startsWith(PREFIX))
      .map(([k, v]) => ({ origin: k.slice(PREFIX.length), clusters: v.clusters, updated: v.updated, memory: v.memory }))
      .sort((a, b) => b.updated - a.updated);
  }

  /** Stores several origins at once (learning, import), then drops the oldest beyond MAX_SITES. */
  async function write(entries) {
    const now = Date.now();
    await api.storage.local.set(Object.fromEntries(entries.map(({ origin, memory, clusters }) =>
      [key(origin), { memory, clusters, updated: now }])));
    const excess = (await list()).slice(MAX_SITES);
    if (excess.length) await api.storage.local.remove(excess.map((e) => key(e.origin)));
  }

  async function forget(origin) {
    await api.storage.local.remove(key(origin));
  }

  async function clear() {
    await api.storage.local.remove((await list()).map((e) => key(e.origin)));
  }

  /** Sites whose remembered template is applied automatically: { origin: view }. */
  async function autoSites() {
    return (await api.storage.local.get('autoApply')).autoApply ?? {};
  }

  async function setAuto(origin, view) {
    const sites = await autoSites();
    if (view) sites[origin] = view; else delete sites[origin];
    await api.storage.local.set({ autoApply: sites });
  }

  /** The id of the content script registered for `origin`'s auto-apply. */
  const scriptId = (origin) => `tex-auto ${origin}`;
  /** Match patterns carry no port in Firefox: the host's pattern, narrowed by origin in memory-auto.js. */
  const pattern = (origin) => { const u = new URL(origin); return `${u.protocol}//${u.hostname}/*`; };

  /**
   * Asks for `origin`'s host permission (from a user gesture), then registers
   * the persistent content script `id` that runs `file` on the site's pages.
   * Resolves to false when the user refuses the permission.
   */
  async function registerSiteScript(origin, id, file) {
    const origins = [pattern(origin)];
    if (!(await api.permissions.request({ origins }))) return false;
    if (!(await api.scripting.getRegisteredContentScripts({ ids: [id] })).length) {
      await api.scripting.registerContentScripts([{
        id, matches: origins, runAt: 'document_idle', persistAcrossSessions: true,
        js: [...CORE_FILES, file],
      }]);
    }
    return true;
  }

  /**
   * Unregisters the content script `id`, then gives `origin`'s host permission
   * back unless another setting of the same host (auto-apply, learning) still
   * needs it. Call it once the setting is stored off.
   */
  async function unregisterSiteScript(origin, id) {
    if ((await api.scripting.getRegisteredContentScripts({ ids: [id] })).length) {
      await api.scripting.unregisterContentScripts({ ids: [id] });
    }
    // A permission the manifest itself grants cannot be removed; it was never ours to.
    const others = [...Object.keys(await autoSites()), ...Object.keys(await learnSites())]
      .filter((o) => pattern(o) === pattern(origin));
    if (!others.length) await api.permissions.remove({ origins: [pattern(origin)] }).catch(() => false);
  }

  /**
   * Turns auto-apply on for `origin` with `view`: the host permission for that
   * origin only, then a persistent content script. Resolves to false when the
   * user refuses the permission.
   */
  async function enableAuto(origin, view) {
    if (!(await registerSiteScript(origin, scriptId(origin), 'memory-auto.js'))) return false;
    await setAuto(origin, view);
    return true;
  }

  /** Turns auto-apply off for `origin`: the registration and the permission go. */
  async function disableAuto(origin) {
    await setAuto(origin, null);
    await unregisterSiteScript(origin, scriptId(origin));
  }

  /** Sites whose visited pages Extract learns from ("Learn from pages I visit"): { origin: true }. */
  async function learnSites() {
    return (await api.storage.local.get('learnRoutes')).learnRoutes ?? {};
  }

  async function setLearn(origin, on) {
    const sites = await learnSites();
    if (on) sites[origin] = true; else delete sites[origin];
    await api.storage.local.set({ learnRoutes: sites });
  }

  const learnScriptId = (origin) => `tex-learn ${origin}`;

  /**
   * Turns "Learn from pages I visit" on for `origin`: as auto-apply, the host
   * permission for that origin only, then a persistent content script that
   * watches the routes of each page of the site. Resolves to false when the
   * user refuses the permission.
   */
  async function enableLearn(origin) {
    if (!(await registerSiteScript(origin, learnScriptId(origin), 'route-learn.js'))) return false;
    await setLearn(origin, true);
    return true;
  }

  /** Turns it off for `origin`: the registration goes, and the permission unless auto-apply still needs it. */
  async function disableLearn(origin) {
    await setLearn(origin, false);
    await unregisterSiteScript(origin, learnScriptId(origin));
  }

  return {
    enabled, setEnabled, read, readIfEnabled, list, write, forget, clear, autoSites, setAuto, enableAuto, disableAuto,
    learnSites, enableLearn, disableLearn,
  };
})();
