// Turns wasm2js's ES-module output into a classic script defining
// `globalThis.texAsm(imports) -> exports`, loadable by
// scripting.executeScript where a page's CSP forbids compiling WebAssembly.
// Usage: node wasm2js-classic.mjs in.js out.js
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
let src = readFileSync(input, 'utf8');
const imports = [];
src = src.replace(/^import \* as (\S+) from '([^']+)';$/gm, (_, name, module) => {
  imports.push(`const ${name} = imports[${JSON.stringify(module)}];`);
  return '';
});
const exported = [];
src = src.replace(/^export var (\S+) = retasmFunc\.(\S+);$/gm, (_, name, field) => {
  exported.push(`${JSON.stringify(name)}: retasmFunc.${field}`);
  return '';
});
if (!imports.length || !exported.length || /^\s*(import|export) /m.test(src)) {
  throw new Error('wasm2js output has an unexpected shape; update scripts/wasm2js-classic.mjs');
}
// A grown memory gets a new ArrayBuffer; detaching the old one tells
// wasm-bindgen's glue (which checks byteLength === 0) to refresh its views.
const grow = '   newHEAP8.set(HEAP8);\n';
if (!src.includes(grow)) throw new Error('wasm2js memory growth has an unexpected shape');
src = src.replace(grow, grow + '   structuredClone(buffer, { transfer: [buffer] });\n');
writeFileSync(output, `globalThis.texAsm = function (imports) {\n${imports.join('\n')}\n${src}\nreturn { ${exported.join(', ')} };\n};\n`);
