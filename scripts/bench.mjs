// `build.sh bench SET_DIR [--out FILE] [--configs a,b] [--browser chromium|firefox]`:
// Check benchmarks in headless Chromium or Firefox. Serves the set with tex-serve, opens the extension's own
// results page (bench.html, the page the options page's button opens) with ?run=1,
// waits for its report, then runs the native CLI's `bench` on the same set
// and configurations and records, per site and configuration, whether both
// agree and, where not, why. Writes the JSON report and prints its table.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

import { launchChromium } from '../tests/e2e/chromium.mjs';
import { launchFirefox } from '../tests/e2e/firefox.mjs';

const ROOT = resolve(import.meta.dirname, '..');
export const CONFIGS = ['current', 'paper', 'intersection', 'rtdm'];
export const BROWSERS = ['chromium', 'firefox'];
/** The CLI preset a configuration of the results page is compared with: a fresh
 * browser profile has no stored options, so `current` is the core's default preset. */
export const nativeName = (config) => (config === 'current' ? 'default' : config);
/** Fields that must be equal for the browser and the CLI to agree. */
const AGREEMENT_FIELDS = ['nodes', 'gold', 'retrieved', 'correct', 'loads', 'cs_size', 'cs_kind'];

/** Builds the native binaries this script runs (quick when they are up to date). */
export function buildBinaries() {
  execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'tex', '--bin', 'tex-serve'], { cwd: ROOT, stdio: 'inherit' });
}

/** Starts tex-serve on `set`; resolves to `{ indexUrl, sites, stop() }` once it is ready. */
export async function serveSet(set) {
  const server = spawn(join(ROOT, 'target/release/tex-serve'), [set, '--stop-on-stdin-eof'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: server.stdout });
  let index = null;
  for await (const line of lines) {
    if (index === null) index = JSON.parse(line);
    else if (line === 'ready') break;
  }
  if (!index) throw new Error(`tex-serve could not serve ${set}.`);
  return {
    indexUrl: new URL('/__tex_index.json', index.sites[0].origin).href,
    sites: index.sites,
    stop: () => new Promise((done) => { server.once('exit', done); server.stdin.end(); }),
  };
}

/**
 * Runs the results page in `browser` (from launchChromium) and resolves to its report;
 * `screenshot` saves the finished page, so a person can see what the button shows.
 */
export async function browserReport(browser, indexUrl, configs, { timeoutMs = 20 * 60_000, screenshot } = {}) {
  const page = await browser.context.newPage();
  const query = new URLSearchParams({ index: indexUrl, configs: configs.join(','), run: '1' });
  await page.goto(browser.extensionUrl(`bench.html?${query}`));
  await page.waitForSelector('body[data-state="done"], body[data-state="failed"]', { timeout: timeoutMs });
  const failure = await page.$eval('#error', (e) => (e.hidden ? null : e.textContent));
  if (failure) throw new Error(failure);
  const report = await page.evaluate(() => globalThis.texBenchReport);
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  await page.close();
  return report;
}

/** The same as {@link browserReport} in Firefox (`ff` from launchFirefox). */
export async function firefoxReport(ff, indexUrl, configs, { timeoutMs = 20 * 60_000, screenshot } = {}) {
  const query = new URLSearchParams({ index: indexUrl, configs: configs.join(','), run: '1' });
  const tab = await ff.openTab(ff.extensionUrl(`bench.html?${query}`));
  await ff.waitFor('body[data-state="done"], body[data-state="failed"]', timeoutMs);
  const failure = await ff.execute(() => { const e = document.getElementById('error'); return e.hidden ? null : e.textContent; });
  if (failure) throw new Error(failure);
  const report = await ff.execute(() => globalThis.texBenchReport);
  if (screenshot) await ff.screenshot(screenshot);
  await ff.closeTab(tab);
  return report;
}

/** The native CLI's `bench` on the same set and configurations. */
export function nativeReport(set, configs) {
  const out = join(mkdtempSync(join(tmpdir(), 'tex-bench-')), 'native.json');
  const presets = configs.flatMap((c) => ['--preset', nativeName(c)]);
  execFileSync(join(ROOT, 'target/release/tex'), ['bench', set, ...presets, '--json', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8'));
}

/** Why two rows that should agree differ, as one sentence. */
function explain(b, n) {
  if (b.error || n.error) return `The browser said “${b.error ?? 'ok'}”, the CLI “${n.error ?? 'ok'}”.`;
  if (b.nodes !== n.nodes) {
    return `The live key page has ${b.nodes} <body> elements where the parsed file has ${n.nodes}: ` +
      'the browser changed the page after parsing (scripts, or parser differences), so the snapshots differ.';
  }
  if (b.loads !== n.loads || b.cs_size !== n.cs_size || b.cs_kind !== n.cs_kind) {
    return `The browser loaded ${b.loads} pages and found a ${b.cs_size}-page ${b.cs_kind} subdigraph, the CLI ` +
      `${n.loads} pages and a ${n.cs_size}-page ${n.cs_kind} one: some candidate failed or timed out in the browser, or answered differently over HTTP.`;
  }
  return 'Same page, same candidates, different template: not explained; please report it.';
}

/**
 * Compares the browser's rows with the CLI's; adds `agreement` (one entry per
 * row) and a note per disagreement to `report`, and returns the number of disagreements.
 */
export function compare(report, native) {
  const runs = new Map(native.runs.map((r) => [r.name, r]));
  report.agreement = [];
  for (const b of report.results) {
    const run = runs.get(nativeName(b.config));
    const n = run?.sites.find((s) => s.site === b.site);
    const nRow = n && { ...n, cs_kind: n.cs_kind ?? null };
    const differences = {};
    for (const f of AGREEMENT_FIELDS) if (!nRow || b[f] !== nRow[f]) differences[f] = { browser: b[f], native: nRow?.[f] ?? null };
    if (!nRow || b.error !== nRow.error) differences.error = { browser: b.error, native: nRow?.error ?? null };
    const agrees = Object.keys(differences).length === 0;
    report.agreement.push({ site: b.site, config: b.config, native_config: run?.name ?? null, agrees, differences });
    if (!agrees) report.notes.push(`${b.site} / ${b.config}: ${nRow ? explain(b, nRow) : 'the CLI has no result for it.'}`);
  }
  return report.agreement.filter((a) => !a.agrees).length;
}

const pct = (x) => (100 * x).toFixed(2).padStart(7);

function printTable(report) {
  const configs = report.averages.map((a) => a.config);
  const agree = new Map(report.agreement.map((a) => [`${a.site}|${a.config}`, a.agrees]));
  console.log(`\n${'site'.padEnd(14)}${configs.map((c) => `${c.padStart(13)} F1`).join('')}`);
  for (const site of [...new Set(report.results.map((r) => r.site))]) {
    const cells = configs.map((c) => {
      const r = report.results.find((x) => x.site === site && x.config === c);
      return `${r.error ? '  error'.padStart(16) : pct(r.f1).padStart(14)}${agree.get(`${site}|${c}`) ? ' =' : ' ≠'}`;
    });
    console.log(`${site.padEnd(14)}${cells.join('')}`);
  }
  console.log(`\n${'config'.padEnd(24)} ${'recall'.padStart(7)} ${'prec'.padStart(7)} ${'F1'.padStart(7)} ${'cF1'.padStart(7)}  loads  ms/site`);
  for (const a of report.averages) {
    console.log(`${a.config.padEnd(24)} ${pct(a.recall)} ${pct(a.precision)} ${pct(a.f1)} ${pct(a.content_f1)}  ${a.mean_loads.toFixed(1).padStart(5)}  ${a.mean_total_ms.toFixed(1).padStart(7)}`);
  }
  const all = report.everything_is_template;
  console.log(`${'everything is template'.padEnd(24)} ${pct(all.recall)} ${pct(all.precision)} ${pct(all.f1)} ${pct(all.content_f1)}`);
  console.log('(F1: template F1; cF1: content F1, the not-template class a reader of the Content view sees)');
  console.log('\n= agrees with the native CLI, ≠ differs (see notes)');
  for (const note of report.notes) console.log(`note: ${note}`);
}

/** The whole command: serve, run the page, compare, write. Resolves to the report. */
export async function bench(set, { out, configs = CONFIGS, browser: name = 'chromium' } = {}) {
  buildBinaries();
  const served = await serveSet(set);
  const browser = name === 'firefox' ? await launchFirefox() : await launchChromium();
  const run = name === 'firefox' ? firefoxReport : browserReport;
  let report;
  try {
    if (out) mkdirSync(dirname(resolve(out)), { recursive: true });
    report = await run(browser, served.indexUrl, configs, { screenshot: out && screenshotPath(out) });
  } finally {
    await browser.close();
    await served.stop();
  }
  report.set = resolve(set);
  report.native_configs = Object.fromEntries(configs.map((c) => [c, nativeName(c)]));
  compare(report, nativeReport(set, configs));
  if (out) writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/** The results page's screenshot lives next to the report: `report.json` → `report.png`. */
function screenshotPath(out) {
  return resolve(out).replace(/(\.json)?$/, '.png');
}

function parseArgs(argv) {
  const args = { set: null, out: null, configs: CONFIGS, browser: 'chromium' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') args.out = argv[++i];
    else if (argv[i] === '--browser') args.browser = argv[++i];
    else if (argv[i] === '--configs') args.configs = argv[++i].split(',').filter(Boolean);
    else if (!args.set) args.set = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  const usage = 'usage: build.sh bench SET_DIR [--out FILE] [--configs current,paper,intersection,rtdm] [--browser chromium|firefox]';
  if (!args.set || args.out === undefined || args.configs.length === 0 || !BROWSERS.includes(args.browser)) throw new Error(usage);
  // One report per browser by default, so runs in both browsers sit side by side.
  args.out ??= args.browser === 'chromium' ? 'target/bench/report.json' : `target/bench/report-${args.browser}.json`;
  return args;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const args = parseArgs(process.argv.slice(2));
    const started = Date.now();
    const report = await bench(args.set, args);
    printTable(report);
    console.log(`\nwrote ${args.out} and ${screenshotPath(args.out)} (${((Date.now() - started) / 1000).toFixed(0)} s, ${report.browser.name} ${report.browser.version}, build ${report.build.commit ?? report.build.extension_version})`);
  } catch (e) {
    console.error(`error: ${e.message ?? e}`);
    process.exit(1);
  }
}
