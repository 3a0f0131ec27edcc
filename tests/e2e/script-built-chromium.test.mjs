// Pages built or changed by scripts, in Chromium, through the real popup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { extract, launchChromium, openWithPopup, toggle } from './chromium.mjs';
import { scriptBuiltTests, serveScriptBuilt } from './script-built.mjs';

let browser;
let site;

before(async () => {
  browser = await launchChromium();
  site = await serveScriptBuilt();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

scriptBuiltTests(test, assert, () => {
  let page;
  let popup;
  return {
    origin: () => site.origin,
    async open(url) {
      ({ page, popup } = await openWithPopup(browser, url));
      await page.waitForSelector('html[data-scripts-done]');
    },
    async extract() {
      const { error } = await extract(popup);
      return { error, report: error ? null : await popup.evaluate(() => fullReport()) };
    },
    view: (name) => toggle(popup, name),
    inPage: (fn, arg) => page.evaluate(fn, arg),
    keySource: () => popup.$eval('#key-source', (e) => e.textContent),
    close: () => Promise.all([page.close(), popup.close()]),
  };
});
