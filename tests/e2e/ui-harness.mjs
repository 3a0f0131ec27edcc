// Helpers of the UI tests, built on the exported API of chromium.mjs,
// firefox.mjs and harness.mjs only: choosing a view in the popup, reading the
// extraction state the page holds, axe-core runs, and browsers started in
// another language.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { launchChromium } from './chromium.mjs';
import { KEY_PAGE, WWW, automationCopy } from './harness.mjs';
import { serve } from './server.mjs';

const require = createRequire(import.meta.url);
/** axe-core's source, injected into the page under test. */
export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Every axe rule that applies, best practices included, in `within` (a selector) or the whole document; returns "rule: target" lines. */
export async function axeViolationsIn(evaluate, within = null) {
  const result = await evaluate(`(async () => {
    if (!globalThis.axe) (0, eval)(${JSON.stringify(AXE_SOURCE)});
    const r = await axe.run(${within === null ? 'document' : JSON.stringify(within)}, { resultTypes: ['violations'] });
    return JSON.stringify(r.violations.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' '))));
  })()`);
  return JSON.parse(result);
}

/** Chromium (Playwright page): clicks a view button in the popup and waits until the popup shows it. */
export async function chooseView(popup, view) {
  await popup.click(`[data-view-button="${view}"]`);
  await popup.waitForSelector(`#view[data-view="${view}"]`);
}

/** Chromium: the popup's plain summary, its details and the view buttons' pressed states. */
export function popupState(popup) {
  return popup.evaluate(() => ({
    plain: document.getElementById('plain').textContent,
    compared: document.getElementById('compared').textContent,
    counts: document.getElementById('counts').textContent,
    details: document.getElementById('summary').textContent,
    pressed: Object.fromEntries([...document.querySelectorAll('[data-view-button]')].map((b) => [b.dataset.viewButton, b.getAttribute('aria-pressed')])),
    status: document.getElementById('status').textContent,
    error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent,
  }));
}

/**
 * Launches Chromium with its UI in `lang` (extension messages follow the UI
 * language): the browser inherits the environment, so LANGUAGE is set for
 * the launch only.
 */
export async function launchChromiumIn(lang) {
  const saved = { LANGUAGE: process.env.LANGUAGE, LANG: process.env.LANG, LC_ALL: process.env.LC_ALL };
  Object.assign(process.env, { LANGUAGE: lang, LANG: `${lang}_ES.UTF-8`, LC_ALL: '' });
  delete process.env.LC_ALL;
  try {
    return await launchChromium();
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
}

/**
 * Firefox: switches the UI to `locale` (a language pack must be installed)
 * and reinstalls the extension so that it loads that locale's messages.
 */
export async function firefoxInLocale(ff, locale) {
  await ff.call('POST', '/moz/context', { context: 'chrome' });
  const available = await ff.call('POST', '/execute/sync', {
    script: `Services.prefs.setCharPref('intl.locale.requested', arguments[0]); return Services.locale.availableLocales;`,
    args: [locale],
  });
  await ff.call('POST', '/moz/context', { context: 'content' });
  if (!available.includes(locale)) return false;
  const copy = automationCopy('firefox');
  process.once('exit', () => rmSync(copy, { recursive: true, force: true }));
  await ff.call('POST', '/moz/addon/install', { path: copy, temporary: true });
  await sleep(500);
  // Reinstalling closed the extension's tabs, perhaps the current one.
  await ff.switchTo((await ff.handles())[0]);
  return true;
}

/** Polls `probe()` until it returns something truthy. */
export async function until(probe, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await sleep(50);
  }
}

/**
 * The demo site with every page but the key page answering after `delayMs`,
 * so an extraction stays in its loading phase long enough to be watched.
 */
export async function slowDemoSite(delayMs) {
  const routes = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.html') && `/${relative(WWW, file)}` !== KEY_PAGE) {
        routes[`/${relative(WWW, file)}`] = (req, res) => setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(readFileSync(file));
        }, delayMs);
      }
    }
  };
  walk(WWW);
  return serve(WWW, { routes });
}

/** Runs in the page: our badge and view layer (an open shadow root), or null when the page shows nothing of ours. */
export function pageLayerProbe() {
  const host = document.querySelector('tex-view');
  if (!host) return null;
  const root = host.shadowRoot;
  const column = root.querySelector('.column');
  return {
    badge: root.querySelector('.badge')?.textContent ?? null,
    badgeWidth: root.querySelector('.badge')?.getBoundingClientRect().width ?? null,
    pressed: Object.fromEntries([...root.querySelectorAll('.views button[aria-pressed]')].map((b) => [b.textContent, b.getAttribute('aria-pressed')])),
    outlines: root.querySelectorAll('.outline').length,
    reader: column ? { width: column.getBoundingClientRect().width, widest: Math.max(0, ...[...host.querySelectorAll(':scope > div > :not(style)')].map((e) => e.getBoundingClientRect().width)) } : null,
  };
}

/** A site whose /huge.html has 12,000 paragraphs: over a max_nodes of 10,000, so the error sentence holds numbers of five digits. */
export function serveHugePage() {
  const html = `<!doctype html><html><head><title>huge</title></head><body>${'<p>x</p>'.repeat(12_000)}</body></html>`;
  return serve(WWW, { routes: { '/huge.html': (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html) } });
}

/**
 * Runs in the page: the tallest horizontal band of the document, from its
 * top to the last thing drawn, in which nothing visible is drawn (no text,
 * image or form control on screen) — the blank hole a view can leave, in CSS
 * pixels.
 */
export function largestBlankBand() {
  const spans = [];
  const drawn = /^(IMG|SVG|VIDEO|CANVAS|IFRAME|INPUT|BUTTON|SELECT|TEXTAREA|HR)$/i;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    let rects = [];
    if (n.nodeType === Node.TEXT_NODE && n.textContent.trim()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      rects = [...range.getClientRects()];
    } else if (n.nodeType === Node.ELEMENT_NODE && drawn.test(n.tagName)) {
      rects = [n.getBoundingClientRect()];
    }
    const owner = n.nodeType === Node.TEXT_NODE ? n.parentElement : n;
    if (rects.length && owner && getComputedStyle(owner).visibility !== 'visible') continue;
    // Off-canvas drawers keep their text beside the page: not drawn.
    for (const r of rects) if (r.width > 0 && r.height > 0 && r.right > 0 && r.left < innerWidth) spans.push([r.top + scrollY, r.bottom + scrollY]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let reach = 0;
  let band = 0;
  for (const [top, bottom] of spans) {
    band = Math.max(band, top - reach);
    reach = Math.max(reach, bottom);
  }
  return Math.round(band);
}
