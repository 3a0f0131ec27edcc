// ESLint 9 flat config. The extension's files are classic scripts that share
// one global scope per page (runner.js defines what popup.js, options.js,
// bench.js and background.js call); build scripts and e2e tests are Node ES
// modules, whose functions handed to page.evaluate or WebDriver run in the
// page or the extension, so browser globals are in scope there too.
import js from '@eslint/js';
import globals from 'globals';

/** Defined by runner.js, i18n.js (texI18n), tex.js (the wasm-bindgen glue) and options.js (coreReady) for the scripts loaded after them. */
const shared = Object.fromEntries(
  ['api', 'CORE_FILES', 'DEFAULT_MAX_LOADS', 'storedConfig', 'inTab', 'ensureCore', 'callCore', 'texI18n', 'wasm_bindgen', 'coreReady'].map((name) => [name, 'readonly']),
);

export default [
  // The single-page-app fixture's build output, and its source (built by its own Vite toolchain, not by CI).
  { ignores: ['dist/', 'target/', 'test-artifacts/', 'tests/e2e/fixtures/spa/', 'tests/e2e/fixtures/spa-src/'] },
  js.configs.recommended,
  {
    files: ['extension/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'script',
      globals: { ...globals.browser, ...globals.serviceworker, ...globals.webextensions, ...shared },
    },
    rules: {
      // Top-level declarations are the shared scope itself, used by the next script.
      'no-unused-vars': ['error', { vars: 'local', argsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-redeclare': ['error', { builtinGlobals: false }],
    },
  },
  {
    // Fixture sites' own scripts: classic scripts of a web page.
    files: ['tests/e2e/fixtures/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'script', globals: globals.browser },
  },
  {
    files: ['scripts/**/*.mjs', 'tests/e2e/**/*.mjs', 'eslint.config.mjs'],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      // startInTab: background.js's entry point, called inside the service worker; the
      // extension's shared globals and popup.js's `tab`, `targetTab` and `fullReport` for functions evaluated in the popup.
      globals: { ...globals.node, ...globals.browser, ...globals.webextensions, ...shared, startInTab: 'readonly', tab: 'readonly', targetTab: 'readonly', fullReport: 'readonly' },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The fixture sites' own scripts: classic scripts of a web page.
    files: ['tests/e2e/fixtures/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'script', globals: globals.browser },
  },
];
