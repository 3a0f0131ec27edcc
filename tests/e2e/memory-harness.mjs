// Shared by the template-memory e2e tests: the native CLI's verdict for the
// demo site's second page served from memory (`tex extract --memory`), and
// the pages used.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { KEY_PAGE, ROOT, WWW } from './harness.mjs';

/** A page of the demo site with the key page's layout: a remembered cluster serves it. */
export const SECOND_PAGE = '/news/grey-ridge-shelter.html';
/** A third page of that layout, opened after auto-apply is turned on. */
export const THIRD_PAGE = '/trails/index.html';
/**
 * Another article, like SECOND_PAGE: the page a cluster re-learnt on
 * SECOND_PAGE (Extract again) serves. That cluster is the articles' own
 * layout (their article and related-stories frame), which a listing such as
 * THIRD_PAGE lacks.
 */
export const ARTICLE_PAGE = '/news/heron-lake-boardwalk.html';

let cache = null;
/** The CLI learning the key page, then serving SECOND_PAGE from its memory: `{ reused, loads, template_paths, ... }`. */
export function nativeRecall() {
  if (cache) return cache;
  const dir = mkdtempSync(join(tmpdir(), 'tex-memory-cli-'));
  const tex = (page, ...rest) => execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'tex', '--', 'extract', WWW, page.slice(1),
    '--memory', join(dir, 'memory.json'), ...rest], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  tex(KEY_PAGE);
  tex(SECOND_PAGE, '--json', join(dir, 'out.json'), '--paths');
  cache = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
  return cache;
}
