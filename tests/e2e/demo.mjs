// `build.sh demo`: the extension in headless Chromium on the www/ demo site.
// Clicks Extract template and each view, prints the popup's summary, writes
// screenshots to test-artifacts/, then times a few more extractions.
import { join } from 'node:path';

import { extract, launchChromium, openWithPopup } from './chromium.mjs';
import { chooseView } from './ui-harness.mjs';
import { ARTIFACTS, KEY_PAGE, WWW } from './harness.mjs';
import { serve } from './server.mjs';

const RUNS = Number(process.env.TEX_DEMO_RUNS ?? 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const site = await serve(WWW);
const browser = await launchChromium();
try {
  const { page, popup } = await openWithPopup(browser, site.origin + KEY_PAGE);
  console.log(`Demo site served at ${site.origin}; key page ${page.url()}`);
  // The content view's reading panel covers the window and scrolls on its own, the page laid out
  // beneath it: a whole-page capture would show that page below the first screenful, so the content
  // view is shot as a reader sees it, the window.
  const shot = (name) => page.screenshot({ path: join(ARTIFACTS, `demo-${name}.png`), fullPage: name !== 'content', caret: 'initial' });
  await shot('original');
  const { error } = await extract(popup);
  if (error) throw new Error(error);
  const summary = await popup.evaluate(() => { document.getElementById('details').open = true; return document.getElementById('summary').innerText; });
  console.log(`\n--- Popup after Extract template ---\n${summary}\n`);
  await popup.setViewportSize({ width: 364, height: 560 });
  await popup.screenshot({ path: join(ARTIFACTS, 'demo-popup.png'), fullPage: true });
  for (const view of ['template', 'content', 'original']) {
    await chooseView(popup, view);
    await shot(view === 'original' ? 'restored' : view);
    console.log(`View: ${view} -> test-artifacts/demo-${view === 'original' ? 'restored' : view}.png`);
  }

  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = Date.now();
    await extract(popup);
    const wall = Date.now() - t0;
    const r = await popup.evaluate(() => fullReport());
    runs.push({ wall, key: r.key_snapshot_ms, ...r.timings });
  }
  const m = (k) => median(runs.map((r) => r[k])).toFixed(1);
  console.log(`\nExtract template, median of ${RUNS} runs (ms): click-to-summary ${m('wall')}, core total ${m('total_ms')};`
    + ` key-page snapshot ${m('key')}, fetch ${m('fetch_ms')}, parse ${m('parse_ms')}, snapshot (all pages) ${m('snapshot_ms')},`
    + ` link order ${m('link_order_ms')}, CS search ${m('cs_search_ms')}, mapping ${m('mapping_ms')}`);
  console.log(`Screenshots: ${ARTIFACTS}/demo-{original,template,content,restored,popup}.png`);
} finally {
  await browser.close();
  await site.close();
}
