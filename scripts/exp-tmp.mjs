import { launchChromium } from '../tests/e2e/chromium.mjs';
import { serveSet } from './bench.mjs';
const sites = process.argv.slice(2);
const browser = await launchChromium();
const served = await serveSet('../shared/bench/dev');
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
for (const site of served.sites.filter((s) => !sites.length || sites.includes(s.id))) {
  const page = await browser.context.newPage();
  await page.goto(site.key_url);
  const popup = await browser.context.newPage();
  await popup.goto(browser.popupUrl(page.url()));
  await popup.waitForSelector('body[data-ready="true"]');
  const click = () => popup.evaluate(async () => {
    const { id } = await targetTab(); const config = await storedConfig();
    const t0 = performance.now(); await callCore(id, 'extract', config); const ms = performance.now() - t0;
    const [inpage] = await chrome.scripting.executeScript({ target: { tabId: id }, func: async (config) => {
      const t0 = performance.now(); await globalThis.texCore.call('extract', [config]); const all = performance.now() - t0;
      const r = (await globalThis.texCore.call('state', [true])).value.report;
      const t1 = performance.now(); globalThis.texPageView.render({ status: 'done', view: 'original', highlight: true, summary: {} }); const render = performance.now() - t1;
      return { all, core: r.timings.total_ms + r.key_snapshot_ms, render };
    }, args: [config] });
    return { ms, ...inpage.result };
  });
  await click();
  const rs = [];
  for (let i = 0; i < 5; i++) rs.push(await click());
  console.log(site.id, ['ms', 'all', 'core', 'render'].map((k) => `${k} ${med(rs.map((r) => r[k])).toFixed(1)}`).join('  '));
  await page.close(); await popup.close();
}
await served.stop(); await browser.close();
