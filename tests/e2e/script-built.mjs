// Pages built or changed by scripts (docs/script-built-pages.md), the same
// cases in Chromium and Firefox: a static site whose scripts add a cookie
// banner and a chat bubble, load lazy sponsor logos, wrap the header and fill
// a header menu from JSON; a server-rendered, hydrated site whose menus mark
// the page's own section; a single-page app whose server answers every
// address with one empty shell; a page that routes by fragment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FIXTURES } from './harness.mjs';
import { serve } from './server.mjs';

const htmlPage = (body) => (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);

/** A page of the members' club: its frame, and a script's mark that the page is ready. */
const membersPage = (title) => '<!doctype html><html><head><title>' + title + '</title></head><body><header class="top"><nav>'
  + ['index', 'a', 'b', 'c'].map((p) => `<a href="/members/${p}.html">${p}</a> `).join('') + '</nav></header>'
  + `<main><h1>${title}</h1><p>What the club says about ${title}, in words of its own.</p></main>`
  + '<footer><p>The members club</p></footer><script>document.documentElement.dataset.scriptsDone = "true";</script></body></html>';
const LOGIN_WALL = '<!doctype html><html><head><title>Sign in</title></head><body><h1>Please sign in</h1>'
  + '<form action="/members/login" method="post"><input name="user"><input name="pw" type="password"><button>Sign in</button></form>'
  + '<p><a href="/members/a.html">What the club does</a></p></body></html>';

/**
 * The fixtures, with every address under /app-shell/ answered by the same
 * shell, as an app's server does, and a members' page that shows a login
 * wall to a request without the session cookie (what the extension's
 * served fetch gets); /members/enter sets the cookie and goes there.
 */
export function serveScriptBuilt() {
  const shell = readFileSync(join(FIXTURES, 'app-shell/index.html'));
  const routes = Object.fromEntries(['/app-shell/', '/app-shell/ridge', '/app-shell/lake', '/app-shell/forest'].map((p) => [p, htmlPage(shell)]));
  // The forest route answers its shell only to the browser that entered (the cookie); the extension's served fetch,
  // sent without cookies, gets an error, so only the linked pages can tell that the site is an app.
  routes[SHELL_ENTRY] = (req, res) => res.writeHead(302, { location: SHELL_GATED_PAGE, 'set-cookie': 'entered=yes; Path=/' }).end();
  routes[SHELL_GATED_PAGE] = (req, res) => {
    if (/entered=yes/.test(req.headers.cookie ?? '')) return htmlPage(shell)(req, res);
    refusedShellFetches.count += 1;
    return res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable');
  };
  routes['/members/enter'] = (req, res) => res.writeHead(302, { location: '/members/index.html', 'set-cookie': 'session=member; Path=/' }).end();
  routes['/members/index.html'] = (req, res) => htmlPage(/session=member/.test(req.headers.cookie ?? '') ? membersPage('Members') : LOGIN_WALL)(req, res);
  for (const p of ['a', 'b', 'c']) routes[`/members/${p}.html`] = htmlPage(membersPage(`Page ${p}`));
  return serve(FIXTURES, { routes });
}

export const SCRIPT_BUILT_PAGE = '/script-built/boats.html';
export const HYDRATED_PAGE = '/hydrated/rivers.html';
export const APP_SHELL_PAGE = '/app-shell/ridge';
export const SHELL_ENTRY = '/app-shell/enter';
export const SHELL_GATED_PAGE = '/app-shell/forest';
/** Requests for the gated route without the cookie, which the server refused. */
export const refusedShellFetches = { count: 0 };
export const HASH_ROUTES_PAGE = '/hash-routes/index.html#/bread';
export const MEMBERS_ENTRY = '/members/enter';

export const APP_SHELL_SENTENCE = 'This site builds its pages in the browser, so the other pages it links to are empty shells with nothing to compare; '
  + 'turn on “Learn from pages I visit” for this site in the popup, then visit a few of its pages.';
export const HASH_ROUTES_SENTENCE = 'This site builds its pages in the browser: its links only change the part of the address after #, so there are no other pages '
  + 'to fetch and compare; turn on “Learn from pages I visit” for this site in the popup, then visit a few of its pages.';

/** The regions of the script-built page that must be template: the frame, including what scripts wrapped, filled or rewrote. */
export const TEMPLATE_REGIONS = {
  'sticky wrapper': '.sticky-wrap',
  header: '.site-header',
  menu: '.main-menu',
  'menu filled from JSON': '.quick-links',
  sidebar: '.sidebar',
  footer: '.site-footer',
  'lazy sponsor logos': '.sponsors',
};
/** What must be content: the article's words. */
export const CONTENT_REGIONS = { 'article title': '.story h1', 'article text': '.story p' };

/**
 * The hydrated page's frame: its menu marks the page's own section
 * (`a.active[aria-current]`, no class on the others), its footer menu gives
 * that entry another generated class, and the article's wrappers carry a
 * class made from the section's accent (another on every page).
 */
export const HYDRATED_TEMPLATE_REGIONS = {
  header: 'header',
  menu: '.main-nav',
  'current menu item': '.main-nav a[aria-current]',
  'footer menu': 'footer ul',
  'current footer item': 'footer ul li:nth-child(2)',
  sidebar: '.sidebar',
  footer: 'footer',
};

/**
 * Runs in the page, in the template view: per named selector, `template`
 * when every element of the matched subtrees carries the view's template
 * mark, `content` when none does, `mixed` otherwise (`missing`: no match).
 */
export function regionsProbe(selectors) {
  const marked = (e) => [...e.attributes].some((a) => /^data-tex-.*-template$/.test(a.name));
  return Object.fromEntries(Object.entries(selectors).map(([name, selector]) => {
    const all = [...document.querySelectorAll(selector)].flatMap((r) => [r, ...r.querySelectorAll('*')]);
    if (!all.length) return [name, 'missing'];
    return [name, all.every(marked) ? 'template' : all.some(marked) ? 'mixed' : 'content'];
  }));
}

/** Runs in the page, in the content view: the text of the reading column. */
export function readingColumnText() {
  const host = document.querySelector('tex-view');
  return host ? [...host.children].filter((e) => e.tagName === 'DIV').map((e) => e.textContent).join(' ').replace(/\s+/g, ' ') : null;
}

/**
 * The cases, for a browser given as `{ origin, open(url), extract(), view(name), inPage(fn, arg), keySource(), close() }`:
 * `open` shows the page and a popup aimed at it, `extract` clicks Extract and
 * resolves to `{ error, report }`, `view` clicks a view button, `inPage`
 * evaluates in the page, `keySource` reads the popup's Details line.
 */
export function scriptBuiltTests(test, assert, browser) {
  test('script-built page: wrapped, filled and rewritten frame is template, the article content, overlays out of the reading column', async () => {
    const b = browser();
    await b.open(b.origin() + SCRIPT_BUILT_PAGE);
    const { error, report } = await b.extract();
    assert.equal(error, null);
    await b.view('template');
    const regions = await b.inPage(regionsProbe, { ...TEMPLATE_REGIONS, ...CONTENT_REGIONS, banner: '#consent', bubble: '.chat-bubble', ad: '.ad-slot' });
    for (const name of Object.keys(TEMPLATE_REGIONS)) assert.equal(regions[name], 'template', `${name} is template`);
    for (const name of Object.keys(CONTENT_REGIONS)) assert.equal(regions[name], 'content', `${name} is content`);
    assert.equal(regions.banner, 'content', 'the cookie banner is not template');
    assert.equal(regions.bubble, 'content', 'the chat bubble is not template');
    assert.equal(regions.ad, 'content', 'the ad slot in the article is not template');
    await b.view('content');
    const column = await b.inPage(readingColumnText);
    assert.match(column, /Seven boats still fish from here/);
    assert.match(column, /Most of them are older than their skippers/);
    assert.match(column, /From the slipway/, 'the section the ad slot was put into');
    assert.doesNotMatch(column, /cookies|Chat with our volunteers|Harbour notes is written/, 'no banner, bubble or footer in the reading column');
    assert.doesNotMatch(column, /Advertisement/, 'no ad slot a script put into the article');
    await b.view('original');
    assert.equal(report.key_source.path, 'served', 'the served key page was compared with the served linked pages');
    assert.equal(report.key_source.added_by_scripts, 16, 'banner 4, bubble 3, ad slot 2, wrapper 1, filled menu 6');
    assert.equal(report.key_source.added_in_template, 7, 'the wrapper and the filled menu');
    assert.match(await b.keySource(), /^Compared as served: .* 16 of its elements were added by the page's scripts \(7 of them in the template/);
    await b.close();
  });

  test('server-rendered, hydrated page: header, menus with their current items, sidebar and footer are template, the article content', async () => {
    const b = browser();
    await b.open(b.origin() + HYDRATED_PAGE);
    const { error, report } = await b.extract();
    assert.equal(error, null);
    assert.equal(report.key_source.path, 'served');
    assert.equal(report.key_source.added_by_scripts, 2, "Next.js's route announcer and its live region");
    await b.view('template');
    const regions = await b.inPage(regionsProbe, { ...HYDRATED_TEMPLATE_REGIONS, ...CONTENT_REGIONS, announcer: 'next-route-announcer' });
    for (const name of Object.keys(HYDRATED_TEMPLATE_REGIONS)) assert.equal(regions[name], 'template', `${name} is template`);
    for (const name of Object.keys(CONTENT_REGIONS)) assert.equal(regions[name], 'content', `${name} is content`);
    assert.equal(regions.announcer, 'content', 'the route announcer a script added is not template');
    await b.view('content');
    const column = await b.inPage(readingColumnText);
    assert.match(column, /Otters are back on the lower river/);
    assert.match(column, /A heron watched the whole survey from the weir/);
    assert.doesNotMatch(column, /Valley Journal|Latest notes|Hills|About/, 'no header, menus, sidebar or footer in the reading column');
    await b.view('original');
    await b.close();
  });

  test('a page no script changed: compared as served, and Details says it holds every element shown', async () => {
    const b = browser();
    await b.open(b.origin() + '/script-built/about.html');
    const { error, report } = await b.extract();
    assert.equal(error, null);
    assert.deepEqual([report.key_source.path, report.key_source.added_by_scripts, report.key_source.live_share], ['served', 0, 1]);
    assert.equal(await b.keySource(), 'Compared as served: the page as the site sends it holds every element shown, and was compared with the linked pages.');
    await b.close();
  });

  test('a login wall served without cookies: the page as shown is compared, and Details says why', async () => {
    const b = browser();
    await b.open(b.origin() + MEMBERS_ENTRY);
    const { error, report } = await b.extract();
    assert.equal(error, null);
    assert.equal(report.key_source.path, 'live');
    assert.equal(report.key_source.fallback.kind, 'unlike');
    assert.ok(report.template_nodes > 0 && report.template_nodes < report.total_nodes);
    assert.match(await b.keySource(), /^Compared as shown: the page as the site sends it holds only \d+ % of the elements shown, so the page as shown was compared\.$/);
    await b.close();
  });

  test('single-page app shell: one plain sentence, not a template', async () => {
    const b = browser();
    await b.open(b.origin() + APP_SHELL_PAGE);
    assert.equal((await b.extract()).error, APP_SHELL_SENTENCE);
    await b.close();
  });

  test('single-page app whose served page cannot be fetched: the linked shells give the same sentence', async () => {
    const b = browser();
    await b.open(b.origin() + SHELL_ENTRY);
    const refused = refusedShellFetches.count;
    assert.equal((await b.extract()).error, APP_SHELL_SENTENCE);
    assert.ok(refusedShellFetches.count > refused, "the served key page's fetch failed");
    await b.close();
  });

  test('routes by fragment only: one plain sentence, not "no links"', async () => {
    const b = browser();
    await b.open(b.origin() + HASH_ROUTES_PAGE);
    assert.equal((await b.extract()).error, HASH_ROUTES_SENTENCE);
    await b.close();
  });
}
