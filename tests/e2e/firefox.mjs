// Debian's Firefox ESR driven by selenium-webdriver through geckodriver,
// headless, with the extension installed as a temporary add-on. A fixed
// extension UUID (pref) gives the popup a known moz-extension:// address;
// opening it needs the chrome context (geckodriver --allow-system-access).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { By } from 'selenium-webdriver';
import firefox from 'selenium-webdriver/firefox.js';
import { Command } from 'selenium-webdriver/lib/command.js';

import { automationCopy } from './harness.mjs';

const UUID = '5d1f0c3e-7a52-4b8e-9f1e-3c2d8a6b7e41';

function geckodriverPath() {
  if (process.env.GECKODRIVER) return process.env.GECKODRIVER;
  const cargo = join(homedir(), '.cargo/bin/geckodriver');
  return existsSync(cargo) ? cargo : 'geckodriver';
}

/** `prefs`: more preferences of the test profile, beside the harness's own. */
export async function launchFirefox({ prefs: extra = {} } = {}) {
  const extension = automationCopy('firefox');
  const downloads = mkdtempSync(join(tmpdir(), 'tex-firefox-downloads-'));
  const geckoId = JSON.parse(readFileSync(join(extension, 'manifest.json'), 'utf8')).browser_specific_settings.gecko.id;
  const options = new firefox.Options()
    .setBinary(process.env.FIREFOX ?? '/usr/bin/firefox-esr')
    .addArguments('-headless', '-width', '1200', '-height', '900');
  const prefs = {
    'extensions.webextensions.uuids': JSON.stringify({ [geckoId]: UUID }),
    'browser.shell.checkDefaultBrowser': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'app.update.disabledForTesting': true,
    'browser.download.folderList': 2,
    'browser.download.dir': downloads,
    'browser.download.useDownloadDir': true,
    'browser.download.always_ask_before_handling_new_types': false,
    ...extra,
  };
  for (const [name, value] of Object.entries(prefs)) options.setPreference(name, value);
  // An explicit geckodriver and binary: Selenium Manager never looks online.
  const service = new firefox.ServiceBuilder(geckodriverPath()).addArguments('--allow-system-access').build();
  const driver = firefox.Driver.createSession(options, service);

  /** Any WebDriver endpoint of this session, for what selenium has no method for. */
  const call = (method, path, body) => {
    const name = `tex ${method} ${path}`;
    driver.getExecutor().defineCommand(name, method, `/session/:sessionId${path}`);
    return driver.execute(new Command(name).setParameters(body ?? {}));
  };
  // Installed from its folder, not with selenium's installAddon: that sends the
  // add-on as base64, which Marionette writes to <profile>/addon-test-<uuid>.xpi,
  // installs as a temporary add-on in place, and then deletes. Files already
  // read still work (popup, background), but every later load in a content
  // process (executeScript's files) fails: the parent cannot open the deleted
  // .xpi ("IPDL protocol Error: Received an invalid file descriptor",
  // "Unable to load script: moz-extension://.../tex.js").
  await call('POST', '/moz/addon/install', { path: extension, temporary: true });

  const ff = {
    downloads,
    driver,
    popupUrl: (target) => `moz-extension://${UUID}/popup.html?url=${encodeURIComponent(target)}`,
    extensionUrl: (page) => `moz-extension://${UUID}/${page}`,
    /** The handles of all open tabs. */
    handles: () => driver.getAllWindowHandles(),
    call,
    async execute(script, ...args) {
      return driver.executeAsyncScript(`const done = arguments[arguments.length - 1]; Promise.resolve((${script})(...Array.from(arguments).slice(0, -1))).then(done, (e) => done({ __error: String(e) }));`, ...args);
    },
    /** Runs `script` (a function body; `arguments` holds `args`) in the browser's chrome context, with its privileges. */
    async inChrome(script, ...args) {
      await call('POST', '/moz/context', { context: 'chrome' });
      try {
        return await call('POST', '/execute/sync', { script, args });
      } finally {
        await call('POST', '/moz/context', { context: 'content' });
      }
    },
    /** Presses the extension's keyboard shortcut `key` (Alt+Shift+key) in the browser window, as its key element does. */
    pressShortcut: (key) => ff.inChrome(`
      const keyset = document.getElementById('ext-keyset-id-' + arguments[1].replace(/[^a-z0-9_-]/gi, '_'));
      [...keyset.children].find((k) => k.getAttribute('key') === arguments[0] && k.getAttribute('modifiers') === 'alt,shift').doCommand();`, key, geckoId),
    /** The state of the extension's background page: 'running', 'stopped' (suspended) and the steps between. */
    backgroundState: () => ff.inChrome(`
      const { ExtensionParent } = ChromeUtils.importESModule('resource://gre/modules/ExtensionParent.sys.mjs');
      return String(ExtensionParent.GlobalManager.getExtension(arguments[0]).backgroundState);`, geckoId),
    /** Opens `url` in a new tab and switches to it; moz-extension:// pages go through the chrome context. */
    async openTab(url) {
      const before = new Set(await driver.getAllWindowHandles());
      if (url.startsWith('moz-extension:')) {
        await driver.setContext(firefox.Context.CHROME);
        await driver.executeScript('gBrowser.selectedTab = gBrowser.addTab(arguments[0], { triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal() });', url);
        await driver.setContext(firefox.Context.CONTENT);
      } else {
        await driver.switchTo().newWindow('tab');
      }
      let handle;
      for (let i = 0; !handle && i < 100; i++) {
        handle = (await driver.getAllWindowHandles()).find((h) => !before.has(h));
        if (!handle) await sleep(50);
      }
      await driver.switchTo().window(handle);
      if (!url.startsWith('moz-extension:')) await driver.get(url);
      return handle;
    },
    /** Opens `url` and, current after it, a popup aimed at it; resolves to `{ page, popup, url }`. */
    async openWithPopup(url) {
      const page = await ff.openTab(url);
      const actual = await ff.execute(() => location.href);
      const popup = await ff.openTab(ff.popupUrl(actual));
      await ff.waitFor('body[data-ready="true"], #error:not([hidden])');
      return { page, popup, url: actual };
    },
    /** Clicks Extract template in the current popup and waits for the summary or an error sentence. */
    async extract() {
      await ff.click('#extract');
      await ff.waitFor('#summary:not([hidden]), #error:not([hidden])');
      return ff.execute(async () => ({
        error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent,
        summary: document.getElementById('summary').textContent,
        compared: document.getElementById('compared').textContent,
        report: await fullReport(),
      }));
    },
    /** Picks `view` in the current popup's Original / Template / Content control and waits until it shows it. */
    async chooseView(view) {
      await ff.click(`[data-view-button="${view}"]`);
      await ff.waitFor(`#view[data-view="${view}"]`);
    },
    /**
     * Waits until Firefox has finished writing the download `name` and returns its text. Firefox creates the
     * file empty at once and fills it through `name.part`, so its mere existence is not the end.
     */
    async downloaded(name) {
      const file = join(downloads, name);
      const done = () => existsSync(file) && !existsSync(`${file}.part`) && statSync(file).size > 0;
      for (let end = Date.now() + 15_000; !done() && Date.now() < end;) await sleep(100);
      if (!done()) throw new Error(`${name} was not downloaded; the folder holds [${readdirSync(downloads).join(', ')}]`);
      return readFileSync(file, 'utf8');
    },
    switchTo: (handle) => driver.switchTo().window(handle),
    async closeTab(handle) {
      await driver.switchTo().window(handle);
      await driver.close();
      const [remaining] = await driver.getAllWindowHandles();
      await driver.switchTo().window(remaining);
    },
    /**
     * A real WebDriver click. A tab just opened or switched to may not be laid out yet, and Marionette
     * then finds no point to click ("could not be scrolled into view"): that is retried for 10 s.
     */
    async click(selector) {
      for (let end = Date.now() + 10_000; ; await sleep(100)) {
        try {
          await (await driver.findElement(By.css(selector))).click();
          return;
        } catch (e) {
          if (e.name !== 'ElementNotInteractableError' || Date.now() > end) throw e;
        }
      }
    },
    /** Polls until `selector` matches in the current tab. */
    async waitFor(selector, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        if (await driver.executeScript('return document.querySelector(arguments[0]) !== null;', selector)) return;
        await sleep(50);
      }
      throw new Error(`timed out waiting for ${selector}`);
    },
    /**
     * The whole page, or with `window` what the window shows: the content view's reading panel covers the
     * window and scrolls on its own, so a whole-page capture would show the page beneath it.
     */
    async screenshot(path, { window = false } = {}) {
      const png = window ? await driver.takeScreenshot() : await driver.takeFullPageScreenshot();
      writeFileSync(path, Buffer.from(png, 'base64'));
    },
    async close() {
      await driver.quit().catch(() => {});
      rmSync(extension, { recursive: true, force: true });
      rmSync(downloads, { recursive: true, force: true });
    },
  };
  return ff;
}
