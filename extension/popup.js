// The popup, successor of the thesis's Firefox toolbar: buttons, progress,
// the summary and errors as one sentence. Glue only: the core does the work.
'use strict';

const $ = (id) => document.getElementById(id);
const VIEW_LABELS = { original: 'Original page', template: 'Template only', content: 'Content only' };
let tab = null;

function show(id, visible) { $(id).hidden = !visible; }

function fail(sentence) {
  $('status').textContent = '';
  $('error').textContent = sentence;
  show('error', true);
}

function showView(view) {
  $('view').textContent = view ? `View: ${VIEW_LABELS[view] ?? view}` : '';
  $('view').dataset.view = view ?? '';
  show('view', Boolean(view));
  $('toggle').disabled = !view;
  $('save').disabled = !view;
}

const ms = (v) => `${v.toFixed(1)} ms`;

function showSummary(r) {
  const pct = r.total_nodes ? (100 * r.template_nodes / r.total_nodes).toFixed(1) : '0';
  $('counts').textContent = `Template: ${r.template_nodes} of ${r.total_nodes} nodes (${pct} %).`;
  $('cs-kind').textContent = `${r.cs.size}-page ${r.cs.kind.replace('_', ' ')} subdigraph, ${r.votes_needed} votes needed`;
  const list = $('cs-pages');
  list.replaceChildren(...r.cs.pages.map((url) => {
    const li = document.createElement('li');
    const a = Object.assign(document.createElement('a'), { href: url, target: '_blank', textContent: url });
    li.append(a);
    return li;
  }));
  $('loads').textContent = `Loads: ${r.loads} (key page included), ${r.fetched} fetched; core: ${r.engine ?? 'wasm'}.`;
  const t = r.timings;
  const rows = [
    ['Snapshot of this page', r.key_snapshot_ms],
    ['Fetch (sum over pages)', t.fetch_ms],
    ['Parse (sum)', t.parse_ms],
    ['Snapshot of fetched pages (sum)', t.snapshot_ms - r.key_snapshot_ms],
    ['Link order', t.link_order_ms],
    ['CS search (wall, loads included)', t.cs_search_ms],
    ['Mapping and votes', t.mapping_ms],
    ['Total', t.total_ms + r.key_snapshot_ms],
  ];
  $('timings').tBodies[0].replaceChildren(...rows.map(([name, v]) => {
    const tr = document.createElement('tr');
    tr.append(Object.assign(document.createElement('td'), { textContent: name }),
      Object.assign(document.createElement('td'), { textContent: ms(v) }));
    return tr;
  }));
  show('summary', true);
}

/** The tab to work on: the active one, or ?tab=ID / ?url=URL when the popup is opened as a page. */
async function targetTab() {
  const params = new URLSearchParams(location.search);
  if (params.has('tab')) return api.tabs.get(Number(params.get('tab')));
  if (params.has('url')) {
    const tabs = await api.tabs.query({});
    return tabs.find((t) => t.url === params.get('url')) ?? null;
  }
  const [active] = await api.tabs.query({ active: true, currentWindow: true });
  return active ?? null;
}

/** Runs `method` in the tab; returns its value or shows its sentence and returns undefined. */
async function run(method, ...args) {
  show('error', false);
  if (!tab) return fail('There is no page to analyse in this window.');
  // Without a URL (no access granted) the injection below fails with its own sentence.
  const restricted = tab.url ? wasm_bindgen.restricted_reason(tab.url) : null;
  if (restricted) return fail(restricted);
  let answer;
  try {
    answer = await callCore(tab.id, method, ...args);
  } catch (e) {
    return fail(`The browser does not let extensions run on this page (${e.message ?? e}).`);
  }
  if (!answer?.ok) return fail(answer?.error ?? 'The page did not answer.');
  return answer.value;
}

async function extract() {
  $('extract').disabled = true;
  show('summary', false);
  $('status').textContent = 'Reading the page…';
  try {
    const report = await run('extract', await storedConfig());
    if (!report) return;
    $('status').textContent = `Done in ${ms(report.timings.total_ms + report.key_snapshot_ms)}.`;
    showSummary(report);
    showView('original');
    globalThis.lastReport = report; // read by the demo and the e2e tests
    await api.storage.session?.set({ [`report:${tab.id}`]: report });
  } finally {
    $('extract').disabled = false;
  }
}

async function toggle() {
  const view = await run('toggleView');
  if (view) showView(view);
}

async function save() {
  const html = await run('templateHtml');
  if (!html) return;
  const host = new URL(tab.url).hostname.replace(/[^a-z0-9.-]/gi, '_');
  const a = Object.assign(document.createElement('a'), {
    href: URL.createObjectURL(new Blob([html], { type: 'text/html' })),
    download: `template-${host}.html`,
  });
  document.body.append(a);
  a.click();
  a.remove();
  $('status').textContent = `Saved ${a.download}.`;
}

api.runtime.onMessage.addListener((message, sender) => {
  if (message?.type !== 'tex-progress' || sender.tab?.id !== tab?.id) return;
  $('status').textContent = message.phase === 'loading'
    ? `Loading linked pages: ${message.loaded} / ${message.planned}`
    : 'Reading the page…';
});

async function main() {
  await wasm_bindgen({ module_or_path: 'tex_bg.wasm' });
  tab = await targetTab();
  $('extract').addEventListener('click', extract);
  $('toggle').addEventListener('click', toggle);
  $('save').addEventListener('click', save);
  $('bench').addEventListener('click', () => api.tabs.create({ url: api.runtime.getURL('bench.html') }));
  if (!tab) return fail('There is no page to analyse in this window.');
  const stored = (await api.storage.session?.get(`report:${tab.id}`))?.[`report:${tab.id}`];
  if (stored && stored.key_url === tab.url) {
    showSummary(stored);
    const view = await callCore(tab.id, 'currentView').catch(() => null);
    showView(view?.ok ? view.value : null);
  }
  document.body.dataset.ready = 'true';
}

main().catch((e) => fail(String(e?.message ?? e)));
