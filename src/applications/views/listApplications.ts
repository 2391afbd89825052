import { seesRestricted, type Viewer } from '../../record/restriction.ts';
import type { Partner } from '../../partners/credentials.ts';
import type { ServiceContext } from '../../context.ts';
import { problem, type FieldProblem } from '../../errors/problems.ts';
import { ValidationError } from '../../errors/serviceError.ts';
import { partnerOutcomes } from '../../documents/documentView.ts';
import { listHistories } from '../../events/eventRepository.ts';
import {
  listApplicationRows,
  type ApplicationFilter,
  type ApplicationSummaryRow,
} from '../../record/applicationRepository.ts';
import { isStatus, STATUSES } from '../../record/lifecycle.ts';
import { decodeCursor, encodeCursor } from './listCursor.ts';
import { reasonCodesOf } from '../rules/reasonCodes.ts';
import { fieldListOf } from '../rules/requestedFields.ts';
import { unixSeconds } from '../../record/dates.ts';
import { statusView, type StatusView } from './queryApplication.ts';
import { SERIAL_LENGTH } from '../../record/serialNumber.ts';
import { TIERS, type Tier } from '../../policies/riskPolicy.ts';

/**
 * The risk tiers as the queue filters and sorts them (applications.risk_rank, migration 0086):
 * `unrated` (no assessment yet) ranks 0, then low < medium < high < prohibited.
 */
export const RISK_TIER_FILTERS = ['unrated', ...TIERS] as const;
export type RiskTierFilter = (typeof RISK_TIER_FILTERS)[number];
const rankOf = (tier: RiskTierFilter): number => RISK_TIER_FILTERS.indexOf(tier);
/** The tier of a rank; null for 0, not yet rated. */
export const tierOfRank = (rank: number | undefined): Tier | null => TIERS[(rank ?? 0) - 1] ?? null;
const isRiskTierFilter = (value: string): value is RiskTierFilter =>
  (RISK_TIER_FILTERS as readonly string[]).includes(value);

/** Listing filters, as on the wire: times in Unix seconds, both ends inclusive. */
export interface ApplicationQuery {
  status?: string | undefined;
  app_id?: string | undefined;
  busi_water_no?: string | undefined;
  external_id?: string | undefined;
  created_from?: number | undefined;
  created_to?: number | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
  /** By creation: oldest first (default) or newest first. */
  order?: 'asc' | 'desc' | undefined;
  /** Operators only: `open` lists the applications a sanctions screening hit holds. */
  screening?: 'open' | undefined;
  /** Operators only: a partner reference (exact) or the first characters of a serial. */
  q?: string | undefined;
  /** Operators only: the tier of the latest risk assessment, or `unrated`. */
  risk_tier?: string | undefined;
  /** Operators only: `risk` orders by tier first (in `order`'s direction), then by creation. */
  sort?: 'created' | 'risk' | undefined;
}

/** The shortest serial prefix searched for: six characters narrow it to about 17 minutes of serials. */
export const MIN_SERIAL_PREFIX = 6;
const SERIAL_PREFIX = new RegExp(`^[0-9A-HJKMNP-TV-Z]{${MIN_SERIAL_PREFIX},${SERIAL_LENGTH}}$`);

/**
 * What an operator types for a support call: the partner's reference as it was sent, or the first
 * characters of a serial (any case). A serial starts with a prefix exactly when it lies between the
 * prefix padded with the alphabet's first character and with its last (every serial has the same
 * length and alphabet), which the primary key's index answers.
 */
export function quotedOf(text: string | undefined): ApplicationFilter['quoted'] {
  const quoted = text?.trim();
  if (quoted === undefined || quoted === '') return undefined;
  const prefix = quoted.toUpperCase();
  return {
    externalId: quoted,
    serials: SERIAL_PREFIX.test(prefix)
      ? { from: prefix.padEnd(SERIAL_LENGTH, '0'), to: prefix.padEnd(SERIAL_LENGTH, 'Z') }
      : undefined,
  };
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Page<T> {
  items: T[];
  /** Pass it back as `cursor` for the next page; null when this page is the last. */
  next_cursor: string | null;
}

/** The checks the HTTP schemas make too, for the other ways in (the CLI). */
function filterOf(query: ApplicationQuery): ApplicationFilter {
  const problems: FieldProblem[] = [];
  const status = query.status;
  if (status !== undefined && !isStatus(status)) {
    problems.push(problem('status', 'fieldNotAllowed', { allowed: STATUSES.join(', ') }));
  }
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    problems.push(
      problem('limit', 'fieldFormat', {
        rule: `must be a whole number from 1 to ${MAX_LIMIT}`,
        rule_zh: `必须是 1 到 ${MAX_LIMIT} 之间的整数`,
      }),
    );
  }
  for (const field of ['created_from', 'created_to'] as const) {
    const value = query[field];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0)) {
      problems.push(
        problem(field, 'fieldFormat', {
          rule: 'must be a Unix time in seconds',
          rule_zh: '必须是以秒为单位的 Unix 时间',
        }),
      );
    }
  }
  const tier = query.risk_tier;
  if (tier !== undefined && !isRiskTierFilter(tier)) {
    problems.push(problem('risk_tier', 'fieldNotAllowed', { allowed: RISK_TIER_FILTERS.join(', ') }));
  }
  const byRisk = query.sort === 'risk';
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (after !== undefined && (after.riskRank !== undefined) !== byRisk) {
    problems.push(
      problem('cursor', 'fieldFormat', {
        rule: 'is not a cursor returned by this listing',
        rule_zh: '不是本列表返回的游标',
      }),
    );
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return {
    appId: query.app_id,
    status: status !== undefined && isStatus(status) ? status : undefined,
    busiWaterNo: query.busi_water_no,
    externalId: query.external_id,
    createdFrom: query.created_from === undefined ? undefined : query.created_from * 1000,
    createdBefore: query.created_to === undefined ? undefined : (query.created_to + 1) * 1000,
    after,
    limit,
    order: query.order === 'desc' ? 'desc' : 'asc',
    screeningOpen: query.screening === 'open',
    quoted: quotedOf(query.q),
    riskRank: tier !== undefined && isRiskTierFilter(tier) ? rankOf(tier) : undefined,
    byRisk,
  };
}

async function page(ctx: ServiceContext, filter: ApplicationFilter): Promise<Page<ApplicationSummaryRow>> {
  const rows = await listApplicationRows(ctx.store.db, filter);
  const items = rows.slice(0, filter.limit);
  const last = items[items.length - 1];
  const more = rows.length > filter.limit && last !== undefined;
  return {
    items,
    next_cursor: more
      ? encodeCursor({
          createdAt: last.created_at,
          busiWaterNo: last.busi_water_no,
          riskRank: filter.byRisk === true ? (last.risk_rank ?? 0) : undefined,
        })
      : null,
  };
}

/** A partner's applications, with their histories. Only the partner's own, whatever the query says. */
export async function listApplications(
  ctx: ServiceContext,
  partner: Partner,
  query: Omit<ApplicationQuery, 'app_id' | 'busi_water_no'>,
): Promise<Page<StatusView>> {
  // A partner never filters on screening (no tipping off), whatever its query says.
  const result = await page(ctx, {
    ...filterOf(query),
    appId: partner.appId,
    busiWaterNo: undefined,
    screeningOpen: false,
    quoted: undefined,
    riskRank: undefined,
    byRisk: false,
  });
  const histories = await listHistories(
    ctx.store.db,
    result.items.map((row) => row.busi_water_no),
  );
  const documents = await partnerOutcomes({ db: ctx.store.db, keyRing: ctx.keyRing }, result.items);
  return {
    items: result.items.map((row) =>
      statusView(row, histories.get(row.busi_water_no) ?? [], documents.get(row.busi_water_no) ?? {}),
    ),
    next_cursor: result.next_cursor,
  };
}

/** What operators see in a search: the application's state, never its contents. */
export interface ApplicationSummary {
  busi_water_no: string;
  external_id: string | null;
  app_id: string;
  status: string;
  status_reason: string | null;
  reason_codes: string[];
  requested_fields: string[];
  cert_type: string;
  card_no_masked: string;
  version: number;
  created_at: number;
  updated_at: number;
  /** The tier of the latest risk assessment; null while none is made. Operators only. */
  risk_tier: Tier | null;
}

export function summaryOf(row: ApplicationSummaryRow): ApplicationSummary {
  return {
    busi_water_no: row.busi_water_no,
    external_id: row.external_id ?? null,
    app_id: row.app_id,
    status: row.status,
    status_reason: row.status_reason,
    reason_codes: reasonCodesOf(row.reason_codes),
    requested_fields: fieldListOf(row.requested_fields),
    cert_type: row.cert_type,
    card_no_masked: row.card_no_masked,
    version: row.version,
    created_at: unixSeconds(row.created_at),
    updated_at: unixSeconds(row.updated_at),
    risk_tier: tierOfRank(row.risk_rank),
  };
}

/** The operators' search over all applications. */
export async function searchApplications(
  ctx: ServiceContext,
  query: ApplicationQuery,
  viewer?: Viewer,
): Promise<Page<ApplicationSummary>> {
  // Restricted by a deletion request: withdrawn from every search but a compliance operator's.
  const result = await page(ctx, { ...filterOf(query), withoutRestricted: !seesRestricted(viewer) });
  return { items: result.items.map(summaryOf), next_cursor: result.next_cursor };
}
