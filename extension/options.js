// Options: the core's config fields a user tunes, stored in extension
// storage; the core itself supplies the defaults and validates.
'use strict';

const form = document.getElementById('form');
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
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const config = read();
    const problem = wasm_bindgen.config_problem(JSON.stringify(config));
    if (problem) return say(problem, true);
    await api.storage.local.set({ config });
    say('Saved.');
  });
  document.getElementById('reset').addEventListener('click', async () => {
    await api.storage.local.remove('config');
    fill(defaults);
    say('Defaults restored.');
  });
}

main().catch((e) => say(String(e?.message ?? e), true));
