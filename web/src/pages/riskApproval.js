import { ApiError } from '../api.js';
import { openModal } from '../dialog.js';
import { field, h, replace, uid } from '../dom.js';
import { t } from '../i18n.js';
import { factorLabel, factorWhy } from './riskRating.js';

/**
 * The approve dialog weighs the evidence (docs/RISK.md, "Approval"): it lists the open factors of
 * the latest risk assessment, each with a box to tick that the operator weighed it and, for a high
 * one (`needs_note`), a note saying why they approve despite it. Its confirm button stays disabled
 * until every factor is ticked and every required note written; a factor that blocks approval
 * leaves the dialog not approvable, with the reason. The approve carries the acknowledgements as
 * `risk_acknowledgements: [{code, note?}]`; with no open factor it carries none.
 */

/** @typedef {import('./riskRating.js').RiskView} RiskView */
/** @typedef {{ code: string, note?: string }} Acknowledgement */

/**
 * @param {{
 *   ctx: import('../context.js').PageContext,
 *   title: string,
 *   description: string,
 *   submitLabel: string,
 *   risk: RiskView | null | undefined,
 *   fieldLabel: (field: string) => string,
 *   onSubmit: (acknowledgements: Acknowledgement[]) => Promise<void>,
 * }} spec
 * @returns {Promise<boolean>} whether the approval ran
 */
export function approveDialog(spec) {
  return new Promise((resolve) => {
    const factors = spec.risk?.factors ?? [];
    const blocking = factors.filter((f) => f.blocks_approval === true);
    const titleId = uid('dialog-title');
    const error = h('div', { class: 'form-error', role: 'alert' });
    const remaining = h('p', { class: 'hint risk-remaining', 'aria-live': 'polite' });
    const rows = factors.map((factor) => {
      const box = /** @type {HTMLInputElement} */ (
        h('input', { type: 'checkbox', name: `ack-${factor.code}`, id: uid('ack'), onchange: () => update() })
      );
      const note =
        factor.needs_note === true
          ? /** @type {HTMLTextAreaElement} */ (
              h('textarea', {
                name: `note-${factor.code}`,
                rows: 2,
                maxlength: 500,
                required: true,
                oninput: () => update(),
              })
            )
          : null;
      const element = h(
        'li',
        { class: 'risk-ack', 'data-factor': factor.code },
        h(
          'p',
          {},
          h('strong', {}, factorLabel(factor.code)),
          ' ',
          h('span', { class: 'muted small mono', translate: 'no' }, factor.code),
        ),
        h('p', { class: 'small risk-why' }, factorWhy(spec.ctx, factor, spec.fieldLabel)),
        field(t('approve.acknowledge'), box),
        note === null ? null : field(t('approve.note'), note, t('approve.noteHint')),
      );
      return { factor, box, note, element };
    });
    const submit = /** @type {HTMLButtonElement} */ (
      h(
        'button',
        { type: 'submit', class: 'button primary', 'data-action': 'confirm-approve' },
        spec.submitLabel,
      )
    );
    const cancel = h(
      'button',
      { type: 'button', class: 'button', onclick: () => handle.close(false) },
      t('action.cancel'),
    );

    const complete = () =>
      blocking.length === 0 &&
      rows.every((row) => row.box.checked && (row.note === null || row.note.value.trim() !== ''));
    function update() {
      submit.disabled = !complete();
      replace(remaining, blocking.length === 0 && !complete() ? t('approve.remaining') : '');
    }

    const form = h(
      'form',
      { class: 'dialog-body', 'data-approvable': blocking.length === 0 ? 'true' : 'false' },
      h('h2', { id: titleId }, spec.title),
      h('div', { class: 'dialog-description' }, spec.description),
      spec.risk === null || spec.risk === undefined
        ? h('p', { class: 'muted small' }, t('approve.unrated'))
        : factors.length === 0
          ? h('p', { class: 'muted small' }, t('approve.noFactors'))
          : h('p', { class: 'small' }, t('approve.factorsIntro')),
      blocking.length === 0
        ? null
        : h(
            'p',
            {
              class: 'notice notice-warning risk-blocked',
              'data-blocked': blocking.map((f) => f.code).join(' '),
            },
            t('approve.blocked', {
              factors: blocking.map((f) => factorLabel(f.code)).join(t('risk.listSeparator')),
            }),
          ),
      rows.length === 0
        ? null
        : h(
            'ul',
            { class: 'risk-acks', 'aria-label': t('riskRating.factors') },
            rows.map((r) => r.element),
          ),
      remaining,
      error,
      h('div', { class: 'dialog-actions' }, cancel, submit),
    );
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': titleId }, form);
    const handle = openModal(dialog, resolve);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!complete()) return;
      replace(error);
      submit.disabled = true;
      try {
        await spec.onSubmit(
          rows.map(({ factor, note }) => ({
            code: factor.code,
            ...(note === null || note.value.trim() === '' ? {} : { note: note.value.trim() }),
          })),
        );
        handle.close(true);
      } catch (failure) {
        update();
        replace(error, failure instanceof Error ? failure.message : String(failure));
        if (failure instanceof ApiError) for (const row of rows) row.note?.removeAttribute('aria-invalid');
      }
    });
    update();
    // Starts on the first box, or on the safe button: Enter twice must not approve.
    (rows[0]?.box ?? cancel).focus();
  });
}
