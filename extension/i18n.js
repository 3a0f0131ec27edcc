// Translations: every sentence the user reads comes from _locales through
// browser.i18n, the core's failures included (their key and arguments come
// from src/wasm/failure.rs). Loaded by the popup, the options and results
// pages, the background and the content script.
'use strict';

globalThis.texI18n ??= (() => {
  const api = globalThis.browser ?? globalThis.chrome;

  /**
   * The message `key` with `args` in place of $1…$9; the key itself if
   * unknown. Number arguments are written in the UI language's notation.
   */
  function t(key, ...args) {
    return api.i18n.getMessage(key, args.map((a) => (typeof a === 'number' ? number(a) : String(a)))) || key;
  }

  /**
   * An argument of a core sentence: the core writes numbers as Rust does
   * ("1.400", "10000"), which a Spanish reader would take for fourteen
   * hundred; they are rewritten in the UI language's notation with the
   * decimals the core chose.
   */
  function coreArg(a) {
    const decimal = /^-?\d+(?:\.(\d+))?$/.exec(a);
    return decimal ? number(Number(a), decimal[1]?.length ?? 0) : a;
  }

  /** A failure `{message, key, args}` (args may nest) or a plain string, in the UI language. */
  function sentence(failure) {
    if (typeof failure === 'string') return failure;
    if (!failure || typeof failure !== 'object') return String(failure);
    if (!failure.key) return String(failure.message ?? failure);
    const args = (failure.args ?? []).map((a) => (typeof a === 'object' ? sentence(a) : coreArg(String(a))));
    return api.i18n.getMessage(failure.key, args) || failure.message;
  }

  /** Fills `data-i18n` (text) and `data-i18n-<attr>` (attributes) of `root`, and the page's lang. */
  function localize(root = document) {
    if (root === document) document.documentElement.lang = t('lang');
    for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
    for (const el of root.querySelectorAll('*')) {
      for (const { name, value } of [...el.attributes]) {
        if (name.startsWith('data-i18n-')) el.setAttribute(name.slice('data-i18n-'.length), t(value));
      }
    }
  }

  const pluralRules = new Map();

  /**
   * The message `key_<category>` for the count `n` ($1, in the UI language's
   * notation) and `args` ($2…), where the category is what the language's
   * plural rules (`Intl.PluralRules`) say for `n`: "1 other page" but
   * "2 other pages", as each language counts.
   */
  function plural(key, n, ...args) {
    const lang = api.i18n.getMessage('lang') || 'en';
    if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
    const category = pluralRules.get(lang).select(n);
    const values = [number(n), ...args.map(String)];
    return api.i18n.getMessage(`${key}_${category}`, values) || api.i18n.getMessage(`${key}_other`, values) || key;
  }

  /**
   * A share in percent as a person reads it: whole numbers, but a share
   * under 1 % is never "0" (a large page's small template is still found).
   */
  function percent(x) {
    if (x >= 1 || x === 0) return number(Math.round(x), 0);
    return x >= 0.1 ? number(x, 1) : t('underPercent', number(0.1, 1));
  }

  /** Milliseconds as a short duration a person reads ("0.4 s", "850 ms"). */
  function duration(ms) {
    return ms >= 1000 ? t('seconds', number(ms / 1000, 1)) : t('milliseconds', number(ms, 0));
  }

  // One formatter per number of decimals: building one costs more than formatting.
  const formats = new Map();

  /** A number with `digits` decimals (up to 3 when not given) in the UI language's notation. */
  function number(x, digits) {
    const key = digits ?? -1;
    if (!formats.has(key)) {
      const lang = api.i18n.getMessage('lang') || 'en';
      formats.set(key, new Intl.NumberFormat(lang, { minimumFractionDigits: digits ?? 0, maximumFractionDigits: digits ?? 3 }));
    }
    return formats.get(key).format(x);
  }

  return { t, plural, sentence, localize, duration, number, percent };
})();
