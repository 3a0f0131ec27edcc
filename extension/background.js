// Keyboard shortcut and context-menu entry: extract without the popup, then
// show the content view (the reading column; Escape returns to the page).
// The extraction, its report and its end belong to the page (content.js):
// the background only starts it and, told by a message when it ends, sets
// the toolbar badge and its one-sentence title. It holds nothing while the
// page works, so Firefox may suspend its event page in between (after 30 s
// without an event) and the result still arrives; nothing large is stored
// and every failure is said.
'use strict';

if (typeof importScripts === 'function') importScripts('runner.js', 'i18n.js');

const MENU_ID = 'tex-extract';

api.runtime.onInstalled.addListener(() => {
  api.contextMenus.create({ id: MENU_ID, title: texI18n.t('menuExtract'), contexts: ['page'] });
});

async function mark(tabId, text, title) {
  await api.action.setBadgeText({ tabId, text });
  await api.action.setTitle({ tabId, title });
}

/** Starts an extraction in `tab` that shows the content view when it ends; the page says how it ended ('tex-ended'). */
async function startInTab(tab) {
  if (!tab?.id) return;
  if (!/^https?:/.test(tab.url ?? 'http:')) {
    await mark(tab.id, '!', texI18n.t('errorRestricted', tab.url));
    return;
  }
  await mark(tab.id, '…', texI18n.t('actionTitleRunning'));
  let answer;
  try {
    answer = await callCore(tab.id, 'start', await storedConfig(), 'use', 'content');
  } catch (e) {
    answer = { ok: false, error: texI18n.t('errorInjection', e?.message ?? e) };
  }
  if (!answer?.ok) await mark(tab.id, '!', answer?.error ?? texI18n.t('errorNoAnswer'));
}

/** The page's word on a run this background started: its sentence on the toolbar button. */
async function ended(tabId, message) {
  if (!message.ok) {
    await mark(tabId, '!', message.error ?? texI18n.t('errorNoAnswer'));
    return;
  }
  const share = (100 * message.template_nodes) / Math.max(1, message.total_nodes);
  await mark(tabId, 'T', texI18n.t('actionTitleDone', texI18n.percent(share)));
}

/** Anything unexpected still ends as a sentence on the toolbar button. */
const failed = (tabId) => (e) => tabId && mark(tabId, '!', texI18n.t('errorPlain', String(e?.message ?? e)));

function run(tab) {
  startInTab(tab).catch(failed(tab?.id));
}

api.runtime.onMessage.addListener((message, sender) => {
  if (message?.type === 'tex-ended' && sender.tab?.id) ended(sender.tab.id, message).catch(failed(sender.tab.id));
});

// The core's wasm for a content script that may not fetch it (see content.js's wasmSource), as bytes.
api.runtime.onMessage.addListener((message) => {
  if (message?.type === 'tex-wasm') return fetch(api.runtime.getURL('tex_bg.wasm')).then((r) => r.arrayBuffer());
  return undefined;
});

api.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === MENU_ID) run(tab);
});

api.commands.onCommand.addListener(async (command, tab) => {
  if (command !== 'extract-template') return;
  const target = tab ?? (await api.tabs.query({ active: true, currentWindow: true }))[0];
  run(target);
});
