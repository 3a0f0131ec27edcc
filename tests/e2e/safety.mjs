// Hostile-web cases both browsers must pass the same way (issue 10): a
// server that records every request and its cookies, pages whose links act
// (log out, delete, add to cart), pages that use our attribute names or clone
// marked nodes, a 50 MB page, a gzip bomb, binary data served as HTML,
// legacy charsets, redirect loops and cross-origin redirects.
// `safetyTests(test, assert, open)` registers them; `open(url, config)`
// is the browser's: it opens the page and a popup aimed at it and resolves to
// `{ extract(), toggle(view), inPage(fn, ...args), close() }`, where
// `extract()` resolves to `{ error, report }` after clicking Extract.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { ROOT } from './harness.mjs';
import { heartbeat, startHeartbeat } from './heartbeat.mjs';

const MB = 1024 * 1024;

/** A page of the test site: a shared header menu of `links`, then `main`. */
function page(title, links, main, head = '<meta charset="utf-8">') {
  const menu = links.map(([href, label, attrs = '']) => `<li><a href="${href}"${attrs}>${label}</a></li>`).join('');
  return `<!doctype html><html><head>${head}<title>${title}</title></head><body>` +
    `<header id="top"><nav class="menu"><ul>${menu}</ul></nav></header>` +
    `<main><h1>${title}</h1>${main}</main><footer class="foot"><p>Footer text of the site</p></footer></body></html>`;
}

/**
 * Closes the test's tabs, then its server, also when the browser is gone: a crashed browser makes the
 * tabs' close throw, and a server left listening keeps the test file from ever ending.
 */
export async function closeBoth(s, server) {
  try {
    await s?.close();
  } finally {
    await server.close();
  }
}

/**
 * Serves `routes` (path → handler) on 127.0.0.1, recording every request as
 * `{ path, cookie, mode }` (`mode` is Sec-Fetch-Mode: `navigate` for the
 * tab's own loads, `same-origin` for the extension's fetches).
 */
export async function recordingServer(routes) {
  const requests = [];
  const served = { ...routes };
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.push({ path: url.pathname + url.search, cookie: req.headers.cookie ?? null, mode: req.headers['sec-fetch-mode'] ?? null });
    const handler = served[url.pathname];
    if (handler) handler(req, res, url);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    requests,
    /** The served paths, open to additions once the origin is known. */
    routes: served,
    /** Requests the extension made (not the tab's navigations, not the favicon). */
    fetched: () => requests.filter((r) => r.mode !== 'navigate' && r.path !== '/favicon.ico'),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

const html = (body, type = 'text/html; charset=utf-8') => (req, res) =>
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);

/** Three ordinary pages every site below links to, so each extraction succeeds. */
function ordinaryPages(prefix, links) {
  const routes = {};
  for (const name of ['a', 'b', 'c']) {
    routes[`${prefix}/${name}.html`] = html(page(`Page ${name}`, links, `<p>Article ${name} says something of its own.</p>`));
  }
  return routes;
}

/** The native CLI's extraction of `key` in the folder `dir`. */
function nativeOf(dir, key) {
  const out = join(dir, 'out.json');
  execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'tex', '--', 'extract', dir, key, '--json', out, '--paths'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8'));
}

/** Outcome per candidate path of a report's load log: `ok` or the error's kind. */
const outcomes = (report) => Object.fromEntries(report.load_log.map((r) => [new URL(r.url).pathname, r.error?.kind ?? 'ok']));

/**
 * `exposesFetches`: whether this browser lists the content script's
 * candidate fetches in the page's Resource Timing (PRIVACY.md says which
 * browser does; this keeps it true).
 */
export function safetyTests(test, assert, open, { exposesFetches }) {
  test(`Resource Timing: the page ${exposesFetches ? 'sees' : 'does not see'} the candidate fetches in performance.getEntriesByType('resource')`, async (t) => {
    const links = [['/rt/a.html', 'A'], ['/rt/b.html', 'B'], ['/rt/c.html', 'C']];
    const server = await recordingServer({ ...ordinaryPages('/rt', links), '/rt/index.html': html(page('Timing', links, '<p>The key page.</p>')) });
    const s = await open(`${server.origin}/rt/index.html`, {});
    try {
      const { error } = await s.extract();
      assert.equal(error, null);
      const seen = await s.inPage(() => performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, e.initiatorType]));
      t.diagnostic(`the page's resource entries after the extraction: ${JSON.stringify(seen)}`);
      const candidates = seen.filter(([path]) => /^\/rt\/[abc]\.html$/.test(path)).map(([path]) => path).sort();
      assert.deepEqual(candidates, exposesFetches ? ['/rt/a.html', '/rt/b.html', '/rt/c.html'] : []);
    } finally {
      await closeBoth(s, server);
    }
  });

  test('fetch policy: no cookies sent, and no sign-out, delete, cart, nofollow, download or in-form link fetched', async () => {
    const links = [
      ['/shop/a.html', 'A'], ['/shop/b.html', 'B'], ['/shop/c.html', 'C'],
      ['/shop/logout', 'Log out'], ['/shop/delete?id=7', 'Delete'], ['/shop/cart/add?item=3', 'Add to cart'],
      ['/shop/account/sign-out.php', 'Sign out'], ['/shop/private.html', 'Private', ' rel="nofollow"'],
      ['/shop/file.html', 'File', ' download'],
    ];
    const form = '<form action="/shop/search"><a href="/shop/in-form.html">In a form</a><button>Go</button></form>';
    const routes = {
      ...ordinaryPages('/shop', links),
      '/shop/index.html': (req, res) => res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'set-cookie': 'session=secret; Path=/',
      }).end(page('Shop', links, `<p>Welcome.</p>${form}`)),
    };
    for (const path of ['/shop/logout', '/shop/delete', '/shop/cart/add', '/shop/account/sign-out.php', '/shop/private.html', '/shop/file.html', '/shop/in-form.html']) {
      routes[path] = html(page('Acted', links, '<p>This request acted for the user.</p>'));
    }
    const server = await recordingServer(routes);
    const s = await open(`${server.origin}/shop/index.html`, { cs_size: 10 });
    try {
      assert.match(await s.inPage(() => document.cookie), /session=secret/, 'the page holds a session cookie');
      const { error } = await s.extract();
      assert.equal(error, null);
      const fetched = server.fetched();
      // The page itself is fetched once more, as served, to compare like with like (docs/script-built-pages.md).
      assert.deepEqual(fetched.map((r) => r.path).sort(), ['/shop/a.html', '/shop/b.html', '/shop/c.html', '/shop/index.html'],
        'only the three plain pages and the page itself were requested');
      assert.deepEqual(fetched.filter((r) => r.cookie !== null), [], 'no request of the extension carried a cookie');
    } finally {
      await closeBoth(s, server);
    }
  });

  test('a same-origin link with a user name and password in it is never requested, and the extraction ends', async () => {
    const server = await recordingServer({});
    const credentials = `http://user:pw@${server.origin.slice('http://'.length)}/cred/p1.html`;
    const links = [['/cred/a.html', 'A'], [credentials, 'With credentials'], ['/cred/b.html', 'B'], ['/cred/c.html', 'C']];
    Object.assign(server.routes, {
      ...ordinaryPages('/cred', links),
      '/cred/index.html': html(page('Credentials', links, '<p>A link carries HTTP authentication.</p>')),
      '/cred/p1.html': html(page('Authenticated', links, '<p>Reached with credentials.</p>')),
    });
    const s = await open(`${server.origin}/cred/index.html`, { cs_size: 3 });
    try {
      const { error, report } = await s.extract();
      assert.equal(error, null);
      assert.deepEqual(server.fetched().map((r) => r.path).sort(), ['/cred/a.html', '/cred/b.html', '/cred/c.html', '/cred/index.html']);
      assert.ok(report.load_log.every((r) => !r.url.includes('p1.html')), 'the link is dropped before any load');
    } finally {
      await closeBoth(s, server);
    }
  });

  test('a linked page of 100,000 nested unclosed <div>s is parsed in bounded time: the extraction ends within seconds, the tab keeps ticking', async (t) => {
    const links = [['/deep/deep.html', 'Deep'], ['/deep/a.html', 'A'], ['/deep/b.html', 'B'], ['/deep/c.html', 'C']];
    const server = await recordingServer({
      ...ordinaryPages('/deep', links),
      '/deep/index.html': html(page('Deep', links, '<p>The key page.</p>')),
      '/deep/deep.html': html(page('Deep page', links, '<div>'.repeat(100_000))),
    });
    const s = await open(`${server.origin}/deep/index.html`, {});
    try {
      await s.inPage(startHeartbeat);
      const started = Date.now();
      const { error, report } = await s.extract();
      const took = Date.now() - started;
      const { longest, long } = await s.inPage(heartbeat);
      t.diagnostic(`extract took ${took} ms, longest heartbeat gap ${longest} ms; gaps over 100 ms [ended at, gap]: ${JSON.stringify(long)}`);
      const deep = report?.load_log?.find((r) => r.url.endsWith('/deep/deep.html'));
      t.diagnostic(`deep page parse ${Math.round(deep?.parse_ms)} ms, snapshot ${Math.round(deep?.snapshot_ms)} ms; timings ${JSON.stringify(report?.timings, (k, v) => (typeof v === 'number' ? Math.round(v) : v))}`);
      assert.equal(error, null);
      assert.equal(outcomes(report)['/deep/deep.html'], 'ok', 'the deep page is parsed, not refused');
      assert.ok(took < 15_000, `extract took ${took} ms (before the bound: 44 s)`);
      assert.ok(longest < 1_500, `the tab froze for ${Math.round(longest)} ms (before the bound: 43 s)`);
    } finally {
      await closeBoth(s, server);
    }
  });

  test('a page using attributes and elements named data-tex-* keeps them, and copies of marked nodes lose our marks', async () => {
    const links = [['/own/a.html', 'A'], ['/own/b.html', 'B'], ['/own/c.html', 'C']];
    const main = '<p data-tex-template="mine" data-tex-hidden>The page\'s own marks</p>' +
      '<aside data-tex-own="x"><p>An aside the page marked data-tex-own</p></aside><div data-tex-false-hit="1">kept</div>';
    const server = await recordingServer({
      ...ordinaryPages('/own', links),
      '/own/index.html': html(page('Own', links, main).replace('<header id="top">', '<header id="top" data-tex-template="page">')),
    });
    const s = await open(`${server.origin}/own/index.html`, {});
    try {
      const before = await s.inPage(() => document.documentElement.outerHTML);
      const { error, report } = await s.extract();
      assert.equal(error, null);
      // Our own elements (the page view's host) carry data-tex-<random word>-own; the page's data-tex-own does not.
      const pageElements = () => [...document.querySelectorAll('*')]
        .filter((e) => ![...e.attributes].some((a) => /^data-tex-[0-9a-z]+-own$/.test(a.name))).length;
      assert.equal(report.total_nodes, await s.inPage(pageElements),
        'elements the page marked data-tex-own are part of the snapshot');
      await s.toggle('template');
      // The page clones its marked header (a sticky header copied on scroll).
      await s.inPage(() => { const copy = document.getElementById('top').cloneNode(true); copy.id = 'sticky'; document.body.append(copy); });
      await s.toggle('content');
      await s.toggle('original');
      const copy = await s.inPage(() => { const c = document.getElementById('sticky'); c.remove(); return c.outerHTML; });
      const header = await s.inPage(() => document.getElementById('top').outerHTML);
      assert.equal(copy, header.replace('id="top"', 'id="sticky"'), 'the page\'s copy kept no mark of ours');
      assert.ok((await s.inPage(() => document.documentElement.outerHTML)) === before, 'the page is back exactly, its own data-tex-* included');
    } finally {
      await closeBoth(s, server);
    }
  });

  test('limits: a 50 MB page and a gzip bomb are cut at 5 MB, binary data served as HTML is refused unparsed', async () => {
    const links = [['/big/a.html', 'A'], ['/big/huge.html', 'Huge'], ['/big/bomb.html', 'Bomb'],
      ['/big/binary.html', 'Binary'], ['/big/b.html', 'B'], ['/big/c.html', 'C']];
    const bomb = gzipSync(Buffer.alloc(100 * MB, '<p>aaaa</p>'), { level: 9 });
    let hugeSent = 0;
    const server = await recordingServer({
      ...ordinaryPages('/big', links),
      '/big/index.html': html(page('Big', links, '<p>Key page.</p>')),
      '/big/huge.html': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
        const chunk = Buffer.alloc(64 * 1024, '<p>big</p>');
        // One chunk per timer tick, so what was sent when the browser gave up
        // shows where it stopped reading, not how much loopback buffers hold.
        const pump = () => {
          if (res.destroyed) return;
          if (hugeSent >= 50 * MB) return res.end();
          hugeSent += chunk.length;
          if (res.write(chunk)) setTimeout(pump, 1);
          else res.once('drain', () => setTimeout(pump, 1));
        };
        res.on('close', () => {});
        pump();
      },
      '/big/bomb.html': (req, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'cache-control': 'no-store' }).end(bomb),
      '/big/binary.html': html(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.alloc(4096, 7)]), 'text/html'),
    });
    const s = await open(`${server.origin}/big/index.html`, { cs_size: 10 });
    try {
      const { error, report } = await s.extract();
      assert.equal(error, null);
      const o = outcomes(report);
      assert.equal(o['/big/huge.html'], 'too_many_bytes');
      assert.equal(o['/big/bomb.html'], 'too_many_bytes');
      assert.equal(o['/big/binary.html'], 'binary');
      assert.ok(hugeSent < 30 * MB, `reading stopped early (${(hugeSent / MB).toFixed(1)} MB sent of 50)`);
      const sentence = report.load_log.find((r) => r.url.endsWith('/big/huge.html')).error;
      assert.deepEqual(sentence, { kind: 'too_many_bytes', detail: { url: `${server.origin}/big/huge.html`, limit: 5 * MB } });
    } finally {
      await closeBoth(s, server);
    }
  });

  test('legacy charsets: windows-1251 and Shift_JIS candidates decode as the browser decodes them, same template as the CLI', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tex-charset-'));
    const links = [['/cs/a.html', 'Новости'], ['/cs/b.html', 'Статьи'], ['/cs/c.html', 'О нас'], ['/cs/d.html', 'ニュース']];
    const decoder = new TextDecoder();
    const files = {};
    const routes = {};
    const encodings = { 'index.html': 'windows-1251', 'a.html': 'windows-1251', 'b.html': 'shift_jis', 'c.html': 'windows-1251', 'd.html': 'shift_jis' };
    for (const [name, charset] of Object.entries(encodings)) {
      const body = page(`Страница ${name}`, links, `<p>Текст ${name} страницы, ニュース ${name}.</p>`, `<meta charset="${charset}">`);
      const bytes = encode(body, charset);
      assert.equal(decoder.decode(bytes).includes('Новости'), false, 'the bytes are not UTF-8');
      files[name] = bytes;
      routes[`/cs/${name}`] = html(bytes, `text/html; charset=${charset}`);
    }
    mkdirSync(join(dir, 'cs'));
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, 'cs', name), bytes);
    const native = nativeOf(dir, 'cs/index.html');
    const server = await recordingServer(routes);
    const s = await open(`${server.origin}/cs/index.html`, {});
    try {
      const { error, report } = await s.extract();
      assert.equal(error, null);
      assert.equal(report.template_nodes, native.template_nodes, 'browser and CLI find the same template');
      assert.deepEqual(report.template_ids, native.template_ids);
      assert.ok(native.template_paths.some((p) => p.endsWith('/nav/ul/li[4]/a')), 'the menu link labelled in Japanese is template');
    } finally {
      await closeBoth(s, server);
    }
  });

  test('redirects: a loop and a redirect to another origin each say so, and nothing reaches the other origin', async () => {
    const elsewhere = await recordingServer({});
    const links = [['/r/a.html', 'A'], ['/r/loop', 'Loop'], ['/r/away', 'Away'], ['/r/b.html', 'B'], ['/r/c.html', 'C']];
    const server = await recordingServer({
      ...ordinaryPages('/r', links),
      '/r/index.html': html(page('Redirects', links, '<p>Key page.</p>')),
      '/r/loop': (req, res) => res.writeHead(302, { location: '/r/loop' }).end(),
      '/r/away': (req, res) => res.writeHead(302, { location: `${elsewhere.origin}/r/a.html` }).end(),
    });
    const s = await open(`${server.origin}/r/index.html`, { cs_size: 10, timeout_ms: 20_000 });
    try {
      const { error, report } = await s.extract();
      assert.equal(error, null);
      const o = outcomes(report);
      assert.equal(o['/r/loop'], 'redirect');
      assert.equal(o['/r/away'], 'redirect');
      assert.equal(elsewhere.requests.length, 0, 'no request reached the other origin');
    } finally {
      await closeBoth(s, server);
      await elsewhere.close();
    }
  });
}

/** `text` in a legacy encoding (windows-1251 or Shift_JIS) by inverting TextDecoder; other characters as references. */
function encode(text, charset) {
  const table = new Map();
  const decoder = new TextDecoder(charset);
  const bytes = [];
  // Single bytes, then (Shift_JIS) double bytes: invert the decoder.
  for (let b = 0x80; b < 0x100; b++) table.set(decoder.decode(Uint8Array.of(b)), [b]);
  if (charset === 'shift_jis') {
    for (let hi = 0x81; hi < 0xf0; hi++) {
      for (let lo = 0x40; lo < 0xfd; lo++) {
        const ch = decoder.decode(Uint8Array.of(hi, lo));
        if (ch.length === 1 && !table.has(ch)) table.set(ch, [hi, lo]);
      }
    }
  }
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) bytes.push(ch.charCodeAt(0));
    else if (table.has(ch)) bytes.push(...table.get(ch));
    else bytes.push(...Buffer.from(`&#${ch.codePointAt(0)};`));
  }
  return Buffer.from(bytes);
}
