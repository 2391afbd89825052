import { h } from '../dom.js';
import { codeName, t } from '../i18n.js';

/**
 * Reason codes in the console: the choices of a move that needs them (from the `reason` table in
 * force, named in the operator's language), and the codes a change carried, shown by name.
 */

/** @typedef {import('../context.js').PageContext} PageContext */

/** @param {PageContext} ctx @returns {[string, string][]} */
export function reasonCodeOptions(ctx) {
  return (ctx.meta.codes['reason'] ?? []).map((entry) => [entry.code, codeName(entry)]);
}

/** The dialog field of a move's reason codes: a list to pick one or more from. */
/** @param {PageContext} ctx */
export function reasonCodesField(ctx) {
  return {
    name: 'reason_codes',
    label: t('application.reasonCodes'),
    type: /** @type {const} */ ('multiselect'),
    required: true,
    options: reasonCodeOptions(ctx),
    hint: t('application.reasonCodesHint'),
  };
}

/** What a dialog's values become in a move's body: the codes as a list, the rest as it is. */
/** @param {Record<string, string>} values @returns {Record<string, unknown>} */
export function moveBody(values) {
  /** @type {Record<string, unknown>} */
  const body = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === 'reason_codes') body[name] = value === '' ? [] : value.split(',');
    else if (name === 'reason' && value.trim() === '') continue;
    else body[name] = value;
  }
  return body;
}

/** The codes a change carried, by name (the code itself when the table no longer has it). */
/** @param {PageContext} ctx @param {string[] | undefined} codes */
export function reasonCodeList(ctx, codes) {
  if (codes === undefined || codes.length === 0) return null;
  const table = ctx.meta.codes['reason'] ?? [];
  return h(
    'ul',
    { class: 'reason-codes', 'aria-label': t('application.reasonCodes') },
    codes.map((code) => {
      const entry = table.find((candidate) => candidate.code === code);
      return h(
        'li',
        { class: 'reason-code', 'data-code': code },
        entry === undefined ? code : codeName(entry),
      );
    }),
  );
}
