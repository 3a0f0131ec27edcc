// Debian's Chromium driven by playwright-core, headless, with the unpacked
// extension loaded; the popup is opened as a page aimed at the page's tab.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

import { automationCopy } from './harness.mjs';

export async function launchChromium() {
  const extension = automationCopy('chrome');
  const profile = mkdtempSync(join(tmpdir(), 'tex-chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [
      `--disable-extensions-except=${extension}`,
      `--load-extension=${extension}`,
      '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run',
      // Pages of real sites name other hosts (fonts, images): resolve none of them.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
    viewport: { width: 1200, height: 900 },
  });
  const errors = [];
  context.on('weberror', (e) => errors.push(`${e.page()?.url() ?? 'worker'}: ${e.error().message}`));
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(worker.url()).host;
  return {
    context,
    /** Uncaught errors of every page of the context so far. */
    errors,
    popupUrl: (target) => `chrome-extension://${id}/popup.html?url=${encodeURIComponent(target)}`,
    extensionUrl: (page) => `chrome-extension://${id}/${page}`,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      rmSync(extension, { recursive: true, force: true });
    },
  };
}

/** Opens `url` and a popup aimed at it; resolves to `{ page, popup }`. */
export async function openWithPopup(browser, url) {
  const page = await browser.context.newPage();
  await page.goto(url);
  const popup = await browser.context.newPage();
  await popup.goto(browser.popupUrl(page.url()));
  await popup.waitForSelector('body[data-ready="true"], #error:not([hidden])');
  return { page, popup };
}

/** Clicks Extract template and waits for the summary or an error sentence. */
export async function extract(popup) {
  await popup.click('#extract');
  await popup.waitForSelector('#summary:not([hidden]), #error:not([hidden])', { timeout: 60_000 });
  const error = await popup.$eval('#error', (e) => (e.hidden ? null : e.textContent));
  return { error, summary: await popup.$eval('#summary', (e) => e.innerText) };
}

/** Picks `view` in the popup's Original / Template / Content control and waits until the popup shows it. */
export async function toggle(popup, view) {
  await popup.click(`[data-view-button="${view}"]`);
  await popup.waitForSelector(`#view[data-view="${view}"]`);
}
