// `build.sh perf SET_DIR --memory [--runs N]`: the known-template click.
// Per site of the set, in headless Chromium and then Firefox with the extension loaded, the
// pages the native `tex bench --memory-check` learns from (non-key pages, in
// the key page's link order, until the key page fits a cluster) are extracted
// through the popup's path and learnt; then on the key page, alternately, the
// popup's Extract click with memory (timed in the popup, as perf.mjs times a
// click) and, once, the full extraction. Prints per site the median click,
// its split (reading the stored memory, snapshot of the live page, matching
// the cluster, other work in the page: storage and the page view; and the
// script round trips between popup and page, from an interleaved call timed
// inside the page), the
// loads and F1 from memory beside the full extraction's, and the macro F1 of
// both (a key page no cluster fits falls back to the full method, as the CLI does).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { launchFirefox } from '../tests/e2e/firefox.mjs';
import { serveSet } from './bench.mjs';
import { touchPage } from './page-touch.mjs';

const ROOT = resolve(import.meta.dirname, '..');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const f1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const f2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '-');
const pct = (v) => (Number.isFinite(v) ? (100 * v).toFixed(2) : '-');

/** The native memory check of `set`: per site id, the pages it learnt from. */
function nativeLearnt(set) {
  const out = join(mkdtempSync(join(tmpdir(), 'tex-perf-memory-')), 'memory-check.json');
  execFileSync(join(ROOT, 'target/release/tex'), ['bench', set, '--memory-check', '--json', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const [{ sites }] = JSON.parse(readFileSync(out, 'utf8'));
  return Object.fromEntries(sites.map((s) => [s.site, s]));
}

/**
 * One click of the popup's Extract (`mode` as content.js takes it), timed in
 * the popup. Runs in the popup, where WebDriver (Firefox) sees the window's
 * properties (runner.js's functions) but not popup.js's `let tab`: the tab is
 * found again from ?url=, as popup.js finds it.
 */
async function click(mode) {
  const ext = globalThis.browser ?? globalThis.chrome;
  const url = new URLSearchParams(location.search).get('url');
  const target = (await ext.tabs.query({})).find((x) => x.url === url);
  if (!target) return { error: 'the page did not open in a tab of its own' };
  const t0 = performance.now();
  const answer = await callCore(target.id, 'extract', await storedConfig(), mode ?? undefined);
  const ms = performance.now() - t0;
  return answer?.ok ? { ms, summary: answer.value } : { error: answer?.error ?? 'no answer' };
}

/** The same click's work inside the page alone (content script entry to its answer): click minus this is the script round trips. Runs in the popup. */
async function inPage() {
  const ext = globalThis.browser ?? globalThis.chrome;
  const url = new URLSearchParams(location.search).get('url');
  const target = (await ext.tabs.query({})).find((x) => x.url === url);
  const [result] = await ext.scripting.executeScript({
    target: { tabId: target.id },
    func: async (config) => {
      const t0 = performance.now();
      await globalThis.texCore.call('extract', [config, 'use']);
      return performance.now() - t0;
    },
    args: [await storedConfig()],
  });
  return result.result;
}

/** Chromium (launchChromium): `withPopup(url, work)` opens `url` and its popup and runs `work(evaluate)` there. */
export function chromiumDriver(browser) {
  return {
    name: `Chromium ${browser.context.browser()?.version() ?? ''}`.trim(),
    async withPopup(url, work) {
      const page = await browser.context.newPage();
      await page.goto(url);
      const popup = await browser.context.newPage();
      await popup.goto(browser.popupUrl(page.url()));
      await popup.waitForSelector('body[data-ready="true"], #error:not([hidden])');
      try {
        return await work((fn, arg) => popup.evaluate(fn, arg ?? null));
      } finally {
        await Promise.all([page.close(), popup.close()]);
      }
    },
  };
}

/** Firefox (launchFirefox): the same through WebDriver. */
export function firefoxDriver(ff, version) {
  return {
    name: `Firefox ${version}`,
    async withPopup(url, work) {
      const page = await ff.openTab(url);
      const actual = await ff.execute(() => location.href);
      const popup = await ff.openTab(ff.popupUrl(actual));
      await ff.waitFor('body[data-ready="true"], #error:not([hidden])');
      try {
        return await work(async (fn, arg) => {
          const out = await ff.execute(fn, arg ?? null);
          if (out?.__error) throw new Error(out.__error);
          return out;
        });
      } finally {
        await ff.closeTab(popup);
        await ff.closeTab(page);
      }
    },
  };
}

/**
 * Why a browser cannot stay on `url` to extract it, or null: anything but an
 * HTML page opens as a download, and a meta refresh leaves for another page
 * (on the dev set, another host, which must not be contacted).
 */
async function notAPage(url) {
  const response = await fetch(url).catch(() => null);
  if (!response?.ok || !/html/.test(response.headers.get('content-type') ?? '')) return 'not served as an HTML page';
  return /<meta[^>]+http-equiv=["']?refresh/i.test(await response.text()) ? 'a meta refresh leaves the page' : null;
}

async function measureSite(driver, site, learnt, runs) {
  const skipped = [];
  for (const path of learnt) {
    const url = new URL(path, site.origin).href;
    // A page the browser cannot extract is skipped, as the CLI skips a page it cannot load.
    const why = await notAPage(url);
    if (why) { skipped.push(`${path} (${why})`); continue; }
    const learn = await driver.withPopup(url, (evaluate) => evaluate(click, 'relearn'));
    if (learn.error) skipped.push(`${path} (${typeof learn.error === 'string' ? learn.error : JSON.stringify(learn.error)})`);
  }
  return driver.withPopup(site.key_url, async (evaluate) => {
    const full = await evaluate(click);
    if (full.error) return { error: full.error };
    const clicks = [];
    const inPageMs = [];
    for (let i = 0; i < runs; i++) {
      // Each known-template click reads the page, as on a page not clicked before.
      await evaluate(touchPage);
      const c = await evaluate(click, 'use');
      if (c.error) return { error: c.error };
      clicks.push(c);
      await evaluate(touchPage);
      inPageMs.push(await evaluate(inPage));
    }
    const s = clicks[clicks.length - 1].summary;
    const fromMemory = Boolean(s.memory);
    const read = median(clicks.map((c) => c.summary.memory?.read_ms ?? NaN));
    const snapshot = median(clicks.map((c) => c.summary.key_snapshot_ms));
    const match = median(clicks.map((c) => c.summary.memory?.match_ms ?? NaN));
    const ms = median(clicks.map((c) => c.ms));
    const page = median(inPageMs);
    return {
      learnt, skipped, from_memory: fromMemory, loads: s.loads, click_ms: ms, read_ms: read, key_snapshot_ms: snapshot,
      match_ms: match, in_page_ms: page, page_rest_ms: page - read - snapshot - match, round_trips_ms: ms - page, similarity: s.memory?.similarity ?? null,
      f1_memory: s.check?.f1 ?? NaN, f1_full: full.summary.check?.f1 ?? NaN, full_click_ms: full.ms, full_loads: full.summary.loads,
    };
  });
}

function printMemory(rows, runs, browserName) {
  console.log(`\n== ${browserName}: known-template click (Extract on a page of a remembered layout): medians of ${runs} (ms) ==`);
  console.log(['site'.padEnd(16), 'memory'.padStart(6), 'loads'.padStart(5), 'click'.padStart(7), 'read'.padStart(6), 'snap'.padStart(6),
    'match'.padStart(6), 'other'.padStart(6), 'trips'.padStart(6), 'F1 mem'.padStart(7), 'F1 full'.padStart(7), 'full'.padStart(7), 'learnt from'].join(' '));
  for (const r of rows) {
    if (r.error) { console.log(`${r.site.padEnd(16)} error: ${r.error}`); continue; }
    console.log([r.site.padEnd(16), (r.from_memory ? 'yes' : 'no fit').padStart(6), String(r.loads).padStart(5), f1(r.click_ms).padStart(7),
      f1(r.read_ms).padStart(6), f1(r.key_snapshot_ms).padStart(6), f1(r.match_ms).padStart(6), f1(r.page_rest_ms).padStart(6), f1(r.round_trips_ms).padStart(6),
      pct(r.f1_memory).padStart(7), pct(r.f1_full).padStart(7), f1(r.full_click_ms).padStart(7), r.learnt.join(' ')].join(' '));
    for (const s of r.skipped) console.log(`${''.padEnd(16)} skipped: ${s}`);
  }
  const ok = rows.filter((r) => !r.error);
  const served = ok.filter((r) => r.from_memory);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const summary = {
    sites: ok.length,
    served: served.length,
    served_loads: served.reduce((a, r) => a + r.loads, 0),
    median_click_ms: median(served.map((r) => r.click_ms)),
    median_read_ms: median(served.map((r) => r.read_ms)),
    median_snapshot_ms: median(served.map((r) => r.key_snapshot_ms)),
    median_match_ms: median(served.map((r) => r.match_ms)),
    median_in_page_ms: median(served.map((r) => r.in_page_ms)),
    median_page_rest_ms: median(served.map((r) => r.page_rest_ms)),
    median_round_trips_ms: median(served.map((r) => r.round_trips_ms)),
    macro_f1_memory: mean(ok.map((r) => r.f1_memory)),
    macro_f1_full: mean(ok.map((r) => r.f1_full)),
    served_f1_memory: mean(served.map((r) => r.f1_memory)),
    served_f1_full: mean(served.map((r) => r.f1_full)),
  };
  console.log(`served from memory ${summary.served}/${summary.sites} sites with ${summary.served_loads} loads; ` +
    `median click ${f1(summary.median_click_ms)} ms (read ${f2(summary.median_read_ms)}, snapshot ${f2(summary.median_snapshot_ms)}, ` +
    `match ${f2(summary.median_match_ms)}, other work in the page ${f2(summary.median_page_rest_ms)}, ` +
    `script round trips ${f2(summary.median_round_trips_ms)}); in the page alone ${f1(summary.median_in_page_ms)} ms`);
  console.log(`macro F1: memory ${pct(summary.macro_f1_memory)} (sites no cluster fits: the full method), full ${pct(summary.macro_f1_full)}; ` +
    `on the ${summary.served} served: memory ${pct(summary.served_f1_memory)}, full ${pct(summary.served_f1_full)}`);
  return summary;
}

async function measureIn(driver, set, native, runs) {
  const served = await serveSet(set);
  const rows = [];
  try {
    for (const site of served.sites) {
      process.stderr.write(`memory ${driver.name} ${site.id} …\n`);
      const learnt = native[site.id]?.learnt ?? [];
      rows.push({ site: site.id, ...(await measureSite(driver, site, learnt, runs)) });
    }
  } finally {
    await served.stop();
  }
  return { browser: driver.name, sites: rows, summary: printMemory(rows, runs, driver.name) };
}

/**
 * Runs the known-template measurement on `set` in `browser` (launchChromium),
 * then in a Firefox of its own beside it; resolves to `{ chromium, firefox }`.
 */
export async function measureMemory(browser, set, runs) {
  const native = nativeLearnt(set);
  const chromium = await measureIn(chromiumDriver(browser), set, native, runs);
  const ff = await launchFirefox();
  try {
    const caps = await ff.driver.getCapabilities();
    const firefox = await measureIn(firefoxDriver(ff, caps.getBrowserVersion()), set, native, runs);
    return { chromium, firefox };
  } finally {
    await ff.close();
  }
}
