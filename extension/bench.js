// Check benchmarks (thesis §4.2): for every site of a served benchmark set,
// opens the key page in a background tab, runs exactly what Extract template
// runs there (callCore in runner.js) under each chosen configuration, and
// tabulates the core's score against the page's gold marks. Glue only: the
// extraction, the scoring and the averages are the core's.
'use strict';

const { t, plural, localize } = texI18n;

const $ = (id) => document.getElementById(id);
const SCHEMA = 'template-extractor/bench-report/1';
/** Where `./build.sh serve-bench` puts the index (its first port). */
const DEFAULT_INDEX = 'http://127.0.0.1:8700/__tex_index.json';
const LOAD_TIMEOUT_MS = 30_000;
const SCORE_FIELDS = ['nodes', 'gold', 'retrieved', 'correct', 'recall', 'precision', 'f1', 'content_f1'];
/** Columns of the CSV export, in order; the JSON rows carry the same names and more. */
const CSV_FIELDS = ['site', 'config', ...SCORE_FIELDS, 'misses', 'false_hits', 'loads', 'fetched', 'cs_kind', 'cs_size',
  'fetch_ms', 'parse_ms', 'snapshot_ms', 'mapping_ms', 'total_ms', 'engine', 'key_url', 'weakness', 'error'];

let report = null;
/** The tab an extraction runs in now, so its progress messages can be shown. */
let busy = null;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (x) => (100 * x).toFixed(2);
const ms = (x) => x.toFixed(1);

function say(text) { $('status').textContent = text; }

function fail(sentence) {
  $('error').textContent = sentence;
  $('error').hidden = false;
  document.body.dataset.state = 'failed';
}

/** The configuration a name stands for: the stored options, or a core preset. */
async function configFor(name) {
  if (name === 'current') return storedConfig();
  const json = wasm_bindgen.preset_config(name);
  if (!json) throw new Error(t('benchNoConfig', name));
  return JSON.parse(json);
}

async function readIndex(url) {
  let response;
  try {
    response = await fetch(url, { cache: 'no-store' });
  } catch {
    throw new Error(t('benchIndexUnreachable', url));
  }
  if (!response.ok) throw new Error(t('benchIndexHttp', url, `${response.status} ${response.statusText}`.trim()));
  const index = await response.json().catch(() => null);
  if (!Array.isArray(index?.sites) || index.sites.length === 0) throw new Error(t('benchNotIndex', url));
  return index;
}

/** The host pattern that lets the extension run in a page of `url` (ports are not part of patterns). */
const hostPattern = (url) => { const u = new URL(url); return `${u.protocol}//${u.hostname}/*`; };

/**
 * Access to the sites' host. Asked for at the click itself (a browser grants
 * optional permissions only inside the user's gesture); the sites of a set
 * live on the index's host.
 */
function askAccess(indexUrl) {
  return api.permissions.request({ origins: [hostPattern(indexUrl)] });
}

async function checkAccess(sites) {
  const origins = [...new Set(sites.map((s) => hostPattern(s.key_url)))];
  if (!(await api.permissions.contains({ origins }))) {
    throw new Error(t('benchNeedsAccess', origins.join(', ')));
  }
}

/** Opens `url` in a new tab and resolves to it once loaded. */
async function openLoaded(url, active) {
  const { id } = await api.tabs.create({ url, active });
  for (const end = Date.now() + LOAD_TIMEOUT_MS; Date.now() < end; await sleep(50)) {
    const tab = await api.tabs.get(id);
    if (tab.status === 'complete' && tab.url && tab.url !== 'about:blank') return tab;
  }
  await api.tabs.remove(id).catch(() => {});
  throw new Error(t('benchLoadTimeout', url, LOAD_TIMEOUT_MS / 1000));
}

async function browserInfo() {
  if (api.runtime.getBrowserInfo) {
    const { name, version } = await api.runtime.getBrowserInfo();
    return { name, version, user_agent: navigator.userAgent };
  }
  // Chromium's user agent string carries only the major version.
  const brands = (await navigator.userAgentData?.getHighEntropyValues(['fullVersionList']))?.fullVersionList ?? [];
  const brand = brands.find((b) => /Chrom/.test(b.brand)) ?? { brand: 'unknown', version: '' };
  return { name: brand.brand, version: brand.version, user_agent: navigator.userAgent };
}

/** What build.sh recorded about this build; the manifest's version at least. */
async function buildInfo() {
  const info = await fetch(api.runtime.getURL('build-info.json')).then((r) => r.json()).catch(() => ({}));
  return { extension_version: api.runtime.getManifest().version, ...info };
}

/** One row of the report from the core's answer in the site's tab. */
function toRow(site, config, answer) {
  const row = { site: site.id, config, key_url: site.key_url };
  const r = answer?.ok ? answer.value : null;
  const error = !r ? (answer?.error ?? t('errorNoAnswer'))
    : !r.check ? t('benchNoGold') : null;
  if (error) {
    for (const f of [...SCORE_FIELDS, 'misses', 'false_hits', 'loads', 'fetched', 'cs_size', 'fetch_ms', 'parse_ms',
      'snapshot_ms', 'mapping_ms', 'total_ms']) row[f] = 0;
    return Object.assign(row, { cs_kind: null, cs_pages: [], engine: null, key_path: null, key_fallback: null, added_by_scripts: 0, key_fetch_ms: 0, align_ms: 0, weakness: null, error });
  }
  const c = r.check;
  const t = r.timings;
  for (const f of SCORE_FIELDS) row[f] = c[f];
  return Object.assign(row, {
    misses: c.misses, false_hits: c.false_hits,
    loads: r.loads, fetched: r.fetched, cs_kind: r.cs.kind, cs_size: r.cs.size, cs_pages: r.cs.pages,
    fetch_ms: t.fetch_ms, parse_ms: t.parse_ms, snapshot_ms: t.snapshot_ms, mapping_ms: t.mapping_ms,
    total_ms: t.total_ms + r.key_snapshot_ms, engine: r.engine,
    key_path: r.key_source?.path ?? null, key_fallback: r.key_source?.fallback?.kind ?? null,
    added_by_scripts: r.key_source?.added_by_scripts ?? 0, key_fetch_ms: r.key_source?.fetch_ms ?? 0, align_ms: r.key_source?.align_ms ?? 0,
    weakness: r.evidence?.weakness ?? null, error: null,
  });
}

/** Macro averages of one configuration's rows; failed sites count as zero, as in the CLI. */
function average(config, rows) {
  const mean = (f) => rows.reduce((s, r) => s + r[f], 0) / Math.max(rows.length, 1);
  const scores = rows.map((r) => Object.fromEntries(SCORE_FIELDS.map((f) => [f, r[f]])));
  return { config, ...wasm_bindgen.macro_average_of(JSON.stringify(scores)), mean_loads: mean('loads'), mean_total_ms: mean('total_ms'),
    weak: rows.filter((r) => r.weakness).length };
}

function cell(text, className) {
  return Object.assign(document.createElement('td'), { textContent: text, className: className ?? '' });
}

function addRow(row, firstOfSite) {
  const tr = document.createElement('tr');
  tr.className = firstOfSite ? 'first' : '';
  tr.dataset.site = row.site;
  tr.dataset.config = row.config;
  tr.append(cell(row.site), cell(row.config));
  if (row.error) {
    const why = cell(row.error, 'failed');
    why.colSpan = 15;
    tr.append(why);
  } else {
    tr.append(...[row.nodes, row.gold, row.retrieved, pct(row.recall), pct(row.precision), pct(row.f1),
      pct(row.content_f1), row.loads,
      `${row.cs_size} ${row.cs_kind}${row.weakness ? ` · ${t('benchWeak')}` : ''}`, ms(row.fetch_ms), ms(row.parse_ms), ms(row.snapshot_ms), ms(row.mapping_ms),
      ms(row.total_ms)].map((v) => cell(String(v))));
    const link = Object.assign(document.createElement('a'), { href: row.key_url, textContent: t('benchCheckView'), className: 'check' });
    link.title = `${row.misses} missed and ${row.false_hits} falsely retrieved blocks`;
    link.addEventListener('click', (e) => { e.preventDefault(); openCheckView(row).catch((err) => fail(String(err.message ?? err))); });
    const td = cell('');
    td.append(link);
    tr.append(td);
    // The CS cell says the evidence was weak; its title, why.
    if (row.weakness) tr.cells[10].title = t(`weak_${row.weakness}`);
  }
  $('results').tBodies[0].append(tr);
}

function averageRow(label, config, a) {
  const tr = document.createElement('tr');
  tr.dataset.config = config;
  tr.append(cell(label), cell(config), cell(''), cell(''), cell(''), cell(pct(a.recall)), cell(pct(a.precision)),
    cell(pct(a.f1)), cell(pct(a.content_f1)), cell(a.mean_loads === undefined ? '' : a.mean_loads.toFixed(1)),
    cell(''), cell(''), cell(''), cell(''), cell(''), cell(a.mean_total_ms === undefined ? '' : ms(a.mean_total_ms)),
    cell(a.weak ? `${t('benchSites', a.sites)}, ${t('benchWeakCount', a.weak)}` : t('benchSites', a.sites)));
  return tr;
}

function showAverages(averages, baseline) {
  $('results').tFoot.replaceChildren(
    ...averages.map((a) => averageRow(t('benchMacroAverage'), a.config, a)),
    averageRow(t('benchEverythingTemplate'), '', baseline),
  );
}

/** The everything-is-template row, from the pages the first configuration scored. */
function everythingIsTemplate(rows) {
  const scores = rows.filter((r) => !r.error).map((r) => Object.fromEntries(SCORE_FIELDS.map((f) => [f, r[f]])));
  return wasm_bindgen.everything_is_template_of(JSON.stringify(scores));
}

/** The key page in the check view: same extraction, misses and false hits outlined. */
async function openCheckView(row) {
  const tab = await openLoaded(row.key_url, true);
  const answer = await callCore(tab.id, 'extract', report.configs[row.config]);
  if (!answer?.ok) throw new Error(answer?.error ?? t('errorNoAnswer'));
  const shown = await callCore(tab.id, 'setView', 'check');
  if (!shown?.ok) throw new Error(shown?.error ?? t('errorNoAnswer'));
}

async function run(indexUrl, names) {
  document.body.dataset.state = 'running';
  $('error').hidden = true;
  $('run').disabled = true;
  $('results').tBodies[0].replaceChildren();
  $('results').tFoot.replaceChildren();
  try {
    if (names.length === 0) throw new Error(t('benchChooseConfig'));
    say(t('benchReadingIndex'));
    const index = await readIndex(indexUrl);
    await checkAccess(index.sites);
    const configs = {};
    for (const name of names) configs[name] = await configFor(name);
    report = {
      schema: SCHEMA, set: index.set ?? null, index: indexUrl, started: new Date().toISOString(), finished: null,
      browser: await browserInfo(), build: await buildInfo(), configs, results: [], averages: [], notes: [],
    };
    for (const [i, site] of index.sites.entries()) {
      say(t('benchOpening', site.id, i + 1, index.sites.length));
      let tab = null;
      const loadError = await openLoaded(site.key_url, false).then((t) => { tab = t; return null; }, (e) => String(e.message ?? e));
      try {
        for (const [k, name] of names.entries()) {
          say(t('benchRunning', site.id, i + 1, index.sites.length, name));
          busy = { tabId: tab?.id, label: `${site.id} (${i + 1} of ${index.sites.length}): ${name}` };
          const answer = loadError ? { ok: false, error: loadError }
            : await callCore(tab.id, 'extract', configs[name]).catch((e) => ({ ok: false, error: String(e.message ?? e) }));
          const row = toRow(site, name, answer);
          report.results.push(row);
          addRow(row, k === 0);
        }
      } finally {
        busy = null;
        if (tab) await api.tabs.remove(tab.id).catch(() => {});
      }
    }
    report.averages = names.map((n) => average(n, report.results.filter((r) => r.config === n)));
    report.everything_is_template = everythingIsTemplate(report.results.filter((r) => r.config === names[0]));
    report.finished = new Date().toISOString();
    showAverages(report.averages, report.everything_is_template);
    say(t('benchDone', plural('countSites', index.sites.length), plural('countConfigs', names.length)));
    $('export-csv').disabled = false;
    $('export-json').disabled = false;
    globalThis.texBenchReport = report; // read by build.sh bench and the e2e tests
    document.body.dataset.state = 'done';
  } catch (e) {
    say('');
    fail(String(e.message ?? e));
  } finally {
    $('run').disabled = false;
  }
}

function download(name, type, text) {
  const a = Object.assign(document.createElement('a'), { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

function csv(rows) {
  const quote = (v) => (/[",\n]/.test(String(v ?? '')) ? `"${String(v).replaceAll('"', '""')}"` : String(v ?? ''));
  return [CSV_FIELDS.join(','), ...rows.map((r) => CSV_FIELDS.map((f) => quote(r[f])).join(','))].join('\n') + '\n';
}

const reportName = (ext) => `tex-bench-${report.set ? String(report.set).split('/').pop() : 'set'}.${ext}`;

api.runtime.onMessage.addListener((message, sender) => {
  if (message?.type === 'tex-progress' && busy && sender.tab?.id === busy.tabId && message.phase === 'loading') {
    say(t('benchLoading', busy.label, message.loaded, message.planned));
  }
});

async function main() {
  localize();
  await wasm_bindgen({ module_or_path: 'tex_bg.wasm' });
  const params = new URLSearchParams(location.search);
  const { benchIndex } = await api.storage.local.get('benchIndex');
  $('index').value = params.get('index') ?? benchIndex ?? DEFAULT_INDEX;
  const chosen = params.get('configs')?.split(',').filter(Boolean);
  const boxes = [...document.querySelectorAll('input[name="config"]')];
  if (chosen) for (const box of boxes) box.checked = chosen.includes(box.value);
  $('setup').addEventListener('submit', (e) => {
    e.preventDefault();
    const indexUrl = $('index').value.trim();
    const names = boxes.filter((b) => b.checked).map((b) => b.value);
    let asked;
    try { asked = askAccess(indexUrl); } catch { asked = Promise.resolve(false); }
    asked
      .catch(() => false)
      .then(() => api.storage.local.set({ benchIndex: indexUrl }))
      .then(() => run(indexUrl, names));
  });
  $('export-csv').addEventListener('click', () => download(reportName('csv'), 'text/csv', csv(report.results)));
  $('export-json').addEventListener('click', () => download(reportName('json'), 'application/json', JSON.stringify(report, null, 2)));
  document.body.dataset.ready = 'true';
  // build.sh bench (headless) opens the page with ?run=1 and any preset names in ?configs=.
  if (params.get('run') === '1') await run($('index').value, chosen ?? ['current']);
}

main().catch((e) => fail(String(e?.message ?? e)));
