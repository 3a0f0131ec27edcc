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
  const { page, popup } = await ff.openWithPopup(url);
  await ff.execute((c) => browser.storage.local.set({ config: c }), config);
  return {
    async extract() {
      await ff.switchTo(popup);
      return ff.extract();
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
