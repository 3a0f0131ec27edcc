// The options page's "Remembered sites": the switch for template memory, the
// remembered origins (layouts, date; forget one or all), export to a JSON file
// and import from one (checked whole by the core: a bad file changes nothing),
// and the sites whose template is applied automatically (stop one).
'use strict';

(() => {
  const { t, plural, sentence } = texI18n;
  const $ = (id) => document.getElementById(id);
  const store = globalThis.texMemory;

  function say(text, isError = false) {
    $('memory-message').textContent = text;
    $('memory-message').className = isError ? 'error' : '';
  }

  function row(label, buttonText, buttonLabel, onClick) {
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: buttonText });
    button.setAttribute('aria-label', buttonLabel);
    button.addEventListener('click', onClick);
    const li = document.createElement('li');
    li.append(Object.assign(document.createElement('span'), { textContent: label }), button);
    return li;
  }

  async function render() {
    const sites = await store.list();
    const date = (ms) => new Date(ms).toLocaleDateString(t('lang'), { dateStyle: 'medium' });
    $('memory-sites').replaceChildren(...sites.map((s) => row(t('memorySite', s.origin, plural('countLayouts', s.clusters), date(s.updated)),
      t('memoryForget'), t('memoryForgetLabel', s.origin), async () => {
        await store.forget(s.origin);
        say(t('memoryForgotten', s.origin));
      })));
    $('memory-empty').hidden = sites.length > 0;
    const auto = Object.entries(await store.autoSites());
    $('auto-sites').replaceChildren(...auto.map(([origin, view]) => row(t('autoSite', origin, t(`view_${view}`)),
      t('autoStop'), t('autoStopLabel', origin), async () => {
        await store.disableAuto(origin);
        say(t('autoStopped', origin));
      })));
    $('auto-empty').hidden = auto.length > 0;
    $('memory').dataset.ready = 'true';
  }

  async function exportAll() {
    await coreReady;
    const sites = await store.list();
    if (!sites.length) return say(t('memoryEmpty'), true);
    const json = wasm_bindgen.memory_export(sites.map((s) => s.memory));
    const a = Object.assign(document.createElement('a'), {
      href: URL.createObjectURL(new Blob([json], { type: 'application/json' })),
      download: 'template-memory.json',
    });
    document.body.append(a);
    a.click();
    a.remove();
    return say(t('memoryExported', sites.length, a.download));
  }

  async function importFile() {
    const file = $('memory-import').files[0];
    if (!file) return;
    try {
      await coreReady;
      const sites = wasm_bindgen.memory_import(await file.text());
      await store.write(sites);
      say(t('memoryImported', sites.length));
    } catch (e) {
      say(sentence(e), true);
    } finally {
      $('memory-import').value = '';
    }
  }

  async function main() {
    $('remember').checked = await store.enabled();
    $('remember').addEventListener('change', () => store.setEnabled($('remember').checked));
    $('memory-export').addEventListener('click', exportAll);
    // Forgetting every site cannot be undone: the first click says what a second one does.
    let armed = false;
    $('memory-clear').addEventListener('blur', () => { armed = false; });
    $('memory-clear').addEventListener('click', async () => {
      if (!armed) {
        armed = true;
        return say(plural('memoryClearConfirm', (await store.list()).length));
      }
      armed = false;
      await store.clear();
      say(t('memoryCleared'));
    });
    $('memory-import').addEventListener('change', importFile);
    (globalThis.browser ?? globalThis.chrome).storage.onChanged.addListener(() => render());
    await render();
  }

  main().catch((e) => say(String(e?.message ?? e), true));
})();
