// Shared by the single-page-app e2e tests: the Vite + React + react-router
// build (fixtures/spa, served as an app server does: every route answers
// with the same shell) and the hand-written hash-routed app (fixtures/spa-hash),
// the routes a user clicks, and what the page shows after Extract.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FIXTURES } from './harness.mjs';
import { serve } from './server.mjs';

/** The app's menu, in order; the first is where the user lands. */
export const MENU = ['Home', 'Trails', 'Events', 'News', 'About'];
/** The routes clicked before Extract: with the landing page, three visited besides the last. */
export const CLICKED = ['Trails', 'Events', 'News'];
export const LEARN_ON = 'Visit a few pages of this app, then Extract: the pages you visited are compared, and none is loaded.';
export const VISITED_THREE = /^Compared with 3 pages you visited on this site; 0 pages were loaded\.$/;

/** The React build, each route's address answered with its shell (as `vite preview` or any app host does). */
export function serveApp() {
  const root = join(FIXTURES, 'spa');
  const shell = readFileSync(join(root, 'index.html'));
  const answer = (req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(shell);
  return serve(root, { routes: Object.fromEntries(['/trails', '/events', '/news', '/about'].map((r) => [r, answer])) });
}

/** The hash-routed app: one page, routes after `#`. */
export const serveHashApp = () => serve(join(FIXTURES, 'spa-hash'));

/**
 * In the page, after Extract and a view: for the app's header, menu,
 * sidebar, footer and the article's heading and text, whether each carries
 * the template mark and whether the Content view's reading column holds a copy of it.
 */
export function appRegions() {
  let ns = null;
  for (const e of document.querySelectorAll('*')) {
    const mark = [...e.attributes].map((a) => /^(data-tex-[0-9a-z]+-)(own|template|hidden)$/.exec(a.name)).find(Boolean);
    if (mark) { ns = mark[1]; break; }
  }
  // The menu's links, the one to the route shown included: it is marked (`a.active[aria-current]`) on this route only.
  const parts = { header: 'header', menu: 'nav', menuLinks: 'nav a', sidebar: 'aside', footer: 'footer', heading: 'article h1', text: 'article p' };
  // The Content view's reading column: copies of the content regions, in our own element.
  const column = document.querySelector('tex-view');
  return Object.fromEntries(Object.entries(parts).map(([name, selector]) => {
    const all = [...document.querySelectorAll(selector)];
    const tag = selector.split(' ').pop();
    return [name, {
      template: all.every((e) => ns && e.hasAttribute(`${ns}template`)),
      read: all.some((e) => [...(column?.querySelectorAll(tag) ?? [])].some((c) => c.textContent === e.textContent)),
    }];
  }));
}

/** Checks `appRegions()` in the Template view: the site's parts (every menu link included) are template, the article is content. */
export function checkTemplate(assert, regions) {
  for (const part of ['header', 'menu', 'menuLinks', 'sidebar', 'footer']) assert.equal(regions[part].template, true, `${part} is template`);
  for (const part of ['heading', 'text']) assert.equal(regions[part].template, false, `the article's ${part} is content`);
}

/** Checks `appRegions()` in the Content view: the reading column holds the article, none of the site's parts (no menu link either). */
export function checkContent(assert, regions) {
  for (const part of ['header', 'menuLinks', 'sidebar', 'footer']) assert.equal(regions[part].read, false, `${part} is not in the reading column`);
  for (const part of ['heading', 'text']) assert.equal(regions[part].read, true, `the article's ${part} is in the reading column`);
}
