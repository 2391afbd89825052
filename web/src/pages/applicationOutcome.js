import { h } from '../dom.js';
import { codeName, t } from '../i18n.js';
import { AREA_CODES, fieldLabel, GROUPS, IMAGES } from './applicationFields.js';

/**
 * Reason codes in the console: the choices of a move that needs them (from the `reason` table in
 * force, named in the operator's language), and the codes a change carried, shown by name.
 */

/** @typedef {import('../context.js').PageContext} PageContext */

/** Reasons a shipment comes back for: offered for that move only. */
const SHIPMENT_REASONS = ['address_undeliverable', 'recipient_unreachable', 'delivery_refused'];
/** Reasons that end an application outright: nothing the partner could send again would help. */
const DECISION_REASONS = [
  'duplicate_person',
  'underage',
  'sanctions_hit',
  'risk_policy',
  'country_unsupported',
];

/**
 * Whether a reason code fits a move: a returned shipment has its own, a request for information
 * only those the partner can answer; "other" fits every move. A code a deployment added itself
 * is offered for rejections and requests.
 * @param {string} action the move's verb (`reject`, `supplement`, `return`)
 * @param {string} code
 */
export function reasonFits(action, code) {
  if (code === 'other') return true;
  if (action === 'return') return SHIPMENT_REASONS.includes(code);
  if (SHIPMENT_REASONS.includes(code)) return false;
  return action !== 'supplement' || !DECISION_REASONS.includes(code);
}

/** @param {PageContext} ctx @param {string} action @returns {[string, string][]} */
export function reasonCodeOptions(ctx, action) {
  return (ctx.meta.codes['reason'] ?? [])
    .filter((entry) => reasonFits(action, entry.code))
    .map((entry) => [entry.code, codeName(entry)]);
}

/** The dialog field of a move's reason codes: a list to pick one or more from. */
/** @param {PageContext} ctx @param {string} action */
export function reasonCodesField(ctx, action) {
  return {
    name: 'reason_codes',
    label: t('application.reasonCodes'),
    type: /** @type {const} */ ('multiselect'),
    required: true,
    options: reasonCodeOptions(ctx, action),
    hint: t('application.reasonCodesHint'),
  };
}

/** What a dialog's values become in a move's body: the codes as a list, the rest as it is. */
/** @param {Record<string, string>} values @returns {Record<string, unknown>} */
export function moveBody(values) {
  /** @type {Record<string, unknown>} */
  const body = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === 'reason_codes' || name === 'requested_fields')
      body[name] = value === '' ? [] : value.split(',');
    else if ((name === 'reason' || name === 'tracking_url') && value.trim() === '') continue;
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

/**
 * The boxes of a request for information: the fields a partner can send again (the service's
 * `amendable_fields`), grouped as the application page groups them, then the images, then any
 * other. A telephone is one box with its calling code, as the page shows them on one line.
 * @param {PageContext} ctx
 * @returns {import('../dialog.js').CheckboxGroup[]}
 */
export function requestedFieldGroups(ctx) {
  const amendable = new Set(ctx.meta.amendable_fields);
  const placed = new Set([...Object.values(AREA_CODES)]);
  /** @param {string} label @param {readonly string[]} fields */
  const group = (label, fields) => {
    for (const name of fields) placed.add(name);
    return {
      label,
      options: fields
        .filter((name) => amendable.has(name))
        .map((name) => {
          const code = AREA_CODES[name];
          const value = code !== undefined && amendable.has(code) ? `${name},${code}` : name;
          return /** @type {[string, string]} */ ([value, fieldLabel(name)]);
        }),
    };
  };
  const groups = [
    ...GROUPS.map(([name, fields]) => group(t(`group.${name}`), fields)),
    group(t('application.images'), IMAGES),
  ];
  groups.push(
    group(
      t('group.other'),
      ctx.meta.amendable_fields.filter((name) => !placed.has(name)),
    ),
  );
  return groups.filter((g) => g.options.length > 0);
}

/** The dialog field of a request for information: boxes of the fields to send again. */
/** @param {PageContext} ctx */
export function requestedFieldsField(ctx) {
  return {
    name: 'requested_fields',
    label: t('application.requestedFields'),
    type: /** @type {const} */ ('checkboxes'),
    required: true,
    groups: requestedFieldGroups(ctx),
    hint: t('application.requestedFieldsHint'),
  };
}

/**
 * What a change asked for or changed, by field name only (values stay masked): the fields of a
 * request for information, and of an amendment those sent again and those whose value changed.
 * @param {Record<string, unknown> | null | undefined} details
 */
export function fieldLists(details) {
  if (details === null || details === undefined) return null;
  /** @type {[string, string][]} */
  const lists = [
    ['requested_fields', 'application.requestedFields'],
    ['amended_fields', 'application.amendedFields'],
    ['changed_fields', 'application.changedFields'],
  ];
  const rows = lists
    .filter(([name]) => Array.isArray(details[name]))
    .map(([name, label]) => {
      const fields = /** @type {string[]} */ (details[name]);
      return h(
        'div',
        { class: 'field-list', 'data-list': name },
        h('dt', {}, label === '' ? name : t(label)),
        h('dd', {}, fields.length === 0 ? t('application.unchanged') : fields.map(fieldLabel).join(' · ')),
      );
    });
  return rows.length === 0 ? null : h('dl', { class: 'details small' }, rows);
}

/** Details other than the field lists (carrier, tracking number...). @param {Record<string, unknown> | null} details */
export function otherDetails(details) {
  if (details === null) return null;
  const rest = Object.entries(details).filter(
    ([name]) => !['requested_fields', 'amended_fields', 'changed_fields', 'simulated'].includes(name),
  );
  return rest.length === 0 ? null : Object.fromEntries(rest);
}
