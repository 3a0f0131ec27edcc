// The extension as a new user meets it, in Chromium: the extraction belongs to
// the page (close and reopen the popup mid-way), Cancel, the three-way view
// control and its state on the page, the reading layout of the content view,
// dark mode, Spanish, and axe with zero violations. Screenshots of every
// state go to test-artifacts/ui/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { serveSet } from '../../scripts/bench.mjs';
import { launchChromium, openWithPopup } from './chromium.mjs';
import { ARTIFACTS, FIXTURES, KEY_PAGE, ROOT, WWW, devSitesFor, nativeExtraction, probePage } from './harness.mjs';
import { cancelLatency, heartbeat, startHeartbeat, watchCancel } from './heartbeat.mjs';
import { recordingServer } from './safety.mjs';
import { serve } from './server.mjs';
import {
  axeViolationsIn, chooseView, largestBlankBand, launchChromiumIn, pageLayerProbe, popupState, serveHugePage,
  slowDemoSite, until,
} from './ui-harness.mjs';

// Page screenshots keep the caret: hiding it leaves style="" on inputs, which
// would defeat the exact-restore check.
const SHOTS = join(ARTIFACTS, 'ui');
const DEV_SET = join(ROOT, '../shared/bench/dev');
mkdirSync(SHOTS, { recursive: true });

let browser;
let site;
let slow;
let fixtures;

before(async () => {
  nativeExtraction();
  browser = await launchChromium();
  site = await serve(WWW);
  // Slow enough that a busy machine still reads the popup mid-extraction.
  slow = await slowDemoSite(1500);
  fixtures = await serve(FIXTURES);
});

after(async () => {
  await browser?.close();
  await Promise.all([site, slow, fixtures].map((s) => s?.close()));
});

const openPopup = async (url) => {
  const popup = await browser.context.newPage();
  await popup.setViewportSize({ width: 364, height: 600 });
  await popup.goto(browser.popupUrl(url));
  await popup.waitForSelector('body[data-ready="true"]');
  return popup;
};

test('closing the popup mid-extraction loses nothing: reopened, it shows the progress, then the result, with the page marked', async () => {
  const expected = nativeExtraction();
  const { page, popup } = await openWithPopup(browser, slow.origin + KEY_PAGE);
  await popup.click('#extract');
  await popup.waitForFunction(() => document.getElementById('status').textContent.startsWith('Loading linked pages'));
  await popup.close();

  const again = await openPopup(page.url());
  const [during, layerDuring] = await Promise.all([popupState(again), page.evaluate(pageLayerProbe)]);
  assert.match(during.status, /^Loading linked pages: \d+ \/ \d+$/, 'the reopened popup shows the running progress');
  assert.match(layerDuring.badge, /Loading linked pages/, 'the page shows the progress too');
  assert.equal(await again.isVisible('#cancel'), true, 'Cancel is offered while pages load');
  await again.screenshot({ path: join(SHOTS, 'popup-loading.png') });
  await again.close();

  await until(() => page.evaluate(() => document.querySelector('tex-view')?.shadowRoot.querySelector('.views button[aria-pressed]') != null));
  const last = await openPopup(page.url());
  await last.waitForSelector('#summary:not([hidden])');
  const done = await popupState(last);
  assert.match(done.counts, new RegExp(`Template: ${expected.template_nodes} of ${expected.total_nodes} nodes`));
  assert.deepEqual(done.pressed, { original: 'true', template: 'false', content: 'false' });
  const layer = await page.evaluate(pageLayerProbe);
  assert.ok(layer.outlines > 0, 'the template is outlined on the page at once');
  await Promise.all([page.close(), last.close()]);
});

test('the first thing the popup says is plain words; nodes, subdigraph, votes and timings wait behind Details', async () => {
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  await popup.click('#extract');
  await popup.waitForSelector('#summary:not([hidden])');
  const visible = await popup.evaluate(() => document.body.innerText);
  for (const jargon of ['nodes', 'subdigraph', 'votes', 'Mapping', 'CS search']) assert.ok(!visible.includes(jargon), `"${jargon}" is not shown before Details`);
  assert.match(visible, /Found the site's template: .* make up \d+ % of it\./);
  // The count is the pages Details lists, none of them this page; the time is said once, in the status.
  const pages = await popup.$$eval('#cs-pages a', (as) => as.map((a) => a.href));
  assert.ok(pages.length > 1 && !pages.includes(page.url()), `Details list other pages: ${pages}`);
  assert.ok(visible.includes(`Compared with ${pages.length} other pages of the site.`), visible);
  assert.equal(visible.match(/\d+ ms|\d[\d.]* s\b/g)?.length, 1, `one time in: ${visible}`);
  assert.match(await popup.textContent('#status'), /^Done in [\d.]+ (ms|s)\. Found the site's template: .* Compared with \d+ other pages of the site\.$/,
    'the live status region announces the result, not only the time');
  assert.equal(await popup.evaluate(() => document.activeElement?.id), 'extract', 'focus stays on Extract');
  // A view switch shows it is busy until the page has drawn the view, then the result's status returns.
  await popup.evaluate(() => {
    globalThis.busy = [];
    new MutationObserver(() => globalThis.busy.push([document.getElementById('view').getAttribute('aria-busy'), document.getElementById('status').textContent]))
      .observe(document.body, { attributes: true, subtree: true, childList: true, characterData: true });
  });
  await chooseView(popup, 'template');
  const busy = await popup.evaluate(() => globalThis.busy);
  assert.ok(busy.some(([b, s]) => b === 'true' && s === 'Showing the Template view…'), `busy sign while the view is drawn: ${JSON.stringify(busy)}`);
  assert.equal(await popup.getAttribute('#view', 'aria-busy'), null);
  assert.match(await popup.textContent('#status'), /^Done in /);
  await chooseView(popup, 'original');
  // A small share of a large page is never said as 0 %.
  assert.deepEqual(await popup.evaluate(() => [0, 0.05, 0.5, 67.2].map((x) => texI18n.percent(x))), ['0', 'under 0.1', '0.5', '67']);
  await popup.screenshot({ path: join(SHOTS, 'popup-result.png') });
  await popup.setViewportSize({ width: 364, height: 600 });
  await popup.click('#details summary');
  const details = await popup.evaluate(() => document.getElementById('details').innerText);
  for (const word of ['nodes', 'subdigraph', 'votes needed', 'Mapping and votes']) assert.ok(details.includes(word), `Details hold "${word}"`);
  await popup.screenshot({ path: join(SHOTS, 'popup-details.png'), fullPage: true });
  await Promise.all([page.close(), popup.close()]);
});

test('Cancel during the parse of deep linked pages takes effect at once (heartbeat and latency reported)', async (t) => {
  const deep = `<!doctype html><title>Deep</title><nav>${['d1', 'd2', 'd3', 'd4', 'a'].map((p) => `<a href="${p}.html">${p}</a>`).join('')}</nav>`;
  const server = await recordingServer({ '/c/index.html': (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(deep) });
  for (const p of ['d1', 'd2', 'd3', 'd4']) {
    server.routes[`/c/${p}.html`] = (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(deep + '<div>'.repeat(100_000));
  }
  const { page, popup } = await openWithPopup(browser, `${server.origin}/c/index.html`);
  try {
    await page.evaluate(startHeartbeat);
    await popup.click('#extract');
    // Cancel once the first deep page has been read: its parse is under way.
    await until(() => server.fetched().length > 0, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await popup.evaluate(watchCancel);
    const t0 = Date.now();
    await popup.click('#cancel');
    await popup.waitForSelector('#error:not([hidden])');
    const latency = Date.now() - t0;
    const inPopup = Math.round(await popup.evaluate(cancelLatency));
    const { longest, long } = await page.evaluate(heartbeat);
    t.diagnostic(`Cancel took ${inPopup} ms from the click to the sentence drawn in the popup (${latency} ms with the harness's round trips), `
      + `longest heartbeat gap ${longest} ms; gaps over 100 ms [ended at, gap]: ${JSON.stringify(long)}`);
    assert.equal((await popupState(popup)).error, 'The extraction was cancelled.');
    assert.ok(inPopup < 1_500, `Cancel took ${inPopup} ms (before the bound: 42 s)`);
  } finally {
    await Promise.all([page.close(), popup.close()]);
    await server.close();
  }
});

test('before the click the popup says what Extract does; counts take the plural the language asks for', async () => {
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  assert.equal(await popup.textContent('#intro'),
    'Compares this page with up to 25 other pages of this site, fetched without your cookies; nothing leaves the browser.');
  assert.ok(await popup.isVisible('#intro'));
  await popup.evaluate(() => chrome.storage.local.set({ config: { max_loads: 1 } }));
  await popup.reload();
  await popup.waitForSelector('body[data-ready="true"]');
  assert.equal(await popup.textContent('#intro'),
    'Compares this page with up to 1 other page of this site, fetched without your cookies; nothing leaves the browser.');
  await popup.evaluate(() => chrome.storage.local.remove('config'));
  const plurals = await popup.evaluate(() => [1, 2].flatMap((n) => ['resultCompared', 'countLayouts', 'countSites', 'countConfigs'].map((k) => texI18n.plural(k, n))));
  assert.deepEqual(plurals, ['Compared with 1 other page of the site.', '1 layout', '1 site', '1 configuration',
    'Compared with 2 other pages of the site.', '2 layouts', '2 sites', '2 configurations']);
  await popup.click('#extract');
  await popup.waitForSelector('#summary:not([hidden])');
  assert.ok(!(await popup.isVisible('#intro')), 'the line gives way to the result');
  await Promise.all([page.close(), popup.close()]);
});

test('the reading column leaves out what the page hides: a second table of contents hidden by a rule that names its place', async () => {
  // As documentation themes do: a copy of the contents list that a rule on the page's layout hides.
  const page = readFileSync(join(WWW, KEY_PAGE), 'utf8')
    .replace('</head>', '<style>.layout > .content .toc-copy { display: none; }</style></head>')
    .replace('<h1>Club news</h1>', '<h1>Club news</h1><ol class="toc-copy"><li>Volunteers rebuild the boardwalk</li><li>A new shelter opens on the ridge</li></ol>');
  const tocSite = await serve(WWW, { routes: { [KEY_PAGE]: (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page) } });
  try {
    const opened = await openWithPopup(browser, tocSite.origin + KEY_PAGE);
    await opened.popup.click('#extract');
    await opened.popup.waitForSelector('#summary:not([hidden])');
    await chooseView(opened.popup, 'content');
    const column = await opened.page.evaluate(() => document.querySelector('tex-view').innerText);
    assert.ok(column.includes('Club news') && column.includes('Twenty-six members'), 'the article is in the column');
    assert.ok(!column.includes('A new shelter opens on the ridge'), 'the hidden copy stays hidden');
    await Promise.all([opened.page.close(), opened.popup.close()]);
  } finally {
    await tocSite.close();
  }
});

test('Cancel stops a running extraction and says so in one sentence', async () => {
  const { page, popup } = await openWithPopup(browser, slow.origin + KEY_PAGE);
  await popup.click('#extract');
  await popup.waitForFunction(() => document.getElementById('status').textContent.startsWith('Loading linked pages'));
  const t0 = Date.now();
  await popup.click('#cancel');
  await popup.waitForSelector('#error:not([hidden])');
  assert.equal((await popupState(popup)).error, 'The extraction was cancelled.');
  assert.ok(Date.now() - t0 < 5000, 'it stops without waiting for the remaining pages');
  assert.equal(await popup.isVisible('#cancel'), false);
  assert.equal(await popup.evaluate(() => document.activeElement?.id), 'extract', 'focus moves to Extract, not to <body>');
  const { error } = await (async () => { await popup.click('#extract'); await popup.waitForSelector('#summary:not([hidden]), #error:not([hidden])', { timeout: 60_000 }); return popupState(popup); })();
  assert.equal(error, null, 'a new extraction after Cancel runs to the end');
  await Promise.all([page.close(), popup.close()]);
});

test('Cancel clicked at once, before the page has the extraction or its core, cancels: one start, no error in the page', async () => {
  const { page, popup } = await openWithPopup(browser, slow.origin + KEY_PAGE);
  const before = browser.errors.length;
  // Both clicks in one task, before the core has started in the tab (real clicks are too slow to be sure
  // of that): they must share one start, and the Cancel must reach the page after the Extract.
  await popup.evaluate(() => {
    document.getElementById('extract').click();
    document.getElementById('cancel').click();
  });
  await popup.waitForSelector('#error:not([hidden]), #summary:not([hidden])', { timeout: 60_000 });
  assert.equal((await popupState(popup)).error, 'The extraction was cancelled.');
  assert.deepEqual(browser.errors.slice(before), [], 'the core was injected and instantiated once');
  await Promise.all([page.close(), popup.close()]);
});

test('three-way view control: state in the popup (aria-pressed) and on the page badge, content view reads as a column, original restores exactly', async () => {
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  const before = await page.evaluate(() => document.documentElement.outerHTML);
  const where = () => [scrollX, scrollY];
  const scrolled = await page.evaluate(() => { scrollTo(0, 150); return [scrollX, scrollY]; });
  assert.ok(scrolled[1] > 0, 'the key page is taller than the window');
  await popup.click('#extract');
  await popup.waitForSelector('#summary:not([hidden])');
  await page.screenshot({ path: join(SHOTS, 'page-outlined.png'), caret: 'initial' });
  for (const view of ['template', 'content']) {
    await chooseView(popup, view);
    const { pressed } = await popupState(popup);
    assert.deepEqual(Object.entries(pressed).filter(([, v]) => v === 'true').map(([k]) => k), [view]);
    const layer = await page.evaluate(pageLayerProbe);
    assert.equal(Object.values(layer.pressed).filter((v) => v === 'true').length, 1, 'the badge shows one pressed view');
    assert.equal(layer.pressed[view[0].toUpperCase() + view.slice(1)], 'true', `the badge shows ${view}`);
    if (view === 'content') {
      assert.ok(layer.reader.width >= 500, `the reading column is wide (${layer.reader.width} px)`);
      assert.ok(layer.reader.widest >= 400, `the content is no longer squeezed into a side column (${layer.reader.widest} px)`);
      // The panel lies over the page and scrolls on its own; the page under it stays where the reader left it.
      assert.equal((await page.evaluate(probePage)).covered, 1, 'the reading panel covers the window');
      assert.ok(await page.evaluate(() => document.activeElement === document.querySelector('tex-view')), 'the panel has the keyboard');
      await page.keyboard.press('PageDown');
      await page.waitForFunction(() => document.querySelector('tex-view').scrollTop > 0);
      await page.evaluate(() => document.querySelector('tex-view').scrollTo(0, 0));
      await page.mouse.move(300, 300);
      await page.mouse.wheel(0, 300);
      await page.waitForFunction(() => document.querySelector('tex-view').scrollTop > 0);
      assert.deepEqual(await page.evaluate(where), scrolled, 'scrolling the column leaves the page where it was');
      // On paper the column replaces the page.
      await page.emulateMedia({ media: 'print' });
      assert.deepEqual(await page.evaluate(() => [getComputedStyle(document.body).display, getComputedStyle(document.querySelector('tex-view')).position]),
        ['none', 'static'], 'printed, the page is left out and the panel is in the flow');
      await page.emulateMedia({ media: 'screen' });
    }
    await page.screenshot({ path: join(SHOTS, `page-${view}.png`), caret: 'initial' });
  }
  // The page's own badge switches the view too, and the popup follows.
  await page.click('tex-view >> .views button:has-text("Template")');
  await popup.waitForSelector('#view[data-view="template"]');
  await chooseView(popup, 'original');
  assert.equal(await page.evaluate(pageLayerProbe), null, 'the original view draws nothing on the page');
  assert.deepEqual(await page.evaluate(where), scrolled, 'the page is back where the reader left it');
  const restored = await page.evaluate(() => document.documentElement.outerHTML);
  if (restored !== before) writeFileSync(join(SHOTS, 'restored.html'), restored);
  assert.ok(restored === before, 'the page is exactly as before (see ui/restored.html)');
  await Promise.all([page.close(), popup.close()]);
});

test('shortcut / context-menu path: nothing stored, a failure said in one sentence on the button and on the page', async () => {
  const expected = nativeExtraction();
  const run = (url) => browser.context.serviceWorkers()[0].evaluate(async (u) => {
    const [tab] = await chrome.tabs.query({ url: u });
    await startInTab(tab);
    // The page ends the run and tells the background, which then sets the badge.
    let badge = '…';
    while (badge === '…') badge = await new Promise((r) => setTimeout(r, 50)).then(() => chrome.action.getBadgeText({ tabId: tab.id }));
    return {
      badge,
      title: await chrome.action.getTitle({ tabId: tab.id }),
      stored: await chrome.storage.session.get(null),
    };
  }, url);
  const failing = await browser.context.newPage();
  await failing.goto(`${fixtures.origin}/no-links/index.html`);
  const sentence = 'The page has no links to other pages of the same site, so there is nothing to compare it with.';
  assert.deepEqual(await run(failing.url()), { badge: '!', title: sentence, stored: {} });
  assert.match((await failing.evaluate(pageLayerProbe)).badge, new RegExp(sentence.replace(/[.,]/g, '.')), 'the page says it too');
  await failing.bringToFront();
  await failing.keyboard.press('Escape');
  await failing.waitForFunction(() => document.querySelector('tex-view') === null);
  assert.equal(await failing.evaluate(pageLayerProbe), null, 'Escape closes the error badge, as its × does');

  const page = await browser.context.newPage();
  await page.goto(site.origin + KEY_PAGE);
  const done = await run(page.url());
  const pct = Math.round((100 * expected.template_nodes) / expected.total_nodes);
  assert.deepEqual(done, { badge: 'T', title: `Template found: ${pct} % of this page is the site's template.`, stored: {} });
  const shown = await page.evaluate(pageLayerProbe);
  assert.equal(shown.pressed.Content, 'true', 'the page shows the content view and says so');
  const overlap = await page.evaluate(() => {
    const root = document.querySelector('tex-view').shadowRoot;
    const [b, c] = [root.querySelector('.badge'), root.querySelector('.column')].map((e) => e.getBoundingClientRect());
    return Math.max(0, Math.min(b.right, c.right) - Math.max(b.left, c.left));
  });
  assert.equal(overlap, 0, 'the badge covers no line of the reading column');
  // The badge keeps its width from view to view, so its buttons stay under the pointer.
  const widths = [shown.badgeWidth];
  for (const view of ['Template']) {
    await page.evaluate((v) => [...document.querySelector('tex-view').shadowRoot.querySelectorAll('.views button')].find((b) => b.textContent === v).click(), view);
    await page.waitForFunction((v) => document.querySelector('tex-view')?.shadowRoot.querySelector('button[aria-pressed="true"]')?.textContent === v, view);
    widths.push((await page.evaluate(pageLayerProbe)).badgeWidth);
  }
  assert.deepEqual(widths, [widths[0], widths[0]], `badge widths in content and template views: ${widths}`);
  await Promise.all([failing.close(), page.close()]);
});

test('pages cannot detect the extension: tex_bg.wasm is not at its fixed address, and the content script still loads it', async () => {
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  const probe = (url) => page.evaluate((u) => fetch(u).then((r) => `status ${r.status}`, (e) => `refused: ${e.name}`), url);
  assert.match(await probe(browser.extensionUrl('tex_bg.wasm')), /^refused/, 'a page script cannot fetch chrome-extension://<id>/tex_bg.wasm');
  await popup.click('#extract');
  await popup.waitForSelector('#summary:not([hidden]), #error:not([hidden])');
  assert.equal((await popupState(popup)).error, null);
  await popup.click('#details summary');
  assert.match(await popup.textContent('#loads'), /core: wasm\./, 'the core ran as WebAssembly, not the wasm2js fallback');
  await Promise.all([page.close(), popup.close()]);
});

test('a restricted page is diagnosed when the popup opens, before any click', async () => {
  const { page, popup } = await openWithPopup(browser, 'chrome://version/');
  assert.equal((await popupState(popup)).error,
    'The address chrome://version/ is not a web page this extension can analyse (only http and https pages are).');
  const look = await popup.evaluate(() => ({
    extract: document.getElementById('extract').getAttribute('aria-disabled'),
    weight: getComputedStyle(document.getElementById('error')).fontWeight,
    red: (([r, g, b]) => r > 150 && g < 100 && b < 100)(getComputedStyle(document.getElementById('error')).color.match(/\d+/g).map(Number)),
  }));
  assert.deepEqual(look, { extract: 'true', weight: '400', red: false }, 'Extract looks unavailable and the expected state is no alarm');
  await popup.setViewportSize({ width: 364, height: 300 });
  await popup.screenshot({ path: join(SHOTS, 'popup-error.png') });
  await Promise.all([page.close(), popup.close()]);
});

describe('dark mode', () => {
  for (const scheme of ['light', 'dark']) {
    test(`popup, options and results page follow prefers-color-scheme: ${scheme}`, async () => {
      const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
      await popup.setViewportSize({ width: 364, height: 600 });
      const pages = [popup, await browser.context.newPage(), await browser.context.newPage()];
      await pages[1].goto(browser.extensionUrl('options.html'));
      await pages[2].goto(browser.extensionUrl('bench.html'));
      for (const p of pages) {
        await p.emulateMedia({ colorScheme: scheme });
        await p.waitForSelector('body[data-ready="true"]');
        const [r, g, b] = (await p.evaluate(() => getComputedStyle(document.body).backgroundColor)).match(/\d+/g).map(Number);
        const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        assert.ok(scheme === 'dark' ? luminance < 0.2 : luminance > 0.9, `${p.url()} background ${r},${g},${b} in ${scheme}`);
      }
      await page.emulateMedia({ colorScheme: scheme });
      await popup.screenshot({ path: join(SHOTS, `popup-idle-${scheme}.png`) });
      await popup.click('#extract');
      await popup.waitForSelector('#summary:not([hidden])');
      await popup.screenshot({ path: join(SHOTS, `popup-result-${scheme}.png`) });
      await page.screenshot({ path: join(SHOTS, `page-outlined-${scheme}.png`), caret: 'initial' });
      // The reading column follows the scheme too: its background and the text in it.
      await chooseView(popup, 'content');
      const column = await page.evaluate(() => {
        const panel = document.querySelector('tex-view').shadowRoot.querySelector('.reader');
        const text = document.querySelector('tex-view').querySelector('p');
        return [getComputedStyle(panel).backgroundColor, getComputedStyle(text).color];
      });
      const lum = (css) => { const [r, g, b] = css.match(/\d+/g).map(Number); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
      const [background, ink] = column.map(lum);
      assert.ok(scheme === 'dark' ? background < 0.2 && ink > 0.6 : background > 0.9 && ink < 0.4, `reading column ${column} in ${scheme}`);
      await page.screenshot({ path: join(SHOTS, `page-content-${scheme}.png`), caret: 'initial' });
      await pages[1].click('#advanced summary');
      await pages[1].screenshot({ path: join(SHOTS, `options-${scheme}.png`), fullPage: true });
      await Promise.all([page.close(), ...pages.map((p) => p.close())]);
    });
  }
});

describe('axe-core: zero violations, best practices included', () => {
  const check = async (p, what, within = null) => {
    const violations = await axeViolationsIn((src) => p.evaluate(src), within);
    assert.deepEqual(violations, [], `${what}: ${violations.join('; ')}`);
  };
  for (const scheme of ['light', 'dark']) {
    test(`popup (idle, result with details, error), options with Advanced, results page (${scheme})`, async () => {
      const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
      await popup.emulateMedia({ colorScheme: scheme });
      await check(popup, 'idle popup');
      await popup.click('#extract');
      await popup.waitForSelector('#summary:not([hidden])');
      await popup.click('#details summary');
      await check(popup, 'popup with result');
      await chooseView(popup, 'content');
      await check(page, 'the reading panel of the content view', 'tex-view');
      const failing = await openWithPopup(browser, 'chrome://version/');
      await failing.popup.emulateMedia({ colorScheme: scheme });
      await check(failing.popup, 'popup with an error');
      const options = await browser.context.newPage();
      await options.emulateMedia({ colorScheme: scheme });
      await options.goto(browser.extensionUrl('options.html'));
      await options.waitForSelector('body[data-ready="true"]');
      await options.click('#advanced summary');
      await check(options, 'options');
      const bench = await browser.context.newPage();
      await bench.emulateMedia({ colorScheme: scheme });
      await bench.goto(browser.extensionUrl('bench.html'));
      await bench.waitForSelector('body[data-ready="true"]');
      await check(bench, 'results page');
      await Promise.all([page, popup, failing.page, failing.popup, options, bench].map((p) => p.close()));
    });
  }
});

test('content and template views on the dev sites Chromium walks: screenshots kept as artifacts', { skip: !existsSync(join(DEV_SET, 'index.json')) && `no dev set at ${DEV_SET}` }, async (t) => {
  const served = await serveSet(DEV_SET);
  try {
    for (const s of devSitesFor('chromium', served.sites)) {
      const { page, popup } = await openWithPopup(browser, s.key_url);
      await popup.click('#extract');
      await popup.waitForSelector('#summary:not([hidden]), #error:not([hidden])', { timeout: 120_000 });
      const { error } = await popupState(popup);
      if (error) {
        t.diagnostic(`${s.id}: ${error}`);
      } else {
        for (const view of ['template', 'content']) {
          await chooseView(popup, view);
          await page.screenshot({ path: join(SHOTS, `dev-${s.id}-${view}.png`), caret: 'initial' });
          if (view === 'template') {
            const band = await page.evaluate(largestBlankBand);
            assert.ok(band < 450, `${s.id}: the template view leaves no blank hole half a screen high (${band} px)`);
          }
        }
        const { reader } = await page.evaluate(pageLayerProbe);
        assert.ok(reader.widest >= 300 || reader.widest === 0, `${s.id}: content laid out in the column (${reader.widest} px)`);
        const { covered } = await page.evaluate(probePage);
        assert.equal(covered, 1, `${s.id}: the reading panel covers the window`);
        await chooseView(popup, 'original');
      }
      await Promise.all([page.close(), popup.close()]);
    }
  } finally {
    await served.stop();
    // The dev sites' own scripts fail offline (their CDNs are unreachable): not ours to count.
    const origins = served.sites.map((s) => new URL(s.key_url).origin);
    browser.errors.splice(0, Infinity, ...browser.errors.filter((e) => !origins.some((o) => e.startsWith(o))));
  }
});

describe('Spanish', () => {
  let es;
  let bigPage;
  before(async () => {
    es = await launchChromiumIn('es');
    bigPage = await serveHugePage();
  });
  after(async () => {
    await es?.close();
    await bigPage?.close();
  });

  test('the popup, its result and the core\'s error sentences are in Spanish', async () => {
    const { page, popup } = await openWithPopup(es, site.origin + KEY_PAGE);
    assert.equal(await popup.getAttribute('html', 'lang'), 'es');
    assert.equal(await popup.textContent('#extract'), 'Extraer plantilla');
    assert.equal(await popup.textContent('#intro'),
      'Compara esta página con hasta 25 páginas más de este sitio, descargadas sin tus cookies; nada sale del navegador.');
    await popup.click('#extract');
    await popup.waitForSelector('#summary:not([hidden])');
    assert.match(await popup.textContent('#plain'), /^Plantilla encontrada: .* son el \d+ % de ella\.$/);
    assert.match(await popup.textContent('#compared'), /^Comparada con otras \d+ páginas del sitio\.$/);
    assert.deepEqual(await popup.evaluate(() => [0.05, 0.5].map((x) => texI18n.percent(x))), ['menos del 0,1', '0,5']);
    const plurals = await popup.evaluate(() => [1, 2, 1400].flatMap((n) => ['resultCompared', 'countLayouts', 'countSites', 'countConfigs'].map((k) => texI18n.plural(k, n))));
    assert.deepEqual(plurals, ['Comparada con 1 página más del sitio.', '1 disposición', '1 sitio', '1 configuración',
      'Comparada con otras 2 páginas del sitio.', '2 disposiciones', '2 sitios', '2 configuraciones',
      'Comparada con otras 1400 páginas del sitio.', '1400 disposiciones', '1400 sitios', '1400 configuraciones']);
    await popup.screenshot({ path: join(SHOTS, 'popup-result-es.png') });
    await Promise.all([page.close(), popup.close()]);

    const noLinks = await openWithPopup(es, `${fixtures.origin}/no-links/index.html`);
    await noLinks.popup.click('#extract');
    await noLinks.popup.waitForSelector('#error:not([hidden])');
    assert.equal(await noLinks.popup.textContent('#error'),
      'La página no tiene enlaces a otras páginas del mismo sitio, así que no hay nada con qué compararla.');
    await Promise.all([noLinks.page.close(), noLinks.popup.close()]);

    const big = await openWithPopup(es, site.origin + KEY_PAGE);
    await big.popup.evaluate(() => chrome.storage.local.set({ config: { max_nodes: 50 } }));
    await big.popup.click('#extract');
    await big.popup.waitForSelector('#error:not([hidden])');
    await big.popup.evaluate(() => chrome.storage.local.remove('config'));
    assert.equal(await big.popup.textContent('#error'),
      'Esta página tiene 130 elementos, más que el límite de 50 (Elementos por página, en las opciones); sube el límite allí para analizarla.');
    await Promise.all([big.page.close(), big.popup.close()]);

    const huge = await openWithPopup(es, `${bigPage.origin}/huge.html`);
    await huge.popup.evaluate(() => chrome.storage.local.set({ config: { max_nodes: 10000 } }));
    await huge.popup.click('#extract');
    await huge.popup.waitForSelector('#error:not([hidden])');
    await huge.popup.evaluate(() => chrome.storage.local.remove('config'));
    assert.match(await huge.popup.textContent('#error'), /tiene 12\.\d{3} elementos, más que el límite de 10\.000 \(Elementos por página/,
      'numbers from the core in Spanish notation');
    await Promise.all([huge.page.close(), huge.popup.close()]);
  });

  test('the options page is in Spanish and says an invalid value in Spanish', async () => {
    const options = await es.context.newPage();
    await options.goto(es.extensionUrl('options.html'));
    await options.waitForSelector('body[data-ready="true"]');
    assert.equal(await options.textContent('h1'), 'Opciones de Template Extractor');
    await options.click('#advanced summary');
    await options.fill('[name="equality.w_classes"]', '0.9');
    await options.click('button[type="submit"]');
    await options.waitForSelector('#message.error');
    assert.equal(await options.textContent('#message'), 'La configuración no es válida: los cuatro pesos deben sumar 1, no 1,4.',
      'the core\'s 1.4 in Spanish notation');
    await options.screenshot({ path: join(SHOTS, 'options-es.png'), fullPage: true });
    await options.close();
  });
});

test('no page raised an uncaught error during the UI tests', () => {
  assert.deepEqual(browser.errors, []);
});
