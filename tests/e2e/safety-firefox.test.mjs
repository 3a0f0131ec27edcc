// The hostile-web cases of safety.mjs in Firefox ESR, through the popup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchFirefox } from './firefox.mjs';
import { safetyTests } from './safety.mjs';

let ff;

before(async () => {
  ff = await launchFirefox();
});

after(async () => {
  await ff?.close();
});

safetyTests(test, assert, async (url, config) => {
  const page = await ff.openTab(url);
  const actual = await ff.execute(() => location.href);
  const popup = await ff.openTab(ff.popupUrl(actual));
  await ff.waitFor('body[data-ready="true"], #error:not([hidden])');
  await ff.execute((c) => browser.storage.local.set({ config: c }), config);
  return {
    async extract() {
      await ff.switchTo(popup);
      await ff.click('#extract');
      await ff.waitFor('#summary:not([hidden]), #error:not([hidden])');
      return ff.execute(() => ({
        error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent,
        report: globalThis.lastReport ?? null,
      }));
    },
    async toggle(view) {
      await ff.switchTo(popup);
      await ff.click(`[data-view-button="${view}"]`);
      await ff.waitFor(`#view[data-view="${view}"]`);
    },
    async inPage(fn, ...args) {
      await ff.switchTo(page);
      return ff.execute(fn, ...args);
    },
    async close() {
      await ff.switchTo(popup);
      await ff.execute(() => browser.storage.local.remove('config'));
      await ff.closeTab(popup);
      await ff.closeTab(page);
    },
  };
});
