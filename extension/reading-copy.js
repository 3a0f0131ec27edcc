// The content regions copied for the reading column, without what the page
// does not show, in time linear in their elements and in slices that let the
// page run (as the core's work does, src/wasm/slices.rs). The browser's own
// answers per element cost time in its depth: `checkVisibility()` and
// `closest()` walk up to the root, and so does the check of every `append`
// into a deep copy (`cloneNode(true)` included), which made the Content view
// take 10 s on a chain 20,000 deep. Here what an element's children inherit
// (hidden, inside a closed <details>) is worked out once, top-down, and the
// copy is built in segments of bounded depth (SEGMENT). The browser then
// styles and lays the column out in one task, in time elements × depth: below
// MAX_DEPTH the copy keeps the elements that hold no other element and drops
// the wrappers around them, so their text and media follow one another at
// that depth, in document order (as Blink's parser puts what lies past 512
// levels beside the 512th).
'use strict';

globalThis.texReadingCopy ??= (() => {
  /** The longest stretch of work before the page runs, as the core's slices. */
  const SLICE_MS = 20;
  /** Nodes visited between two looks at the clock. */
  const STEP = 256;
  /**
   * Copies are attached as they are made, down to this depth below the topmost one not yet
   * attached, which is attached once it is whole. Each way alone costs time in the depth: Blink
   * checks every ancestor of the element appended to, Gecko binds every descendant of the element
   * appended; so each copy waits for at most this many ancestors, and is bound again at most once
   * per this many levels of depth.
   */
  const SEGMENT = 32;
  /**
   * Levels of elements the copy of a region keeps: Firefox took 0.4 s to lay out a column of 20,000
   * elements 512 deep; no real page nests its content this deep below its own root.
   */
  const MAX_DEPTH = 64;
  /** Never in the column: what runs, or shows another document. */
  const LEFT_OUT = new Set(['script', 'iframe', 'object', 'embed']);
  /** Elements whose children get no box of their own: replaced elements, fallback content. */
  const NO_BOXES_INSIDE = new Set(['img', 'video', 'audio', 'canvas', 'iframe', 'object', 'embed', 'datalist', 'meter', 'progress', 'textarea', 'input']);
  const SVG = 'http://www.w3.org/2000/svg';
  /** SVG elements that are never drawn. */
  const SVG_UNDRAWN = new Set(['title', 'desc', 'metadata']);

  /** The channel of the message awaited, held until it arrives. */
  let waiting = null;
  /** A promise settled by the next task: a message, not a timer, which a background tab delays. */
  const nextTask = () => new Promise((resolve) => {
    waiting = new MessageChannel();
    waiting.port1.onmessage = () => {
      waiting = null;
      resolve();
    };
    waiting.port2.postMessage(null);
  });

  /** What an element's children inherit: hidden (no box, or skipped contents), inside a closed <details>, inside <body>. */
  function passDown(element, above, style) {
    const closed = above.closed || (element.localName === 'details' && !element.open);
    const hidden = !closed && (above.hidden || style.display === 'none' || style.contentVisibility === 'hidden');
    return { hidden, closed, body: above.body || element === document.body };
  }

  /**
   * Whether `element`, a child of `parent` whose children inherit `above`, has a box the page shows,
   * as `checkVisibility()` answers: a box, and no ancestor whose contents are skipped.
   */
  function shown(element, parent, above, style) {
    if (above.hidden || style.display === 'none' || style.display === 'contents' || element.localName === 'noscript') return false;
    const inside = parent.localName;
    if (NO_BOXES_INSIDE.has(inside) || (inside === 'select' && !parent.multiple && parent.size <= 1)) return false;
    if (element.namespaceURI === SVG && SVG_UNDRAWN.has(element.localName)) return false;
    return !(parent.shadowRoot && !element.assignedSlot);
  }

  /** What `element`'s children inherit, worked out once for each ancestor however many regions share it. */
  function inherited(element, known) {
    const chain = [];
    let at = element;
    for (; at && !known.has(at); at = at.parentElement) chain.push(at);
    let above = at ? known.get(at) : { hidden: false, closed: false, body: false };
    for (const e of chain.reverse()) {
      above = passDown(e, above, above.closed ? null : getComputedStyle(e));
      known.set(e, above);
    }
    return above;
  }

  /**
   * Copies `region` without what `frame` holds (what scripts put into the content: a banner, an ad
   * slot) and what the page does not show: a site's second copy of its table of contents, hidden by
   * rules that name its place in the page, would show in the column, where those rules no longer
   * match. What a closed <details> holds is kept, hidden as it is in the page. Every element's copy
   * loses its id: labels, anchors and the page's scripts find the originals.
   */
  async function copyOf(region, above, frame, pause) {
    const root = region.cloneNode(false);
    root.removeAttribute('id');
    const ELEMENT = Node.ELEMENT_NODE;
    // `level`: depth below the copy's topmost element not yet attached (see SEGMENT); `depth`: below
    // the region; `flat`: a wrapper past MAX_DEPTH, whose children go into its parent's copy.
    const open = [{ node: region, copy: root, above, next: region.firstChild, level: 0, depth: 0, flat: false }];
    while (open.length) {
      await pause();
      const top = open[open.length - 1];
      const child = top.next;
      if (child === null) {
        open.pop();
        if (top.level === 0 && !top.flat) open[open.length - 1]?.copy.append(top.copy);
        continue;
      }
      top.next = child.nextSibling;
      if (child.nodeType !== ELEMENT) {
        top.copy.append(child.cloneNode(false));
        continue;
      }
      if (frame.has(child) || LEFT_OUT.has(child.localName)) continue;
      const style = top.above.closed ? null : getComputedStyle(child);
      if (style && !shown(child, top.node, top.above, style)) continue;
      // A <template>'s content comes with a deep copy; it holds no children of its own.
      const template = child.localName === 'template';
      const depth = top.depth + 1;
      if (depth > MAX_DEPTH && !template && child.firstElementChild !== null) {
        open.push({ ...top, node: child, above: passDown(child, top.above, style), next: child.firstChild, depth, flat: true });
        continue;
      }
      const copy = child.cloneNode(template);
      copy.removeAttribute('id');
      const level = template || top.level + 1 < SEGMENT ? top.level + 1 : 0;
      if (level > 0) top.copy.append(copy);
      if (!template) open.push({ node: child, copy, above: passDown(child, top.above, style), next: child.firstChild, level, depth, flat: false });
    }
    return root;
  }

  /**
   * A region worth reading: three words or more, or media, a table or a heading; not the stray words
   * a template holds (the current menu item, a breadcrumb's last step).
   */
  const readable = (region) => /\S\s+\S+\s+\S/.test(region.textContent)
    || region.querySelector('img, picture, video, svg, table, h1, h2, h3') !== null
    || /^(IMG|PICTURE|VIDEO|SVG|TABLE|H[1-3])$/.test(region.tagName);

  return {
    /**
     * Resolves to a fragment holding the copies of the readable `regions` inside <body>, none of
     * `frame`, or to null once `current()` says a newer view took over.
     */
    async copies(regions, frame, current) {
      const known = new Map();
      const out = document.createDocumentFragment();
      let since = performance.now();
      let seen = 0;
      const STOPPED = {};
      const pause = async () => {
        if (++seen % STEP || performance.now() - since < SLICE_MS) return;
        await nextTask();
        since = performance.now();
        if (!current()) throw STOPPED;
      };
      try {
        for (const region of regions) {
          const parent = region.parentElement;
          if (!parent || !inherited(parent, known).body || !readable(region)) continue;
          const above = passDown(region, known.get(parent), known.get(parent).closed ? null : getComputedStyle(region));
          out.append(await copyOf(region, above, frame, pause));
          await pause();
        }
      } catch (e) {
        if (e === STOPPED) return null;
        throw e;
      }
      return current() ? out : null;
    },
  };
})();
