// The shortcut's path in Chromium through a long extraction, with the
// background service worker stopped while the page works (DevTools'
// ServiceWorker.stopAllWorkers, as Chromium stops an idle worker after 30 s):
// the page's message at the end starts it again, and the result reaches the
// page (its content view) and the toolbar button (badge and title).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchChromium } from './chromium.mjs';
import { KEY_PAGE, nativeExtraction } from './harness.mjs';
import { pageLayerProbe, slowDemoSite, until } from './ui-harness.mjs';

let browser;
let slow;

before(async () => {
  nativeExtraction();
  slow = await slowDemoSite(3000);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await slow?.close();
});

test('shortcut: the result arrives although the background worker was stopped during the extraction', async () => {
  const expected = nativeExtraction();
  const page = await browser.context.newPage();
  await page.goto(slow.origin + KEY_PAGE);
  // What the shortcut's listener runs; it resolves once the page has started.
  await browser.context.serviceWorkers()[0].evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    await startInTab(tab);
  }, page.url());
  await page.waitForFunction(() => document.querySelector('tex-view')?.shadowRoot.querySelector('.badge')?.textContent.includes('Loading linked pages'));
  const devtools = await browser.context.newCDPSession(page);
  await devtools.send('ServiceWorker.enable');
  await devtools.send('ServiceWorker.stopAllWorkers');
  await until(async () => (await page.evaluate(pageLayerProbe))?.pressed?.Content === 'true', 60_000);

  const options = await browser.context.newPage();
  await options.goto(browser.extensionUrl('options.html'));
  const button = await until(() => options.evaluate(async (u) => {
    const [tab] = await chrome.tabs.query({ url: u });
    const text = await chrome.action.getBadgeText({ tabId: tab.id });
    return text === 'T' && { text, title: await chrome.action.getTitle({ tabId: tab.id }) };
  }, page.url()), 10_000);
  const pct = Math.round((100 * expected.template_nodes) / expected.total_nodes);
  assert.deepEqual(button, { text: 'T', title: `Template found: ${pct} % of this page is the site's template.` });
  await Promise.all([options.close(), page.close()]);
});
