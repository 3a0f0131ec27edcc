// Template memory after a redeploy, in Firefox ESR through the popup: the
// same clicks as in Chromium (redeploy-chromium.test.mjs).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';

import { launchFirefox } from './firefox.mjs';
import { KEY_PAGE, WWW } from './harness.mjs';
import { SECOND_PAGE, nativeRecall } from './memory-harness.mjs';
import { deploySite } from './redeploy.mjs';
import { serve } from './server.mjs';

let ff;
let site;
const folder = mkdtempSync(join(tmpdir(), 'tex-redeploy-'));
const root = join(folder, 'site');

before(async () => {
  deploySite(WWW, root, 'first');
  site = await serve(root);
  ff = await launchFirefox();
});

after(async () => {
  await ff?.close();
  await site?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function openWithPopup(path) {
  const opened = await ff.openWithPopup(site.origin + path);
  // Let the page's own late requests (an icon) settle before counting requests.
  await sleep(300);
  return opened;
}

test('a redeploy that renames every generated class keeps the remembered template: 0 requests, the template memory gave before', async () => {
  const first = await openWithPopup(KEY_PAGE);
  const learnt = await ff.extract();
  assert.equal(learnt.error, null);
  assert.match(learnt.compared, /^Compared with \d+ other pages/);
  await ff.closeTab(first.popup);
  await ff.closeTab(first.page);

  deploySite(WWW, root, 'second');
  const { page, popup } = await openWithPopup(SECOND_PAGE);
  await ff.switchTo(page);
  assert.match(await ff.execute(() => document.querySelector('header').className), /__\w{5}$/, 'the page carries the new build\'s classes');
  await ff.switchTo(popup);
  const hits = site.hits;
  const remembered = await ff.extract();
  assert.equal(remembered.error, null);
  assert.equal(site.hits, hits, 'no page was requested');
  assert.match(remembered.compared, /^Used the remembered template of this site/);

  await ff.click('#again');
  for (let end = Date.now() + 60_000; Date.now() < end; await sleep(100)) {
    if ((await ff.execute(() => document.getElementById('compared').textContent)).startsWith('Compared with')) break;
  }
  const full = await ff.execute(() => fullReport());
  assert.ok(full.template_nodes > 2, `the full method finds a template: ${full.template_nodes} nodes`);
  assert.deepEqual(remembered.report.template_paths, nativeRecall().template_paths, 'the remembered template is the one memory gives the site before any redeploy (`tex extract --memory`)');
  const fullPaths = new Set(full.template_paths);
  assert.deepEqual(remembered.report.template_paths.filter((p) => !fullPaths.has(p)), [], 'the full method on the redeployed page keeps every remembered node');
  await ff.closeTab(popup);
  await ff.closeTab(page);
});
