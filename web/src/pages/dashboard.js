import { api } from '../api.js';
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { errorPanel, loading, statusBadge, table } from '../ui.js';

/**
 * The review workload: per status the count, the oldest waiting, the median time in status and
 * what is past its SLA; and the backlog of the last 7 days (arrivals and decisions per hour) as a
 * bar chart drawn here in SVG (no library, no CDN). Every bar carries its hour and value, so the
 * chart can be read by a test and by a screen reader's table alternative.
 * @type {import('../main.js').Page}
 */
export function renderDashboard(main, ctx) {
  ctx.setTitle(t('dashboard.title'));
  const body = h('div', {}, loading());
  replace(main, h('div', { class: 'page' }, h('h1', {}, t('dashboard.title')), body));
  let stopped = false;

  api('GET', '/workload')
    .then((workload) => {
      if (!stopped) replace(body, statusTable(workload.statuses), chart(workload.backlog));
    })
    .catch((error) => replace(body, errorPanel(error)));
  return () => {
    stopped = true;
  };
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

const SVG = 'http://www.w3.org/2000/svg';
/** @param {string} tag @param {Record<string, string | number>} attrs @param {(Node | string)[]} children */
function svg(tag, attrs = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

const BAR = 6;
const HEIGHT = 160;

/** @param {{ hour: number, arrivals: number, decisions: number }[]} backlog */
function chart(backlog) {
  const max = Math.max(1, ...backlog.flatMap((b) => [b.arrivals, b.decisions]));
  const width = backlog.length * BAR;
  /** @param {'arrivals' | 'decisions'} kind @param {{ hour: number, arrivals: number, decisions: number }} b @param {number} i */
  const bar = (kind, b, i) => {
    const value = b[kind];
    const height = (value / max) * HEIGHT;
    return svg(
      'rect',
      {
        class: `bar bar-${kind}`,
        x: i * BAR + (kind === 'arrivals' ? 0.5 : 3),
        y: HEIGHT - height,
        width: 2.5,
        height,
        'data-kind': kind,
        'data-hour': b.hour,
        'data-value': value,
      },
      svg(
        'title',
        {},
        `${new Date(b.hour * 1000).toISOString().slice(0, 13)}:00Z · ${t(`dashboard.${kind}`)}: ${value}`,
      ),
    );
  };
  const days = backlog
    .map((b, i) => ({ b, i }))
    .filter(({ b }) => b.hour % 86_400 === 0)
    .map(({ b, i }) =>
      svg(
        'text',
        { x: i * BAR, y: HEIGHT + 14, class: 'axis-label' },
        new Date(b.hour * 1000).toISOString().slice(5, 10),
      ),
    );
  return h(
    'section',
    { class: 'card backlog', 'aria-labelledby': 'backlog-title' },
    h('h2', { id: 'backlog-title' }, t('dashboard.backlog')),
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'legend-arrivals' }, t('dashboard.arrivals')),
      ' ',
      h('span', { class: 'legend-decisions' }, t('dashboard.decisions')),
      ' ',
      h('span', { class: 'muted' }, t('dashboard.scale', { max })),
    ),
    svg(
      'svg',
      {
        class: 'backlog-chart',
        viewBox: `0 0 ${width} ${HEIGHT + 20}`,
        role: 'img',
        'aria-label': t('dashboard.backlog'),
        'data-max': max,
        preserveAspectRatio: 'none',
      },
      svg('line', { x1: 0, y1: HEIGHT, x2: width, y2: HEIGHT, class: 'axis' }),
      ...backlog.flatMap((b, i) => [bar('arrivals', b, i), bar('decisions', b, i)]),
      ...days,
    ),
  );
}
