import { api } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { emptyRow, errorPanel, loading, statusBadge, table } from '../ui.js';
import { tierBadge } from './riskRating.js';

/**
 * The review workload: per status the count, the oldest waiting, the median time in status and
 * what is past its SLA; and the backlog of the last 7 days (arrivals and decisions per hour) as a
 * bar chart drawn here in SVG (no library, no CDN). Every bar carries its hour and value, so the
 * chart can be read by a test and by a screen reader's table alternative.
 * @type {import('../context.js').Page}
 */
export function renderDashboard(main, ctx) {
  ctx.setTitle(t('dashboard.title'));
  const body = h('div', {}, loading());
  replace(main, h('div', { class: 'page' }, h('h1', {}, t('dashboard.title')), body));
  let stopped = false;

  api('GET', '/workload')
    .then((workload) => {
      if (!stopped)
        replace(
          body,
          subjectsSection(workload.subject_requests),
          statusTable(workload.statuses),
          riskSection(workload.risk),
          chart(workload.backlog),
        );
    })
    .catch((error) => replace(body, errorPanel(error)));
  return () => {
    stopped = true;
  };
}

/**
 * Applicants' requests past their due date (docs/PRIVACY.md): flagged, with a link to the queue.
 * @param {{ overdue: number, oldest_due_at: number | null }} subjects
 */
function subjectsSection(subjects) {
  return h(
    'section',
    {
      class: `card workload-subjects${subjects.overdue > 0 ? ' alert' : ''}`,
      'aria-labelledby': 'workload-subjects-title',
      'data-overdue': String(subjects.overdue),
    },
    h('h2', { id: 'workload-subjects-title' }, t('dashboard.subjects')),
    h(
      'p',
      { role: subjects.overdue > 0 ? 'alert' : null },
      subjects.overdue > 0
        ? h(
            'a',
            { href: '/console/subject-requests?open=true' },
            t('dashboard.subjectsOverdue', { n: subjects.overdue }),
          )
        : t('dashboard.subjectsNone'),
    ),
  );
}

/** @param {number | null} seconds */
export function duration(seconds) {
  if (seconds === null) return '–';
  if (seconds < 3600) return t('dashboard.minutes', { n: Math.floor(seconds / 60) });
  if (seconds < 86_400) return t('dashboard.hours', { n: (seconds / 3600).toFixed(1) });
  return t('dashboard.days', { n: (seconds / 86_400).toFixed(1) });
}

/** @param {{ status: string, count: number, oldest_seconds: number | null, median_seconds: number | null, sla_seconds: number | null, past_sla: number }[]} statuses */
function statusTable(statuses) {
  return table(
    t('dashboard.statuses'),
    [
      t('queue.status'),
      t('dashboard.count'),
      t('dashboard.oldest'),
      t('dashboard.median'),
      t('dashboard.sla'),
      t('dashboard.pastSla'),
    ],
    h(
      'tbody',
      {},
      statuses.map((s) =>
        h(
          'tr',
          { 'data-status': s.status, class: s.past_sla > 0 ? 'past-sla' : null },
          h('td', {}, statusBadge(s.status)),
          h('td', { class: 'num' }, String(s.count)),
          h('td', {}, duration(s.oldest_seconds)),
          h('td', {}, duration(s.median_seconds)),
          h('td', {}, duration(s.sla_seconds)),
          h('td', { class: 'num' }, String(s.past_sla)),
        ),
      ),
    ),
    'workload-table',
  );
}

/**
 * The risk of the waiting applications (not final): how many have each tier and how many are not
 * yet rated; and the share of the last 7 days' decisions the policy took itself (straight through).
 * @param {{ tiers: { tier: string, count: number }[], unrated: number, decisions: number, policy_decisions: number } | undefined} risk
 */
function riskSection(risk) {
  if (risk === undefined) return null;
  /** @type {{ tier: string | null, count: number }[]} */
  const rows = [...risk.tiers, { tier: null, count: risk.unrated }];
  const share =
    risk.decisions === 0
      ? t('dashboard.noDecisions')
      : t('dashboard.straightThrough', {
          share: `${((100 * risk.policy_decisions) / risk.decisions).toFixed(1)}%`,
        });
  return h(
    'section',
    { class: 'card workload-risk', 'aria-labelledby': 'workload-risk-title' },
    h('h2', { id: 'workload-risk-title' }, t('dashboard.risk')),
    table(
      t('dashboard.riskCaption'),
      [t('dashboard.tier'), t('dashboard.count')],
      h(
        'tbody',
        {},
        rows.map(({ tier, count }) =>
          h(
            'tr',
            { 'data-tier': tier ?? 'unrated' },
            h('td', {}, tierBadge(tier)),
            h('td', { class: 'num' }, String(count)),
          ),
        ),
      ),
      'workload-risk-table',
    ),
    h(
      'p',
      { class: 'straight-through', 'data-policy': risk.policy_decisions, 'data-decisions': risk.decisions },
      share,
      risk.decisions === 0
        ? null
        : h(
            'span',
            { class: 'muted small' },
            ` (${t('dashboard.straightThroughCount', { policy: risk.policy_decisions, decisions: risk.decisions })})`,
          ),
    ),
  );
}

const SVG = 'http://www.w3.org/2000/svg';
/** @param {string} tag @param {Record<string, string | number>} attrs @param {(Node | string)[]} children */
function svg(tag, attrs = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

const BAR = 6;
/** The height of each half: arrivals rise above the axis, decisions hang below it. */
const HEIGHT = 160;
const LABEL_ROOM = 16;

/** @typedef {{ hour: number, arrivals: number, decisions: number }} Hour */

/**
 * The backlog as a mirrored bar chart (arrivals up, decisions down: told apart by position, not by
 * colour alone), with the same values as text: a table of the days, and one of the hours with any.
 * @param {Hour[]} backlog
 */
function chart(backlog) {
  const max = Math.max(1, ...backlog.flatMap((b) => [b.arrivals, b.decisions]));
  const width = backlog.length * BAR;
  /** @param {'arrivals' | 'decisions'} kind @param {Hour} b @param {number} i */
  const bar = (kind, b, i) => {
    const value = b[kind];
    const height = (value / max) * HEIGHT;
    return svg(
      'rect',
      {
        class: `bar bar-${kind}`,
        x: i * BAR + 1.5,
        y: kind === 'arrivals' ? HEIGHT - height : HEIGHT,
        width: 3,
        height,
        'data-kind': kind,
        'data-hour': b.hour,
        'data-value': value,
      },
      svg('title', {}, `${hourLabel(b.hour)} · ${t(`dashboard.${kind}`)}: ${value}`),
    );
  };
  const days = backlog
    .map((b, i) => ({ b, i }))
    .filter(({ b }) => b.hour % 86_400 === 0)
    .map(({ b, i }) =>
      svg(
        'text',
        {
          x: i * BAR,
          y: 2 * HEIGHT + LABEL_ROOM - 3,
          class: 'axis-label',
          // The last day's label ends at the edge instead of running past it.
          'text-anchor': i * BAR > width - 40 ? 'end' : 'start',
        },
        dayLabel(b.hour),
      ),
    );
  const totals = {
    arrivals: backlog.reduce((sum, b) => sum + b.arrivals, 0),
    decisions: backlog.reduce((sum, b) => sum + b.decisions, 0),
  };
  return h(
    'section',
    { class: 'card backlog', 'aria-labelledby': 'backlog-title' },
    h('h2', { id: 'backlog-title' }, t('dashboard.backlog')),
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'legend-arrivals' }, t('dashboard.arrivalsAbove')),
      ' ',
      h('span', { class: 'legend-decisions' }, t('dashboard.decisionsBelow')),
      ' ',
      h('span', { class: 'muted' }, t('dashboard.scale', { max })),
    ),
    svg(
      'svg',
      {
        class: 'backlog-chart',
        viewBox: `0 0 ${width} ${2 * HEIGHT + LABEL_ROOM}`,
        role: 'img',
        'aria-label': t('dashboard.chartSummary', { ...totals, max }),
        'data-max': max,
        preserveAspectRatio: 'none',
      },
      svg('line', { x1: 0, y1: HEIGHT, x2: width, y2: HEIGHT, class: 'axis' }),
      ...backlog.flatMap((b, i) => [bar('arrivals', b, i), bar('decisions', b, i)]),
      ...days,
    ),
    dailyTable(backlog),
    hourlyTable(backlog),
  );
}

/** @param {number} hour Unix seconds */
const dayLabel = (hour) => new Date(hour * 1000).toISOString().slice(5, 10);
/** @param {number} hour Unix seconds */
const hourLabel = (hour) => `${new Date(hour * 1000).toISOString().slice(0, 13).replace('T', ' ')}:00 UTC`;

/** @param {string} label @param {number} arrivals @param {number} decisions @param {string} kind */
const valueRow = (label, arrivals, decisions, kind) =>
  h(
    'tr',
    { [`data-${kind}`]: label },
    h('th', { scope: 'row', class: 'nowrap' }, label),
    h('td', { class: 'num' }, String(arrivals)),
    h('td', { class: 'num' }, String(decisions)),
  );

/** The chart's values per day (UTC), as a table. @param {Hour[]} backlog */
function dailyTable(backlog) {
  /** @type {Map<string, { arrivals: number, decisions: number }>} */
  const days = new Map();
  for (const b of backlog) {
    const day = new Date(b.hour * 1000).toISOString().slice(0, 10);
    const total = days.get(day) ?? { arrivals: 0, decisions: 0 };
    days.set(day, { arrivals: total.arrivals + b.arrivals, decisions: total.decisions + b.decisions });
  }
  return table(
    t('dashboard.perDay'),
    [t('dashboard.day'), t('dashboard.arrivals'), t('dashboard.decisions')],
    h(
      'tbody',
      {},
      [...days].map(([day, total]) => valueRow(day, total.arrivals, total.decisions, 'day')),
    ),
    'backlog-table',
  );
}

/** The hours with any arrival or decision, as a table under a disclosure. @param {Hour[]} backlog */
function hourlyTable(backlog) {
  const busy = backlog.filter((b) => b.arrivals > 0 || b.decisions > 0);
  return h(
    'details',
    { class: 'backlog-hours' },
    h('summary', {}, t('dashboard.perHour', { n: busy.length })),
    table(
      t('dashboard.perHour', { n: busy.length }),
      [t('dashboard.hour'), t('dashboard.arrivals'), t('dashboard.decisions')],
      h(
        'tbody',
        {},
        busy.length === 0
          ? emptyRow(3, t('dashboard.noHours'))
          : busy.map((b) => valueRow(hourLabel(b.hour), b.arrivals, b.decisions, 'hour')),
      ),
      'backlog-table',
    ),
  );
}
