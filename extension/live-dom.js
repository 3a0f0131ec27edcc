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
   */
  walk(root, own, withTree) {
    const elements = [];
    const strings = [];
    const codes = [];
    if (root.hasAttribute(own)) return [elements, '', new Int32Array(0)];
    let text = '';
    const flush = () => {
      if (text) {
        codes.push(2, text.length);
        strings.push(text);
        text = '';
      }
    };
    const open = (element) => {
      elements.push(element);
      if (!withTree) return;
      const tag = element.localName;
      const attributes = element.attributes;
      codes.push(0, tag.length, attributes.length);
      strings.push(tag);
      for (let i = 0; i < attributes.length; i++) {
        const { localName, value } = attributes[i];
        codes.push(localName.length, value.length);
        strings.push(localName, value);
      }
    };
    // A <template>'s children live in its content fragment; html5ever keeps them as children.
    // Known by name and namespace, not `instanceof`, which fails for a frame's elements.
    // Constants are read once: in a Firefox content script every lookup crosses a wrapper.
    const HTML = 'http://www.w3.org/1999/xhtml';
    const [ELEMENT, TEXT, CDATA] = [Node.ELEMENT_NODE, Node.TEXT_NODE, Node.CDATA_SECTION_NODE];
    const firstChild = (element) => (element.localName === 'template' && element.namespaceURI === HTML
      ? element.content.firstChild : element.firstChild);
    open(root);
    const pending = [firstChild(root)];
    while (pending.length) {
      const node = pending[pending.length - 1];
      if (node === null) {
        pending.pop();
        if (withTree) {
          flush();
          codes.push(1);
        }
        continue;
      }
      pending[pending.length - 1] = node.nextSibling;
      const type = node.nodeType;
      if (type === ELEMENT) {
        if (node.hasAttribute(own)) continue;
        if (withTree) flush();
        open(node);
        pending.push(firstChild(node));
      } else if (withTree && (type === TEXT || type === CDATA)) {
        text += node.nodeValue;
      }
    }
    return [elements, strings.join(''), Int32Array.from(codes)];
  },
};
