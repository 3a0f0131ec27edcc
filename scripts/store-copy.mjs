// The store package's files: the built extension without the evaluators'
// tool, Check benchmarks (bench.*, the options page's "For evaluators"
// section, and the messages only they use), which needs a benchmark set
// served by ./build.sh serve-bench that no user has. dist/<browser>, the
// unpacked build the tests and evaluators load, keeps it.
// Usage: node scripts/store-copy.mjs BUILT_DIR OUT_DIR
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The evaluators' files, and the options page's section marked for them. */
export const EVALUATOR_FILES = ['bench.html', 'bench.js', 'bench.css'];
const EVALUATOR_SECTION = /[ \t]*<section[^>]*\bdata-evaluators\b[^>]*>[\s\S]*?<\/section>\n?/;

const files = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

export function storeCopy(built, out) {
  rmSync(out, { recursive: true, force: true });
  cpSync(built, out, { recursive: true });
  const removed = EVALUATOR_FILES.map((f) => readFileSync(join(out, f), 'latin1'));
  for (const f of EVALUATOR_FILES) rmSync(join(out, f));
  const options = join(out, 'options.html');
  const page = readFileSync(options, 'utf8');
  const section = page.match(EVALUATOR_SECTION)?.[0];
  if (!section) throw new Error('options.html has no section marked data-evaluators');
  writeFileSync(options, page.replace(section, ''));
  removed.push(section);
  // A message goes when only the removed parts name it (the wasm core and every script stay searched).
  const locales = join(out, '_locales');
  const catalogues = files(locales).filter((f) => f.endsWith('messages.json'));
  const kept = files(out).filter((f) => relative(locales, f).startsWith('..')).map((f) => readFileSync(f, 'latin1')).join('\n');
  for (const file of catalogues) {
    const messages = JSON.parse(readFileSync(file, 'utf8'));
    for (const key of Object.keys(messages)) {
      if (removed.some((text) => text.includes(key)) && !kept.includes(key)) delete messages[key];
    }
    writeFileSync(file, `${JSON.stringify(messages, null, 1)}\n`);
  }
}

if (process.argv[1] === import.meta.filename) {
  const [built, out] = process.argv.slice(2);
  if (!built || !out) throw new Error('usage: node scripts/store-copy.mjs BUILT_DIR OUT_DIR');
  storeCopy(built, out);
}
