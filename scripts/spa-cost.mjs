// What "Learn from pages I visit" costs, in headless Chromium on the
// single-page-app fixture (tests/e2e/fixtures/spa, the React build): per
// visited route, the snapshot's time and size; then Extract with the option
// on (visited routes, no request) beside Extract with it off (the served
// key page and shells fetched, answered with the app-shell sentence) on a
// second origin, timed from click to answer, with the requests each made.
// Needs dist/ (./build.sh build).
//   node scripts/spa-cost.mjs [--runs N]
import { setTimeout as sleep } from 'node:timers/promises';

import { extract, launchChromium, openWithPopup } from '../tests/e2e/chromium.mjs';
import { CLICKED, LEARN_ON, serveApp } from '../tests/e2e/spa-harness.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function clickRoutes(page) {
  for (const label of CLICKED) {
    const before = await page.textContent('article h1');
    await page.click(`nav a:text-is("${label}")`);
    await page.waitForFunction((old) => document.querySelector('article h1')?.textContent !== old, before);
    await sleep(600);
  }
}

/**
 * Extract `runs` times (the first learns nothing into memory: Remember is off), timed from click to answer;
 * `error` is the sentence answered instead of a template, when one was.
 */
async function timedExtracts(popup, site) {
  const clicks = [];
  const requests = [];
  let summary;
  let error;
  for (let i = 0; i < runs; i++) {
    const hits = site.hits;
    const t0 = performance.now();
    ({ error } = await extract(popup));
    clicks.push(performance.now() - t0);
    requests.push(site.hits - hits);
    summary = error ? null : await popup.evaluate(() => fullReport());
  }
  return { click: median(clicks), requests: median(requests), summary, error };
}

const browser = await launchChromium();
try {
  // Memory would answer every Extract after the first: both rows measure the method.
  const options = await browser.context.newPage();
  await options.goto(browser.extensionUrl('options.html'));
  await options.evaluate(() => chrome.storage.local.set({ rememberTemplates: false }));
  await options.close();

  const on = await serveApp();
  const { page, popup } = await openWithPopup(browser, `${on.origin}/`);
  await page.waitForSelector('article h1');
  await popup.check('#learn');
  await popup.waitForFunction((s) => document.getElementById('status').textContent === s, LEARN_ON);
  await clickRoutes(page);
  const routes = await popup.evaluate(async () => (await callCore(tab.id, 'visitedRoutes')).value);
  console.log('route snapshots (Chromium, React fixture):');
  for (const r of routes) console.log(`  ${r.elements} elements, ${r.snapshot_ms.toFixed(2)} ms`);
  const learnt = await timedExtracts(popup, on);
  if (learnt.error) throw new Error(learnt.error);
  console.log(`Extract, Learn from pages I visit on: median click ${learnt.click.toFixed(1)} ms over ${runs}, ` +
    `${learnt.requests} requests, ${learnt.summary.cs.size} visited pages compared, template ${learnt.summary.template_nodes}/${learnt.summary.total_nodes} nodes`);
  await popup.uncheck('#learn');
  await on.close();

  const off = await serveApp();
  const second = await openWithPopup(browser, `${off.origin}/`);
  await second.page.waitForSelector('article h1');
  await clickRoutes(second.page);
  const fetched = await timedExtracts(second.popup, off);
  const answer = fetched.error ? `answer: "${fetched.error}"`
    : `template ${fetched.summary.template_nodes}/${fetched.summary.total_nodes} nodes (the served shells)`;
  console.log(`Extract, option off: median click ${fetched.click.toFixed(1)} ms over ${runs}, ${fetched.requests} requests, ${answer}`);
  await off.close();
} finally {
  await browser.close();
}
