// Pages built or changed by scripts, in Firefox ESR, through the real popup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchFirefox } from './firefox.mjs';
import { scriptBuiltTests, serveScriptBuilt } from './script-built.mjs';

let ff;
let site;

before(async () => {
  site = await serveScriptBuilt();
  ff = await launchFirefox();
});

after(async () => {
  await ff?.close();
  await site?.close();
});

scriptBuiltTests(test, assert, () => {
  let page;
  let popup;
  return {
    origin: () => site.origin,
    async open(url) {
      const tab = await ff.openTab(url);
      await ff.waitFor('html[data-scripts-done]');
      const actual = await ff.execute(() => location.href);
      page = tab;
      popup = await ff.openTab(ff.popupUrl(actual));
      await ff.waitFor('body[data-ready="true"], #error:not([hidden])');
    },
    async extract() {
      const { error, report } = await ff.extract();
      return { error, report };
    },
    async view(name) {
      await ff.switchTo(popup);
      await ff.click(`[data-view-button="${name}"]`);
      await ff.waitFor(`#view[data-view="${name}"]`);
    },
    async inPage(fn, arg) {
      await ff.switchTo(page);
      const value = await ff.execute(fn, arg);
      await ff.switchTo(popup);
      return value;
    },
    keySource: () => ff.execute(() => document.getElementById('key-source').textContent),
    async close() {
      await ff.closeTab(popup);
      await ff.closeTab(page);
    },
  };
});
