import { launchChromium } from '../tests/e2e/chromium.mjs';
import { serveSet } from './bench.mjs';
const sites = process.argv.slice(2);
const browser = await launchChromium();
const served = await serveSet('../shared/bench/dev');
const self = new Map();
let total = 0;
for (const site of served.sites.filter((s) => !sites.length || sites.includes(s.id))) {
  const page = await browser.context.newPage();
  await page.goto(site.key_url);
  const popup = await browser.context.newPage();
  await popup.goto(browser.popupUrl(page.url()));
  await popup.waitForSelector('body[data-ready="true"]');
  const click0 = () => popup.evaluate(async () => {
    const { id } = await targetTab(); const config = await storedConfig();
    await callCore(id, 'extract', config);
    return (await callCore(id, 'state', true)).value.report.load_log.map((l) => l.url);
  });
  const urls = await click0();
  const click = process.env.LIMIT ? () => page.evaluate(async (urls) => {
    let next = 0;
    const worker = async () => { while (next < urls.length) { const url = urls[next++]; const r = await fetch(url, { mode: 'same-origin', credentials: 'omit' }); const t = await r.text(); new DOMParser().parseFromString(t, 'text/html'); } };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }, urls) : click0;
  await click();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  for (let i = 0; i < 10; i++) await click();
  const { profile } = await cdp.send('Profiler.stop');
  const dt = profile.timeDeltas; const counts = new Map();
  profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i + 1] ?? 0)));
  for (const n of profile.nodes) {
    const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}`;
    const us = counts.get(n.id) ?? 0;
    self.set(k, (self.get(k) ?? 0) + us); total += us;
  }
  await page.close(); await popup.close();
}
const groups = new Map();
for (const [k, us] of self) { const g = k.includes('tex_bg.wasm') ? 'wasm' : k.split(' ').pop() || k; groups.set(g, (groups.get(g) ?? 0) + us); }
for (const [k, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log('G', (us / 1000).toFixed(1).padStart(8), k);
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, 45);
for (const [k, us] of rows) console.log((us / 1000).toFixed(1).padStart(8), (100 * us / total).toFixed(1).padStart(5), k);
await served.stop(); await browser.close();
