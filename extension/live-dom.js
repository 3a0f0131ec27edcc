// The live page's elements in one call from the core (src/wasm/live_dom.rs):
// walking the DOM here and handing wasm one string and one array of numbers
// costs a fraction of reading every node through web-sys, one boundary
// crossing per property. The walk is the core's snapshot order; the core
// decodes the encoding and owns every decision about it.
'use strict';

globalThis.texLiveDom ??= {
  /**
   * Pre-order walk of `root`, skipping elements that carry the attribute `own`
   * (ours). Resolves to [elements, strings, codes]: the elements in order and,
   * when `withTree`, the tree as codes over the concatenated strings, each
   * length in UTF-16 units: 0 tag-length attribute-count (name-length
   * value-length)… opens an element, 1 closes one, 2 length is text (adjacent
   * text nodes joined, as the HTML parser never leaves two side by side).
   * `read` names the attributes whose values the core reads, separated by spaces (the others are
   * handed over empty), and `longest` how many UTF-16 units of such a value it reads: a longer one
   * is handed over with one unit more, so the core knows it went on (src/page/dom.rs).
   */
  walk(root, own, withTree, read, longest) {
    const walker = this.walker(root, own, withTree, read, longest);
    walker.step(Infinity, Infinity);
    return walker.result();
  },

  /**
   * The same walk in steps, so that a page of 100,000 elements is read without freezing the tab:
   * `step(nodes, units)` visits at most `nodes` more nodes, and no more once the values and texts
   * read in the step reach `units` UTF-16 units (a huge attribute is read whole, then cut), and says
   * whether any are left; `result()` is `walk`'s answer once none are. Nodes the page changes
   * between two steps are read as they are when reached (the core's watch, started before the walk,
   * sees the change).
   */
  walker(root, own, withTree, read, longest) {
    const elements = [];
    const strings = [];
    const codes = [];
    if (root.hasAttribute(own)) return { step: () => false, result: () => [elements, '', new Int32Array(0)] };
    const reads = new Set(read.split(' '));
    /** UTF-16 units of values and texts read in the current step. */
    let spent = 0;
    const value = (name, of) => {
      if (!reads.has(name.toLowerCase())) return '';
      const whole = of();
      spent += whole.length;
      return whole.length > longest ? whole.slice(0, longest + 1) : whole;
    };
    let text = '';
    const flush = () => {
      if (text) {
        codes.push(2, text.length);
        strings.push(text);
        text = '';
      }
    };
    const open = (element, tag) => {
      elements.push(element);
      if (!withTree) return;
      // Names and values as strings cost less than an Attr object per attribute; a
      // prefixed name (xlink:href) is read through its Attr, for its local name.
      const names = element.getAttributeNames();
      if (!names.some((n) => n.includes(':'))) {
        codes.push(0, tag.length, names.length);
        strings.push(tag);
        for (const name of names) {
          const read = value(name, () => element.getAttribute(name));
          codes.push(name.length, read.length);
          strings.push(name, read);
        }
        return;
      }
      const attributes = element.attributes;
      codes.push(0, tag.length, attributes.length);
      strings.push(tag);
      for (let i = 0; i < attributes.length; i++) {
        const attribute = attributes[i];
        const { localName } = attribute;
        const read = value(localName, () => attribute.value);
        codes.push(localName.length, read.length);
        strings.push(localName, read);
      }
    };
    // A <template>'s children live in its content fragment; html5ever keeps them as children.
    // Known by name and namespace, not `instanceof`, which fails for a frame's elements.
    // Constants are read once: in a Firefox content script every lookup crosses a wrapper.
    const HTML = 'http://www.w3.org/1999/xhtml';
    const [ELEMENT, TEXT, CDATA] = [Node.ELEMENT_NODE, Node.TEXT_NODE, Node.CDATA_SECTION_NODE];
    // Each property read crosses into the page's world: an element's name is read once.
    const firstChild = (element, tag) => (tag === 'template' && element.namespaceURI === HTML
      ? element.content.firstChild : element.firstChild);
    const rootTag = root.localName;
    open(root, rootTag);
    const pending = [firstChild(root, rootTag)];
    const step = (nodes, units) => {
      spent = 0;
      for (let left = nodes; pending.length && left > 0 && spent < units; left--) {
        visit();
      }
      return pending.length > 0;
    };
    const visit = () => {
      const node = pending[pending.length - 1];
      if (node === null) {
        pending.pop();
        if (withTree) {
          flush();
          codes.push(1);
        }
        return;
      }
      pending[pending.length - 1] = node.nextSibling;
      const type = node.nodeType;
      if (type === ELEMENT) {
        if (node.hasAttribute(own)) return;
        if (withTree) flush();
        const tag = node.localName;
        open(node, tag);
        pending.push(firstChild(node, tag));
      } else if (withTree && (type === TEXT || type === CDATA)) {
        const data = node.nodeValue;
        spent += data.length;
        text += data;
      }
    };
    return { step, result: () => [elements, strings.join(''), Int32Array.from(codes)] };
  },

  /**
   * Watches `root`'s document from now on for anything the walk reads: elements, attributes and
   * text, in the document and in its <template> contents (fragments of their own). Our marks
   * (`data-tex-` attributes, which no snapshot reads) and our elements (carrying `own`) are not
   * changes. The handle's `changed()` says whether one happened since; the observer stops at the
   * first, so a busy page queues no records for long.
   */
  watch(root, own) {
    const ours = (node) => (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement)?.closest(`[${own}]`) != null;
    const foreign = (record) => {
      if (record.type === 'attributes') return !record.attributeName.startsWith('data-tex-') && !ours(record.target);
      if (ours(record.target)) return false;
      if (record.type === 'characterData') return true;
      const ownElement = (node) => node.nodeType === Node.ELEMENT_NODE && node.hasAttribute(own);
      return ![...record.addedNodes, ...record.removedNodes].every(ownElement);
    };
    let changed = false;
    const observer = new MutationObserver((records) => {
      if (records.some(foreign)) {
        changed = true;
        observer.disconnect();
      }
    });
    const options = { subtree: true, childList: true, attributes: true, characterData: true };
    const trees = [root.ownerDocument];
    for (let i = 0; i < trees.length; i++) {
      observer.observe(trees[i], options);
      for (const template of trees[i].querySelectorAll('template')) trees.push(template.content);
    }
    return {
      changed() {
        if (!changed && observer.takeRecords().some(foreign)) {
          changed = true;
          observer.disconnect();
        }
        return changed;
      },
      stop() {
        observer.disconnect();
      },
    };
  },
};
