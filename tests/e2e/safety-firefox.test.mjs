// The hostile-web cases of safety.mjs in Firefox ESR, through the popup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchFirefox } from './firefox.mjs';
import { safetyTests } from './safety.mjs';

let ff;

before(async () => {
  // The popup opens as a tab here, which sends the page to the background, where Firefox runs its timers
  // at most once a second: the heartbeat would then measure that, not a freeze. A user's popup leaves the
  // page in front, so the page's timers run as in a foreground tab.
  ff = await launchFirefox({ prefs: { 'dom.min_background_timeout_value': 4, 'dom.min_background_timeout_value_without_budget_throttling': 4, 'dom.timeout.enable_budget_timer_throttling': false } });
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
      await ff.chooseView(view);
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
}, { exposesFetches: true });
