// A heartbeat in the page under test: a timer ticking every 50 ms, whose
// longest gap is how long the tab was frozen (issue 24: no freeze over
// 200 ms). Both functions run in the page (page.evaluate, ff.execute).

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
