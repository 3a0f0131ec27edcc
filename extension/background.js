// Keyboard shortcut and context-menu entry: extract without the popup, then
// show the content view (the reading column; Escape returns to the page).
// The extraction and its report stay in the page (content.js); only the
// toolbar badge and its one-sentence title are set here, so nothing large
// is ever stored and every failure is said.
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

/** Extracts in `tab`; resolves to the one sentence shown as the toolbar button's title. */
async function extractInTab(tab) {
  if (!tab?.id) return null;
  if (!/^https?:/.test(tab.url ?? 'http:')) {
    const sentence = texI18n.t('errorRestricted', tab.url);
    await mark(tab.id, '!', sentence);
    return sentence;
  }
  let answer;
  try {
    answer = await callCore(tab.id, 'extract', await storedConfig(), 'use');
  } catch (e) {
    answer = { ok: false, error: texI18n.t('errorInjection', e?.message ?? e) };
  }
  if (!answer?.ok) {
    const sentence = answer?.error ?? texI18n.t('errorNoAnswer');
    await mark(tab.id, '!', sentence);
    return sentence;
  }
  const view = await callCore(tab.id, 'setView', 'content');
  if (!view?.ok) {
    await mark(tab.id, '!', view?.error ?? texI18n.t('errorNoAnswer'));
    return view?.error;
  }
  const { template_nodes: t, total_nodes: n } = answer.value;
  const sentence = texI18n.t('actionTitleDone', texI18n.percent((100 * t) / Math.max(1, n)));
  await mark(tab.id, 'T', sentence);
  return sentence;
}

/** Anything unexpected still ends as a sentence on the toolbar button. */
function run(tab) {
  extractInTab(tab).catch((e) => tab?.id && mark(tab.id, '!', texI18n.t('errorPlain', String(e?.message ?? e))));
}

api.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === MENU_ID) run(tab);
});

api.commands.onCommand.addListener(async (command, tab) => {
  if (command !== 'extract-template') return;
  const target = tab ?? (await api.tabs.query({ active: true, currentWindow: true }))[0];
  run(target);
});
