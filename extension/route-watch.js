// Notices when a single-page app moves to another route, for "Learn from
// pages I visit". A content script cannot see the page's own pushState or
// replaceState (they run in the page's world and fire no event), so the
// watcher compares location.href with the last route it saw whenever
// something could have changed it: the page's DOM changing (a router renders
// the new route), popstate and hashchange (back, forward, hash routes), and
// a slow poll for a route change that renders nothing. Once the address has
// changed and the DOM has been quiet for SETTLE_MS (the route has rendered),
// it calls `onRoute`. Injected with the core; inert until started.
'use strict';

globalThis.texRouteWatch ??= (() => {
  /** The route has rendered when the DOM has not changed for this long. */
  const SETTLE_MS = 250;
  /** A route still changing after this long is taken as it is. */
  const MAX_WAIT_MS = 3000;
  const POLL_MS = 500;
  let started = false;

  /** Calls `onRoute()` for the route now shown and for each route the page moves to. */
  function start(onRoute) {
    if (started) return;
    started = true;
    let seen = null;
    let settle = null;
    let since = 0;
    const take = () => {
      settle = null;
      seen = location.href;
      onRoute();
    };
    const changed = () => {
      if (location.href === seen && !settle) return;
      // The route keeps rendering: wait until it is quiet, but not forever.
      if (!settle) since = Date.now();
      clearTimeout(settle);
      settle = setTimeout(take, Date.now() - since > MAX_WAIT_MS ? 0 : SETTLE_MS);
    };
    new MutationObserver(changed).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    addEventListener('popstate', changed);
    addEventListener('hashchange', changed);
    setInterval(() => location.href !== seen && changed(), POLL_MS);
    take();
  }

  return { start };
})();
