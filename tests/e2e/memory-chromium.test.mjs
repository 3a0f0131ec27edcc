// Template memory end to end in Chromium, through the popup and the options
// page as a user clicks them: a second page of the demo site served from the
// remembered template with no request to the site, Extract again, the options
// page's list, forget, clear, export → import, the "Remember" switch, and
// auto-apply opted into for one site.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { extract, launchChromium, openWithPopup } from './chromium.mjs';
import { chooseView, until } from './ui-harness.mjs';
import { ARTIFACTS, KEY_PAGE, WWW, probePage } from './harness.mjs';
import { ARTICLE_PAGE, SECOND_PAGE, THIRD_PAGE, nativeRecall } from './memory-harness.mjs';
import { serve } from './server.mjs';

let browser;
let site;

before(async () => {
  nativeRecall();
  browser = await launchChromium();
  site = await serve(WWW);
});

after(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens `path` with its popup, the page settled so that later requests are the extension's. */
async function open(path) {
  const opened = await openWithPopup(browser, site.origin + path);
  await opened.page.waitForLoadState('networkidle');
  return opened;
}

const compared = (popup) => popup.textContent('#compared');

async function openOptions() {
  const options = await browser.context.newPage();
  await options.goto(browser.extensionUrl('options.html'));
  await options.waitForSelector('#memory[data-ready="true"]');
  return options;
}

const sitesListed = (options) => options.$$eval('#memory-sites li', (lis) => lis.map((li) => li.firstChild.textContent));

async function download(page, selector, name) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = join(ARTIFACTS, name);
  await file.saveAs(path);
  return path;
}

async function learnKeyPage() {
  const { page, popup } = await open(KEY_PAGE);
  const { error } = await extract(popup);
  assert.equal(error, null);
  assert.match(await compared(popup), /^Compared with \d+ other pages/);
  await Promise.all([page.close(), popup.close()]);
}

test('a second page of the demo site gets its template from memory: no request, the CLI\'s template, views and Save work', async () => {
  const native = nativeRecall();
  assert.equal(native.reused, true, 'the CLI serves the page from memory too');
  await learnKeyPage();

  const { page, popup } = await open(SECOND_PAGE);
  const before = await page.evaluate(() => document.documentElement.outerHTML);
  const hits = site.hits;
  const { error } = await extract(popup);
  assert.equal(error, null);
  assert.equal(site.hits, hits, 'no page was requested');
  assert.match(await compared(popup), /^Used the remembered template of this site: no other page was loaded\.$/);
  assert.equal(await popup.isVisible('#again'), true, 'Extract again is offered');
  assert.match(await popup.textContent('#loads'), new RegExp(`^From memory: learnt on ${site.origin}/news/index.html, layout \\d+ % alike; core: wasm\\.$`));
  const report = await popup.evaluate(() => fullReport());
  assert.deepEqual(report.template_paths, native.template_paths, 'the same template as `tex extract --memory`');
  assert.equal(report.template_nodes, native.template_nodes);

  await chooseView(popup, 'template');
  const probe = await page.evaluate(probePage);
  assert.equal(probe.template.length, native.template_nodes, 'the template view marks the remembered template');
  assert.ok(probe.hiddenRoots.length > 0, 'and hides the content');
  await chooseView(popup, 'original');
  assert.ok((await page.evaluate(() => document.documentElement.outerHTML)) === before, 'the original view restores the exact DOM');

  const saved = await browser.context.newPage();
  await saved.goto(`file://${await download(popup, '#save', 'chromium-memory-template.html')}`);
  const file = await saved.evaluate(() => ({ title: document.title, sheets: document.querySelectorAll('link[rel=stylesheet]').length, body: document.body.querySelectorAll('*').length }));
  assert.deepEqual([file.title, file.sheets], ['Template of 127.0.0.1', 1], 'the saved file carries the page\'s head');
  assert.ok(file.body > 0 && file.body < native.template_nodes, `the body holds template nodes only: ${file.body} of ${native.template_nodes}`);

  await popup.click('#again');
  await popup.waitForFunction(() => document.getElementById('compared').textContent.startsWith('Compared with'));
  assert.ok(site.hits > hits, 'Extract again loads pages');
  assert.equal(await popup.isVisible('#again'), false);
  await Promise.all([page.close(), popup.close(), saved.close()]);

  const options = await openOptions();
  const lines = await sitesListed(options);
  assert.equal(lines.length, 1);
  assert.match(lines[0], new RegExp(`^${site.origin} · 1 layout · learnt `), 're-learnt: the page\'s cluster replaced, not added');
  await options.close();
});

test('options: export, forget, a bad file refused in one sentence changing nothing, import restores the same memory', async () => {
  const options = await openOptions();
  const exported = await download(options, '#memory-export', 'chromium-memory.json');
  const text = readFileSync(exported, 'utf8');
  const file = JSON.parse(text);
  assert.equal(file.version, 1);
  assert.deepEqual(Object.keys(file.sites), [site.origin]);
  assert.equal(file.sites[site.origin].length, 1);

  await options.click(`#memory-sites button[aria-label="Forget ${site.origin}"]`);
  await options.waitForSelector('#memory-empty:not([hidden])');
  assert.equal(await options.textContent('#memory-message'), `${site.origin} is forgotten.`);
  assert.deepEqual(await options.evaluate((o) => chrome.storage.local.get(`memory:${o}`), site.origin), {});

  const bad = join(ARTIFACTS, 'chromium-memory-bad.json');
  writeFileSync(bad, '{"version": 1, "sites": {"file:///etc": []}}');
  await options.setInputFiles('#memory-import', bad);
  await options.waitForSelector('#memory-message.error');
  assert.equal(await options.textContent('#memory-message'), 'This file names file:///etc, which is not a web site\'s address, so nothing was imported.');
  writeFileSync(bad, 'not a memory');
  await options.setInputFiles('#memory-import', bad);
  await options.waitForFunction(() => document.getElementById('memory-message').textContent.startsWith('This file is not a template memory'));
  assert.equal(await options.textContent('#memory-message'), 'This file is not a template memory exported by Template Extractor, so nothing was imported.',
    'one sentence, no parser text');
  assert.deepEqual(await sitesListed(options), [], 'nothing was imported');

  await options.setInputFiles('#memory-import', exported);
  await options.waitForFunction(() => document.getElementById('memory-message').textContent === 'Sites imported: 1.');
  assert.equal((await sitesListed(options)).length, 1);
  const again = readFileSync(await download(options, '#memory-export', 'chromium-memory-again.json'), 'utf8');
  assert.ok(again === text, 'export → import → export gives the same file');
  await options.close();

  // The one cluster was re-learnt on SECOND_PAGE: another page of its layout is served from it.
  const { page, popup } = await open(ARTICLE_PAGE);
  await extract(popup);
  assert.match(await compared(popup), /^Used the remembered template/, 'the imported memory serves the page');
  await Promise.all([page.close(), popup.close()]);
});

test('Forget all sites empties the memory; with "Remember site templates" off nothing is used or learnt', async () => {
  const options = await openOptions();
  const listed = await sitesListed(options);
  assert.ok(listed.length > 0, 'a site to forget');
  await options.click('#memory-clear');
  await options.waitForFunction(() => document.getElementById('memory-message').textContent.startsWith('Click Forget all sites again'));
  assert.equal(await options.textContent('#memory-message'),
    listed.length === 1 ? 'Click Forget all sites again to forget the 1 remembered site; this cannot be undone.'
      : `Click Forget all sites again to forget all ${listed.length} remembered sites; this cannot be undone.`);
  assert.deepEqual(await sitesListed(options), listed, 'one click forgets nothing');
  await options.click('#memory-clear');
  await options.waitForSelector('#memory-empty:not([hidden])');
  assert.equal(await options.textContent('#memory-message'), 'Every remembered site is forgotten.');
  await options.uncheck('#remember');
  await options.waitForFunction(async () => (await chrome.storage.local.get('rememberTemplates')).rememberTemplates === false);

  await learnKeyPage();
  const { page, popup } = await open(SECOND_PAGE);
  await extract(popup);
  assert.match(await compared(popup), /^Compared with/, 'the full method ran');
  const stored = await options.evaluate(async () => Object.keys(await chrome.storage.local.get(null)).filter((k) => k.startsWith('memory:')));
  assert.deepEqual(stored, [], 'nothing was learnt');
  assert.deepEqual(await sitesListed(options), []);
  await options.check('#remember');
  await options.waitForFunction(async () => (await chrome.storage.local.get('rememberTemplates')).rememberTemplates === true);
  await Promise.all([page.close(), popup.close(), options.close()]);
});

test('auto-apply opted into for one site shows the chosen view on a newly opened page; turned off, it stops', async () => {
  await learnKeyPage();
  const { page, popup } = await open(SECOND_PAGE);
  await extract(popup);
  await chooseView(popup, 'content');
  await popup.check('#auto');
  await popup.waitForFunction(() => document.getElementById('status').textContent.startsWith('Pages of this site'));
  assert.equal(await popup.textContent('#status'), 'Pages of this site that fit a remembered template will open in the Content view.');
  const registered = await popup.evaluate(() => chrome.scripting.getRegisteredContentScripts());
  assert.deepEqual(registered.map((r) => [r.id, r.matches, r.persistAcrossSessions]), [[`tex-auto ${site.origin}`, ['http://127.0.0.1/*'], true]]);

  const options = await openOptions();
  assert.deepEqual(await options.$$eval('#auto-sites li span', (s) => s.map((e) => e.textContent)), [`${site.origin}: Content view`]);
  await options.close();

  const third = await browser.context.newPage();
  const hits = site.hits;
  await third.goto(site.origin + THIRD_PAGE);
  await until(async () => (await third.evaluate(probePage)).template.length > 0);
  await third.waitForLoadState('networkidle');
  const probe = await third.evaluate(probePage);
  assert.ok(probe.template.length > 0, 'the remembered template is marked');
  // The template was learnt on a page of another section, whose menu highlights another item.
  const highlighted = await third.evaluate(() => [...document.querySelectorAll('li.active, li.active > a')]
    .map((e) => [e.localName, [...e.attributes].some((a) => /^data-tex-[0-9a-z]+-template$/.test(a.name))]));
  assert.deepEqual(highlighted, [['li', true], ['a', true]], 'the menu\'s highlighted item is template, as a full extraction finds');
  assert.equal(site.hits - hits, 1 + 1, 'the page and its stylesheet only: no page was loaded to find the template');
  await third.screenshot({ path: join(ARTIFACTS, 'chromium-memory-auto.png') });
  await third.close();

  await popup.uncheck('#auto');
  await popup.waitForFunction(() => document.getElementById('status').textContent === 'This site\'s pages are no longer changed automatically.');
  assert.deepEqual(await popup.evaluate(() => chrome.scripting.getRegisteredContentScripts()), []);
  assert.deepEqual(await popup.evaluate(async () => (await chrome.storage.local.get('autoApply')).autoApply), {});
  const fourth = await browser.context.newPage();
  await fourth.goto(site.origin + THIRD_PAGE);
  await fourth.waitForLoadState('networkidle');
  await sleep(500);
  assert.deepEqual((await fourth.evaluate(probePage)).template, [], 'turned off, nothing marks the page');
  await Promise.all([page.close(), popup.close(), fourth.close()]);
});

test('auto-apply opens the Content view unless another was chosen, and with Remember off explains instead of doing nothing', async () => {
  await learnKeyPage();
  const { page, popup } = await open(SECOND_PAGE);
  await extract(popup);
  await popup.check('#auto');
  await popup.waitForFunction(() => document.getElementById('status').textContent.startsWith('Pages of this site'));
  assert.equal(await popup.textContent('#status'), 'Pages of this site that fit a remembered template will open in the Content view.');
  await popup.uncheck('#auto');
  await popup.waitForFunction(() => document.getElementById('status').textContent.startsWith('This site'));

  const options = await openOptions();
  await options.uncheck('#remember');
  await options.waitForFunction(async () => (await chrome.storage.local.get('rememberTemplates')).rememberTemplates === false);
  await popup.click('#auto');
  await popup.waitForSelector('#error:not([hidden])');
  assert.equal(await popup.textContent('#error'),
    'Apply automatically uses the remembered templates, and Remember site templates is off in the options: turn it on there first.');
  assert.equal(await popup.isChecked('#auto'), false, 'the switch does not claim what it cannot do');
  assert.deepEqual(await popup.evaluate(() => chrome.scripting.getRegisteredContentScripts()), []);
  await options.check('#remember');
  await options.waitForFunction(async () => (await chrome.storage.local.get('rememberTemplates')).rememberTemplates === true);
  await Promise.all([page.close(), popup.close(), options.close()]);
});

test('no page raised an uncaught error during the memory tests', () => {
  assert.deepEqual(browser.errors, []);
});
