// `build.sh perf SET_DIR [--runs N] [--synthetic-runs M] [--sizes 1000,5000,...] [--no-synthetic] [--out FILE]
// [--browser chromium|firefox]`: how far a click is from the browser's own work. For every key page of the set
// (served by tex-serve) and for synthetic pages of growing size, in one tab of
// headless Chromium (Playwright) or Firefox ESR (selenium) with the extension loaded, alternately:
//   click — what the popup's Extract button runs (runner.js callCore: the script
//           round trips, the core's extraction, the report back), timed in the popup;
//   limit — fetching and DOMParser-parsing exactly the pages that extraction
//           loaded (the key page as served, then the linked pages), 4 at a time,
//           in the content script's world of the same tab.
// Prints medians per page, click/limit, its median over the set, the core's
// phases, and per synthetic shape the growth exponent of each phase
// (slope of log time over log elements).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { launchChromium } from '../tests/e2e/chromium.mjs';
import { launchFirefox } from '../tests/e2e/firefox.mjs';
import { buildBinaries, serveSet } from './bench.mjs';
import { touchPage } from './page-touch.mjs';
import { measureMemory } from './perf-memory.mjs';

const PHASES = ['fetch_ms', 'parse_ms', 'snapshot_ms', 'link_order_ms', 'cs_search_ms', 'mapping_ms'];
const SHORT = { fetch_ms: 'fetch', parse_ms: 'parse', snapshot_ms: 'snap', link_order_ms: 'order', cs_search_ms: 'cs', mapping_ms: 'map' };

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/** Least-squares slope of log(y) over log(x), points with y ≤ 0 left out. */
export function growthExponent(xs, ys) {
  const pts = xs.map((x, i) => [Math.log(x), Math.log(ys[i])]).filter(([, y]) => Number.isFinite(y));
  if (pts.length < 2) return NaN;
  const mx = pts.reduce((s, [x]) => s + x, 0) / pts.length;
  const my = pts.reduce((s, [, y]) => s + y, 0) / pts.length;
  const num = pts.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = pts.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return num / den;
}

const PAGES = 5;

/**
 * One page of a synthetic site of `PAGES` mutually linked pages with about
 * `elements` elements: `frame` is a template frame (header menu, sidebar,
 * footer) around a large content of nested blocks; `siblings` is one list of
 * that many similar items.
 */
export function syntheticPage(shape, elements, page) {
  const menu = Array.from({ length: PAGES }, (_, i) => `<li><a href="p${i}.html">Page ${i}</a></li>`).join('');
  const frameOpen = `<!doctype html><html><head><title>Page ${page}</title></head><body>` +
    `<header class="top"><nav class="menu"><ul>${menu}</ul></nav></header>` +
    `<aside class="side"><ul>${Array.from({ length: 10 }, (_, i) => `<li class="s">Section ${i}</li>`).join('')}</ul></aside>`;
  const frameClose = '<footer class="foot"><p>Site footer</p></footer></body></html>';
  const fixed = 5 + 2 * PAGES + 2 + 10 + 4 + 2;
  const parts = [];
  if (shape === 'frame') {
    // A block is 8 elements: section, h2, two p, ul with three li.
    for (let b = 0; b * 8 < elements - fixed; b++) {
      parts.push(`<section class="block"><h2>Heading ${b} of page ${page}</h2><p>Text ${b} on page ${page}.</p>` +
        `<p>More ${b * page}.</p><ul><li>a${b}</li><li>b${page}</li><li>c${b + page}</li></ul></section>`);
    }
    return `${frameOpen}<main class="content">${parts.join('')}</main>${frameClose}`;
  }
  for (let i = 0; i < elements - fixed; i++) parts.push(`<li class="item">Item ${i} of page ${page}</li>`);
  return `${frameOpen}<main class="content"><ul class="items">${parts.join('')}</ul></main>${frameClose}`;
}

/** Writes a benchmark set of synthetic sites (one per shape and size) under a fresh folder. */
export function writeSyntheticSet(sizes) {
  const set = mkdtempSync(join(tmpdir(), 'tex-perf-synthetic-'));
  const ids = [];
  for (const shape of ['frame', 'siblings']) {
    for (const size of sizes) {
      const id = `${shape}-${size >= 1000 ? `${size / 1000}k` : size}`;
      ids.push(id);
      mkdirSync(join(set, id, 'site'), { recursive: true });
      writeFileSync(join(set, id, 'bench.json'), JSON.stringify({ id, key: 'p0.html', shape, elements: size }));
      for (let p = 0; p < PAGES; p++) writeFileSync(join(set, id, 'site', `p${p}.html`), syntheticPage(shape, size, p));
    }
  }
  writeFileSync(join(set, 'index.json'), JSON.stringify(ids));
  return set;
}

/** Runs in the content script's world: fetches and parses `urls`, 4 at a time, as the extension's fetches do. */
function limitInPage(urls) {
  return (async () => {
    // What the click left queued in the page runs first, off the clock: the outline, drawn in the task after
    // its answer, and the frame that paints it (a hidden tab paints none: then 100 ms at most).
    await new Promise((done) => setTimeout(done, 0));
    await new Promise((done) => {
      requestAnimationFrame(() => setTimeout(done, 0));
      setTimeout(done, 100);
    });
    const t0 = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < urls.length) {
        const url = urls[next++];
        try {
          const response = await fetch(url, { mode: 'same-origin', credentials: 'same-origin', redirect: 'follow' });
          const text = await response.text();
          new DOMParser().parseFromString(text, 'text/html');
        } catch {
          // A page the extraction failed to load cost what it cost; there is nothing to parse.
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return performance.now() - t0;
  })();
}

/** Runs in the popup: one click (what the Extract button runs), timed there, and what it loaded. */
async function clickInPopup() {
  // callCore, storedConfig and targetTab are functions of runner.js and popup.js (its `let tab` is out of
  // reach of Firefox's WebDriver scripts); the tab and the configuration are read before the clock starts,
  // as the popup has them before the button is pressed.
  const { id } = await targetTab();
  const config = await storedConfig();
  const t0 = performance.now();
  const answer = await callCore(id, 'extract', config);
  const ms = performance.now() - t0;
  if (!answer?.ok) return { error: answer?.error ?? 'no answer' };
  // The click returns the popup's summary; the loads' URLs are in the full report, kept in the page.
  // The key page as served is one more page the click loads (src/served/served_key.rs).
  const r = (await callCore(id, 'state', true)).value.report;
  return {
    ms,
    timings: r.timings,
    key_snapshot_ms: r.key_snapshot_ms,
    kept: r.key_snapshot_kept,
    loads: r.loads,
    fetched: r.fetched,
    nodes: r.total_nodes,
    served_fetch_ms: r.key_source.fetch_ms,
    urls: [r.key_source.url, ...r.load_log.map((l) => l.url)],
  };
}

/** Source of a popup function running limitInPage in the key page's tab, in the content scripts' world. */
const LIMIT_IN_POPUP = `async (urls) => {
  const api = globalThis.browser ?? globalThis.chrome;
  const { id } = await targetTab();
  const [result] = await api.scripting.executeScript({ target: { tabId: id }, func: ${limitInPage.toString()}, args: [urls] });
  return result.result;
}`;

const READY = 'body[data-ready="true"], #error:not([hidden])';

/**
 * The key page in a tab and the popup aimed at it, in Chromium (Playwright)
 * or Firefox (selenium); `run(source, ...args)` calls a function in the popup.
 */
async function openSession(browser, keyUrl) {
  if (browser.name === 'firefox') {
    const ff = browser.driver;
    const keyTab = await ff.openTab(keyUrl);
    const popupTab = await ff.openTab(ff.popupUrl(await ff.driver.getCurrentUrl()));
    await ff.waitFor(READY);
    const run = async (source, ...args) => {
      const out = await ff.execute(String(source), ...args);
      if (out?.__error) throw new Error(out.__error);
      return out;
    };
    return { run, close: async () => { await ff.closeTab(popupTab); await ff.closeTab(keyTab); } };
  }
  const page = await browser.driver.context.newPage();
  await page.goto(keyUrl);
  const popup = await browser.driver.context.newPage();
  await popup.goto(browser.driver.popupUrl(page.url()));
  await popup.waitForSelector(READY);
  // Playwright evaluates the source in the popup (the extension's CSP allows no eval of its own).
  const run = (source, ...args) => popup.evaluate(`(${source})(...${JSON.stringify(args)})`);
  return { run, close: async () => { await page.close(); await popup.close(); } };
}

/**
 * Measures one key page after one warm-up click: `runs` rounds of a click that reads the page (as the
 * first Extract on a page does), the limit of what it loaded, and a click again on the unchanged page.
 */
async function measurePage(browser, keyUrl, runs) {
  const session = await openSession(browser, keyUrl);
  // A touched page is read again, as by a first Extract; untouched, a click again keeps the snapshot.
  const click = async (touch) => {
    if (touch) await session.run(touchPage);
    return session.run(clickInPopup);
  };
  const limit = (urls) => session.run(LIMIT_IN_POPUP, urls);
  try {
    const warm = await click(true);
    if (warm.error) return { error: warm.error };
    await limit(warm.urls);
    const clicks = [];
    const limits = [];
    const again = [];
    for (let i = 0; i < runs; i++) {
      const c = await click(true);
      if (c.error) return { error: c.error };
      clicks.push(c);
      limits.push(await limit(c.urls));
      const a = await click(false);
      if (a.error) return { error: a.error };
      again.push(a);
    }
    const last = clicks[clicks.length - 1];
    const row = {
      nodes: last.nodes,
      loads: last.loads,
      fetched: last.fetched,
      pages_fetched_by_limit: last.urls.length,
      click_ms: median(clicks.map((c) => c.ms)),
      limit_ms: median(limits),
      core_ms: median(clicks.map((c) => c.timings.total_ms + c.key_snapshot_ms)),
      key_snapshot_ms: median(clicks.map((c) => c.key_snapshot_ms)),
      served_fetch_ms: median(clicks.map((c) => c.served_fetch_ms)),
      again_ms: median(again.map((c) => c.ms)),
      // Touched clicks that read the page, and clicks again that kept the snapshot: each should be `runs`.
      fresh_reads: clicks.filter((c) => !c.kept).length,
      kept_again: again.filter((c) => c.kept).length,
      runs,
    };
    for (const p of PHASES) row[p] = median(clicks.map((c) => c.timings[p]));
    row.ratio = row.click_ms / row.limit_ms;
    row.again_ratio = row.again_ms / row.limit_ms;
    return row;
  } finally {
    await session.close();
  }
}

/** Headless `name` (chromium or firefox) with the extension loaded, as {@link measureSet} drives it. */
export async function launch(name) {
  if (name === 'firefox') {
    const driver = await launchFirefox();
    const version = async () => `Firefox ${(await driver.driver.getCapabilities()).get('browserVersion')}`;
    return { name, driver, version, close: () => driver.close() };
  }
  const driver = await launchChromium();
  const version = async () => `Chromium ${driver.context.browser()?.version() ?? 'unknown'}`;
  return { name, driver, version, close: () => driver.close() };
}

/** One row per site of `set`: its medians over `runs` click/limit pairs, or its error. */
export async function measureSet(browser, set, runs, label) {
  const served = await serveSet(set);
  const rows = [];
  try {
    for (const site of served.sites) {
      process.stderr.write(`${label} ${site.id} …\n`);
      rows.push({ site: site.id, ...(await measurePage(browser, site.key_url, runs)) });
    }
  } finally {
    await served.stop();
  }
  return rows;
}

const f1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '-');

function printRows(title, rows) {
  console.log(`\n== ${title} ==`);
  console.log(['page'.padEnd(16), 'nodes'.padStart(7), 'loads'.padStart(5), 'click'.padStart(8), 'limit'.padStart(8),
    'ratio'.padStart(6), 'again'.padStart(8), 'ratio'.padStart(6), 'core'.padStart(8), 'keysnap'.padStart(8),
    'served'.padStart(8), ...PHASES.map((p) => SHORT[p].padStart(8))].join(' '));
  for (const r of rows) {
    if (r.error) { console.log(`${r.site.padEnd(16)} error: ${r.error}`); continue; }
    console.log([r.site.padEnd(16), String(r.nodes).padStart(7), String(r.loads).padStart(5), f1(r.click_ms).padStart(8),
      f1(r.limit_ms).padStart(8), f2(r.ratio).padStart(6), f1(r.again_ms).padStart(8), f2(r.again_ratio).padStart(6),
      f1(r.core_ms).padStart(8), f1(r.key_snapshot_ms).padStart(8), f1(r.served_fetch_ms).padStart(8),
      ...PHASES.map((p) => f1(r[p]).padStart(8))].join(' '));
  }
  const ok = rows.filter((r) => !r.error);
  const ratios = ok.map((r) => r.ratio);
  console.log(`click/limit: median ${f2(median(ratios))}, min ${f2(Math.min(...ratios))}, max ${f2(Math.max(...ratios))}; ` +
    `median click ${f1(median(ok.map((r) => r.click_ms)))} ms, median limit ${f1(median(ok.map((r) => r.limit_ms)))} ms`);
  const again = ok.map((r) => r.again_ratio);
  console.log(`again/limit (a click again on the unchanged page, its snapshot kept): median ${f2(median(again))}, ` +
    `min ${f2(Math.min(...again))}, max ${f2(Math.max(...again))}; snapshot kept in ` +
    `${ok.reduce((n, r) => n + r.kept_again, 0)} of ${ok.reduce((n, r) => n + r.runs, 0)} clicks again, ` +
    `page read again in ${ok.reduce((n, r) => n + r.fresh_reads, 0)} of the others`);
}

function printGrowth(rows) {
  console.log('\n== growth exponents (slope of log ms over log elements) ==');
  console.log(['shape'.padEnd(10), 'click'.padStart(6), 'limit'.padStart(6), 'core'.padStart(6), 'keysnap'.padStart(7),
    ...PHASES.map((p) => SHORT[p].padStart(6))].join(' '));
  const exponents = {};
  for (const shape of ['frame', 'siblings']) {
    const mine = rows.filter((r) => !r.error && r.site.startsWith(shape));
    const x = mine.map((r) => r.nodes);
    const e = Object.fromEntries(['click_ms', 'limit_ms', 'core_ms', 'key_snapshot_ms', ...PHASES]
      .map((k) => [k, growthExponent(x, mine.map((r) => r[k]))]));
    exponents[shape] = e;
    console.log([shape.padEnd(10), f2(e.click_ms).padStart(6), f2(e.limit_ms).padStart(6), f2(e.core_ms).padStart(6),
      f2(e.key_snapshot_ms).padStart(7), ...PHASES.map((p) => f2(e[p]).padStart(6))].join(' '));
  }
  return exponents;
}

function parseArgs(argv) {
  const args = { set: null, runs: 7, syntheticRuns: 3, sizes: [1000, 5000, 20000, 50000, 100000], synthetic: true, out: null, browser: 'chromium' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') args.runs = Number(argv[++i]);
    else if (a === '--synthetic-runs') args.syntheticRuns = Number(argv[++i]);
    else if (a === '--sizes') args.sizes = argv[++i].split(',').map(Number);
    else if (a === '--no-synthetic') args.synthetic = false;
    else if (a === '--memory') args.memory = true;
    else if (a === '--out') args.out = argv[++i];
    else if (a === '--browser') args.browser = argv[++i];
    else if (!args.set) args.set = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!args.set || !(args.runs > 0) || !(args.syntheticRuns > 0) || args.sizes.some((s) => !(s > 100)) ||
      !['chromium', 'firefox'].includes(args.browser)) {
    throw new Error('usage: build.sh perf SET_DIR [--runs N] [--synthetic-runs M] [--sizes 1000,5000,...] [--no-synthetic] [--memory] [--out FILE] [--browser chromium|firefox]');
  }
  // One report per browser, so runs in both browsers sit side by side.
  args.out ??= args.memory ? 'target/perf/memory.json'
    : args.browser === 'chromium' ? 'target/perf/report.json' : `target/perf/report-${args.browser}.json`;
  return args;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  let synthetic = null;
  try {
    const args = parseArgs(process.argv.slice(2));
    buildBinaries();
    const browser = await launch(args.memory ? 'chromium' : args.browser);
    const report = { browser: await browser.version(), runs: args.runs, set: resolve(args.set) };
    try {
      // --memory: only the known-template click, measured in this Chromium and in a Firefox of its own (scripts/perf-memory.mjs).
      if (args.memory) report.memory = await measureMemory(browser.driver, args.set, args.runs);
      else report.sites = await measureSet(browser, args.set, args.runs, 'set');
      if (report.sites) printRows(`${args.set}: medians of ${args.runs} (ms)`, report.sites);
      if (args.synthetic && !args.memory) {
        synthetic = writeSyntheticSet(args.sizes);
        report.synthetic = await measureSet(browser, synthetic, args.syntheticRuns, 'synthetic');
        printRows(`synthetic pages: medians of ${args.syntheticRuns} (ms)`, report.synthetic);
        report.exponents = printGrowth(report.synthetic);
      }
    } finally {
      await browser.close();
    }
    mkdirSync(dirname(resolve(args.out)), { recursive: true });
    writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwrote ${args.out} (${report.browser})`);
  } catch (e) {
    console.error(`error: ${e.message ?? e}`);
    process.exitCode = 1;
  } finally {
    if (synthetic) rmSync(synthetic, { recursive: true, force: true });
  }
}
