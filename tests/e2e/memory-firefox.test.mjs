// Template memory end to end in Firefox ESR: the same clicks as in Chromium
// for the second page served from memory, Extract again, and the options
// page's forget, export → import and clear. Auto-apply is tested in Chromium
// only: Firefox asks for the site's permission with a prompt that WebDriver
// cannot answer.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';

import { By } from 'selenium-webdriver';

import { launchFirefox } from './firefox.mjs';
import { ARTIFACTS, KEY_PAGE, WWW } from './harness.mjs';
import { ARTICLE_PAGE, SECOND_PAGE, nativeRecall } from './memory-harness.mjs';
import { serve } from './server.mjs';

let ff;
let site;

before(async () => {
  nativeRecall();
  site = await serve(WWW);
  ff = await launchFirefox();
});

after(async () => {
  await ff?.close();
  await site?.close();
});

const text = (selector) => ff.execute((s) => document.querySelector(s).textContent, selector);

async function openWithPopup(url) {
  const opened = await ff.openWithPopup(url);
  // Let the page's own late requests (an icon) settle before counting requests.
  await sleep(300);
  return opened;
}

async function extractOn(path) {
  const { page, popup } = await openWithPopup(site.origin + path);
  const hits = site.hits;
  const result = await ff.extract();
  result.requests = site.hits - hits;
  await ff.closeTab(popup);
  await ff.closeTab(page);
  return result;
}

async function openOptions() {
  const tab = await ff.openTab(ff.extensionUrl('options.html'));
  await ff.waitFor('#memory[data-ready="true"]');
  return tab;
}

const sitesListed = () => ff.execute(() => [...document.querySelectorAll('#memory-sites li')].map((li) => li.firstChild.textContent));

/** Waits for a download to land in the profile's download folder; returns its text and removes it. */
async function downloaded(name) {
  try {
    const body = await ff.downloaded(name);
    rmSync(join(ff.downloads, name));
    return body;
  } catch (e) {
    const message = await ff.execute(() => document.getElementById('memory-message').textContent);
    assert.fail(`${e.message}; the page says "${message}"`);
  }
}

test('a second page of the demo site gets its template from memory with no request; Extract again loads pages', async () => {
  const native = nativeRecall();
  const first = await extractOn(KEY_PAGE);
  assert.equal(first.error, null);
  assert.match(first.compared, /^Compared with \d+ other pages/);

  const { page, popup } = await openWithPopup(site.origin + SECOND_PAGE);
  const hits = site.hits;
  const { error, compared, report } = await ff.extract();
  assert.equal(error, null);
  assert.equal(site.hits, hits, 'no page was requested');
  assert.match(compared, /^Used the remembered template of this site: no other page was loaded/);
  assert.deepEqual(report.template_paths, native.template_paths, 'the same template as `tex extract --memory`');
  assert.match(await text('#loads'), /core: wasm\.$/);

  await ff.click('[data-view-button="template"]');
  await ff.waitFor('#view[data-view="template"]');
  await ff.click('#again');
  await ff.waitFor('#again[hidden]');
  assert.match(await text('#compared'), /^Compared with \d+ other pages? of the site/);
  assert.ok(site.hits > hits, 'Extract again loads pages');
  await ff.closeTab(popup);
  await ff.closeTab(page);
});

test('options: the site is listed; export, forget, a bad file refused, import, then Forget all', async () => {
  const options = await openOptions();
  const lines = await sitesListed();
  assert.equal(lines.length, 1);
  assert.match(lines[0], new RegExp(`^${site.origin} · 1 layout · learnt `));

  await ff.click('#memory-export');
  const exported = await downloaded('template-memory.json');
  assert.deepEqual(Object.keys(JSON.parse(exported).sites), [site.origin]);
  const path = join(ARTIFACTS, 'firefox-memory.json');
  writeFileSync(path, exported);

  await ff.click(`#memory-sites button[aria-label="Forget ${site.origin}"]`);
  await ff.waitFor('#memory-empty:not([hidden])');

  const bad = join(ARTIFACTS, 'firefox-memory-bad.json');
  writeFileSync(bad, '{"version": 7, "sites": {}}');
  await ff.driver.findElement(By.css('#memory-import')).sendKeys(bad);
  await ff.waitFor('#memory-message.error');
  assert.equal(await text('#memory-message'),
    'This file is not a template memory exported by Template Extractor: the template memory has format version 7, this build reads version 1.');
  assert.deepEqual(await sitesListed(), [], 'nothing was imported');

  await ff.driver.findElement(By.css('#memory-import')).sendKeys(path);
  await ff.waitFor('#memory-message:not(.error)');
  assert.equal(await text('#memory-message'), 'Sites imported: 1.');
  await ff.click('#memory-export');
  assert.ok((await downloaded('template-memory.json')) === exported, 'export → import → export gives the same file');
  await ff.closeTab(options);

  const served = await extractOn(ARTICLE_PAGE);
  assert.match(served.compared, /^Used the remembered template/, 'the imported memory serves another page of the layout');
  assert.equal(served.requests, 0);

  const again = await openOptions();
  await ff.click('#memory-clear');
  for (let i = 0; i < 50 && !(await text('#memory-message')).startsWith('Click'); i++) await sleep(100);
  assert.match(await text('#memory-message'), /^Click Forget all sites again to forget /, 'the first click only asks');
  await ff.click('#memory-clear');
  await ff.waitFor('#memory-empty:not([hidden])');
  assert.equal(await text('#memory-message'), 'Every remembered site is forgotten.');
  await ff.closeTab(again);
  const full = await extractOn(ARTICLE_PAGE);
  assert.match(full.compared, /^Compared with/, 'forgotten: the full method runs');
});
