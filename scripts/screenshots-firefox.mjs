// The extension's surfaces in Firefox ESR, as docs/screenshots.md shows
// them for Chromium: the popup (idle, loading, result, Details, restricted
// page; light and dark; Spanish), the page (template outlined, template and
// content views, dark content view), the saved template file and the
// options page. Drives the Firefox harness of the e2e tests (headless,
// pages on 127.0.0.1) and writes docs/screenshots/firefox-*.png.
// Usage: ./build.sh build && node scripts/screenshots-firefox.mjs [OUT_DIR]
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { By } from 'selenium-webdriver';

import { launchFirefox } from '../tests/e2e/firefox.mjs';
import { KEY_PAGE, WWW } from '../tests/e2e/harness.mjs';
import { serve } from '../tests/e2e/server.mjs';
import { firefoxInLocale, slowDemoSite, until } from '../tests/e2e/ui-harness.mjs';

const OUT = resolve(process.argv[2] ?? join(import.meta.dirname, '../docs/screenshots'));
const site = await serve(WWW);
const slow = await slowDemoSite(2000);
const ff = await launchFirefox();

/** The popup is a 340 px body in a tab here: its element screenshot is the popup as a toolbar panel shows it. */
const shootPopup = async (name) => {
  const png = await (await ff.driver.findElement(By.css('body'))).takeScreenshot();
  writeFileSync(join(OUT, `firefox-${name}.png`), Buffer.from(png, 'base64'));
};
const shootPage = (name) => ff.screenshot(join(OUT, `firefox-${name}.png`), { window: name.startsWith('page-content') });
const scheme = (dark) => ff.inChrome('Services.prefs.setIntPref("ui.systemUsesDarkTheme", arguments[0]);', dark);
const pageView = async (page, popup, view) => {
  await ff.switchTo(popup);
  await ff.click(`[data-view-button="${view}"]`);
  await ff.waitFor(`#view[data-view="${view}"]`);
  await ff.switchTo(page);
  await sleep(300);
};

try {
  for (const [name, dark] of [['light', 0], ['dark', 1]]) {
    await scheme(dark);
    const { page, popup } = await ff.openWithPopup(site.origin + KEY_PAGE);
    await shootPopup(`popup-idle-${name}`);
    await ff.click('#extract');
    await ff.waitFor('#summary:not([hidden])');
    await shootPopup(`popup-result-${name}`);
    if (!dark) {
      await ff.execute(() => { document.getElementById('details').open = true; });
      await shootPopup('popup-details');
    }
    await ff.switchTo(page);
    await sleep(300);
    await shootPage(`page-outlined-${name}`);
    if (!dark) await pageView(page, popup, 'template').then(() => shootPage('page-template'));
    await pageView(page, popup, 'content').then(() => shootPage(`page-content-${name}`));
    if (!dark) {
      await ff.switchTo(popup);
      await ff.click('#save');
      const file = join(ff.downloads, 'template-127.0.0.1.html');
      await until(() => existsSync(file), 10_000);
      const saved = await ff.openTab(`file://${file}`);
      await sleep(500);
      await shootPage('saved-template');
      await ff.closeTab(saved);
    }
    const options = await ff.openTab(ff.extensionUrl('options.html'));
    await ff.waitFor('body[data-ready="true"]');
    await shootPage(`options-${name}`);
    await ff.closeTab(options);
    await ff.closeTab(popup);
    await ff.closeTab(page);
  }
  await scheme(0);

  const loading = await ff.openWithPopup(slow.origin + KEY_PAGE);
  await ff.click('#extract');
  await until(async () => (await ff.execute(() => document.getElementById('status').textContent)).startsWith('Loading linked pages'));
  await shootPopup('popup-loading');
  await ff.click('#cancel');
  await ff.closeTab(loading.popup);
  await ff.closeTab(loading.page);

  const restricted = await ff.openWithPopup('about:robots');
  await shootPopup('popup-error');
  await ff.closeTab(restricted.popup);
  await ff.closeTab(restricted.page);

  if (await firefoxInLocale(ff, 'es-ES')) {
    const es = await ff.openWithPopup(site.origin + KEY_PAGE);
    await ff.click('#extract');
    await ff.waitFor('#summary:not([hidden])');
    await shootPopup('popup-result-es');
    await ff.closeTab(es.popup);
    await ff.closeTab(es.page);
  } else {
    console.error('no es-ES language pack (Debian firefox-esr-l10n-es-es): no Spanish screenshot');
  }
  console.log(`wrote ${OUT}/firefox-*.png`);
} finally {
  await ff.inChrome('Services.prefs.clearUserPref("ui.systemUsesDarkTheme");').catch(() => {});
  await ff.close();
  await Promise.all([site.close(), slow.close()]);
}
