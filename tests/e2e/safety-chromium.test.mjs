// The hostile-web cases of safety.mjs in Chromium, through the popup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { extract, launchChromium, openWithPopup, toggle } from './chromium.mjs';
import { safetyTests } from './safety.mjs';

let browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

safetyTests(test, assert, async (url, config) => {
  const { page, popup } = await openWithPopup(browser, url);
  await popup.evaluate((c) => chrome.storage.local.set({ config: c }), config);
  return {
    async extract() {
      const { error } = await extract(popup);
      return { error, report: await popup.evaluate(() => fullReport()) };
    },
    toggle: (view) => toggle(popup, view),
    inPage: (fn, ...args) => page.evaluate(fn, ...args),
    async close() {
      await popup.evaluate(() => chrome.storage.local.remove('config'));
      await Promise.all([page.close(), popup.close()]);
    },
  };
}, { exposesFetches: false });

test('no page raised an uncaught error during the tests above', () => {
  assert.deepEqual(browser.errors, []);
});
