// Options: the core's config fields a user tunes, stored in extension
// storage; the core itself supplies the defaults and validates. Also where
// Check benchmarks finds the index of a served set.
'use strict';

const form = document.getElementById('form');
const benchIndex = document.getElementById('bench-index');
const message = document.getElementById('message');
const get = (obj, path) => path.split('.').reduce((o, k) => o?.[k], obj);

function fill(config) {
  for (const field of form.elements) {
    if (!field.name) continue;
    const v = get(config, field.name);
    if (v !== undefined) field.value = String(v);
  }
}

function read() {
  const config = { equality: {} };
  for (const field of form.elements) {
    if (!field.name) continue;
    const value = field.type === 'number' ? Number(field.value) : field.value;
    const [a, b] = field.name.split('.');
    if (b) config[a][b] = value; else config[a] = value;
  }
  return config;
}

function say(text, isError = false) {
  message.textContent = text;
  message.className = isError ? 'error' : '';
}

async function main() {
  await wasm_bindgen({ module_or_path: 'tex_bg.wasm' });
  const defaults = JSON.parse(wasm_bindgen.default_config());
  const stored = await storedConfig();
  fill({ ...defaults, ...stored, equality: { ...defaults.equality, ...stored.equality } });
  benchIndex.value = (await api.storage.local.get('benchIndex')).benchIndex ?? '';
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const config = read();
    const problem = wasm_bindgen.config_problem(JSON.stringify(config));
    if (problem) return say(problem, true);
    if (benchIndex.value && !benchIndex.checkValidity()) return say('The index of the benchmark set must be a URL.', true);
    await api.storage.local.set({ config });
    const index = benchIndex.value.trim();
    await (index ? api.storage.local.set({ benchIndex: index }) : api.storage.local.remove('benchIndex'));
    say('Saved.');
  });
  document.getElementById('reset').addEventListener('click', async () => {
    await api.storage.local.remove(['config', 'benchIndex']);
    fill(defaults);
    benchIndex.value = '';
    say('Defaults restored.');
  });
  document.body.dataset.ready = 'true';
}

main().catch((e) => say(String(e?.message ?? e), true));
