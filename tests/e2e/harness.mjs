// Shared e2e helpers: the built extension prepared for automation, the
// native CLI's verdict, DOM probes evaluated in the page under test, and the
// cases both browsers must pass the same way (error sentences, fetch rules, timings).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { serve } from './server.mjs';

export const ROOT = resolve(import.meta.dirname, '../..');
export const WWW = join(ROOT, 'www');
export const FIXTURES = join(ROOT, 'tests/e2e/fixtures');
export const ARTIFACTS = join(ROOT, 'test-artifacts');
export const KEY_PAGE = '/news/index.html';

/**
 * The dev sites one browser's view tests walk: every other site, Chromium
 * the even ones and Firefox the odd ones, so each site is laid out in one
 * browser and each browser sees sites of every genre, at half the suite's
 * minutes (all 30 in both browsers took five minutes of CI).
 */
export function devSitesFor(browser, sites) {
  const parity = { chromium: 0, firefox: 1 }[browser];
  return sites.filter((_, i) => i % 2 === parity);
}
mkdirSync(ARTIFACTS, { recursive: true });

/**
 * A copy of dist/<browser> for automation. A harness cannot click the
 * toolbar button (what grants activeTab to a real user), so the copy also
 * holds the test origin's host permission and "tabs" (to find the page's tab
 * by URL). Everything else is the shipped extension.
 */
export function automationCopy(browser) {
  const dir = mkdtempSync(join(tmpdir(), `tex-${browser}-`));
  cpSync(join(ROOT, 'dist', browser), dir, { recursive: true });
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.permissions.push('tabs');
  manifest.host_permissions = ['http://127.0.0.1/*'];
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return dir;
}

let cliCache = null;
/** The native CLI's extraction of the demo key page (`tex extract www news/index.html --json`). */
export function nativeExtraction() {
  if (cliCache) return cliCache;
  const out = join(mkdtempSync(join(tmpdir(), 'tex-cli-')), 'out.json');
  execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'tex', '--', 'extract', WWW, KEY_PAGE.slice(1), '--json', out, '--paths'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  cliCache = JSON.parse(readFileSync(out, 'utf8'));
  return cliCache;
}

/** Runs in the page: what the views did, element by element in snapshot order. */
export function probePage() {
  // Our marks are data-tex-<random word>-<kind>: find the word on any marked element.
  let ns = 'data-tex-none-';
  for (const e of document.querySelectorAll('*')) {
    const mark = [...e.attributes].map((a) => /^(data-tex-[0-9a-z]+-)(own|template|hidden)$/.exec(a.name)).find(Boolean);
    if (mark) { ns = mark[1]; break; }
  }
  const own = [...document.querySelectorAll(`[${ns}own]`)];
  // The window's size (in quirks mode the root element's client size is the document's); the points
  // keep clear of its scrollbars.
  const points = [0.02, 0.5, 0.95].flatMap((fx) => [0.02, 0.5, 0.95].map((fy) => [fx * innerWidth, fy * innerHeight]));
  const all = [document.documentElement, ...document.documentElement.querySelectorAll('*')]
    .filter((e) => !e.closest(`[${ns}own]`));
  const hiddenBy = (e) => e.closest(`[${ns}hidden]`) !== null;
  return {
    count: all.length,
    template: all.flatMap((e, i) => (e.hasAttribute(`${ns}template`) ? [i] : [])),
    hiddenRoots: all.flatMap((e, i) => (e.hasAttribute(`${ns}hidden`) ? [i] : [])),
    hidden: all.flatMap((e, i) => (hiddenBy(e) ? [i] : [])),
    rendered: all.flatMap((e, i) => (e.checkVisibility?.() ?? true ? [i] : [])),
    ownStyles: document.querySelectorAll(`style[${ns}own]`).length,
    // Share of nine points spread over the window that land on our own elements, not the page's (the
    // content view's reading panel covers the window).
    covered: points.filter(([x, y]) => own.some((o) => o.contains(document.elementFromPoint(x, y)))).length / points.length,
  };
}

/** Checks a probe against the native template ids for one view. */
export function checkView(assert, probe, templateIds, view) {
  const template = new Set(templateIds);
  if (view === 'original') {
    assert.deepEqual(probe.template, [], 'no template marks in the original view');
    assert.deepEqual(probe.hiddenRoots, []);
    assert.equal(probe.ownStyles, 0);
    return;
  }
  assert.deepEqual(probe.template, templateIds, `${view} view marks exactly the native template nodes`);
  assert.equal(probe.ownStyles, view === 'content' ? 0 : 1);
  const hidden = new Set(probe.hidden);
  const rendered = new Set(probe.rendered);
  for (let i = 0; i < probe.count; i++) {
    const shouldHide = view === 'template' ? !template.has(i) : false;
    if (view === 'template') assert.equal(hidden.has(i), shouldHide, `template view hides node ${i} iff it is content`);
    if (hidden.has(i)) assert.ok(!rendered.has(i), `hidden node ${i} is not rendered`);
  }
  if (view === 'content') {
    // The reading panel shows the content over the page, which it leaves as it is: nothing in it hidden.
    assert.deepEqual(probe.hiddenRoots, [], 'the content view hides nothing in the page');
    assert.equal(probe.covered, 1, 'the reading panel covers the window');
  }
}

/** Per-field medians of a list of timing records, rounded to 0.1 ms. */
function medians(runs) {
  const out = {};
  for (const key of Object.keys(runs[0])) {
    const xs = runs.map((r) => r[key]).sort((a, b) => a - b);
    out[key] = Math.round(xs[Math.floor(xs.length / 2)] * 10) / 10;
  }
  return out;
}

/** Writes `<browser>-timings.json` (every run and the medians) and returns the medians. */
export function recordTimings(browser, runs) {
  const median = medians(runs);
  writeFileSync(join(ARTIFACTS, `${browser}-timings.json`), JSON.stringify({ runs, median }, null, 2));
  return median;
}

/**
 * Registers the error-path tests both browsers must pass, each reported as its
 * one sentence: `errorOf(url)` extracts there and returns the popup's error,
 * `origin()` is the fixture server's origin (known once `before` has run).
 */
export function errorPathTests(test, assert, { errorOf, origin, restricted }) {
  const cases = [
    { what: 'a page without links', path: '/no-links/index.html',
      sentence: 'The page has no links to other pages of the same site, so there is nothing to compare it with.' },
    { what: 'a site whose candidate pages 404', path: '/dead-links/index.html',
      // The sentence gives a reason: the first failure.
      sentence: /^None of the 3 linked pages could be loaded, so there is nothing to compare the page with \(the first: http:\/\/127\.0\.0\.1:\d+\/missing\/(one|two|three)\.html (was not found|answered HTTP 404)\)\.$/ },
  ];
  for (const c of cases) {
    test(`${c.what} says so in one sentence`, async () => {
      const said = await errorOf(origin() + c.path);
      if (c.sentence instanceof RegExp) assert.match(said, c.sentence); else assert.equal(said, c.sentence);
    });
  }
  test(`a restricted page (${new URL(restricted).protocol}) says so in one sentence`, async () => {
    assert.equal(await errorOf(restricted),
      `The address ${restricted} is not a web page this extension can analyse (only http and https pages are).`);
  });
}

/**
 * Registers the weak-evidence test both browsers must pass: a page whose only
 * linked page is a print-all copy of it is no success, and the demo site's
 * key page, compared with three pages of its layout, is. `warningOf(url)`
 * extracts there and returns the popup's `{ warning, plain }`: its warning
 * (null when none shows) and its plain result line;
 * `origin()` serves the fixtures, `demo()` the demo site.
 */
export function weakEvidenceTests(test, assert, { warningOf, origin, demo }) {
  test('a page compared only with a copy of itself says so in one sentence, not as a success', async () => {
    const { warning, plain } = await warningOf(`${origin()}/print-copy/chapter.html`);
    assert.equal(warning, "The only pages found hold this page's own text (a copy, a print version or a translation), "
      + 'so nothing tells the template from the content: the whole page is shown as content.');
    assert.equal(plain, "No template found: no other page of the site could tell it apart from this page's own content.");
  });
  test('a page compared with pages of its layout shows no warning', async () => {
    const { warning, plain } = await warningOf(`${demo()}${KEY_PAGE}`);
    assert.equal(warning, null);
    assert.match(plain, /^Found the site's template/);
  });
}

/** Runs `once()` (one extraction, resolving to its report) `n` times and returns the timing records. */
export async function timeExtractions(n, once) {
  const runs = [];
  for (let i = 0; i < n; i++) {
    const t0 = Date.now();
    const report = await once();
    runs.push({ wall_ms: Date.now() - t0, key_snapshot_ms: report.key_snapshot_ms, ...report.timings });
  }
  return runs;
}

/** The options that make every fetch rule show: ten candidates wanted, a 1 s timeout. */
export const FETCH_RULES_CONFIG = { cs_size: 10, timeout_ms: 1000 };

/**
 * Two servers for the fetch rules: `tricky` links to a slow page, a text file,
 * a 404, a same-origin 301 and a 302 to `elsewhere`, another origin that must
 * never receive a request.
 */
export async function fetchRulesServers() {
  const elsewhere = await serve(FIXTURES);
  const tricky = await serve(FIXTURES, { routes: {
    '/loads/slow.html': (req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late'), 3000),
    '/loads/away': (req, res) => res.writeHead(302, { location: `${elsewhere.origin}/loads/a.html` }).end(),
    '/loads/moved': (req, res) => res.writeHead(301, { location: '/loads/b.html' }).end(),
    '/loads/data': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('just text'),
  } });
  return { elsewhere, tricky, close: () => Promise.all([tricky.close(), elsewhere.close()]) };
}

/** Each candidate's outcome in the extraction `report` is what the fetch rules demand. */
export function assertFetchRules(assert, report, { elsewhere }) {
  const outcome = Object.fromEntries(report.load_log.map((r) => [new URL(r.url).pathname, r.error?.kind ?? 'ok']));
  assert.deepEqual(outcome, {
    '/loads/a.html': 'ok',
    '/loads/slow.html': 'timeout',
    '/loads/data': 'not_html',
    '/loads/away': 'redirect',
    '/loads/missing.html': 'not_found',
    '/loads/moved': 'ok',
  });
  assert.equal(elsewhere.hits, 0, 'no request reached the other origin');
}
