// Keyboard shortcut and context-menu entry: extract without the popup, then
// show the template view and keep the summary for the popup to display.
'use strict';

if (typeof importScripts === 'function') importScripts('runner.js');

const MENU_ID = 'tex-extract';

api.runtime.onInstalled.addListener(() => {
  api.contextMenus.create({ id: MENU_ID, title: 'Extract template', contexts: ['page'] });
});

async function extractInTab(tab) {
  if (!tab?.id || !/^https?:/.test(tab.url ?? '')) return;
  const answer = await callCore(tab.id, 'extract', await storedConfig());
  if (!answer?.ok) {
    await api.action.setBadgeText({ tabId: tab.id, text: '!' });
    await api.action.setTitle({ tabId: tab.id, title: answer?.error ?? 'Template Extractor' });
    return;
  }
  await api.storage.session?.set({ [`report:${tab.id}`]: answer.value });
  await callCore(tab.id, 'setView', 'template');
  const { template_nodes: t, total_nodes: n } = answer.value;
  await api.action.setBadgeText({ tabId: tab.id, text: 'T' });
  await api.action.setTitle({ tabId: tab.id, title: `Template: ${t} of ${n} nodes` });
}

api.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === MENU_ID) extractInTab(tab).catch(console.error);
});

api.commands.onCommand.addListener(async (command, tab) => {
  if (command !== 'extract-template') return;
  const target = tab ?? (await api.tabs.query({ active: true, currentWindow: true }))[0];
  extractInTab(target).catch(console.error);
});
