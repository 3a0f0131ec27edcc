// Template memory after a redeploy, in Chromium through the popup: the demo
// site built as CSS modules is extracted once, then served again on the same
// origin with every class renamed by a new build; the second page still fits
// the remembered layout, is answered with no request, and gets the template
// memory gives the site as first written (the CLI's `--memory`), every node
// of which the full method keeps on the redeployed page too.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { extract, launchChromium, openWithPopup } from './chromium.mjs';
import { KEY_PAGE, WWW } from './harness.mjs';
import { SECOND_PAGE, nativeRecall } from './memory-harness.mjs';
import { deploySite } from './redeploy.mjs';
import { serve } from './server.mjs';

let browser;
let site;
const folder = mkdtempSync(join(tmpdir(), 'tex-redeploy-'));
const root = join(folder, 'site');

before(async () => {
  deploySite(WWW, root, 'first');
  browser = await launchChromium();
  site = await serve(root);
});

after(async () => {
  await browser?.close();
  await site?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function open(path) {
  const opened = await openWithPopup(browser, site.origin + path);
  await opened.page.waitForLoadState('networkidle');
  return opened;
}

const compared = (popup) => popup.textContent('#compared');

test('a redeploy that renames every generated class keeps the remembered template: 0 requests, the template memory gave before', async () => {
  const first = await open(KEY_PAGE);
  assert.equal((await extract(first.popup)).error, null);
  assert.match(await compared(first.popup), /^Compared with \d+ other pages/, 'learnt by the full method');
  await Promise.all([first.page.close(), first.popup.close()]);

  deploySite(WWW, root, 'second');
  const { page, popup } = await open(SECOND_PAGE);
  assert.match(await page.getAttribute('header', 'class'), /__\w{5}$/, 'the page carries the new build\'s classes');
  const hits = site.hits;
  assert.equal((await extract(popup)).error, null);
  assert.equal(site.hits, hits, 'no page was requested');
  assert.match(await compared(popup), /^Used the remembered template of this site/);
  const remembered = await popup.evaluate(() => fullReport());

  await popup.click('#again');
  await popup.waitForFunction(() => document.getElementById('compared').textContent.startsWith('Compared with'));
  const full = await popup.evaluate(() => fullReport());
  assert.ok(full.template_nodes > 2, `the full method finds a template: ${full.template_nodes} nodes`);
  assert.deepEqual(remembered.template_paths, nativeRecall().template_paths, 'the remembered template is the one memory gives the site before any redeploy (`tex extract --memory`)');
  const fullPaths = new Set(full.template_paths);
  assert.deepEqual(remembered.template_paths.filter((p) => !fullPaths.has(p)), [], 'the full method on the redeployed page keeps every remembered node');
  await Promise.all([page.close(), popup.close()]);
});

test('no page raised an uncaught error during the redeploy test', () => {
  assert.deepEqual(browser.errors, []);
});
