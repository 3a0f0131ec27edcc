// Bundles wasm2js's ES-module output with esbuild into a classic script
// defining `globalThis.texAsm(imports) -> exports`, loadable by
// scripting.executeScript where a page's CSP forbids compiling WebAssembly.
// The memory's data segments (base64 strings) go to a script of their own,
// run first (`globalThis.texAsmData`): addons-linter, and so AMO's review,
// refuses to parse a script above 5 MiB, and the code alone was at the limit.
// Usage: node wasm2js-classic.mjs in.mjs out.js   (writes out.js and out_data.js)
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { build } from 'esbuild';

const [input, output] = process.argv.slice(2);

/**
 * wasm2js grows memory by copying it into a new ArrayBuffer, but
 * wasm-bindgen's glue only refreshes its views when the old buffer is
 * detached (byteLength 0). So every call across the boundary first detaches
 * a buffer that growth has replaced.
 */
const GROW_GUARD = `
let memory = null;
let seen = null;
function sync() {
  if (memory && memory.buffer !== seen) {
    if (seen) structuredClone(seen, { transfer: [seen] });
    seen = memory.buffer;
  }
}
export function watch(m) { memory = m; seen = m.buffer; }
export function guarded(functions) {
  const wrap = (f) => function (...args) { sync(); try { return f.apply(this, args); } finally { sync(); } };
  return Object.fromEntries(Object.entries(functions).map(([k, v]) => [k, typeof v === 'function' ? wrap(v) : v]));
}`;

/** Every import of the wasm2js module is a field of the `texAsmImports` argument. */
const importsFromArgument = {
  name: 'imports-from-argument',
  setup(b) {
    b.onResolve({ filter: /^tex:grow-guard$/ }, (args) => ({ path: args.path, namespace: 'tex' }));
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'import-statement' && args.importer === resolve(input)
        ? { path: args.path, namespace: 'wasm-import' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'tex' }, () => ({ contents: GROW_GUARD, loader: 'js' }));
    b.onLoad({ filter: /.*/, namespace: 'wasm-import' }, (args) => ({
      contents: `module.exports = require('tex:grow-guard').guarded(texAsmImports[${JSON.stringify(args.path)}]);`,
      loader: 'js',
    }));
  },
};

const bundle = await build({
  stdin: {
    contents: `import * as asm from ${JSON.stringify(resolve(input))};
import { guarded, watch } from 'tex:grow-guard';
watch(asm.memory);
export default guarded(asm);`,
    resolveDir: process.cwd(),
  },
  bundle: true,
  format: 'iife',
  globalName: 'texAsmModule',
  // Each call instantiates afresh, as WebAssembly.instantiate would.
  banner: { js: 'globalThis.texAsm = function (texAsmImports) {' },
  footer: { js: 'return texAsmModule.default;\n};' },
  plugins: [importsFromArgument],
  minifyWhitespace: true,
  write: false,
  logLevel: 'warning',
});

/** Base64 string literals this long are data segments; code holds none. */
const DATA = /"[A-Za-z0-9+/=]{4096,}"/g;
const data = [];
const code = bundle.outputFiles[0].text.replace(DATA, (literal) => `texAsmData[${data.push(literal) - 1}]`);
if (data.length === 0) throw new Error('wasm2js output without data segments: has its shape changed?');
/** addons-linter's MAX_FILE_SIZE_TO_PARSE_MB: AMO's review refuses a larger script. */
const PARSE_LIMIT = 5 * 1024 * 1024;
const size = Buffer.byteLength(code);
if (size > PARSE_LIMIT) {
  throw new Error(`the asm.js core is ${size} bytes, above the ${PARSE_LIMIT} addons-linter parses: shrink the core's code`);
}
writeFileSync(output, code);
writeFileSync(output.replace(/\.js$/, '_data.js'), `globalThis.texAsmData=[${data.join(',')}];\n`);
