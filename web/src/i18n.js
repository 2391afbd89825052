import en from './i18n/en.js';
import zh from './i18n/zh.js';

/**
 * Chinese and English. The choice is remembered in localStorage; the first visit follows the
 * browser's language. The admin API answers errors in the same language (Accept-Language).
 */

/** @typedef {'en' | 'zh'} Language */

const STORAGE_KEY = 'cardapply.console.language';
/** @type {Record<Language, Record<string, string>>} */
const DICTIONARIES = { en, zh };

/** @returns {Language} */
function initialLanguage() {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === 'en' || stored === 'zh') return stored;
  } catch {
    // Storage may be disabled; the browser's language still decides.
  }
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** @type {Language} */
let current = initialLanguage();

export const language = () => current;

/** @param {Language} next */
export function setLanguage(next) {
  current = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Not remembered, but switched.
  }
  applyDocumentLanguage();
}

export function applyDocumentLanguage() {
  document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
}

/**
 * A message in the current language, `{name}` replaced by params.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  const template = DICTIONARIES[current][key] ?? en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ''));
}

/** Whether a key exists (for optional labels such as a field's name). @param {string} key */
export const has = (key) => key in en;

/**
 * The keys under a prefix, less the prefix: `keysUnder('audit.action.')` lists every audit action
 * the console has a label for (the server's full list: test/console/console.http.test.ts).
 * @param {string} prefix
 */
export const keysUnder = (prefix) =>
  Object.keys(en)
    .filter((key) => key.startsWith(prefix))
    .map((key) => key.slice(prefix.length));

/** A status's label: `IN_REVIEW` -> "In review" / "审核中". @param {string} status */
export const statusLabel = (status) => t(`status.${status}`);

/**
 * A code table entry's name in the current language.
 * @param {{ name: string, name_zh: string }} entry
 */
export const codeName = (entry) => (current === 'zh' ? entry.name_zh : entry.name);
