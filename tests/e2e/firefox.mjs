// Debian's Firefox ESR driven through geckodriver's WebDriver HTTP API,
// headless, with the extension installed as a temporary add-on. A fixed
// extension UUID (pref) gives the popup a known moz-extension:// address;
// opening it needs the chrome context (geckodriver --allow-system-access).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { automationCopy } from './harness.mjs';

const UUID = '5d1f0c3e-7a52-4b8e-9f1e-3c2d8a6b7e41';
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

function geckodriverPath() {
  if (process.env.GECKODRIVER) return process.env.GECKODRIVER;
  const cargo = join(homedir(), '.cargo/bin/geckodriver');
  return existsSync(cargo) ? cargo : 'geckodriver';
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function launchFirefox() {
  const extension = automationCopy('firefox');
  const downloads = mkdtempSync(join(tmpdir(), 'tex-firefox-downloads-'));
  const geckoId = JSON.parse(readFileSync(join(extension, 'manifest.json'), 'utf8')).browser_specific_settings.gecko.id;
  const port = await freePort();
  const driver = spawn(geckodriverPath(), ['--host', '127.0.0.1', '--port', String(port), '--allow-system-access'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let driverLog = '';
  driver.stderr.on('data', (d) => { driverLog += d; });
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, path, body) => {
    const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${json.value.error}: ${json.value.message}`);
    return json.value;
  };
  for (let i = 0; ; i++) {
    try { await call('GET', '/status'); break; } catch (e) {
      if (i > 100) throw new Error(`geckodriver did not start: ${driverLog}`);
      await sleep(100);
    }
  }
  const session = await call('POST', '/session', {
    capabilities: { alwaysMatch: {
      browserName: 'firefox',
      'moz:firefoxOptions': {
        binary: process.env.FIREFOX ?? '/usr/bin/firefox-esr',
        args: ['-headless', '-width', '1200', '-height', '900'],
        prefs: {
          'extensions.webextensions.uuids': JSON.stringify({ [geckoId]: UUID }),
          'browser.shell.checkDefaultBrowser': false,
          'datareporting.policy.dataSubmissionEnabled': false,
          'app.update.disabledForTesting': true,
          'browser.download.folderList': 2,
          'browser.download.dir': downloads,
          'browser.download.useDownloadDir': true,
          'browser.download.always_ask_before_handling_new_types': false,
        },
      },
    } },
  });
  const sid = `/session/${session.sessionId}`;
  await call('POST', `${sid}/moz/addon/install`, { path: extension, temporary: true });

  const ff = {
    downloads,
    popupUrl: (target) => `moz-extension://${UUID}/popup.html?url=${encodeURIComponent(target)}`,
    extensionUrl: (page) => `moz-extension://${UUID}/${page}`,
    /** The handles of all open tabs. */
    handles: () => call('GET', `${sid}/window/handles`),
    call: (method, path, body) => call(method, sid + path, body),
    async execute(script, ...args) {
      return call('POST', `${sid}/execute/async`, { script: `const done = arguments[arguments.length - 1]; Promise.resolve((${script})(...Array.from(arguments).slice(0, -1))).then(done, (e) => done({ __error: String(e) }));`, args });
    },
    /** Opens `url` in a new tab and switches to it; moz-extension:// pages go through the chrome context. */
    async openTab(url) {
      const before = new Set(await call('GET', `${sid}/window/handles`));
      if (url.startsWith('moz-extension:')) {
        await call('POST', `${sid}/moz/context`, { context: 'chrome' });
        await call('POST', `${sid}/execute/sync`, { script: `gBrowser.selectedTab = gBrowser.addTab(arguments[0], { triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal() });`, args: [url] });
        await call('POST', `${sid}/moz/context`, { context: 'content' });
      } else {
        await call('POST', `${sid}/window/new`, { type: 'tab' });
      }
      let handle;
      for (let i = 0; !handle && i < 100; i++) {
        handle = (await call('GET', `${sid}/window/handles`)).find((h) => !before.has(h));
        if (!handle) await sleep(50);
      }
      await call('POST', `${sid}/window`, { handle });
      if (!url.startsWith('moz-extension:')) await call('POST', `${sid}/url`, { url });
      return handle;
    },
    switchTo: (handle) => call('POST', `${sid}/window`, { handle }),
    async closeTab(handle) {
      await call('POST', `${sid}/window`, { handle });
      const [remaining] = await call('DELETE', `${sid}/window`);
      await call('POST', `${sid}/window`, { handle: remaining });
    },
    async click(selector) {
      const el = await call('POST', `${sid}/element`, { using: 'css selector', value: selector });
      await call('POST', `${sid}/element/${el[ELEMENT]}/click`, {});
    },
    /** Polls until `selector` matches in the current tab. */
    async waitFor(selector, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        if (await call('POST', `${sid}/execute/sync`, { script: 'return document.querySelector(arguments[0]) !== null;', args: [selector] })) return;
        await sleep(50);
      }
      throw new Error(`timed out waiting for ${selector}`);
    },
    async screenshot(path) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path, Buffer.from(await call('GET', `${sid}/moz/screenshot/full`), 'base64'));
    },
    async close() {
      await call('DELETE', sid).catch(() => {});
      driver.kill();
      await new Promise((resolve) => driver.once('exit', resolve));
      rmSync(extension, { recursive: true, force: true });
      rmSync(downloads, { recursive: true, force: true });
    },
  };
  return ff;
}
