// Store readiness of the built extension: each browser's manifest within its
// store's limits, real icons at every listed size, `web-ext lint` clean on the
// Firefox build, and both locales complete (every key the UI asks for).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { manifestFor, storeProblems } from '../../scripts/manifest.mjs';
import { ROOT } from './harness.mjs';

const built = (browser) => JSON.parse(readFileSync(join(ROOT, 'dist', browser, 'manifest.json'), 'utf8'));
const messages = (locale) => JSON.parse(readFileSync(join(ROOT, 'extension/_locales', locale, 'messages.json'), 'utf8'));

/** Width and height of a PNG from its IHDR chunk. */
function pngSize(file) {
  const b = readFileSync(file);
  assert.equal(b.toString('latin1', 1, 4), 'PNG', `${file} is a PNG`);
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

test('Chrome manifest: within the Web Store limits, no Firefox-only keys, a minimum Chrome version', () => {
  const m = built('chrome');
  assert.deepEqual(m, manifestFor('chrome'), 'dist/chrome holds the generated manifest');
  assert.deepEqual(storeProblems(m), []);
  for (const locale of ['en', 'es']) {
    const description = messages(locale).extDescription.message;
    assert.ok(description.length <= 132, `${locale} description: ${description.length} characters`);
  }
  assert.equal(m.browser_specific_settings, undefined);
  assert.deepEqual(Object.keys(m.background), ['service_worker']);
  assert.match(m.minimum_chrome_version, /^\d+$/);
  assert.equal(m.default_locale, 'en');
  assert.ok(m.web_accessible_resources.every((r) => r.use_dynamic_url === true),
    'web-accessible files only at a per-session address: pages cannot detect the extension');
});

test('Firefox manifest: data collection declared, a minimum version that supports every key used', () => {
  const m = built('firefox');
  const gecko = m.browser_specific_settings.gecko;
  assert.deepEqual(gecko.data_collection_permissions, { required: ['none'] });
  assert.ok(parseFloat(gecko.strict_min_version) >= 140, 'data_collection_permissions needs Firefox 140');
  assert.ok(parseFloat(m.browser_specific_settings.gecko_android.strict_min_version) >= 142);
  assert.deepEqual(Object.keys(m.background), ['scripts']);
  assert.equal(m.web_accessible_resources, undefined, 'no file a page could read at moz-extension://<uuid>/');
});

test('icons: every size the manifests list exists at that size, in both builds', () => {
  for (const browser of ['chrome', 'firefox']) {
    const m = built(browser);
    for (const [size, path] of [...Object.entries(m.icons), ...Object.entries(m.action.default_icon)]) {
      assert.deepEqual(pngSize(join(ROOT, 'dist', browser, path)), [Number(size), Number(size)], `${browser} ${path}`);
    }
    for (const size of ['16', '32', '48', '96', '128']) assert.ok(m.icons[size], `${browser} lists a ${size} px icon`);
  }
});

test('web-ext lint on the Firefox build: 0 errors, 0 warnings', () => {
  let out;
  try {
    out = execFileSync(join(ROOT, 'node_modules/.bin/web-ext'), ['lint', '--source-dir', join(ROOT, 'dist/firefox'), '--output', 'json', '--self-hosted=false'], { encoding: 'utf8' });
  } catch (e) {
    out = e.stdout;
  }
  const report = JSON.parse(out);
  const lines = [...report.errors, ...report.warnings].map((m) => `${m.code}: ${m.message} (${m.file ?? ''})`);
  assert.deepEqual(lines, [], lines.join('\n'));
});

test('locales: Spanish has every English message, and every key the UI names exists', () => {
  const en = messages('en');
  const es = messages('es');
  assert.deepEqual(Object.keys(es).sort(), Object.keys(en).sort());
  for (const [key, { message }] of Object.entries(es)) {
    const placeholders = (s) => (s.match(/\$\d/g) ?? []).sort().join();
    assert.equal(placeholders(message), placeholders(en[key].message), `${key}: same placeholders`);
  }
  const dir = join(ROOT, 'extension');
  const named = new Set();
  for (const file of readdirSync(dir).filter((f) => /\.(html|js)$/.test(f))) {
    const src = readFileSync(join(dir, file), 'utf8');
    for (const m of src.matchAll(/data-i18n(?:-[\w-]+)?="(\w+)"/g)) named.add(m[1]);
    for (const m of src.matchAll(/\bt\('(\w+)'/g)) named.add(m[1]);
  }
  const manifest = readFileSync(join(ROOT, 'manifest.json'), 'utf8');
  for (const m of manifest.matchAll(/__MSG_(\w+)__/g)) named.add(m[1]);
  const rust = readFileSync(join(ROOT, 'src/wasm/failure.rs'), 'utf8') + readFileSync(join(ROOT, 'src/wasm/mod.rs'), 'utf8');
  for (const m of rust.matchAll(/"((?:error|load|config)[A-Z]\w*)"/g)) named.add(m[1]);
  const missing = [...named].filter((k) => !en[k]);
  assert.deepEqual(missing, [], `keys without a message: ${missing.join(', ')}`);
  assert.ok(named.size > 60, `${named.size} keys named`);
});

test('store zips: no Check benchmarks and no development hint; the unpacked build keeps them; the zips\' pages name only messages they hold', () => {
  for (const browser of ['chrome', 'firefox']) {
    const zip = join(ROOT, 'dist', `template-extractor-${browser}.zip`);
    const entries = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const text = (entry) => execFileSync('unzip', ['-p', zip, entry], { encoding: 'latin1', maxBuffer: 64 << 20 });
    assert.deepEqual(entries.filter((e) => e.startsWith('bench.')), [], `${browser}: no bench.* in the zip`);
    for (const entry of entries.filter((e) => !e.endsWith('/'))) {
      const body = text(entry);
      for (const hint of ['__tex_index', 'serve-bench']) assert.ok(!body.includes(hint), `${browser}: ${entry} holds "${hint}"`);
    }
    const en = JSON.parse(text('_locales/en/messages.json'));
    for (const page of entries.filter((e) => e.endsWith('.html'))) {
      const missing = [...text(page).matchAll(/data-i18n(?:-[\w-]+)?="(\w+)"/g)].map((m) => m[1]).filter((k) => !en[k]);
      assert.deepEqual(missing, [], `${browser}: ${page} names messages the zip lacks`);
    }
    assert.ok(readdirSync(join(ROOT, 'dist', browser)).includes('bench.html'), `dist/${browser} keeps Check benchmarks`);
  }
});
