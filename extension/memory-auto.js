// Auto-apply, opt-in per site: registered (memory-store.js enableAuto) for one
// site only, after content.js. On each page of that site, if it is still opted
// in and the page fits a remembered cluster, shows the chosen view; otherwise
// does nothing. Never loads a page: the popup's Extract does that.
'use strict';

(async () => {
  if (globalThis.texAutoApplied) return;
  globalThis.texAutoApplied = true;
  const api = globalThis.browser ?? globalThis.chrome;
  const view = (await globalThis.texMemory.autoSites())[location.origin];
  if (!view) return;
  const core = globalThis.texCore;
  // Where the page's CSP forbids WebAssembly only the popup can run the core (as wasm2js).
  if ((core.engine ?? (await core.init())) === 'needs-wasm2js') return;
  const { config } = await api.storage.local.get('config');
  const answer = await core.call('extract', [config ?? {}, 'only']);
  if (answer.ok && answer.value) core.call('setView', [view]);
})();
