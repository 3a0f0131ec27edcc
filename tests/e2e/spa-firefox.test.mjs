// Single-page apps in Firefox ESR, clicking the real popup: with "Learn from
// pages I visit" on, the routes clicked through in the React build and in the
// hash-routed app are the pages Extract compares, with no request to the site;
// with it off, the served shells give no template success.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { launchFirefox } from './firefox.mjs';
import { CLICKED, LEARN_ON, MENU, VISITED_THREE, appRegions, checkContent, checkTemplate, serveApp, serveHashApp } from './spa-harness.mjs';

let ff;
before(async () => { ff = await launchFirefox(); });
after(async () => { await ff?.close(); });

const text = (selector) => ff.execute((s) => document.querySelector(s)?.textContent ?? null, selector);

async function until(probe, what) {
  for (let end = Date.now() + 30_000; Date.now() < end; await sleep(100)) if (await probe()) return;
  throw new Error(`timed out waiting for ${what}`);
}

/** In the page tab: clicks the menu links (`href` of each label), each time until its article shows and the route has settled. */
async function clickRoutes(hrefOf, labels) {
  for (const label of labels) {
    const before = await text('article h1');
    await ff.click(`nav a[href="${hrefOf(label)}"]`);
    await until(async () => (await text('article h1')) !== before, label);
    await sleep(600);
  }
}

async function learnAndExtract(site, hrefOf) {
  const { page, popup } = await ff.openWithPopup(`${site.origin}/`);
  await ff.click('#learn');
  await until(async () => (await text('#status')) === LEARN_ON || !(await ff.execute(() => document.getElementById('error').hidden)), 'the switch');
  assert.equal(await text('#status'), LEARN_ON);
  await ff.switchTo(page);
  await clickRoutes(hrefOf, CLICKED);
  await ff.switchTo(popup);
  const hits = site.hits;
  const result = await ff.extract();
  assert.equal(result.error, null);
  assert.equal(site.hits, hits, 'no request reached the site');
  assert.match(result.compared, VISITED_THREE);
  await ff.chooseView('template');
  await ff.switchTo(page);
  checkTemplate(assert, await ff.execute(appRegions));
  await ff.switchTo(popup);
  await ff.chooseView('content');
  await ff.switchTo(page);
  checkContent(assert, await ff.execute(appRegions));
  // Left on: turning it off gives back the host's permission, and asking for it again shows a prompt WebDriver cannot answer.
  await ff.closeTab(popup);
  await ff.closeTab(page);
}

const historyHref = (label) => (label === MENU[0] ? '/' : `/${label.toLowerCase()}`);
const hashHref = (label) => `#${historyHref(label)}`;

test('React + react-router build: visited routes give the template, the article is content, 0 loads', async () => {
  const site = await serveApp();
  try {
    await learnAndExtract(site, historyHref);
  } finally {
    await site.close();
  }
});

test('hash-routed app (#/trails): the same', async () => {
  const site = await serveHashApp();
  try {
    await learnAndExtract(site, hashHref);
  } finally {
    await site.close();
  }
});

// With the option off, the served pages are empty shells: one sentence says so and names the option.
test('with the option off, the app\'s served shells give the app-shell sentence, no template success', async () => {
  const site = await serveApp();
  try {
    const { page, popup } = await ff.openWithPopup(`${site.origin}/`);
    assert.equal(await ff.execute(() => document.getElementById('learn').checked), false);
    await ff.switchTo(page);
    await until(async () => (await text('article h1')) !== null, 'the app to render');
    await clickRoutes(historyHref, CLICKED);
    await ff.switchTo(popup);
    const result = await ff.extract();
    assert.doesNotMatch(result.error === null ? result.summary : '', /^Found the site's template/, 'no success is reported');
    assert.match(result.error ?? '', /builds its pages in the browser.*Learn from pages I visit/, 'the app-shell sentence');
    await ff.closeTab(popup);
    await ff.closeTab(page);
  } finally {
    await site.close();
  }
});
