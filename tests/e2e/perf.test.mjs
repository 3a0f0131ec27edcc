// The perf script's own arithmetic and synthetic pages, and one short run of
// its measurement in each browser (what `build.sh perf` does, on small pages).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';

import { buildBinaries } from '../../scripts/bench.mjs';
import { growthExponent, launch, measureSet, median, syntheticPage, writeSyntheticSet } from '../../scripts/perf.mjs';

const elements = (html) => (html.match(/<[a-z][a-z0-9]*/g) ?? []).length;

test('synthetic pages have about the asked number of elements, in both shapes', () => {
  for (const shape of ['frame', 'siblings']) {
    for (const size of [1000, 20000]) {
      const n = elements(syntheticPage(shape, size, 2));
      assert.ok(Math.abs(n - size) / size < 0.02, `${shape} ${size}: ${n} elements`);
    }
  }
  assert.notEqual(syntheticPage('frame', 1000, 1), syntheticPage('frame', 1000, 2), 'pages differ in content');
  assert.match(syntheticPage('siblings', 1000, 0), /href="p4.html"/, 'every page links to every other');
});

test('growth exponent and median', () => {
  const xs = [1000, 5000, 20000, 100000];
  assert.ok(Math.abs(growthExponent(xs, xs.map((x) => 3 * x * x)) - 2) < 1e-9);
  assert.ok(Math.abs(growthExponent(xs, xs.map((x) => 0.5 * x)) - 1) < 1e-9);
  assert.ok(Number.isNaN(growthExponent([1000], [5])));
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

for (const name of ['chromium', 'firefox']) {
  test(`build.sh perf in ${name}: a click and its limit on each synthetic shape, over exactly the pages it loaded`, async () => {
    buildBinaries();
    const set = writeSyntheticSet([1000]);
    const browser = await launch(name);
    try {
      const rows = await measureSet(browser, set, 1, name);
      assert.deepEqual(rows.map((r) => r.site), ['frame-1k', 'siblings-1k']);
      for (const r of rows) {
        assert.equal(r.error, undefined, `${r.site}: ${r.error}`);
        assert.ok(r.loads >= 3 && r.pages_fetched_by_limit === r.loads,
          `${r.site}: the limit fetched the key page as served and the ${r.loads - 1} candidates loaded`);
        assert.ok(r.click_ms > 0 && r.limit_ms > 0 && r.ratio > 0, `${r.site}: click ${r.click_ms} ms, limit ${r.limit_ms} ms`);
        assert.ok(r.core_ms <= r.click_ms, `${r.site}: the core's phases fit inside the click`);
        assert.equal(r.fresh_reads, 1, `${r.site}: the click after the page was touched read it again`);
        assert.equal(r.kept_again, 1, `${r.site}: the click again on the unchanged page kept its snapshot`);
        assert.ok(r.again_ms > 0 && r.again_ratio > 0);
      }
    } finally {
      await browser.close();
      rmSync(set, { recursive: true, force: true });
    }
  });
}
