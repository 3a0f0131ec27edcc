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
  const func = async () => {
    document.documentElement.setAttribute('data-perf-touch', '');
    document.documentElement.removeAttribute('data-perf-touch');
    // The click then starts on a settled page, as a click again starts after the limit: the observer
    // has seen the change, and a frame has been painted (a hidden tab paints none: 100 ms at most).
    await new Promise((done) => setTimeout(done, 0));
    await new Promise((done) => {
      requestAnimationFrame(() => setTimeout(done, 0));
      setTimeout(done, 100);
    });
  };
  await api.scripting.executeScript({ target: { tabId: id }, func });
}
