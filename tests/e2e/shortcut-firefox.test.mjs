// The keyboard shortcut in Firefox through an extraction longer than the
// background's idle timeout. Firefox suspends an MV3 event page after
// extensions.background.idle.timeout without an event (30 s by default; 1 s
// in this profile, so the test takes seconds, not minutes), while the linked
// pages answer after 3 s each: the result must still reach the page (its
// content view) and the toolbar button (badge and title).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launchFirefox } from './firefox.mjs';
import { KEY_PAGE, nativeExtraction } from './harness.mjs';
import { pageLayerProbe, slowDemoSite, until } from './ui-harness.mjs';

const IDLE_TIMEOUT_MS = 1000;

let ff;
let slow;

before(async () => {
  nativeExtraction();
  slow = await slowDemoSite(3000);
  ff = await launchFirefox({ prefs: { 'extensions.background.idle.timeout': IDLE_TIMEOUT_MS } });
});

after(async () => {
  await ff?.close();
  await slow?.close();
});

test('shortcut: the result arrives although Firefox suspended the background during the extraction', async () => {
  const expected = nativeExtraction();
  const page = await ff.openTab(slow.origin + KEY_PAGE);
  const url = await ff.execute(() => location.href);
  await ff.pressShortcut('E');
  const states = new Set();
  await until(async () => {
    states.add(await ff.backgroundState());
    return (await ff.execute(pageLayerProbe))?.pressed?.Content === 'true';
  }, 60_000);
  assert.ok(states.has('stopped'), `the background was suspended meanwhile (states seen: ${[...states]})`);

  const options = await ff.openTab(ff.extensionUrl('options.html'));
  await ff.waitFor('body[data-ready="true"]');
  const button = await until(() => ff.execute(async (u) => {
    const tab = (await browser.tabs.query({})).find((t) => t.url === u);
    const text = await browser.action.getBadgeText({ tabId: tab.id });
    return text === 'T' && { text, title: await browser.action.getTitle({ tabId: tab.id }) };
  }, url), 10_000);
  const pct = Math.round((100 * expected.template_nodes) / expected.total_nodes);
  assert.deepEqual(button, { text: 'T', title: `Template found: ${pct} % of this page is the site's template.` });
  await ff.closeTab(options);
  await ff.closeTab(page);
});
