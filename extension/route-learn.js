// "Learn from pages I visit", opt-in per site: registered (memory-store.js
// enableLearn) for one site only, after the core. On each page of that site,
// if it is still opted in, starts keeping the routes the user visits (in the
// page only). Never loads a page.
'use strict';

(async () => {
  if (!(await globalThis.texMemory.learnSites())[location.origin]) return;
  const core = globalThis.texCore;
  // Where the page's CSP forbids WebAssembly only the popup can run the core (as wasm2js).
  if ((core.engine ?? (await core.init())) === 'needs-wasm2js') return;
  core.call('learnRoutes', []);
})();
