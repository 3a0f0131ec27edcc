// A "redeploy" of the demo site as a CSS-modules build makes it: every class
// `nav` becomes `Nav_nav__<hash>`, the hash changing with each deploy while
// the pages stay the same. Written into one folder, so the same server (the
// same origin, the same template memory) serves one deploy after the other.
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `class` as CSS modules name it in deploy `deploy`: `[Name]_[class]__[hash:5]`. */
export function moduleClass(name, deploy) {
  const hash = createHash('sha1').update(`${deploy}:${name}`).digest('base64url').replace(/[-_]/g, 'x').slice(0, 4);
  return `${name[0].toUpperCase()}${name.slice(1)}_${name}__${hash}${deploy.length % 10}`;
}

function rewrite(html, deploy) {
  return html.replace(/\bclass="([^"]*)"/g, (_, list) => `class="${list.split(/\s+/).filter(Boolean).map((c) => moduleClass(c, deploy)).join(' ')}"`);
}

function walk(dir, deploy) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, deploy);
    else if (name.endsWith('.html')) writeFileSync(path, rewrite(readFileSync(path, 'utf8'), deploy));
  }
}

/** Replaces the contents of `target` with the site at `source`, its classes renamed for `deploy`. */
export function deploySite(source, target, deploy) {
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true });
  walk(target, deploy);
}
