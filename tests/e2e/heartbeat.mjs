// A heartbeat in the page under test: a timer ticking every 50 ms, whose
// longest gap is how long the tab was frozen (issue 24: no freeze over
// 200 ms), and Cancel's latency on the popup's own clock. Every function
// runs in the browser (page.evaluate, ff.execute).

/** Starts the heartbeat; gaps over 100 ms are kept with when they ended (ms since start). */
export function startHeartbeat() {
  const start = performance.now();
  const beat = { last: start, longest: 0, long: [] };
  window.texHeartbeat = beat;
  setInterval(() => {
    const now = performance.now();
    const gap = now - beat.last;
    beat.longest = Math.max(beat.longest, gap);
    if (gap > 100) beat.long.push([Math.round(now - start), Math.round(gap)]);
    beat.last = now;
  }, 50);
}

/** The longest gap so far and the gaps over 100 ms, `[ended at, gap]` in ms. */
export function heartbeat() {
  const { longest, long } = window.texHeartbeat;
  return { longest: Math.round(longest), long };
}

/**
 * Runs in the popup: notes when Cancel is clicked and when the error sentence is next drawn, on the
 * popup's own clock, so the latency leaves out the harness's round trips. The times are kept on the
 * popup's root element (a WebDriver script's globals do not outlive it in Firefox).
 */
export function watchCancel() {
  const times = document.documentElement.dataset;
  document.addEventListener('click', (e) => {
    if (e.target.closest?.('#cancel')) times.cancelClicked = performance.now();
  }, { capture: true });
  const error = document.getElementById('error');
  const observer = new MutationObserver(() => {
    if (error.hidden) return;
    observer.disconnect();
    requestAnimationFrame(() => { times.cancelShown = performance.now(); });
  });
  observer.observe(error, { attributes: true, attributeFilter: ['hidden'] });
}

/**
 * Runs in the popup: milliseconds from the click on Cancel to the sentence drawn (see `watchCancel`).
 * The harness may ask as soon as the sentence is shown, before the frame that draws it: the answer
 * waits for that frame (up to 5 s, else NaN, which fails the bound).
 */
export async function cancelLatency() {
  const times = document.documentElement.dataset;
  for (let waited = 0; times.cancelShown === undefined && waited < 5_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Number(times.cancelShown) - Number(times.cancelClicked);
}
