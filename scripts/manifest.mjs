// One manifest source, one manifest per browser: manifest.json holds the keys
// both browsers share plus `browser_specific.<browser>`, merged in here (each
// store rejects or warns about the other's keys). Also checks the limits the
// stores enforce, so a bad manifest fails the build, not the review.
// Usage: node scripts/manifest.mjs chrome|firefox OUT_DIR
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
export const BROWSERS = ['chrome', 'firefox'];

/** The manifest of `browser`, with `__MSG_x__` left for the browser to fill. */
export function manifestFor(browser) {
  const source = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8'));
  const specific = source.browser_specific?.[browser];
  if (!specific) throw new Error(`manifest.json has no browser_specific.${browser}`);
  delete source.browser_specific;
  const { manifest_version, name, ...rest } = { ...source, ...specific };
  if (browser === 'chrome') {
    // Chrome's content scripts fetch the wasm as the page does, so it must be
    // web-accessible; Chrome serves such files at chrome-extension://<extension id>/,
    // the same for every install, so any page could probe for tex_bg.wasm and
    // learn the extension is installed; a dynamic URL changes every session.
    rest.web_accessible_resources = rest.web_accessible_resources?.map((r) => ({ ...r, use_dynamic_url: true }));
  } else {
    // Firefox has no dynamic URL: moz-extension://<uuid>/ is random per install
    // but the same for its lifetime, so a page that learnt the UUID could read
    // any web-accessible file. Its content scripts load the extension's own
    // files without the key, so none is web-accessible.
    delete rest.web_accessible_resources;
  }
  return { manifest_version, name, version: cargoVersion(), ...rest };
}

/** Cargo.toml holds the project's one version number; the manifests get it here. */
export function cargoVersion() {
  const cargo = readFileSync(join(ROOT, 'Cargo.toml'), 'utf8');
  const version = cargo.split(/^\[/m).find((s) => s.startsWith('package]'))?.match(/^version\s*=\s*"([^"]+)"/m)?.[1];
  if (!version) throw new Error('Cargo.toml has no [package] version');
  return version;
}

/** What a store would refuse in `manifest` (messages resolved from `_locales`), as sentences. */
export function storeProblems(manifest) {
  const problems = [];
  const locales = join(ROOT, 'extension/_locales');
  const messages = (locale) => JSON.parse(readFileSync(join(locales, locale, 'messages.json'), 'utf8'));
  const resolveIn = (locale, value) => value.replace(/__MSG_(\w+)__/g, (_, key) => messages(locale)[key]?.message ?? `?${key}`);
  for (const locale of ['en', 'es']) {
    const name = resolveIn(locale, manifest.name);
    const description = resolveIn(locale, manifest.description);
    if (name.length > 75) problems.push(`the ${locale} name has ${name.length} characters, more than 75`);
    if (description.length > 132) problems.push(`the ${locale} description has ${description.length} characters, more than 132`);
    if (/\?\w/.test(name + description)) problems.push(`the ${locale} locale lacks a message the manifest names`);
  }
  for (const size of ['16', '32', '48', '128']) if (!manifest.icons?.[size]) problems.push(`no ${size} px icon`);
  return problems;
}

if (process.argv[1] === import.meta.filename) {
  const [browser, out] = process.argv.slice(2);
  if (!BROWSERS.includes(browser) || !out) throw new Error('usage: node scripts/manifest.mjs chrome|firefox OUT_DIR');
  const manifest = manifestFor(browser);
  const problems = storeProblems(manifest);
  if (problems.length) throw new Error(`manifest for ${browser}: ${problems.join('; ')}`);
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
