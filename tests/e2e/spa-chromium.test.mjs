// Single-page apps in Chromium, clicking the real popup: with "Learn from
// pages I visit" on, the routes the user clicks through (a Vite + React +
// react-router build, and a hand-written hash-routed app) are the pages
// Extract compares, with no request to the site; with it off, the served
// shells give no template success.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { extract, launchChromium, openWithPopup } from './chromium.mjs';
import { chooseView, popupState } from './ui-harness.mjs';
import { CLICKED, LEARN_ON, VISITED_THREE, appRegions, checkContent, checkTemplate, serveApp, serveHashApp } from './spa-harness.mjs';

let browser;
before(async () => { browser = await launchChromium(); });
after(async () => { await browser?.close(); });

/** Clicks the app's menu links in order, each time until its article shows and the route has settled. */
async function clickRoutes(page, labels) {
  for (const label of labels) {
    const before = await page.textContent('article h1');
    await page.click(`nav a:text-is("${label}")`);
    await page.waitForFunction((old) => document.querySelector('article h1')?.textContent !== old, before);
    // The watcher snapshots a route once the DOM has been quiet for 250 ms.
    await sleep(600);
  }
}

async function learnAndExtract(site, path) {
  const { page, popup } = await openWithPopup(browser, site.origin + path);
  await page.waitForSelector('article h1');
  await popup.check('#learn');
  await popup.waitForFunction((s) => document.getElementById('status').textContent === s, LEARN_ON);
  await clickRoutes(page, CLICKED.slice(0, 1));
  // Two routes known: one besides the current. Extract says how many more to visit.
  const early = await extract(popup);
  assert.equal(early.error, 'Visit 1 more page of this app, then Extract again.');
  await clickRoutes(page, CLICKED.slice(1));
  const hits = site.hits;
  const { error } = await extract(popup);
  assert.equal(error, null);
  assert.equal(site.hits, hits, 'no request reached the site');
  const state = await popupState(popup);
  assert.match(state.compared, VISITED_THREE);
  assert.match(state.plain, /^Found the site's template/);
  await chooseView(popup, 'template');
  checkTemplate(assert, await page.evaluate(appRegions));
  await chooseView(popup, 'content');
  checkContent(assert, await page.evaluate(appRegions));
  return { page, popup };
}

test('React + react-router build: visited routes give header, menu, sidebar and footer as template, the article as content, 0 loads', async () => {
  const site = await serveApp();
  try {
    const { page, popup } = await learnAndExtract(site, '/');
    assert.match(page.url(), /\/news$/, 'the app moved with the History API');
    await popup.uncheck('#learn');
    await popup.waitForFunction(() => document.getElementById('status').textContent.startsWith('Extract compares'));
    assert.deepEqual(await popup.evaluate(() => chrome.scripting.getRegisteredContentScripts()), []);
    await Promise.all([page.close(), popup.close()]);
  } finally {
    await site.close();
  }
});

test('hash-routed app (#/trails): the same, with the routes after # taken as pages', async () => {
  const site = await serveHashApp();
  try {
    const { page, popup } = await learnAndExtract(site, '/');
    assert.match(page.url(), /#\/news$/);
    await popup.uncheck('#learn');
    await popup.waitForFunction(() => document.getElementById('status').textContent.startsWith('Extract compares'));
    await Promise.all([page.close(), popup.close()]);
  } finally {
    await site.close();
  }
});

test('learning stays on for the site: a page opened later learns its routes without the popup', async () => {
  const site = await serveApp();
  try {
    const first = await openWithPopup(browser, `${site.origin}/`);
    await first.popup.check('#learn');
    await first.popup.waitForFunction((s) => document.getElementById('status').textContent === s, LEARN_ON);
    const registered = await first.popup.evaluate(() => chrome.scripting.getRegisteredContentScripts());
    assert.deepEqual(registered.map((r) => r.id), [`tex-learn ${site.origin}`]);
    await Promise.all([first.page.close(), first.popup.close()]);

    const page = await browser.context.newPage();
    await page.goto(`${site.origin}/about`);
    await page.waitForSelector('article h1');
    await sleep(600);
    await clickRoutes(page, CLICKED);
    const popup = await browser.context.newPage();
    await popup.goto(browser.popupUrl(page.url()));
    await popup.waitForSelector('body[data-ready="true"]');
    assert.equal(await popup.isChecked('#learn'), true);
    const { error } = await extract(popup);
    assert.equal(error, null);
    assert.match((await popupState(popup)).compared, VISITED_THREE);
    await popup.uncheck('#learn');
    await popup.waitForFunction(() => document.getElementById('status').textContent.startsWith('Extract compares'));
    await Promise.all([page.close(), popup.close()]);
  } finally {
    await site.close();
  }
});

// With the option off, the served pages are empty shells: one sentence says so and names the option.
test('with the option off, the app\'s served shells give the app-shell sentence, no template success', async () => {
  const site = await serveApp();
  try {
    const { page, popup } = await openWithPopup(browser, `${site.origin}/`);
    await page.waitForSelector('article h1');
    assert.equal(await popup.isChecked('#learn'), false);
    await clickRoutes(page, CLICKED);
    await extract(popup);
    const state = await popupState(popup);
    assert.doesNotMatch(state.error === null ? state.plain : '', /^Found the site's template/, 'no success is reported');
    assert.match(state.error ?? '', /builds its pages in the browser.*Learn from pages I visit/, 'the app-shell sentence');
    await Promise.all([page.close(), popup.close()]);
  } finally {
    await site.close();
  }
});

test('no page raised an uncaught error during the single-page-app tests', () => {
  assert.deepEqual(browser.errors, []);
});
