// What the page itself shows of an extraction, drawn in a shadow root so the
// page's styles neither leak in nor get touched: a small dismissible badge
// (progress with Cancel, the error sentence, or the Original / Template /
// Content control), an outline of the template that does not reflow the page,
// and the content view's reading panel over the page. The original view draws
// nothing, so the page is exactly as it was.
'use strict';

globalThis.texPageView ??= (() => {
  const { t, sentence, percent } = globalThis.texI18n;
  const VIEWS = ['original', 'template', 'content'];
  /**
   * Outlines drawn at most: a page whose template is 100,000 separate regions (a list of siblings
   * each its own region) took seconds to draw them all, the tab frozen, and no reader tells them
   * apart; 2,000 still held the tab 100-150 ms on a page of 200,000 elements.
   */
  const MAX_OUTLINES = 500;
  // Classes no page can already use, for the reading panel's light-DOM rules.
  const READER = `tex-reader-${crypto.getRandomValues(new Uint32Array(2)).join('')}`;
  const PANEL = `${READER}-panel`;
  let glue = null;
  let host = null;
  let onResize = null;
  // What had the focus before the reading panel took it, given back when it goes.
  let pageFocus = null;
  // The running badge's status line, updated in place on each progress figure.
  let statusLine = null;

  const STYLE = `
    :host { all: initial; }
    .badge { position: fixed; right: 16px; bottom: 16px; z-index: 2; width: 300px; box-sizing: border-box; pointer-events: auto;
      font: 13px/1.4 system-ui, sans-serif; color: #1d2430; background: #fff; border: 1px solid #8a94a6;
      border-radius: 8px; box-shadow: 0 4px 16px rgb(0 0 0 / .2); padding: 8px 10px; }
    .head { display: flex; align-items: center; gap: 8px; font-weight: 600; }
    .head span { flex: 1; }
    p { margin: 6px 0 0; }
    .error { color: #b42318; font-weight: 600; }
    button { font: inherit; padding: 3px 8px; border: 1px solid #8a94a6; border-radius: 4px; background: #f4f6f9; color: inherit; cursor: pointer; }
    button[aria-pressed="true"] { background: #2458c6; border-color: #2458c6; color: #fff; }
    button:focus-visible { outline: 2px solid #2458c6; outline-offset: 2px; }
    .close { border: none; background: none; font-size: 16px; line-height: 1; padding: 2px 6px; }
    .views { display: flex; gap: 4px; margin-top: 6px; }
    .legend { list-style: none; margin: 6px 0 0; padding: 0; }
    .swatch { display: inline-block; box-sizing: border-box; width: 18px; height: 12px; margin-right: 6px; vertical-align: middle; }
    .swatch.miss { border: 3px dashed #e66100; }
    .swatch.hit { border: 3px solid #1a5fb4; }
    .outline { position: absolute; box-sizing: border-box; border: 2px dashed #1a5fb4; background: rgb(26 95 180 / .08); pointer-events: none; }
    .outlines { position: absolute; left: 0; top: 0; width: 0; height: 0; }
    /* The panel holds what the page's rules position absolutely and clips
       what would reach past its end, so no strip of nothing scrolls in below it. */
    .reader { position: relative; overflow-y: clip; min-height: 100%; background: #fff; color: #1d2430; }
    .column { max-width: 42rem; margin: 0 auto; padding: 2rem 1.25rem 6rem; font: 18px/1.6 Georgia, serif; }
    /* Where the window has room, the column stands clear of the badge's corner, so no line runs under it. */
    @media (min-width: 1040px) { .column { margin: 0 332px 0 calc((100vw - 42rem - 332px) / 2); } }
    @media (prefers-color-scheme: dark) {
      .badge { color: #e6e9ef; background: #1f2430; border-color: #5b6478; }
      button { background: #2b3140; border-color: #5b6478; }
      button[aria-pressed="true"] { background: #7aa2f7; border-color: #7aa2f7; color: #111; }
      .error { color: #ff8a80; }
      .outline { border-color: #7aa2f7; background: rgb(122 162 247 / .12); }
      .reader { background: #16191f; color: #e6e9ef; }
    }`;

  // Rules for the cloned content: the page's own styles still apply to it,
  // minus what would squeeze it back into the page's columns. On paper the
  // column replaces the page, as it does on screen.
  const READER_STYLE = `
    @media print {
      body { display: none !important; }
      .${PANEL} { position: static !important; overflow: visible !important; }
    }
    .${READER} * { float: none !important; position: static !important; max-width: 100% !important; min-width: 0 !important; }
    .${READER} > * { width: auto !important; margin-left: 0 !important; margin-right: 0 !important; grid-column: auto !important; }
    .${READER} img, .${READER} video { height: auto !important; }
    @media (prefers-color-scheme: dark) {
      .${READER} * { color: inherit !important; background-color: transparent !important; border-color: #5b6478 !important; }
      .${READER} a { color: #8ab4f8 !important; }
    }`;

  function el(tag, props = {}, ...children) {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...children);
    return e;
  }

  // Escape leaves a view for the original page, as a reader view's Escape does,
  // and closes an error's badge, as its × does.
  let onEscape = null;
  const onKey = (e) => { if (e.key === 'Escape' && !e.defaultPrevented) onEscape?.(); };

  function clear() {
    if (onResize) removeEventListener('resize', onResize);
    onResize = null;
    removeEventListener('keydown', onKey, true);
    onEscape = null;
    host?.remove();
    host = null;
    statusLine = null;
  }

  const progressText = (p) => (p?.phase === 'loading' ? t('progressLoading', p.loaded, p.planned)
    : p?.phase === 'comparing' ? t('progressComparing', p.loaded) : t('progressReading'));

  function badge(state) {
    const close = el('button', { className: 'close', textContent: '×', title: t('dismiss') });
    close.setAttribute('aria-label', t('dismiss'));
    close.addEventListener('click', () => glue.dismiss());
    const box = el('div', { className: 'badge' }, el('div', { className: 'head' }, el('span', { textContent: t('extName') }), close));
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', t('extName'));
    if (state.status === 'running') {
      const status = el('p', { textContent: progressText(state.progress) });
      status.setAttribute('role', 'status');
      statusLine = status;
      const cancel = el('button', { textContent: t('cancel') });
      cancel.addEventListener('click', () => glue.cancel());
      box.append(status, el('div', { className: 'views' }, cancel));
    } else if (state.status === 'error') {
      const p = el('p', { className: 'error', textContent: sentence(state.error) });
      p.setAttribute('role', 'alert');
      box.append(p);
    } else {
      const s = state.summary;
      const pct = percent((100 * s.template_nodes) / Math.max(1, s.total_nodes));
      const line = state.view === 'template' || state.view === 'content' ? t(`badge_${state.view}`) : t('badgeFound', pct);
      box.append(el('p', { textContent: line }));
      // The check view's two outlines, said in words beside their look.
      if (state.view === 'check') {
        box.append(el('ul', { className: 'legend' },
          el('li', {}, el('span', { className: 'swatch miss' }), t('legendMiss')),
          el('li', {}, el('span', { className: 'swatch hit' }), t('legendFalseHit'))));
      }
      const group = el('div', { className: 'views' });
      group.setAttribute('role', 'group');
      group.setAttribute('aria-label', t('viewLabel'));
      for (const view of VIEWS) {
        const b = el('button', { textContent: t(`view_${view}`) });
        b.setAttribute('aria-pressed', String(state.view === view));
        b.addEventListener('click', () => glue.setView(view));
        group.append(b);
      }
      box.append(group);
    }
    return box;
  }

  /** Boxes over the template regions, in document coordinates: nothing moves. */
  function outlines(layer) {
    const draw = () => {
      layer.replaceChildren(...Array.from(glue.regions('template', MAX_OUTLINES)).flatMap((region) => {
        const r = region.getBoundingClientRect();
        if (!r.width || !r.height) return [];
        const box = el('div', { className: 'outline' });
        box.style.cssText = `left:${r.left + scrollX}px;top:${r.top + scrollY}px;width:${r.width}px;height:${r.height}px`;
        return [box];
      }));
    };
    draw();
    onResize = draw;
    addEventListener('resize', onResize);
  }

  /** The reading panel over the page, holding `copies` (see reading-copy.js) in its column. */
  function reader(root, copies) {
    host.append(el('div', { className: READER }, el('style', { textContent: READER_STYLE }), copies));
    const panel = el('div', { className: 'reader' }, el('div', { className: 'column' }, el('slot')));
    // A modal dialog to assistive technology: the page under it is out of reach, as it is to the eye.
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-modal', 'true');
    panel.setAttribute('aria-label', t('view_content'));
    root.append(panel);
    return panel;
  }

  /**
   * The panel takes the keyboard, so arrows and Space scroll the column, not the page hidden under it;
   * leaving gives the focus back to what had it.
   */
  function focusFor(reading) {
    if (reading) {
      if (pageFocus === null) pageFocus = document.activeElement ?? document.body;
      host.tabIndex = -1;
      host.focus({ preventScroll: true });
    } else if (pageFocus !== null) {
      if (pageFocus.isConnected && pageFocus !== document.body) pageFocus.focus?.({ preventScroll: true });
      pageFocus = null;
    }
  }

  /** Counts the states rendered: a reading column still being copied stops once a newer state is. */
  let rendered = 0;

  /**
   * Shows `state` on the page; resolves once it shows. The reading column's content regions are
   * copied in slices first (texReadingCopy), the view shown before staying until they are ready.
   */
  async function render(state) {
    const run = ++rendered;
    const quiet = state.dismissed || state.status === 'idle'
      || (state.status === 'done' && state.view === 'original' && !state.highlight);
    const reading = !quiet && state.status === 'done' && state.view === 'content';
    const copies = reading
      ? await globalThis.texReadingCopy.copies(glue.regions('content'), new Set(glue.regions('frame')), () => run === rendered)
      : null;
    if (run !== rendered) return;
    draw(state, quiet, copies);
  }

  function draw(state, quiet, copies) {
    clear();
    const reading = copies !== null;
    if (!reading) focusFor(false);
    if (quiet) return;
    host = glue.host('tex-view');
    // The reading panel covers the window and scrolls on its own: the page under it keeps its layout
    // and its scroll position, so neither entering nor leaving the view makes the browser lay the page
    // out again (on a page of 200,000 elements that took Firefox over a second).
    if (reading) host.className = PANEL;
    host.setAttribute('style', reading
      ? 'all:initial;display:block;position:fixed;inset:0;z-index:2147483647;overflow:auto;overscroll-behavior:contain;outline:none'
      : 'all:initial;position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none');
    const root = host.attachShadow({ mode: 'open' });
    root.append(el('style', { textContent: STYLE }));
    if (state.status === 'done' && state.highlight) {
      const layer = el('div', { className: 'outlines' });
      root.append(layer);
      outlines(layer);
    }
    // In the reading panel the badge is part of the dialog, so assistive technology reaches it.
    const panel = reading ? reader(root, copies) : root;
    if (reading) focusFor(true);
    if (state.status === 'done' && (state.view === 'template' || state.view === 'content')) onEscape = () => glue.setView('original');
    if (state.status === 'error') onEscape = () => glue.dismiss();
    if (onEscape) addEventListener('keydown', onKey, true);
    panel.append(badge(state));
  }

  /**
   * A new progress figure while pages load: only the badge's line changes.
   * Rebuilding the badge each time restyled the page while its requests were
   * answered, on the thread that must read them.
   */
  function progress(state) {
    if (statusLine?.isConnected) statusLine.textContent = progressText(state.progress);
    else render(state);
  }

  return {
    /** `{setView, cancel, dismiss, regions(kind, max), host}` from the content script. */
    connect(g) { glue = g; },
    render,
    progress,
  };
})();
