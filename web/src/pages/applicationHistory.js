import { formatTime, h } from '../dom.js';
import { t } from '../i18n.js';
import { actorLabel, statusBadge } from '../ui.js';
import { fieldLabel } from './applicationFields.js';
import { fieldLists, otherDetails, reasonCodeList } from './applicationOutcome.js';

/**
 * The application page's side panels: its risk flags and its history (each change with who made
 * it, the reason and codes, and what it asked for or changed).
 */

/**
 * @typedef {{ code: string, fields: string[], params: Record<string, number | string> }} RiskFlag
 * @typedef {{ from_status: string | null, status: string, actor: string, reason: string | null, reason_codes?: string[], details: Record<string, unknown> | null, at: number }} Transition
 */

/** @param {RiskFlag[]} flags */
export function riskList(flags) {
  if (flags.length === 0) return h('p', { class: 'risk-none' }, t('risk.none'));
  return h(
    'ul',
    { class: 'risk-flags' },
    flags.map((flag) =>
      h(
        'li',
        { class: 'risk-flag', 'data-flag': flag.code },
        h('span', { class: 'risk-title' }, t(`risk.${flag.code}`, flag.params)),
        h('span', { class: 'small muted' }, flag.fields.map(fieldLabel).join(' · ')),
      ),
    ),
  );
}

/** @param {import('../context.js').PageContext} ctx @param {Transition[]} history */
export function timeline(ctx, history) {
  return h(
    'ol',
    { class: 'timeline' },
    history.map((entry) =>
      h(
        'li',
        { class: 'timeline-item' },
        h(
          'div',
          { class: 'timeline-head' },
          statusBadge(entry.status),
          h('span', { class: 'muted small' }, formatTime(entry.at)),
        ),
        h('div', { class: 'small' }, actorLabel(entry.actor)),
        reasonCodeList(ctx, entry.reason_codes),
        entry.reason === null ? null : h('blockquote', { class: 'reason' }, entry.reason),
        fieldLists(entry.details),
        otherDetails(entry.details) === null
          ? null
          : h(
              'dl',
              { class: 'details small' },
              Object.entries(otherDetails(entry.details) ?? {}).map(([name, value]) =>
                h(
                  'div',
                  {},
                  h('dt', {}, t(`application.${name}`)),
                  h('dd', { class: 'mono' }, String(value)),
                ),
              ),
            ),
      ),
    ),
  );
}
