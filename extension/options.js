// Options: a preset first, each with one line saying what it does; the
// method's parameters under Advanced, each with help and checked as typed;
// the core supplies presets and defaults and has the last word on validity.
// Check benchmarks (for evaluators) opens from here.
'use strict';

const { t, sentence, localize } = texI18n;
const $ = (id) => document.getElementById(id);
const form = $('form');
/** The core, loading; the memory section (memory-options.js) awaits it too before export and import. */
const coreReady = wasm_bindgen({ module_or_path: 'tex_bg.wasm' });
const PRESETS = ['default', 'paper', 'intersection', 'rtdm', 'custom'];
const FIELDS = [
  { name: 'cs_size', label: 'opt_cs_size', help: 'help_cs_size', min: 1, max: 20, step: 1 },
  { name: 'votes', label: 'opt_votes', help: 'help_votes', min: 1, max: 19, step: 1 },
  { name: 'max_loads', label: 'opt_max_loads', help: 'help_max_loads', min: 1, max: 200, step: 1 },
  { name: 'timeout_ms', label: 'opt_timeout_ms', help: 'help_timeout_ms', min: 100, max: 120000, step: 100 },
  { name: 'max_nodes', label: 'opt_max_nodes', help: 'help_max_nodes', min: 1000, max: 5000000, step: 1000 },
  { name: 'algorithm', label: 'opt_algorithm', help: 'help_algorithm', options: ['etdm', 'rtdm'] },
  { name: 'equality.w_classes', label: 'opt_w_classes', help: 'help_weights', min: 0, max: 1, step: 0.05 },
  { name: 'equality.w_position', label: 'opt_w_position', help: 'help_weights', min: 0, max: 1, step: 0.05 },
  { name: 'equality.w_attributes', label: 'opt_w_attributes', help: 'help_weights', min: 0, max: 1, step: 0.05 },
  { name: 'equality.w_children', label: 'opt_w_children', help: 'help_weights', min: 0, max: 1, step: 0.05 },
  { name: 'equality.threshold', label: 'opt_threshold', help: 'help_threshold', min: 0, max: 1, step: 0.05 },
];
const get = (obj, path) => path.split('.').reduce((o, k) => o?.[k], obj);
const preset = (name) => JSON.parse(wasm_bindgen.preset_config(name));
/** The configuration the form edits, complete (fields the form does not show included). */
let base = null;

function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

function build() {
  for (const name of PRESETS) {
    const input = el('input', { type: 'radio', name: 'preset', value: name, id: `preset-${name}` });
    input.setAttribute('aria-describedby', `preset-${name}-help`);
    input.addEventListener('change', () => { if (name !== 'custom') { base = preset(name); fill(base); } });
    $('presets').append(el('div', { className: 'preset' }, input,
      el('label', { htmlFor: input.id, textContent: t(`preset_${name}`) }),
      el('span', { className: 'help muted', id: `preset-${name}-help`, textContent: t(`presetHelp_${name}`) })));
  }
  FIELDS.forEach((f, i) => {
    const id = `field-${f.name.replace('.', '-')}`;
    const input = f.options
      ? el('select', { name: f.name, id }, ...f.options.map((o) => el('option', { value: o, textContent: t(`algo_${o}`) })))
      : el('input', { type: 'number', name: f.name, id, min: f.min, max: f.max, step: f.step, required: true });
    // Fields that share a help text (the four weights) show it once, after the last of them.
    input.setAttribute('aria-describedby', `help-${f.help}`);
    input.addEventListener('input', () => { check(f, input); $('preset-custom').checked = true; });
    $('fields').append(el('label', { className: 'field', htmlFor: id, textContent: t(f.label) }), input);
    if (FIELDS[i + 1]?.help !== f.help) $('fields').append(el('p', { className: 'help muted', id: `help-${f.help}`, textContent: t(f.help) }));
  });
}

/** Marks a field out of its range; returns the sentence saying so, or null. */
function check(f, input) {
  if (f.options) return null;
  const v = Number(input.value);
  const bad = input.value.trim() === '' || !Number.isFinite(v) || v < f.min || v > f.max
    || (f.step >= 1 && !Number.isInteger(v));
  input.setAttribute('aria-invalid', String(bad));
  return bad ? t('fieldInvalid', t(f.label), f.min, f.max) : null;
}

function fill(config) {
  for (const f of FIELDS) {
    const input = form.elements[f.name];
    input.value = String(get(config, f.name));
    input.removeAttribute('aria-invalid');
  }
}

/** Which preset `config` is, or 'custom'. */
function presetOf(config) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  return PRESETS.slice(0, -1).find((name) => same(preset(name), config)) ?? 'custom';
}

/** The fields each of the core's configuration reasons is about (keys from src/wasm/failure.rs). */
const FIELDS_OF_REASON = {
  configWeightSum: ['equality.w_classes', 'equality.w_position', 'equality.w_attributes', 'equality.w_children'],
  configVotesOverSize: ['votes', 'cs_size'],
};

function read() {
  const config = structuredClone(base);
  for (const f of FIELDS) {
    const value = f.options ? form.elements[f.name].value : Number(form.elements[f.name].value);
    const [a, b] = f.name.split('.');
    if (b) config[a][b] = value; else config[a] = value;
  }
  return config;
}

function say(text, isError = false) {
  $('message').textContent = text;
  $('message').className = isError ? 'error' : '';
}

async function main() {
  localize();
  await coreReady;
  build();
  const defaults = preset('default');
  const stored = await storedConfig();
  base = { ...defaults, ...stored, equality: { ...defaults.equality, ...stored.equality }, content: { ...defaults.content, ...stored.content } };
  fill(base);
  $(`preset-${presetOf(base)}`).checked = true;
  // The store package leaves out the evaluators' section (scripts/store-copy.mjs).
  const benchIndex = $('bench-index');
  if (benchIndex) benchIndex.value = (await api.storage.local.get('benchIndex')).benchIndex ?? '';
  const saveIndex = async () => {
    if (!benchIndex) return true;
    const index = benchIndex.value.trim();
    if (index && !benchIndex.checkValidity()) return say(t('benchIndexInvalid'), true);
    await (index ? api.storage.local.set({ benchIndex: index }) : api.storage.local.remove('benchIndex'));
    return true;
  };
  // A changed preset or field is kept only by Save: say so at once, and ask before the page closes.
  let unsaved = false;
  const isSetting = (target) => target.name === 'preset' || FIELDS.some((f) => f.name === target.name);
  form.addEventListener('change', (e) => {
    if (!isSetting(e.target)) return;
    unsaved = true;
    say(t('unsaved'));
  });
  addEventListener('beforeunload', (e) => { if (unsaved) e.preventDefault(); });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    for (const f of FIELDS) {
      const problem = check(f, form.elements[f.name]);
      if (problem) {
        $('advanced').open = true;
        form.elements[f.name].focus();
        return say(problem, true);
      }
    }
    const config = read();
    const failure = wasm_bindgen.config_failure(JSON.stringify(config));
    for (const f of FIELDS) form.elements[f.name].removeAttribute('aria-invalid');
    if (failure) {
      // The fields the core's reason names are marked, and the first one takes focus.
      const names = FIELDS_OF_REASON[failure.args?.[0]?.key] ?? [];
      for (const name of names) form.elements[name].setAttribute('aria-invalid', 'true');
      if (names.length) {
        $('advanced').open = true;
        form.elements[names[0]].focus();
      }
      return say(sentence(failure), true);
    }
    if (!(await saveIndex())) return;
    await api.storage.local.set({ config });
    base = config;
    unsaved = false;
    say(t('saved'));
  });
  $('reset').addEventListener('click', async () => {
    await api.storage.local.remove(['config', 'benchIndex']);
    if (benchIndex) benchIndex.value = '';
    base = defaults;
    fill(defaults);
    $('preset-default').checked = true;
    unsaved = false;
    say(t('defaultsRestored'));
  });
  benchIndex?.addEventListener('change', saveIndex);
  $('bench')?.addEventListener('click', async () => {
    if (await saveIndex()) api.tabs.create({ url: api.runtime.getURL('bench.html') });
  });
  document.body.dataset.ready = 'true';
}

main().catch((e) => say(String(e?.message ?? e), true));
