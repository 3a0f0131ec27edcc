// The content script: owns the wasm core inside the page (it reads and marks
// the live DOM itself through web-sys) and exposes a tiny message-free API
// that scripting.executeScript calls. Injected only on demand.
'use strict';

if (!globalThis.texCore) {
  const api = globalThis.browser ?? globalThis.chrome;
  // tex.js declares `let wasm_bindgen`: a global binding, not a property of globalThis.
  const core = wasm_bindgen;

  const progress = (p) => {
    api.runtime.sendMessage({ type: 'tex-progress', ...p }).catch(() => {});
  };

  globalThis.texCore = {
    engine: null,

    /** Instantiates the wasm build; pages whose CSP lacks 'wasm-unsafe-eval' refuse it in Chromium. */
    async init() {
      try {
        await core({ module_or_path: api.runtime.getURL('tex_bg.wasm') });
        this.engine = 'wasm';
      } catch (e) {
        return 'needs-wasm2js';
      }
      return this.engine;
    },

    /** The same core translated to JavaScript by wasm2js (tex_asm.js). */
    initFromAsm() {
      core.initFromExports(globalThis.texAsm);
      this.engine = 'wasm2js';
      return this.engine;
    },

    /** Runs one entry point; errors come back as the core's one-sentence message. */
    async call(method, args) {
      try {
        let value;
        switch (method) {
          case 'extract': value = await core.extract(JSON.stringify(args[0] ?? {}), progress); break;
          case 'toggleView': value = core.toggle_view(); break;
          case 'setView': value = core.set_view(args[0]); break;
          case 'currentView': value = core.current_view() ?? null; break;
          case 'templateHtml': value = core.template_html(); break;
          default: throw new Error(`unknown method ${method}`);
        }
        if (method === 'extract') value.engine = this.engine;
        return { ok: true, value };
      } catch (e) {
        return { ok: false, error: typeof e === 'string' ? e : String(e?.message ?? e) };
      }
    },
  };
}
