// Check benchmarks end to end on the two-site fixture set: the options page's button
// in Chromium and in Firefox, the results page's table, exports and check
// view, agreement with the native CLI, and the headless `build.sh bench` command.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import { CONFIGS, buildBinaries, compare, nativeName, nativeReport, serveSet } from '../../scripts/bench.mjs';
import { launchChromium } from './chromium.mjs';
import { launchFirefox } from './firefox.mjs';
import { ARTIFACTS, FIXTURES, ROOT } from './harness.mjs';

const SET = join(FIXTURES, 'bench-set');
const SITES = ['alpha', 'beta'];
let served;
let native;

before(async () => {
  buildBinaries();
  served = await serveSet(SET);
  native = nativeReport(SET, CONFIGS);
});

after(async () => { await served?.stop(); });

/** Checks a results page's report against the CLI's, row by row. */
function checkReport(report) {
  assert.equal(report.schema, 'template-extractor/bench-report/1');
  assert.deepEqual(report.results.map((r) => `${r.site}/${r.config}`), SITES.flatMap((s) => CONFIGS.map((c) => `${s}/${c}`)));
  for (const r of report.results) assert.equal(r.error, null, `${r.site}/${r.config} ran`);
  assert.equal(compare(report, native), 0, `the browser agrees with the CLI: ${report.notes.join(' ')}`);
  const f1s = new Set(report.averages.map((a) => a.f1.toFixed(4)));
  assert.ok(f1s.size > 1, 'the configurations really differ on the fixtures');
  for (const a of report.averages) {
    const run = native.runs.find((n) => n.name === nativeName(a.config));
    assert.ok(Math.abs(a.f1 - run.average.f1) < 1e-9, `${a.config}: macro F1 equals the CLI's`);
    assert.ok(Math.abs(a.content_f1 - run.average.content_f1) < 1e-9, `${a.config}: macro content F1 equals the CLI's`);
  }
  const all = report.everything_is_template;
  assert.ok(Math.abs(all.f1 - native.everything_is_template.f1) < 1e-9, 'the baseline row equals the CLI\'s');
  assert.equal(all.content_f1, 0, 'calling everything template finds no content');
}

/** Runs in the page: whether the check view outlined a miss (marks are data-tex-<random word>-<kind>). */
function hasMissMark() {
  return [...document.querySelectorAll('*')].some((e) => [...e.attributes].some((a) => /^data-tex-[0-9a-z]+-miss$/.test(a.name)));
}

/** Runs in the check view: what is outlined and what is hidden, against the gold marks. */
function probeCheckView() {
  const ns = [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes])
    .map((a) => /^(data-tex-[0-9a-z]+-)miss$/.exec(a.name)).find(Boolean)[1];
  const has = (e, kind) => e.hasAttribute(ns + kind);
  const all = [...document.body.querySelectorAll('*')].filter((e) => !e.closest(`[${ns}own]`));
  const outline = (e) => getComputedStyle(e).outlineStyle;
  const gold = (e) => !e.closest('.notTemplate');
  return {
    misses: all.filter((e) => has(e, 'miss')).map((e) => ({ gold: gold(e), retrieved: has(e, 'template'), shown: e.checkVisibility(), outline: outline(e) })),
    falseHits: all.filter((e) => has(e, 'false-hit')).map((e) => ({ gold: gold(e), retrieved: has(e, 'template'), shown: e.checkVisibility(), outline: outline(e) })),
    hiddenButNeeded: all.filter((e) => e.closest(`[${ns}hidden]`) && (gold(e) || has(e, 'template'))).length,
    shownNeither: all.filter((e) => !e.closest(`[${ns}hidden]`) && !gold(e) && !has(e, 'template')).length,
  };
}

function checkCheckView(probe, row) {
  assert.equal(probe.misses.length, row.misses);
  assert.equal(probe.falseHits.length, row.false_hits);
  assert.ok(row.misses > 0 && row.false_hits > 0, 'the alpha fixture has a miss and a false hit by design');
  for (const m of probe.misses) assert.deepEqual(m, { gold: true, retrieved: false, shown: true, outline: 'dashed' });
  for (const f of probe.falseHits) assert.deepEqual(f, { gold: false, retrieved: true, shown: true, outline: 'solid' });
  assert.equal(probe.hiddenButNeeded, 0, 'gold and retrieved nodes stay visible');
  assert.equal(probe.shownNeither, 0, 'nodes neither gold nor retrieved are hidden');
}

describe('Chromium', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(async () => { await browser?.close(); });

  test('the options page button opens the results page; Run fills the table, matching the CLI', async () => {
    const options = await browser.context.newPage();
    await options.goto(browser.extensionUrl('options.html'));
    await options.waitForFunction(() => document.querySelector('[name="cs_size"]').value !== '');
    await options.fill('#bench-index', served.indexUrl);
    await options.click('button[type="submit"]');
    await options.waitForFunction(() => document.getElementById('message').textContent === 'Saved.');

    const key = await browser.context.newPage();
    await key.goto(served.sites[0].key_url);
    const [bench] = await Promise.all([browser.context.waitForEvent('page'), options.click('#bench')]);
    await bench.waitForSelector('body[data-ready="true"]');
    assert.equal(await bench.inputValue('#index'), served.indexUrl, 'the index comes from the options');
    for (const c of CONFIGS.slice(1)) await bench.check(`input[value="${c}"]`);
    await bench.click('#run');
    await bench.waitForSelector('body[data-state="done"], body[data-state="failed"]', { timeout: 120_000 });
    const report = await bench.evaluate(() => globalThis.texBenchReport);
    checkReport(report);

    const table = await bench.$$eval('#results tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.equal(table.length, SITES.length * CONFIGS.length);
    report.results.forEach((r, i) => {
      assert.deepEqual(table[i].slice(0, 9), [r.site, r.config, String(r.nodes), String(r.gold), String(r.retrieved),
        (100 * r.recall).toFixed(2), (100 * r.precision).toFixed(2), (100 * r.f1).toFixed(2), (100 * r.content_f1).toFixed(2)]);
    });
    const foot = await bench.$$eval('#results tfoot tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.deepEqual(foot.map((r) => r[1]), [...CONFIGS, ''], 'a macro-average row per configuration, then the baseline');
    assert.deepEqual(foot.at(-1).slice(0, 1).concat(foot.at(-1).slice(7, 9)),
      ['everything is template', (100 * report.everything_is_template.f1).toFixed(2), '0.00']);
    await bench.screenshot({ path: join(ARTIFACTS, 'chromium-bench.png'), fullPage: true });

    const [json] = await Promise.all([bench.waitForEvent('download'), bench.click('#export-json')]);
    assert.deepEqual(JSON.parse(readFileSync(await json.path(), 'utf8')).results, report.results);
    const [csv] = await Promise.all([bench.waitForEvent('download'), bench.click('#export-csv')]);
    const lines = readFileSync(await csv.path(), 'utf8').trim().split('\n');
    assert.equal(lines.length, 1 + report.results.length);
    assert.match(lines[0], /^site,config,nodes,gold,retrieved,correct,recall,precision,f1,/);

    const row = report.results.find((r) => r.site === 'alpha' && r.config === 'current');
    const [check] = await Promise.all([
      browser.context.waitForEvent('page'),
      bench.click('tr[data-site="alpha"][data-config="current"] a.check'),
    ]);
    await check.waitForFunction(hasMissMark);
    checkCheckView(await check.evaluate(probeCheckView), row);
    const legend = await check.evaluate(() => [...document.querySelector('tex-view').shadowRoot.querySelectorAll('.legend li')].map((li) => li.textContent));
    assert.deepEqual(legend, ['Dashed orange: template the extraction missed', 'Solid blue: content it took for template'], 'the colours are explained');
    await check.screenshot({ path: join(ARTIFACTS, 'chromium-check-view.png'), fullPage: true });
    await Promise.all([check.close(), bench.close(), options.close(), key.close()]);
  });

  test('an unreachable index is one sentence', async () => {
    const bench = await browser.context.newPage();
    await bench.goto(browser.extensionUrl(`bench.html?index=${encodeURIComponent('http://127.0.0.1:9/__tex_index.json')}`));
    await bench.waitForSelector('body[data-ready="true"]');
    await bench.click('#run');
    await bench.waitForSelector('#error:not([hidden])');
    assert.equal(await bench.textContent('#error'),
      'The index http://127.0.0.1:9/__tex_index.json could not be reached: is ./build.sh serve-bench running?');
    await bench.close();
  });
});

/** Polls `probe` until it returns something truthy; resolves to that. */
async function waitUntil(probe, timeoutMs = 10_000) {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(50)) {
    const value = await probe();
    if (value) return value;
  }
  throw new Error(`timed out after ${timeoutMs} ms`);
}

describe('Firefox', () => {
  let ff;
  before(async () => { ff = await launchFirefox(); });
  after(async () => { await ff?.close(); });

  test('the options page button opens the results page; Run fills the table, matching the CLI', async () => {
    const options = await ff.openTab(ff.extensionUrl('options.html'));
    await ff.waitFor('body[data-ready="true"]');
    await ff.execute((url) => { document.getElementById('bench-index').value = url; }, served.indexUrl);
    await ff.click('button[type="submit"]');
    await waitUntil(() => ff.execute(() => document.getElementById('message').textContent === 'Saved.'));

    const key = await ff.openTab(served.sites[0].key_url);
    await ff.switchTo(options);
    const before = new Set(await ff.handles());
    await ff.click('#bench');
    const bench = await waitUntil(async () => (await ff.handles()).find((h) => !before.has(h)));
    await ff.switchTo(bench);
    await ff.waitFor('body[data-ready="true"]');
    assert.equal(await ff.execute(() => document.getElementById('index').value), served.indexUrl);
    await ff.execute(() => { for (const box of document.querySelectorAll('input[name="config"]')) box.checked = true; });
    await ff.click('#run');
    await ff.waitFor('body[data-state="done"], body[data-state="failed"]', 120_000);
    const report = await ff.execute(() => globalThis.texBenchReport ?? { error: document.getElementById('error').textContent });
    checkReport(report);
    assert.equal(report.browser.name, 'Firefox');
    await ff.screenshot(join(ARTIFACTS, 'firefox-bench.png'));

    const row = report.results.find((r) => r.site === 'alpha' && r.config === 'current');
    const listed = new Set(await ff.handles());
    await ff.click('tr[data-site="alpha"][data-config="current"] a.check');
    const check = await waitUntil(async () => (await ff.handles()).find((h) => !listed.has(h)));
    await ff.switchTo(check);
    await waitUntil(() => ff.execute(hasMissMark));
    checkCheckView(await ff.execute(probeCheckView), row);
    await ff.screenshot(join(ARTIFACTS, 'firefox-check-view.png'));
    for (const h of [check, bench, options, key]) await ff.closeTab(h);
  });
});

test('build.sh bench: the headless command writes a report that agrees with the CLI', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'tex-bench-report-')), 'report.json');
  const printed = execFileSync('node', [join(ROOT, 'scripts/bench.mjs'), SET, '--out', out], { cwd: ROOT, encoding: 'utf8' });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(report.schema, 'template-extractor/bench-report/1');
  assert.equal(report.results.length, SITES.length * CONFIGS.length);
  assert.ok(report.agreement.every((a) => a.agrees), report.notes.join(' '));
  assert.match(report.browser.version, /^\d+\.\d+\.\d+\.\d+$/, 'the full browser version');
  assert.ok(report.build.commit, 'the build is named');
  assert.match(printed, /macro|current/);
});

test('build.sh bench --browser firefox: the same report from Firefox, agreeing with the CLI', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'tex-bench-report-')), 'report.json');
  const printed = execFileSync('node', [join(ROOT, 'scripts/bench.mjs'), SET, '--out', out, '--browser', 'firefox'], { cwd: ROOT, encoding: 'utf8' });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(report.schema, 'template-extractor/bench-report/1');
  assert.equal(report.browser.name, 'Firefox');
  assert.equal(report.results.length, SITES.length * CONFIGS.length);
  assert.ok(report.agreement.every((a) => a.agrees), report.notes.join(' '));
  assert.ok(readFileSync(out.replace(/\.json$/, '.png')).length > 0, 'the results page screenshot');
  assert.match(printed, /Firefox/);
});
