// The popup only displays what the page's content script holds (idle,
// running with progress, done with the result, or one error sentence) and
// sends it the user's choices: Extract, Cancel, a view, Save. Closing and
// reopening it therefore loses nothing. Glue only: the core does the work.
'use strict';

const $ = (id) => document.getElementById(id);
const { t, plural, sentence, localize, duration, number, percent } = texI18n;
const { texMemory } = globalThis;
let tab = null;
let polling = null;
// True while this popup awaits its own Extract: the answer brings the result, so nothing polls.
let waiting = false;
/** This popup's last Extract, until the page has started it: a Cancel must not overtake it. */
let begun = null;

function show(id, visible) { $(id).hidden = !visible; }

function fail(text) {
  $('status').textContent = '';
  $('error').textContent = text;
  show('error', true);
}

function showView(view) {
  $('view').dataset.view = view ?? '';
  for (const b of $('view').querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.viewButton === view));
}

function progressText(p) {
  if (p?.phase === 'loading') return t('progressLoading', p.loaded, p.planned);
  return p?.phase === 'comparing' ? t('progressComparing', p.loaded) : t('progressReading');
}

/** The Details row of reading this page: a page unchanged since an earlier click is not read again. */
const keySnapshotRow = (s) => [s.key_snapshot_kept ? 'timingKeySnapshotKept' : 'timingKeySnapshot', s.key_snapshot_ms];

const totalMs = (s) => (s.memory ? s.memory.read_ms + s.memory.match_ms : s.timings.total_ms) + s.key_snapshot_ms;

/** A result recalled from the site's memory: no pages compared, so Details says what served it. */
function showRecalled(s, pct) {
  $('compared').textContent = t('resultFromMemory');
  show('caution', false);
  show('weak', false);
  show('again', true);
  show('cs-pages-block', false);
  show('key-source', false);
  $('counts').textContent = t('detailsCounts', s.template_nodes, s.total_nodes, number(pct, 1));
  $('loads').textContent = t('detailsMemory', s.memory.learnt_from, number(100 * s.memory.similarity, 0), s.engine ?? 'wasm');
  const rows = [['timingMemoryRead', s.memory.read_ms], keySnapshotRow(s),
    ['timingMemoryMatch', s.memory.match_ms], ['timingTotal', totalMs(s)]];
  $('timings').tBodies[0].replaceChildren(...rows.map(timingRow));
  show('summary', true);
}

function timingRow([key, v]) {
  const tr = document.createElement('tr');
  const th = Object.assign(document.createElement('th'), { scope: 'row', textContent: t(key) });
  tr.append(th, Object.assign(document.createElement('td'), { textContent: t('milliseconds', number(v, 1)) }));
  return tr;
}

/**
 * The pages the result was compared with: the subdigraph's pages but the
 * current page itself, which a site's menu may link to (the page is then its
 * own candidate, and compared with nothing new).
 */
function otherPages(s) {
  const withoutFragment = (u) => { const x = new URL(u); x.hash = ''; return x.href; };
  const key = withoutFragment(s.key_url);
  return s.cs.pages.filter((u) => withoutFragment(u) !== key);
}

/** Details' line on the key page: compared as served (and what scripts added), or as shown and why. */
function keySourceText(s) {
  const k = s.key_source;
  if (!k) return '';
  if (k.path === 'served') return k.added_by_scripts ? t('detailsServed', k.added_by_scripts, k.added_in_template) : t('detailsServedSame');
  const why = k.fallback?.kind === 'load_failed' ? t('fallbackLoadFailed', sentence(s.key_fallback_reason))
    : k.fallback?.kind === 'unlike' ? t('fallbackUnlike', number(100 * k.live_share, 0)) : t('fallbackNoServedLinks');
  return t('detailsLiveFallback', why);
}

function showSummary(s) {
  const pct = s.total_nodes ? (100 * s.template_nodes) / s.total_nodes : 0;
  // With no page to vote there is no template found, only the page.
  $('plain').textContent = s.evidence?.weakness === 'no_voters' ? t('resultNoTemplate') : t('resultFound', percent(pct));
  if (s.memory) return showRecalled(s, pct);
  show('again', false);
  show('cs-pages-block', true);
  const others = otherPages(s);
  $('compared').textContent = s.visited ? plural('resultVisited', s.visited.used) : plural('resultCompared', others.length);
  show('caution', s.cs.kind !== 'complete');
  // Weak evidence is said in one sentence, never shown as a plain success.
  const weakness = s.evidence?.weakness;
  $('weak').textContent = weakness ? t(`weak_${weakness}`) : '';
  show('weak', Boolean(weakness));
  $('counts').textContent = t('detailsCounts', s.template_nodes, s.total_nodes, number(pct, 1));
  $('cs-kind').textContent = t('detailsCs', s.cs.size, t(`csKind_${s.cs.kind}`), s.votes_needed);
  $('cs-pages').replaceChildren(...others.map((url) => {
    const a = Object.assign(document.createElement('a'), { href: url, target: '_blank', textContent: url });
    const li = document.createElement('li');
    li.append(a);
    return li;
  }));
  $('loads').textContent = t('detailsLoads', s.loads, s.fetched, s.engine ?? 'wasm');
  $('key-source').textContent = keySourceText(s);
  show('key-source', Boolean(s.key_source));
  const tm = s.timings;
  const rows = [
    keySnapshotRow(s), ['timingFetch', tm.fetch_ms], ['timingParse', tm.parse_ms],
    ['timingSnapshot', tm.snapshot_ms - s.key_snapshot_ms], ['timingLinkOrder', tm.link_order_ms],
    ['timingCsSearch', tm.cs_search_ms], ['timingMapping', tm.mapping_ms], ['timingTotal', totalMs(s)],
  ];
  $('timings').tBodies[0].replaceChildren(...rows.map(timingRow));
  show('summary', true);
}

/** The tab to work on: the active one, or ?tab=ID / ?url=URL when the popup is opened as a page. */
async function targetTab() {
  const params = new URLSearchParams(location.search);
  if (params.has('tab')) return api.tabs.get(Number(params.get('tab')));
  if (params.has('url')) {
    const tabs = await api.tabs.query({});
    return tabs.find((x) => x.url === params.get('url')) ?? null;
  }
  const [active] = await api.tabs.query({ active: true, currentWindow: true });
  return active ?? null;
}

/** Why this tab cannot be analysed, known before any click; null when it can (or its URL is unknown). */
function restricted() {
  if (!tab) return t('errorNoTab');
  return tab.url && !/^https?:/.test(tab.url) ? t('errorRestricted', tab.url) : null;
}

/** Runs `method` in the tab; returns its value or shows its sentence and returns undefined. */
async function run(method, ...args) {
  const problem = restricted();
  if (problem) return fail(problem);
  let answer;
  try {
    answer = await callCore(tab.id, method, ...args);
  } catch (e) {
    return fail(t('errorInjection', e?.message ?? e));
  }
  if (!answer?.ok) return fail(sentence(answer?.error ?? t('errorNoAnswer')));
  return answer.value;
}

/** Shows the page's extraction state; while it runs, polls unless this popup awaits its own Extract. */
async function display(state) {
  const running = state.status === 'running';
  // Focus must not drop to <body> when Cancel disappears.
  if (!running && document.activeElement === $('cancel')) $('extract').focus();
  show('cancel', running);
  // Not `disabled`: a disabled button drops keyboard focus to <body>.
  $('extract').setAttribute('aria-disabled', String(running));
  show('intro', state.status === 'idle');
  if (running) {
    show('error', false);
    show('summary', false);
    $('status').textContent = progressText(state.progress);
    if (waiting) return;
    polling ??= setTimeout(async () => {
      polling = null;
      const next = await run('state', false);
      if (next) display(next);
    }, 250);
    return;
  }
  if (state.status === 'error') {
    show('summary', false);
    fail(state.error);
  } else if (state.status === 'done') {
    show('error', false);
    showSummary(state.summary);
    // The time is said here once; screen readers hear the result with it,
    // since the status is the live region and the result appears silently.
    const heard = Object.assign(document.createElement('span'), { className: 'sr-only',
      textContent: ` ${$('plain').textContent} ${$('compared').textContent}` });
    $('status').replaceChildren(t('statusDone', duration(totalMs(state.summary))), heard);
    showView(state.view);
    await showAuto();
  }
}

/** The page's whole report of the last extraction (read by the demo, the benchmarks and the e2e tests). */
async function fullReport() {
  return (await run('state', true))?.report ?? null;
}

/** `mode` 'use': a remembered template of the site if the page fits one; 'relearn': Extract again. */
async function extract(mode = 'use') {
  if ($('extract').getAttribute('aria-disabled') === 'true') return;
  // Hidden at once, so nobody reads the previous result as this one's.
  show('error', false);
  show('summary', false);
  // Started, then awaited: a Cancel clicked meanwhile is sent once the page has the extraction to
  // cancel (progress arrives as messages meanwhile).
  waiting = true;
  display({ status: 'running', progress: null });
  begun = storedConfig().then((config) => run('begin', config, mode));
  const summary = (await begun) === undefined ? undefined : await run('ended');
  waiting = false;
  await display(summary ? { status: 'done', summary, view: 'original' } : { status: 'idle' });
}

const origin = () => new URL(tab.url).origin;

/** The auto-apply switch, as stored for this site. */
async function showAuto() {
  $('auto').checked = Boolean((await texMemory.autoSites())[origin()]);
}

/** The view auto-apply shows: the one on screen, or the template view. */
const autoView = () => (['template', 'content'].includes($('view').dataset.view) ? $('view').dataset.view : 'content');

/** Asks for this site's permission only (first thing in the click, as browsers require), then registers. */
async function toggleAuto() {
  try {
    if (!$('auto').checked) {
      await texMemory.disableAuto(origin());
      $('status').textContent = t('autoOff');
    } else if (!(await texMemory.enabled())) {
      // Auto-apply only shows remembered templates: with none kept it would do nothing.
      $('auto').checked = false;
      fail(t('autoNeedsMemory'));
    } else if (await texMemory.enableAuto(origin(), autoView())) {
      $('status').textContent = t('autoOn', t(`view_${autoView()}`));
    } else {
      $('auto').checked = false;
      fail(t('autoRefused'));
    }
  } catch (e) {
    $('auto').checked = false;
    fail(t('errorPlain', String(e?.message ?? e)));
  }
}

/** The "Learn from pages I visit" switch, as stored for this site. */
async function showLearn() {
  $('learn').checked = Boolean((await texMemory.learnSites())[origin()]);
  show('learn-switch', true);
}

/** As auto-apply: this site's permission first, then the registration; the open page starts learning at once. */
async function toggleLearn() {
  try {
    if (!$('learn').checked) {
      await texMemory.disableLearn(origin());
      $('status').textContent = t('learnOff');
    } else if (await texMemory.enableLearn(origin())) {
      if ((await run('learnRoutes')) === undefined) return;
      $('status').textContent = t('learnOn');
    } else {
      $('learn').checked = false;
      fail(t('learnRefused'));
    }
  } catch (e) {
    $('learn').checked = false;
    fail(t('errorPlain', String(e?.message ?? e)));
  }
}

async function chooseView(view) {
  // A view of a very large page takes seconds to draw: say so meanwhile.
  const said = [...$('status').childNodes];
  $('view').setAttribute('aria-busy', 'true');
  $('status').textContent = t('viewSwitching', t(`view_${view}`));
  const shown = await run('setView', view);
  $('view').removeAttribute('aria-busy');
  if (!shown) return;
  $('status').replaceChildren(...said);
  showView(shown);
  if ($('auto').checked && shown !== 'original') await texMemory.setAuto(origin(), shown);
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
  $('status').textContent = t('statusSaved', a.download);
}

api.runtime.onMessage.addListener((message, sender) => {
  if (sender.tab?.id !== tab?.id) return;
  if (message?.type === 'tex-progress') $('status').textContent = progressText(message);
  // The first word of a run that lasted long enough to show progress (content.js, PROGRESS_DELAY_MS).
  if (message?.type === 'tex-state' && message.status === 'running') $('status').textContent = progressText(message.progress);
  if (message?.type === 'tex-state' && message.status !== 'running' && !waiting) run('state', false).then((s) => s && display(s));
});

async function main() {
  localize();
  tab = await targetTab();
  $('extract').addEventListener('click', () => extract('use'));
  $('again').addEventListener('click', () => extract('relearn'));
  $('auto').addEventListener('change', toggleAuto);
  $('learn').addEventListener('change', toggleLearn);
  $('cancel').addEventListener('click', async () => {
    await begun;
    run('cancel');
  });
  for (const b of $('view').querySelectorAll('button')) b.addEventListener('click', () => chooseView(b.dataset.viewButton));
  $('save').addEventListener('click', save);
  $('intro').textContent = plural('intro', (await storedConfig()).max_loads ?? DEFAULT_MAX_LOADS);
  const problem = restricted();
  if (problem) {
    // Nothing went wrong: this page is simply out of reach, so Extract looks
    // unavailable and the sentence reads as a note, not as an alarm.
    show('intro', false);
    fail(problem);
    $('error').classList.add('expected');
    $('extract').setAttribute('aria-disabled', 'true');
  } else {
    await showLearn();
    // Only pages the core already runs in have a state; injecting here would need a click first.
    const loaded = await api.scripting.executeScript({ target: { tabId: tab.id }, func: () => Boolean(globalThis.texCore) })
      .then(([r]) => r?.result, () => false);
    if (loaded) await display(await run('state', false) ?? { status: 'idle' });
  }
  document.body.dataset.ready = 'true';
}

main().catch((e) => fail(String(e?.message ?? e)));
