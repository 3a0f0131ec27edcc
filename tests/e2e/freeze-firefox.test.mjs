// Issue 24's key-page cases of freeze.mjs in Firefox ESR, through the popup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchFirefox } from './firefox.mjs';
import { freezeTests } from './freeze.mjs';

let ff;

before(async () => {
  // The popup opens as a tab here, which sends the page to the background, where Firefox runs its timers
  // at most once a second; a user's popup leaves the page in front (see safety-firefox.test.mjs).
  ff = await launchFirefox({ prefs: { 'dom.min_background_timeout_value': 4, 'dom.min_background_timeout_value_without_budget_throttling': 4, 'dom.timeout.enable_budget_timer_throttling': false } });
});

after(async () => {
  await ff?.close();
});

/** Runs in the page: clicks `view` on the page's badge and resolves once the page shows it. */
function chooseOnBadge(view) {
  const buttons = () => document.querySelector('tex-view')?.shadowRoot?.querySelectorAll('.views button') ?? [];
  const index = ['original', 'template', 'content'].indexOf(view);
  buttons()[index].click();
  // The original view draws nothing: the badge goes.
  const shown = () => (view === 'original' ? !document.querySelector('tex-view') : buttons()[index]?.getAttribute('aria-pressed') === 'true');
  return new Promise((resolve) => {
    const check = () => (shown() ? resolve() : setTimeout(check, 20));
    check();
  });
}

freezeTests(test, assert, async (url) => {
  const { page, popup } = await ff.openWithPopup(url);
  const inPopup = async (step) => {
    await ff.switchTo(popup);
    return step();
  };
  return {
    extract: () => inPopup(async () => {
      await ff.click('#extract');
      await ff.waitFor('#summary:not([hidden]), #error:not([hidden])');
      return ff.execute(() => (document.getElementById('error').hidden ? null : document.getElementById('error').textContent));
    }),
    report: () => inPopup(() => ff.execute(() => fullReport())),
    click: (selector) => inPopup(() => ff.click(selector)),
    waitFor: (selector) => inPopup(() => ff.waitFor(selector)),
    text: (selector) => inPopup(() => ff.execute((s) => document.querySelector(s).textContent, selector)),
    // The views are chosen on the page's own badge, the page in front as a user's popup leaves it: the
    // popup is a tab in this harness, and switching tabs between a view and the heartbeat mixed the two.
    async toggle(view) {
      await ff.switchTo(page);
      await ff.execute(chooseOnBadge, view);
    },
    async inPage(fn, ...args) {
      await ff.switchTo(page);
      return ff.execute(fn, ...args);
    },
    inPopup: (fn, ...args) => inPopup(() => ff.execute(fn, ...args)),
    async close() {
      await ff.closeTab(popup);
      await ff.closeTab(page);
    },
  };
});
