// The same user-facing checks as ui-chromium.test.mjs, in Firefox ESR: the
// popup (opened as a tab) closed and reopened mid-extraction, Cancel, the
// three-way view control and the page's badge, dark mode, Spanish (language
// pack firefox-esr-l10n-es-es) and axe with zero violations; the shortcut /
// context-menu path through the background page; the template and content
// views of the dev sites Chromium does not walk as full-page screenshots
// (test-artifacts/ui/).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Key } from 'selenium-webdriver';

import { serveSet } from '../../scripts/bench.mjs';
import { launchFirefox } from './firefox.mjs';
import { ARTIFACTS, FIXTURES, KEY_PAGE, ROOT, WWW, devSitesFor, nativeExtraction, probePage } from './harness.mjs';
import { serve } from './server.mjs';
import {
  axeViolationsIn, firefoxInLocale, largestBlankBand, pageLayerProbe, serveHugePage, slowDemoSite, until,
} from './ui-harness.mjs';

const SHOTS = join(ARTIFACTS, 'ui');
const DEV_SET = join(ROOT, '../shared/bench/dev');

let ff;
let site;
let slow;
let fixtures;

before(async () => {
  nativeExtraction();
  site = await serve(WWW);
  // Slow enough that a busy machine still reads the popup mid-extraction.
  slow = await slowDemoSite(1500);
  fixtures = await serve(FIXTURES);
  ff = await launchFirefox();
});

after(async () => {
  await ff?.close();
  await Promise.all([site, slow, fixtures].map((s) => s?.close()));
});

const text = (id) => ff.execute((i) => document.getElementById(i).textContent, id);
const visible = (id) => ff.execute((i) => !document.getElementById(i).hidden, id);
const pressed = () => ff.execute(() => Object.fromEntries([...document.querySelectorAll('[data-view-button]')].map((b) => [b.dataset.viewButton, b.getAttribute('aria-pressed')])));

async function openWithPopup(url) {
  const page = await ff.openTab(url);
  const actual = await ff.execute(() => location.href);
  const popup = await openPopup(actual);
  return { page, popup, url: actual };
}

async function openPopup(url) {
  const popup = await ff.openTab(ff.popupUrl(url));
  await ff.waitFor('body[data-ready="true"]');
  return popup;
}

async function close(...handles) {
  for (const h of handles) await ff.closeTab(h);
}

test('closing the popup mid-extraction loses nothing: reopened, it shows the progress, then the result, with the page marked', async () => {
  const expected = nativeExtraction();
  const { page, popup, url } = await openWithPopup(slow.origin + KEY_PAGE);
  await ff.click('#extract');
  await until(async () => (await text('status')).startsWith('Loading linked pages'));
  await ff.closeTab(popup);

  const again = await openPopup(url);
  assert.match(await text('status'), /^Loading linked pages: \d+ \/ \d+$/);
  assert.equal(await visible('cancel'), true, 'Cancel is offered while pages load');
  await ff.waitFor('#summary:not([hidden])');
  assert.match(await text('counts'), new RegExp(`Template: ${expected.template_nodes} of ${expected.total_nodes} nodes`));
  assert.deepEqual(await pressed(), { original: 'true', template: 'false', content: 'false' });
  await ff.switchTo(page);
  assert.ok((await ff.execute(pageLayerProbe)).outlines > 0, 'the template is outlined on the page');
  await close(again, page);
});

test('Cancel stops a running extraction and says so in one sentence', async () => {
  const { page, popup } = await openWithPopup(slow.origin + KEY_PAGE);
  await ff.click('#extract');
  await until(async () => (await text('status')).startsWith('Loading linked pages'));
  await ff.click('#cancel');
  await ff.waitFor('#error:not([hidden])', 5000);
  assert.equal(await text('error'), 'The extraction was cancelled.');
  assert.equal(await visible('cancel'), false);
  await close(popup, page);
});

test('Cancel clicked at once, before the page has the extraction or its core, cancels', async () => {
  const { page, popup } = await openWithPopup(slow.origin + KEY_PAGE);
  // Both clicks in one task: the Cancel must reach the page after the Extract, not be lost before it.
  await ff.execute(() => {
    document.getElementById('extract').click();
    document.getElementById('cancel').click();
  });
  await ff.waitFor('#error:not([hidden]), #summary:not([hidden])', 60_000);
  assert.equal(await visible('error') ? await text('error') : null, 'The extraction was cancelled.');
  await close(popup, page);
});

test('three-way view control: aria-pressed in the popup, the same state on the page badge, original restores exactly', async () => {
  const { page, popup } = await openWithPopup(site.origin + KEY_PAGE);
  await ff.switchTo(page);
  const before = await ff.execute(() => document.documentElement.outerHTML);
  const where = () => [scrollX, scrollY];
  const scrolled = await ff.execute(() => { scrollTo(0, 150); return [scrollX, scrollY]; });
  assert.ok(scrolled[1] > 0, 'the key page is taller than the window');
  await ff.switchTo(popup);
  await ff.click('#extract');
  await ff.waitFor('#summary:not([hidden])');
  for (const [view, label] of [['template', 'Template'], ['content', 'Content']]) {
    await ff.switchTo(popup);
    await ff.chooseView(view);
    assert.deepEqual(Object.entries(await pressed()).filter(([, v]) => v === 'true').map(([k]) => k), [view]);
    await ff.switchTo(page);
    const layer = await ff.execute(pageLayerProbe);
    assert.equal(layer.pressed[label], 'true', `the badge shows ${view}`);
    if (view === 'content') {
      assert.ok(layer.reader.widest >= 400, `content in a wide column (${layer.reader.widest} px)`);
      // The panel lies over the page, which stays where the reader left it, and takes the keyboard.
      assert.equal((await ff.execute(probePage)).covered, 1, 'the reading panel covers the window');
      assert.deepEqual(await ff.execute(where), scrolled, 'the page under the panel keeps its place');
      assert.ok(await ff.execute(() => document.activeElement === document.querySelector('tex-view')), 'the panel has the keyboard');
    }
    await ff.screenshot(join(ARTIFACTS, 'ui', `firefox-page-${view}.png`), { window: view === 'content' });
  }
  await ff.switchTo(popup);
  await ff.click('[data-view-button="original"]');
  await ff.waitFor('#view[data-view="original"]');
  await ff.switchTo(page);
  assert.equal(await ff.execute(pageLayerProbe), null, 'the original view draws nothing');
  assert.deepEqual(await ff.execute(where), scrolled, 'the page is back where the reader left it');
  assert.ok((await ff.execute(() => document.documentElement.outerHTML)) === before, 'the page is exactly as before');
  await close(popup, page);
});

test('shortcut / context-menu path: the background extracts, shows the content view, says the result on the button, stores nothing', async () => {
  const expected = nativeExtraction();
  const inBackground = async (url) => {
    const tab = await ff.openTab(ff.extensionUrl('options.html'));
    await ff.waitFor('body[data-ready="true"]');
    const result = await ff.execute(async (u) => {
      const bg = await browser.runtime.getBackgroundPage();
      // Firefox's match patterns have no port: find the tab by its address.
      const target = (await browser.tabs.query({})).find((tab) => tab.url === u);
      await bg.startInTab(target);
      // The page ends the run and tells the background, which then sets the badge.
      let badge = '…';
      while (badge === '…') badge = await new Promise((r) => setTimeout(r, 50)).then(() => browser.action.getBadgeText({ tabId: target.id }));
      return {
        badge,
        title: await browser.action.getTitle({ tabId: target.id }),
        stored: await browser.storage.session.get(null),
      };
    }, url);
    await ff.closeTab(tab);
    return result;
  };
  const failing = await ff.openTab(`${fixtures.origin}/no-links/index.html`);
  const sentence = 'The page has no links to other pages of the same site, so there is nothing to compare it with.';
  assert.deepEqual(await inBackground(await ff.execute(() => location.href)), { badge: '!', title: sentence, stored: {} });
  await ff.switchTo(failing);
  assert.ok((await ff.execute(pageLayerProbe)).badge.includes(sentence), 'the page says it too');
  await ff.driver.actions().sendKeys(Key.ESCAPE).perform();
  assert.ok(await until(async () => (await ff.execute(pageLayerProbe)) === null, 10_000), 'Escape closes the error badge, as its × does');

  const page = await ff.openTab(site.origin + KEY_PAGE);
  const done = await inBackground(await ff.execute(() => location.href));
  const pct = Math.round((100 * expected.template_nodes) / expected.total_nodes);
  assert.deepEqual(done, { badge: 'T', title: `Template found: ${pct} % of this page is the site's template.`, stored: {} });
  await ff.switchTo(page);
  assert.equal((await ff.execute(pageLayerProbe)).pressed.Content, 'true', 'the page shows the content view and says so');
  await close(failing, page);
});

test('a page that knows the install\'s UUID cannot read the wasm, and the content script still loads it', async () => {
  const { page, popup } = await openWithPopup(site.origin + KEY_PAGE);
  await ff.switchTo(page);
  const probe = await ff.execute((u) => fetch(u).then((r) => `status ${r.status}`, (e) => `refused: ${e.name}`), ff.extensionUrl('tex_bg.wasm'));
  assert.match(probe, /^refused/, 'a page script cannot fetch moz-extension://<uuid>/tex_bg.wasm');
  await ff.switchTo(popup);
  assert.equal((await ff.extract()).error, null);
  await ff.click('#details summary');
  assert.match(await text('loads'), /core: wasm\./, 'the core ran as WebAssembly, not the wasm2js fallback');
  await close(page, popup);
});

test('content and template views on the dev sites Firefox walks, the reading panel covers the window', { skip: !existsSync(join(DEV_SET, 'index.json')) && `no dev set at ${DEV_SET}` }, async (t) => {
  const served = await serveSet(DEV_SET);
  try {
    for (const s of devSitesFor('firefox', served.sites)) {
      const { page, popup } = await openWithPopup(s.key_url);
      await ff.click('#extract');
      await ff.waitFor('#summary:not([hidden]), #error:not([hidden])', 120_000);
      if (await visible('error')) {
        t.diagnostic(`${s.id}: ${await text('error')}`);
        await close(popup, page);
        continue;
      }
      for (const view of ['template', 'content']) {
        await ff.switchTo(popup);
        await ff.chooseView(view);
        await ff.switchTo(page);
        await ff.screenshot(join(SHOTS, `firefox-dev-${s.id}-${view}.png`), { window: view === 'content' });
        if (view === 'template') {
          const band = await ff.execute(largestBlankBand);
          assert.ok(band < 450, `${s.id}: the template view leaves no blank hole half a screen high (${band} px)`);
        }
      }
      const { covered } = await ff.execute(probePage);
      assert.equal(covered, 1, `${s.id}: the reading panel covers the window`);
      const { reader } = await ff.execute(pageLayerProbe);
      assert.ok(reader.widest >= 300 || reader.widest === 0, `${s.id}: content laid out in the column (${reader.widest} px)`);
      await ff.switchTo(popup);
      await ff.click('[data-view-button="original"]');
      await ff.waitFor('#view[data-view="original"]');
      await close(popup, page);
    }
  } finally {
    await served.stop();
  }
});

const setPref = (script, ...args) => ff.inChrome(script, ...args);

describe('dark mode and axe', () => {
  const axeCheck = async (what) => {
    const violations = await axeViolationsIn((src) => ff.execute(`() => ${src}`));
    assert.deepEqual(violations, [], `${what}: ${violations.join('; ')}`);
  };
  for (const [scheme, dark] of [['light', 0], ['dark', 1]]) {
    test(`${scheme}: popup, options and results page follow the system, with zero axe violations`, async () => {
      await setPref('Services.prefs.setIntPref("ui.systemUsesDarkTheme", arguments[0]);', dark);
      const { page, popup } = await openWithPopup(site.origin + KEY_PAGE);
      const background = () => ff.execute(() => getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number));
      const isDark = async () => { const [r, g, b] = await background(); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.2; };
      assert.equal(await isDark(), Boolean(dark), 'popup');
      await axeCheck('idle popup');
      await ff.click('#extract');
      await ff.waitFor('#summary:not([hidden])');
      await ff.execute(() => { document.getElementById('details').open = true; });
      await axeCheck('popup with result');
      const options = await ff.openTab(ff.extensionUrl('options.html'));
      await ff.waitFor('body[data-ready="true"]');
      assert.equal(await isDark(), Boolean(dark), 'options');
      await ff.execute(() => { document.getElementById('advanced').open = true; });
      await axeCheck('options');
      const bench = await ff.openTab(ff.extensionUrl('bench.html'));
      await ff.waitFor('body[data-ready="true"]');
      assert.equal(await isDark(), Boolean(dark), 'results page');
      await axeCheck('results page');
      await close(bench, options, popup, page);
      const restricted = await openWithPopup('about:robots');
      await axeCheck('popup with an error');
      await close(restricted.popup, restricted.page);
    });
  }
  after(() => setPref('Services.prefs.clearUserPref("ui.systemUsesDarkTheme");'));
});

describe('Spanish', () => {
  test('with the Spanish language pack, the popup and the core\'s sentences are in Spanish', async (t) => {
    if (!(await firefoxInLocale(ff, 'es-ES'))) return t.skip('no es-ES language pack (Debian firefox-esr-l10n-es-es)');
    const { page, popup } = await openWithPopup(`${fixtures.origin}/no-links/index.html`);
    assert.equal(await ff.execute(() => document.documentElement.lang), 'es');
    assert.equal(await text('extract'), 'Extraer plantilla');
    await ff.click('#extract');
    await ff.waitFor('#error:not([hidden])');
    assert.equal(await text('error'), 'La página no tiene enlaces a otras páginas del mismo sitio, así que no hay nada con qué compararla.');
    await close(popup, page);
    const result = await openWithPopup(site.origin + KEY_PAGE);
    await ff.click('#extract');
    await ff.waitFor('#summary:not([hidden])');
    assert.match(await text('plain'), /^Plantilla encontrada: .* son el \d+ % de ella\.$/);
    await close(result.popup, result.page);

    const big = await serveHugePage();
    try {
      const huge = await openWithPopup(`${big.origin}/huge.html`);
      await ff.execute(() => browser.storage.local.set({ config: { max_nodes: 10000 } }));
      await ff.click('#extract');
      await ff.waitFor('#error:not([hidden])');
      await ff.execute(() => browser.storage.local.remove('config'));
      assert.match(await text('error'), /tiene 12\.\d{3} elementos, más que el límite de 10\.000 \(Elementos por página/, 'numbers from the core in Spanish notation');
      await close(huge.popup, huge.page);
    } finally {
      await big.close();
    }
  });
});
