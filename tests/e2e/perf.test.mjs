// The perf script's own arithmetic and synthetic pages (no browser needed).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { growthExponent, median, syntheticPage } from '../../scripts/perf.mjs';

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
