// Issue 24's key-page cases of freeze.mjs in Chromium, through the popup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { extract, launchChromium, toggle } from './chromium.mjs';
import { freezeTests } from './freeze.mjs';

let browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

freezeTests(test, assert, async (url) => {
  // Chromium itself takes tens of seconds to load a page nested 100,000 deep (the heartbeat starts after).
  const page = await browser.context.newPage();
  await page.goto(url, { timeout: 180_000 });
  const popup = await browser.context.newPage();
  await popup.goto(browser.popupUrl(page.url()));
  await popup.waitForSelector('body[data-ready="true"]');
  return {
    extract: async () => (await extract(popup)).error,
    report: () => popup.evaluate(() => fullReport()),
    click: (selector) => popup.click(selector),
    waitFor: (selector) => popup.waitForSelector(selector, { timeout: 60_000 }),
    text: (selector) => popup.textContent(selector),
    toggle: (view) => toggle(popup, view),
    inPage: (fn, ...args) => page.evaluate(fn, ...args),
    inPopup: (fn, ...args) => popup.evaluate(fn, ...args),
    close: () => Promise.all([page.close(), popup.close()]),
  };
});

test('no page raised an uncaught error during the tests above', () => {
  assert.deepEqual(browser.errors, []);
});
