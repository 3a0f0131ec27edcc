// Screenshots use caret: 'initial': hiding the caret makes Playwright leave
// style="" on inputs, which would defeat the exact-restore check.
// End to end in Chromium: the demo site, a strict-CSP copy of it, and the
// error paths, through the popup as a user would click it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { extract, launchChromium, openWithPopup } from './chromium.mjs';
import { chooseView, slowDemoSite } from './ui-harness.mjs';
import { ARTIFACTS, FIXTURES, KEY_PAGE, ROOT, WWW, FETCH_RULES_CONFIG, assertFetchRules, checkView, errorPathTests, weakEvidenceTests, fetchRulesServers, nativeExtraction, probePage, recordTimings, timeExtractions } from './harness.mjs';
import { serve } from './server.mjs';

let browser;
let site;
let strictSite;
let fixtures;

before(async () => {
  nativeExtraction();
  browser = await launchChromium();
  site = await serve(WWW);
  strictSite = await serve(WWW, { csp: "default-src 'self'; script-src 'self'; style-src 'self'" });
  fixtures = await serve(FIXTURES);
});

after(async () => {
  await browser?.close();
  await Promise.all([site, strictSite, fixtures].map((s) => s?.close()));
});

async function cycleViews(t, origin, prefix) {
  const expected = nativeExtraction();
  const { page, popup } = await openWithPopup(browser, origin + KEY_PAGE);
  const before = await page.evaluate(() => document.documentElement.outerHTML);
  await page.screenshot({ path: join(ARTIFACTS, `${prefix}-before.png`), fullPage: true, caret: 'initial' });

  const { error } = await extract(popup);
  assert.equal(error, null);
  const summary = await popup.textContent('#summary');
  assert.match(summary, new RegExp(`Template: ${expected.template_nodes} of ${expected.total_nodes} nodes`));
  for (const url of expected.cs.pages) assert.ok(summary.includes(new URL(new URL(url).pathname, origin).href), `CS page ${url} listed`);
  checkView(assert, await page.evaluate(probePage), expected.template_ids, 'original');

  for (const view of ['template', 'content', 'original']) {
    await chooseView(popup, view);
    checkView(assert, await page.evaluate(probePage), expected.template_ids, view);
    // The content view's panel covers the window, the page beneath it: shot as a reader sees it.
    await page.screenshot({ path: join(ARTIFACTS, `${prefix}-${view === 'original' ? 'restored' : view}.png`), fullPage: view !== 'content', caret: 'initial' });
  }
  const restored = await page.evaluate(() => document.documentElement.outerHTML);
  if (restored !== before) writeFileSync(join(ARTIFACTS, `${prefix}-restored.html`), restored);
  assert.ok(restored === before, `the original view restores the exact DOM (see ${prefix}-restored.html)`);
  const report = await popup.evaluate(() => document.getElementById('loads').textContent);
  await page.close();
  await popup.close();
  return report;
}

test('demo site: extraction matches the native CLI, views hide what they should, original restores exactly', async (t) => {
  const loads = await cycleViews(t, site.origin, 'chromium');
  assert.match(loads, /core: wasm\./);
});

/** The popup's status lines during one extraction of the slow demo site with `config` stored. */
async function progressLines(slow, config) {
  const { page, popup } = await openWithPopup(browser, slow.origin + KEY_PAGE);
  await popup.evaluate(async (config) => {
    await chrome.storage.local.set({ config });
    const status = document.getElementById('status');
    globalThis.statuses = [];
    new MutationObserver(() => globalThis.statuses.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  }, config);
  assert.equal((await extract(popup)).error, null);
  const statuses = await popup.evaluate(async () => {
    await chrome.storage.local.remove('config');
    return globalThis.statuses;
  });
  await Promise.all([page.close(), popup.close()]);
  return statuses;
}

test('an extraction that lasts shows its progress in the popup: the loads, and comparisons left after them', async () => {
  const expected = nativeExtraction();
  // Each page takes longer than the popup's progress delay (300 ms), so loads finish after progress shows.
  const slow = await slowDemoSite(400);
  try {
    const planned = Math.min(expected.links, 25);
    const loading = new RegExp(`^Loading linked pages: \\d+ / ${planned}$`);
    // By default each page is compared as it loads; the published method compares the CS members after the loads.
    const plain = await progressLines(slow, {});
    assert.ok(plain.some((s) => loading.test(s)), `progress shown: ${plain.join(' | ')}`);
    const paper = await progressLines(slow, { content: { enabled: false } });
    assert.ok(paper.some((s) => loading.test(s)), `progress shown: ${paper.join(' | ')}`);
    assert.ok(paper.includes('Comparing the loaded pages: 0 done'), `progress after the loads shown: ${paper.join(' | ')}`);
  } finally {
    await slow.close();
  }
});

test('strict-CSP page (no wasm-unsafe-eval): the wasm2js build gives the same template', async (t) => {
  const loads = await cycleViews(t, strictSite.origin, 'chromium-strict-csp');
  assert.match(loads, /core: wasm2js\./);
});

/** The share of pixels that differ (any channel by more than 16) between two PNG screenshots of one size. */
async function pixelDifference(a, b) {
  const scratch = await browser.context.newPage();
  try {
    return await scratch.evaluate(async ([a, b]) => {
      const pixels = async (png) => {
        const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
        const canvas = new OffscreenCanvas(image.width, image.height);
        const g = canvas.getContext('2d');
        g.drawImage(image, 0, 0);
        return g.getImageData(0, 0, image.width, image.height).data;
      };
      const [pa, pb] = [await pixels(a), await pixels(b)];
      if (pa.length !== pb.length) return 1;
      let differ = 0;
      for (let i = 0; i < pa.length; i += 4) {
        if (Math.max(...[0, 1, 2].map((c) => Math.abs(pa[i + c] - pb[i + c]))) > 16) differ++;
      }
      return differ / (pa.length / 4);
    }, [a.toString('base64'), b.toString('base64')]);
  } finally {
    await scratch.close();
  }
}

test('save template downloads the template with the page\'s head, looking like the template view', async () => {
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  await extract(popup);
  await chooseView(popup, 'template');
  // Our badge and outline layer are not the page: leave them out of the picture.
  await page.evaluate(() => document.querySelectorAll('tex-view').forEach((e) => { e.style.visibility = 'hidden'; }));
  const view = await page.screenshot({ fullPage: true, caret: 'initial' });
  const [download] = await Promise.all([popup.waitForEvent('download'), popup.click('#save')]);
  const path = join(ARTIFACTS, 'chromium-template.html');
  await download.saveAs(path);
  const saved = await browser.context.newPage();
  await saved.goto(`file://${path}`);
  const head = await saved.evaluate(() => ({
    title: document.title,
    charset: document.characterSet,
    base: document.querySelector('base')?.getAttribute('href'),
    sheets: [...document.styleSheets].map((s) => s.href),
    scripts: document.querySelectorAll('script').length,
  }));
  assert.deepEqual(head, { title: `Template of ${new URL(site.origin).hostname}`, charset: 'UTF-8', base: site.origin + KEY_PAGE, sheets: [`${site.origin}/css/style.css`], scripts: 0 });
  const file = await saved.screenshot({ fullPage: true, caret: 'initial', path: join(ARTIFACTS, 'chromium-saved-template.png') });
  writeFileSync(join(ARTIFACTS, 'chromium-template-view.png'), view);
  const differ = await pixelDifference(view, file);
  assert.ok(differ < 0.01, `the saved file looks like the template view: ${(differ * 100).toFixed(2)} % of pixels differ (chromium-template-view.png, chromium-saved-template.png)`);
  // The same elements as the CLI's saved template of the page.
  const cli = join(ARTIFACTS, 'cli-template.html');
  execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'tex', '--', 'extract', WWW, KEY_PAGE.slice(1), '--html', cli, '--base', site.origin + KEY_PAGE],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const bodyTags = (html) => saved.evaluate((html) => [...new DOMParser().parseFromString(html, 'text/html').body.querySelectorAll('*')].map((e) => e.localName).join(' '), html);
  assert.equal(await bodyTags(readFileSync(path, 'utf8')), await bodyTags(readFileSync(cli, 'utf8')));
  await Promise.all([page.close(), popup.close(), saved.close()]);
});

async function errorOf(url) {
  const { page, popup } = await openWithPopup(browser, url);
  // A page out of reach is said before any click, and Extract is then unavailable.
  const unavailable = (await popup.getAttribute('#extract', 'aria-disabled')) === 'true';
  const error = unavailable ? await popup.textContent('#error') : (await extract(popup)).error;
  await Promise.all([page.close(), popup.close()]);
  return error;
}

errorPathTests(test, assert, { errorOf, origin: () => fixtures.origin, restricted: 'chrome://version/' });

async function warningOf(url) {
  const { page, popup } = await openWithPopup(browser, url);
  const { error } = await extract(popup);
  assert.equal(error, null);
  const warning = await popup.$eval('#weak', (e) => (e.hidden ? null : e.textContent));
  const plain = await popup.textContent('#plain');
  await Promise.all([page.close(), popup.close()]);
  return { warning, plain };
}

weakEvidenceTests(test, assert, { warningOf, origin: () => fixtures.origin, demo: () => site.origin });

test('timings: median of 5 extractions of the demo key page', async (t) => {
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  const runs = await timeExtractions(5, async () => {
    await extract(popup);
    return popup.evaluate(() => fullReport());
  });
  const summary = recordTimings('chromium', runs);
  t.diagnostic(`chromium median ms: ${JSON.stringify(summary)}`);
  await Promise.all([page.close(), popup.close()]);
});

test('a page over the size limit (max_nodes from storage) says so in one sentence', async () => {
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  await popup.evaluate(() => chrome.storage.local.set({ config: { max_nodes: 50 } }));
  const { error } = await extract(popup);
  await popup.evaluate(() => chrome.storage.local.remove('config'));
  assert.equal(error, 'This page has 130 elements, more than the limit of 50 (Elements per page, in the options); raise the limit there to analyse it.');
  await Promise.all([page.close(), popup.close()]);
});

test('options persist the core config and refuse invalid weights in one sentence', async () => {
  const options = await browser.context.newPage();
  await options.goto(browser.extensionUrl('options.html'));
  await options.waitForFunction(() => document.querySelector('[name="cs_size"]').value !== '');
  assert.equal(await options.inputValue('[name="cs_size"]'), '3');
  assert.equal(await options.inputValue('[name="max_nodes"]'), '200000', 'the element limit is an option, as the too-large sentence says');
  await options.click('#advanced summary');
  await options.fill('[name="equality.w_classes"]', '0.9');
  await options.click('button[type="submit"]');
  await options.waitForSelector('#message.error');
  assert.equal(await options.textContent('#message'), 'The configuration is invalid: the four weights must add up to 1, not 1.4.');
  const invalid = () => options.$$eval('[aria-invalid="true"]', (es) => es.map((e) => e.name));
  assert.deepEqual(await invalid(), ['equality.w_classes', 'equality.w_position', 'equality.w_attributes', 'equality.w_children'], 'the weights are marked');
  assert.equal(await options.evaluate(() => document.activeElement.name), 'equality.w_classes');
  await options.fill('[name="equality.w_classes"]', '0.5');
  // t > n is refused, not clamped and called saved.
  await options.fill('[name="votes"]', '5');
  const stored = await options.evaluate(() => chrome.storage.local.get('config'));
  await options.click('button[type="submit"]');
  await options.waitForFunction(() => document.getElementById('message').textContent.includes('votes'));
  assert.equal(await options.textContent('#message'),
    'The configuration is invalid: a node cannot need more votes (t) than the complete subdigraph has pages (n).');
  assert.deepEqual(await invalid(), ['cs_size', 'votes']);
  assert.deepEqual(await options.evaluate(() => chrome.storage.local.get('config')), stored, 'nothing stored');
  await options.fill('[name="votes"]', '2');
  // A preset chosen is not stored until Save: the page says so at once.
  await options.check('#preset-paper');
  assert.equal(await options.textContent('#message'), 'Not saved yet: press Save to keep these settings.');
  await options.check('#preset-default');
  await options.fill('[name="cs_size"]', '2');
  await options.click('button[type="submit"]');
  await options.waitForFunction(() => document.getElementById('message').textContent === 'Saved.');
  const { config } = await options.evaluate(() => chrome.storage.local.get('config'));
  assert.equal(config.cs_size, 2);
  await options.click('#reset');
  await options.close();
});

test('keyboard shortcut / context menu path: the background extracts and shows the content view; Escape returns to the page', async () => {
  const expected = nativeExtraction();
  const page = await browser.context.newPage();
  await page.goto(site.origin + KEY_PAGE);
  const before = await page.evaluate(() => document.documentElement.outerHTML);
  const [worker] = browser.context.serviceWorkers();
  const badge = await worker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    await startInTab(tab);
    // The page ends the run and tells the background, which then sets the badge.
    let text = '…';
    while (text === '…') text = await new Promise((r) => setTimeout(r, 50)).then(() => chrome.action.getBadgeText({ tabId: tab.id }));
    return text;
  }, page.url());
  assert.equal(badge, 'T');
  checkView(assert, await page.evaluate(probePage), expected.template_ids, 'content');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('tex-view'));
  assert.ok((await page.evaluate(() => document.documentElement.outerHTML)) === before, 'Escape restores the exact page');
  await page.close();
});

test('extracting again from the template view sees the original page and returns to it', async () => {
  const expected = nativeExtraction();
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  const before = await page.evaluate(() => document.documentElement.outerHTML);
  await extract(popup);
  await chooseView(popup, 'template');
  const { error } = await extract(popup);
  assert.equal(error, null);
  assert.match(await popup.textContent('#counts'), new RegExp(`Template: ${expected.template_nodes} of ${expected.total_nodes} nodes`));
  assert.equal(await popup.getAttribute('#view', 'data-view'), 'original');
  // After Extract the page carries only our outline layer (<tex-view>) besides its own DOM.
  const withoutLayer = () => {
    const copy = document.documentElement.cloneNode(true);
    copy.querySelector('tex-view')?.remove();
    return copy.outerHTML;
  };
  assert.ok((await page.evaluate(withoutLayer)) === before, 'page back to its original DOM');
  await chooseView(popup, 'template');
  checkView(assert, await page.evaluate(probePage), expected.template_ids, 'template');
  await Promise.all([page.close(), popup.close()]);
});

test('Extract again reads the page only if it changed: our views are no change, an added element is', async () => {
  const expected = nativeExtraction();
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  const report = async () => {
    assert.equal((await extract(popup)).error, null);
    return popup.evaluate(() => fullReport());
  };
  const first = await report();
  assert.equal(first.key_snapshot_kept, false, 'the first Extract reads the page');
  await chooseView(popup, 'content');
  const again = await report();
  assert.equal(again.key_snapshot_kept, true, 'the snapshot is kept through our own view');
  assert.deepEqual(again.template_ids, first.template_ids);
  await page.evaluate(() => document.querySelector('main').append(document.createElement('p')));
  const changed = await report();
  assert.equal(changed.key_snapshot_kept, false, 'a changed page is read again');
  assert.equal(changed.total_nodes, expected.total_nodes + 1, 'the new snapshot has the added element');
  await Promise.all([page.close(), popup.close()]);
});

test('fetch rules: timeout, content type, 404, same-origin redirect followed, cross-origin redirect refused unsent', async () => {
  const servers = await fetchRulesServers();
  const { page, popup } = await openWithPopup(browser, `${servers.tricky.origin}/loads/index.html`);
  await popup.evaluate((config) => chrome.storage.local.set({ config }), FETCH_RULES_CONFIG);
  const { error } = await extract(popup);
  await popup.evaluate(() => chrome.storage.local.remove('config'));
  assert.equal(error, null);
  assertFetchRules(assert, await popup.evaluate(() => fullReport()), servers);
  await Promise.all([page.close(), popup.close(), servers.close()]);
});

test('no page raised an uncaught error during the tests above', () => {
  assert.deepEqual(browser.errors, []);
});
