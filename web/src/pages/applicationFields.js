import { h } from '../dom.js';
import { codeName, has, t } from '../i18n.js';

/**
 * Every field of an application, grouped as a reviewer reads it. Identity fields arrive masked;
 * a reviewer reveals one at a time (each reveal is audited by the API) and the value lives only in
 * the page's memory until the page is left or the value hidden again. The images are the service's
 * kept copies, shown by applicationDocuments.js; a partner's URL is never loaded.
 */

/** @typedef {import('../context.js').PageContext} PageContext */
/**
 * @typedef {{
 *   ctx: PageContext,
 *   application: Record<string, unknown>,
 *   revealed: Map<string, unknown>,
 *   canReveal: boolean,
 *   flagged: Map<string, string[]>,
 *   reveal: (field: string) => Promise<void>,
 *   hide: (field: string) => void,
 * }} FieldsInput
 */

export const GROUPS = /** @type {const} */ ([
  ['applicant', ['name', 'name_en', 'sex', 'birthday', 'country']],
  ['document', ['cert_type', 'cert_id', 'cert_start_date', 'cert_end_date']],
  ['contact', ['mob_no', 'email', 'address']],
  [
    'employment',
    [
      'company_name',
      'position',
      'profession',
      'profession_other',
      'years_of_service',
      'yearly_income',
      'office_tel_no',
      'office_address',
    ],
  ],
  ['account', ['purpose', 'purpose_other', 'wealth_source', 'wealth_source_other', 'card_no']],
  ['delivery', ['consignee', 'consignee_mob_no', 'consignee_address']],
]);

export const IMAGES = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'];

/** Area codes are shown with their numbers. */
export const AREA_CODES = /** @type {Record<string, string>} */ ({
  mob_no: 'mob_no_of',
  office_tel_no: 'office_tel_no_of',
  consignee_mob_no: 'consignee_mob_no_of',
});

const CODE_TABLES = ['country', 'position', 'profession', 'purpose', 'wealth_source'];

const SHOWN_ONLY_WHEN_GIVEN = new Set([
  'profession_other',
  'purpose_other',
  'wealth_source_other',
  'card_no',
]);

/** Shown elsewhere or not a field of the applicant. */
const HANDLED = new Set([
  ...GROUPS.flatMap(([, fields]) => fields),
  ...IMAGES,
  ...Object.values(AREA_CODES),
  'other_field',
]);

/** @param {string} name */
export const fieldLabel = (name) => (has(`field.${name}`) ? t(`field.${name}`) : name);

/**
 * A code with its name from the table in force: `04 · Manager`.
 * @param {PageContext} ctx @param {string} table @param {unknown} value
 */
function codeText(ctx, table, value) {
  const codes = Array.isArray(value) ? value.map(String) : [String(value)];
  return codes
    .map((code) => {
      const entry = ctx.meta.codes[table]?.find((e) => e.code === code);
      return entry === undefined ? code : `${code} · ${codeName(entry)}`;
    })
    .join('；');
}

/** @param {FieldsInput} input @param {string} name */
function displayValue(input, name) {
  const value = input.revealed.has(name) ? input.revealed.get(name) : input.application[name];
  if (value === undefined || value === null) return '—';
  if (CODE_TABLES.includes(name)) return codeText(input.ctx, name, value);
  if (name === 'sex') return t(`sex.${String(value)}`);
  if (name === 'cert_type') return t(`certType.${String(value)}`);
  if (name === 'cert_end_date' && value === '9999-12-31') return t('field.noExpiry');
  const areaCode = AREA_CODES[name] === undefined ? undefined : input.application[AREA_CODES[name]];
  return areaCode === undefined ? String(value) : `${String(areaCode)} ${String(value)}`;
}

/**
 * The reveal or hide button of a masked field.
 * @param {FieldsInput} input @param {string} name
 */
export function revealControl(input, name) {
  if (!input.ctx.meta.revealable_fields.includes(name) || input.application[name] === undefined) return null;
  if (!input.canReveal) return h('span', { class: 'masked-tag' }, t('fields.masked'));
  const shown = input.revealed.has(name);
  return h(
    'button',
    {
      type: 'button',
      class: `button small ${shown ? 'ghost' : 'reveal'}`,
      'data-focus-key': `reveal-${name}`,
      'data-field': name,
      'aria-label': t(shown ? 'fields.hideNamed' : 'fields.revealNamed', { field: fieldLabel(name) }),
      onclick: () => (shown ? input.hide(name) : input.reveal(name)),
    },
    t(shown ? 'fields.hide' : 'fields.reveal'),
  );
}

/** @param {FieldsInput} input @param {string} name */
function row(input, name) {
  const flags = input.flagged.get(name);
  const shown = input.revealed.has(name);
  const masked = input.ctx.meta.revealable_fields.includes(name) && !shown;
  return h(
    'div',
    { class: `field-row${flags === undefined ? '' : ' flagged'}`, 'data-field-row': name },
    h('dt', {}, fieldLabel(name)),
    h(
      'dd',
      {},
      h(
        'span',
        { class: `value${masked ? ' masked' : ''}${shown ? ' revealed' : ''}`, 'data-value': name },
        displayValue(input, name),
      ),
      revealControl(input, name),
      shown ? h('span', { class: 'audited-note' }, t('fields.audited')) : null,
      flags === undefined
        ? null
        : h(
            'span',
            { class: 'flag-marker', title: flags.join(' · ') },
            '⚑',
            h('span', { class: 'sr-only' }, t('fields.flagged', { flags: flags.join(', ') })),
          ),
    ),
  );
}

/** @param {FieldsInput} input */
export function fieldGroups(input) {
  // Optional answers that only some applications have are left out when absent; the rest show "—".
  const present = (/** @type {string} */ name) =>
    input.application[name] !== undefined || !SHOWN_ONLY_WHEN_GIVEN.has(name);
  const groups = GROUPS.map(([group, fields]) =>
    h(
      'section',
      { class: 'field-group', 'aria-labelledby': `group-${group}` },
      h('h3', { id: `group-${group}` }, t(`group.${group}`)),
      h(
        'dl',
        { class: 'fields' },
        fields.filter(present).map((name) => row(input, name)),
      ),
    ),
  );
  const rest = Object.keys(input.application).filter((name) => !HANDLED.has(name));
  const extensions = /** @type {{ name: string, value: string, field: string }[] | undefined} */ (
    input.application['other_field']
  );
  if (rest.length > 0 || (extensions !== undefined && extensions.length > 0)) {
    groups.push(
      h(
        'section',
        { class: 'field-group', 'aria-labelledby': 'group-other' },
        h('h3', { id: 'group-other' }, t('group.other')),
        h(
          'dl',
          { class: 'fields' },
          rest.map((name) => row(input, name)),
          (extensions ?? []).map((ext) =>
            h(
              'div',
              { class: 'field-row' },
              h('dt', {}, ext.name || ext.field),
              h('dd', {}, h('span', { class: 'value' }, ext.value)),
            ),
          ),
        ),
      ),
    );
  }
  return groups;
}
