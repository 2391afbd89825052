import type { Kysely } from 'kysely';
import type { ServiceContext } from '../context.ts';
import { problem } from '../errors/problems.ts';
import { ValidationError } from '../errors/serviceError.ts';
import type { JobSpec } from '../jobs/jobQueue.ts';
import type { ScreeningHitsTable } from '../store/screeningTables.ts';
import type { Database } from '../store/tables.ts';
import { deliveredHitsAfter, type DeliveredHit } from './hitRepository.ts';

/**
 * The issuer's alert when a list import finds a customer whose card is already delivered: nothing
 * holds that application any more, so the issuer's own compliance systems must hear of it. The
 * alert is the hit itself (`screening_hits`, `after_delivery`), kept in the store and read by the
 * issuer through the admin feed (`GET /admin/v1/screening/alerts`, a cursor in the order found),
 * and pushed to `ISSUER_WEBHOOK_URL` by a durable job queued in the transaction that records the
 * hit (issuerAlertJob.ts): signed as Standard Webhooks specifies, retried with backoff
 * for `WEBHOOK_MAX_AGE_SECONDS`.
 * Neither is the partner's: no event row, no partner webhook, no change of status (no tipping off).
 * An alert names the application and the listed entry; no applicant's data, no listed name.
 */

export const ISSUER_ALERT_KIND = 'screening.alert';
export const ALERT_TYPE = 'screening.delivered_hit';

export interface IssuerAlert {
  /** The hit's id: stable, the `webhook-id` of every attempt (receivers dedupe on it). */
  id: string;
  type: typeof ALERT_TYPE;
  /** Unix seconds: when the hit was found. */
  created_at: number;
  data: {
    hit_id: string;
    busi_water_no: string;
    app_id: string;
    external_id: string | null;
    list: string;
    version_id: string;
    reference: string;
    matched_kind: string;
    fields: string[];
    score: number;
    /** The hit's state now: `unresolved` when it is sent; the feed shows how it was resolved. */
    state: ScreeningHitsTable['state'];
  };
}

export function alertOf(hit: DeliveredHit): IssuerAlert {
  return {
    id: hit.id,
    type: ALERT_TYPE,
    created_at: Math.floor(hit.created_at / 1000),
    data: {
      hit_id: hit.id,
      busi_water_no: hit.busi_water_no,
      app_id: hit.app_id,
      external_id: hit.external_id,
      list: hit.list,
      version_id: hit.version_id,
      reference: hit.reference,
      matched_kind: hit.matched_kind,
      fields: JSON.parse(hit.fields) as string[],
      score: hit.score / 1000,
      state: hit.state,
    },
  };
}

/** The jobs that push new hits found after delivery, when the issuer has an endpoint. */
export function issuerAlertJobs(
  ctx: ServiceContext,
  hits: readonly Pick<ScreeningHitsTable, 'id' | 'busi_water_no' | 'after_delivery'>[],
  now: number,
): JobSpec[] {
  if (ctx.config.screening.issuerWebhook === undefined) return [];
  return hits
    .filter((hit) => hit.after_delivery === 1)
    .map((hit) => ({
      kind: ISSUER_ALERT_KIND,
      key: hit.id,
      busi_water_no: hit.busi_water_no,
      giveUpAt: now + ctx.config.webhooks.maxAgeSeconds * 1000,
    }));
}

/** The opaque cursor of the feed: base64url of `1.<created_at ms>.<hit id>`, the page's last alert. */
function encodeCursor(hit: DeliveredHit): string {
  return Buffer.from(`1.${hit.created_at}.${hit.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const parts = /^[A-Za-z0-9_-]{1,200}$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8').split('.')
    : [];
  const [version, createdAt, id] = parts;
  if (
    parts.length !== 3 ||
    version !== '1' ||
    !/^[0-9]{1,16}$/.test(createdAt ?? '') ||
    !/^hit_[0-9a-f-]{36}$/.test(id ?? '')
  ) {
    throw new ValidationError([
      problem('cursor', 'fieldFormat', {
        rule: 'is not a cursor returned by this feed',
        rule_zh: '不是本列表返回的游标',
      }),
    ]);
  }
  return { createdAt: Number(createdAt), id: id! };
}

/**
 * The admin feed of alerts, oldest first: the issuer's systems poll it with the last `next_cursor`
 * they stored (none the first time) and receive each alert recorded since. `next_cursor` is where
 * to resume (the one given when nothing new was found); `has_more` says another page is ready now.
 */
export async function issuerAlertFeed(
  db: Kysely<Database>,
  request: { cursor?: string | undefined; limit: number },
): Promise<{ items: IssuerAlert[]; next_cursor: string | null; has_more: boolean }> {
  const after = request.cursor === undefined ? undefined : decodeCursor(request.cursor);
  const rows = await deliveredHitsAfter(db, after, request.limit + 1);
  const page = rows.slice(0, request.limit);
  const last = page.at(-1);
  return {
    items: page.map(alertOf),
    next_cursor: last === undefined ? (request.cursor ?? null) : encodeCursor(last),
    has_more: rows.length > request.limit,
  };
}
