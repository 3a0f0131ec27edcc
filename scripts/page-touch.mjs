// A page touched before a timed click, so that the click reads the page as a
// first Extract on it does: the extension keeps a page's snapshot between
// clicks while nothing in the page changes (src/wasm/live_snapshot.rs).

/**
 * Runs in the popup (its source is evaluated there): sets and removes an attribute on the root of the
 * page the popup is aimed at. The page ends as it was, but its snapshot is no longer current.
 */
export async function touchPage() {
  const api = globalThis.browser ?? globalThis.chrome;
  const { id } = await targetTab();
  const func = () => {
    document.documentElement.setAttribute('data-perf-touch', '');
    document.documentElement.removeAttribute('data-perf-touch');
  };
  await api.scripting.executeScript({ target: { tabId: id }, func });
}
