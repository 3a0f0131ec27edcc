// End to end in Firefox ESR: the same clicks and checks as in Chromium.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { launchFirefox } from './firefox.mjs';
import { ARTIFACTS, FIXTURES, KEY_PAGE, ROOT, WWW, FETCH_RULES_CONFIG, assertFetchRules, checkView, errorPathTests, weakEvidenceTests, fetchRulesServers, nativeExtraction, probePage, recordTimings, timeExtractions } from './harness.mjs';
import { serve } from './server.mjs';

let ff;
let site;
let strictSite;
let fixtures;

before(async () => {
  nativeExtraction();
  site = await serve(WWW);
  strictSite = await serve(WWW, { csp: "default-src 'self'; script-src 'self'; style-src 'self'" });
  fixtures = await serve(FIXTURES);
  ff = await launchFirefox();
});

after(async () => {
  await ff?.close();
  await Promise.all([site, strictSite, fixtures].map((s) => s?.close()));
});

const pageHtml = () => ff.execute(() => document.documentElement.outerHTML);

async function cycleViews(origin, prefix) {
  const expected = nativeExtraction();
  const { page, popup } = await ff.openWithPopup(origin + KEY_PAGE);
  await ff.switchTo(page);
  const before = await pageHtml();
  await ff.screenshot(join(ARTIFACTS, `${prefix}-before.png`));
  await ff.switchTo(popup);
  const { error, summary, report } = await ff.extract();
  assert.equal(error, null);
  assert.match(summary, new RegExp(`Template: ${expected.template_nodes} of ${expected.total_nodes} nodes`));
  for (const view of ['template', 'content', 'original']) {
    await ff.switchTo(popup);
    await ff.chooseView(view);
    await ff.switchTo(page);
    checkView(assert, await ff.execute(probePage), expected.template_ids, view);
    await ff.screenshot(join(ARTIFACTS, `${prefix}-${view === 'original' ? 'restored' : view}.png`));
  }
  const restored = await pageHtml();
  if (restored !== before) writeFileSync(join(ARTIFACTS, `${prefix}-restored.html`), restored);
  assert.ok(restored === before, `the original view restores the exact DOM (see ${prefix}-restored.html)`);
  await ff.closeTab(popup);
  await ff.closeTab(page);
  return report;
}

test('demo site: extraction matches the native CLI, views hide what they should, original restores exactly', async () => {
  const report = await cycleViews(site.origin, 'firefox');
  assert.equal(report.engine, 'wasm');
});

test('strict-CSP page: Firefox still runs the wasm build in the content script', async () => {
  const report = await cycleViews(strictSite.origin, 'firefox-strict-csp');
  assert.equal(report.engine, 'wasm');
});

test('save template downloads the template with the page\'s head, the elements the CLI saves', async () => {
  const { page, popup } = await ff.openWithPopup(site.origin + KEY_PAGE);
  try {
    await ff.extract();
    await ff.click('#save');
    const html = await ff.downloaded('template-127.0.0.1.html');
    writeFileSync(join(ARTIFACTS, 'firefox-template.html'), html);
    const cli = join(ARTIFACTS, 'cli-template-firefox.html');
    execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'tex', '--', 'extract', WWW, KEY_PAGE.slice(1), '--html', cli, '--base', site.origin + KEY_PAGE],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const read = (source) => {
      const doc = new DOMParser().parseFromString(source, 'text/html');
      return { title: doc.title, base: doc.querySelector('base')?.getAttribute('href'), sheets: doc.querySelectorAll('link[rel=stylesheet]').length,
        body: [...doc.body.querySelectorAll('*')].map((e) => e.localName).join(' ') };
    };
    const saved = await ff.execute(read, html);
    assert.deepEqual([saved.title, saved.base, saved.sheets], ['Template of 127.0.0.1', site.origin + KEY_PAGE, 1]);
    assert.equal(saved.body, (await ff.execute(read, readFileSync(cli, 'utf8'))).body, 'the elements the CLI saves');
  } finally {
    await ff.closeTab(popup);
    await ff.closeTab(page);
  }
});

async function errorOf(url) {
  const { page, popup } = await ff.openWithPopup(url);
  const { error } = await ff.extract();
  await ff.closeTab(popup);
  await ff.closeTab(page);
  return error;
}

errorPathTests(test, assert, { errorOf, origin: () => fixtures.origin, restricted: 'about:robots' });

async function warningOf(url) {
  const { page, popup } = await ff.openWithPopup(url);
  const { error } = await ff.extract();
  assert.equal(error, null);
  const shown = await ff.execute(() => {
    const weak = document.getElementById('weak');
    return { warning: weak.hidden ? null : weak.textContent, plain: document.getElementById('plain').textContent };
  });
  await ff.closeTab(popup);
  await ff.closeTab(page);
  return shown;
}

weakEvidenceTests(test, assert, { warningOf, origin: () => fixtures.origin, demo: () => site.origin });

test('Extract again reads the page only if it changed: our views are no change, an added element is', async () => {
  const expected = nativeExtraction();
  const { page, popup } = await ff.openWithPopup(site.origin + KEY_PAGE);
  const report = async () => {
    const { error, report } = await ff.extract();
    assert.equal(error, null);
    return report;
  };
  const first = await report();
  assert.equal(first.key_snapshot_kept, false, 'the first Extract reads the page');
  await ff.click('[data-view-button="content"]');
  await ff.waitFor('#view[data-view="content"]');
  const again = await report();
  assert.equal(again.key_snapshot_kept, true, 'the snapshot is kept through our own view');
  assert.deepEqual(again.template_ids, first.template_ids);
  await ff.switchTo(page);
  await ff.execute(() => document.querySelector('main').append(document.createElement('p')));
  await ff.switchTo(popup);
  const changed = await report();
  assert.equal(changed.key_snapshot_kept, false, 'a changed page is read again');
  assert.equal(changed.total_nodes, expected.total_nodes + 1, 'the new snapshot has the added element');
  await ff.closeTab(popup);
  await ff.closeTab(page);
});

test('timings: median of 5 extractions of the demo key page', async (t) => {
  const { page, popup } = await ff.openWithPopup(site.origin + KEY_PAGE);
  const runs = await timeExtractions(5, async () => (await ff.extract()).report);
  const summary = recordTimings('firefox', runs);
  t.diagnostic(`firefox median ms: ${JSON.stringify(summary)}`);
  await ff.closeTab(popup);
  await ff.closeTab(page);
});

test('fetch rules: timeout, content type, 404, same-origin redirect followed, cross-origin redirect refused unsent', async () => {
  const servers = await fetchRulesServers();
  const { page, popup } = await ff.openWithPopup(`${servers.tricky.origin}/loads/index.html`);
  await ff.execute((config) => browser.storage.local.set({ config }), FETCH_RULES_CONFIG);
  const { error, report } = await ff.extract();
  await ff.execute(() => browser.storage.local.remove('config'));
  assert.equal(error, null);
  assertFetchRules(assert, report, servers);
  await ff.closeTab(popup);
  await ff.closeTab(page);
  await servers.close();
});
