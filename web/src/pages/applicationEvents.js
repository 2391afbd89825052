import { api } from '../api.js';
import { formatTime, h } from '../dom.js';
import { has, statusLabel, t } from '../i18n.js';
import { errorText, mono } from '../ui.js';

/**
 * The events of an application (one per state change) and their webhook deliveries, each with its
 * attempts; an admin can send a delivery again. Viewers see the events only (deliveries carry the
 * partners' endpoints and errors).
 */

/**
 * @typedef {{ started_at_ms: number, duration_ms: number | null, status_code: number | null, error: string | null, worker: string }} Attempt
 * @typedef {{ id: string, endpoint_id: string, status: string, attempt_count: number, last_status_code: number | null, last_error: string | null, delivered_at: number | null, next_attempt_at: number | null, attempts: Attempt[] }} Delivery
 * @typedef {{ id: string, type: string, created_at: number, data: { sequence: number, status: string, previous_status: string | null, reason: string | null } | { sequence: number, subject_request: { kind: string, status: string } }, deliveries: Delivery[] | null }} AppEvent
 */

/** @param {Delivery} d */
function lastResult(d) {
  if (d.last_status_code !== null) return `HTTP ${d.last_status_code}`;
  if (d.last_error !== null) return d.last_error;
  return '—';
}

/**
 * @param {AppEvent[]} events
 * @param {{ ctx: import('../context.js').PageContext, reload: () => void }} options
 */
export function eventList(events, { ctx, reload }) {
  if (events.length === 0) return h('p', { class: 'muted' }, t('events.none'));
  const canRedeliver = ctx.can('admin');
  /** @param {AppEvent} event @param {Delivery} delivery */
  const redeliver = async (event, delivery) => {
    try {
      const result = await api('POST', `/events/${event.id}/redeliver`, {
        endpoint_id: delivery.endpoint_id,
      });
      ctx.toast(t('events.redelivered', { queued: result.queued }), 'success');
      reload();
    } catch (error) {
      ctx.toast(errorText(error), 'error');
    }
  };
  return h(
    'ol',
    { class: 'events' },
    events.map((event) =>
      h(
        'li',
        { class: 'event', 'data-event': event.id },
        h(
          'div',
          { class: 'event-head' },
          h('span', { class: 'event-seq' }, `#${event.data.sequence}`),
          h('span', { class: 'event-label' }, eventLabel(event.type)),
          h('code', { class: 'event-type small', translate: 'no' }, event.type),
          h('span', { class: 'muted small' }, formatTime(event.created_at)),
        ),
        h(
          'div',
          { class: 'small muted' },
          'subject_request' in event.data
            ? `${t(`subjects.kind.${event.data.subject_request.kind}`)} · ${t(`subjects.status.${event.data.subject_request.status}`)}`
            : event.data.previous_status === null
              ? statusLabel(event.data.status)
              : `${statusLabel(event.data.previous_status)} → ${statusLabel(event.data.status)}`,
          ' · ',
          mono(event.id),
        ),
        event.deliveries === null
          ? h('p', { class: 'small muted' }, t('events.deliveriesHidden'))
          : event.deliveries.length === 0
            ? h('p', { class: 'small muted' }, t('events.noDeliveries'))
            : h(
                'ul',
                { class: 'deliveries' },
                event.deliveries.map((d) =>
                  h(
                    'li',
                    { class: 'delivery', 'data-delivery': d.id },
                    h('span', { class: `badge delivery-${d.status}` }, t(`delivery.${d.status}`)),
                    h('span', { class: 'mono small' }, d.endpoint_id),
                    h(
                      'span',
                      { class: 'small muted' },
                      t('events.attempts', { n: d.attempt_count }),
                      ' · ',
                      lastResult(d),
                      d.delivered_at === null ? '' : ` · ${formatTime(d.delivered_at)}`,
                    ),
                    canRedeliver
                      ? h(
                          'button',
                          {
                            type: 'button',
                            class: 'button small',
                            'data-focus-key': `redeliver-${d.id}`,
                            'aria-label': t('events.redeliverNamed', {
                              type: event.type,
                              endpoint: d.endpoint_id,
                            }),
                            onclick: () => redeliver(event, d),
                          },
                          t('events.redeliver'),
                        )
                      : null,
                  ),
                ),
              ),
      ),
    ),
  );
}

/**
 * An event type in words: `application.in_review` -> "Webhook: In review" (the type itself, which
 * partners program against, is shown beside it as an identifier). The events that are not a move
 * (the amendment, the documents' outcomes) have labels of their own.
 * @param {string} type
 */
function eventLabel(type) {
  const status = type.replace(/^application\./, '').toUpperCase();
  const what = has(`events.type.${type}`)
    ? t(`events.type.${type}`)
    : has(`status.${status}`)
      ? statusLabel(status)
      : type;
  return t('events.label', { what });
}
