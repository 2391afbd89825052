import { scheduler } from 'node:timers/promises';
import type { Logger } from 'pino';
import { openPayload } from '../record/sealedPayload.ts';
import { isErasedPayload } from '../record/erasure.ts';
import { recordAudit } from '../audit/auditTrail.ts';
import type { ServiceContext } from '../context.ts';
import type { Applicant, ScreeningIndex } from './screeningIndex.ts';
import { enqueueJobs } from '../jobs/jobRepository.ts';
import { reassessJobs } from '../jobs/reassess.ts';
import { isFinal, storedStatus } from '../record/lifecycle.ts';
import { issuerAlertJobs } from './issuerAlerts.ts';
import { insertHits, recordedHitsOf } from './hitRepository.ts';
import { entryContentHash, isRemembered, matchedEntry, subjectHash } from './clearances.ts';
import { recordPepMatches, type FoundPepMatch } from './pepMatches.ts';

/** The application fields screening reads; an amend of any of them screens again. */
export const SCREENED_FIELDS = ['name', 'name_en', 'birthday', 'country', 'cert_id', 'cert_type'] as const;

/**
 * The longest the loop screens before it lets the event loop run: it runs in the service's process
 * beside the requests, and a relay batch of a hundred applications screened in one go held every
 * request for up to 40 ms (the half-rate benchmark's tail).
 */
const SLICE_MS = 4;

export interface StoredRow {
  busi_water_no: string;
  status: string;
  payload_enc: string;
}

export interface ScreenOptions {
  /**
   * Ask for a new risk assessment (the cause, e.g. `screening.rescreen`) of each application not
   * yet final that this screening gave a new hit or PEP match, in the transaction that records
   * them. The re-screen after a list import asks; the risk job's own screening does not (it is
   * assessing already).
   */
  reassess?: string | undefined;
}

export interface ScreenedCount {
  screened: number;
  hits: number;
  /** Payloads that could not be opened (a retired key): counted, never guessed at. */
  unreadable: number;
}

/** The entries each screened application matched now (`list` and `reference`; sanctions only). */
export type MatchedEntries = Map<string, Set<string>>;
export const matchKey = (list: string, reference: string) => `${list}\u0000${reference}`;

/**
 * Screens stored applications against the index and records what they hit, in one transaction:
 * each new hit with its audit entry. The applicant is decrypted in memory only. A hit on an
 * application already delivered is the issuer's alert (issuerAlerts.ts): counted in the workload
 * view, read in the admin feed, and pushed to the issuer's own endpoint by a job queued in the same
 * transaction; the partner hears nothing of it.
 */
export async function screenApplications(
  ctx: ServiceContext,
  index: ScreeningIndex,
  rows: readonly StoredRow[],
  log: Logger,
  options: ScreenOptions = {},
): Promise<ScreenedCount & { matched: MatchedEntries }> {
  const count: ScreenedCount = { screened: 0, hits: 0, unreadable: 0 };
  const matched: MatchedEntries = new Map();
  const found: Parameters<typeof insertHits>[1][number][] = [];
  const peps: FoundPepMatch[] = [];
  let sliceStart = performance.now();
  for (const row of rows) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await scheduler.yield();
      sliceStart = performance.now();
    }
    let payload;
    try {
      payload = openPayload(ctx.keyRing, row.busi_water_no, row.payload_enc);
    } catch {
      count.unreadable++;
      continue;
    }
    if (isErasedPayload(payload)) continue;
    count.screened++;
    const applicant: Applicant = {
      name: payload.name,
      name_en: payload.name_en,
      birthday: payload.birthday,
      country: payload.country,
      cert_id: payload.cert_id,
    };
    let subject: string | undefined;
    const keys = new Set<string>();
    matched.set(row.busi_water_no, keys);
    for (const match of index.screen(applicant, ctx.config.screening.threshold)) {
      // A PEP's entry (or a relative's): a match that holds nothing (pepMatches.ts).
      if (match.pep !== undefined) {
        peps.push({ busi_water_no: row.busi_water_no, match: { ...match, pep: match.pep } });
        continue;
      }
      keys.add(matchKey(match.list, match.reference));
      // What the hit is raised on, so that a clearance is remembered until one changes (clearances.ts).
      subject ??= subjectHash(
        ctx.keyRing,
        SCREENED_FIELDS.map((field) => payload[field]),
      );
      const entry = matchedEntry(index, match);
      found.push({
        busi_water_no: row.busi_water_no,
        match,
        afterDelivery: row.status === 'DELIVERED',
        entryHash: entry === undefined ? '' : entryContentHash(entry),
        subjectHash: subject,
      });
    }
  }
  if (found.length === 0 && peps.length === 0) return { ...count, matched };
  const now = ctx.now();
  const inserted = await ctx.store.transaction(async (trx) => {
    const newPeps = await recordPepMatches(trx, peps, now);
    const recorded = await recordedHitsOf(
      trx,
      found.map((f) => f.busi_water_no),
    );
    const fresh = found.filter(
      (f) =>
        !isRemembered(
          {
            busi_water_no: f.busi_water_no,
            list: f.match.list,
            reference: f.match.reference,
            entryHash: f.entryHash ?? '',
            subjectHash: f.subjectHash ?? '',
          },
          recorded,
        ),
    );
    const hits = await insertHits(trx, fresh, now);
    for (const hit of hits) {
      await recordAudit(trx, {
        actor: 'system',
        action: 'screening.hit',
        targetType: 'application',
        targetId: hit.busi_water_no,
        details: {
          hit_id: hit.id,
          list: hit.list,
          version_id: hit.version_id,
          reference: hit.reference,
          score: hit.score / 1000,
          after_delivery: hit.after_delivery === 1,
        },
        source: 'screening',
        at: now,
      });
    }
    await enqueueJobs(trx, issuerAlertJobs(ctx, hits, now), now);
    if (options.reassess !== undefined) {
      const open = new Set(
        rows.filter((row) => !isFinal(storedStatus(row.status))).map((r) => r.busi_water_no),
      );
      const changed = [...hits.map((hit) => hit.busi_water_no), ...newPeps].filter((serial) =>
        open.has(serial),
      );
      // The first new hit's (or match's) id names the change: a batch screened again records none.
      const key = `${options.reassess}:${hits[0]?.id ?? changed[0] ?? ''}:${now}`;
      await enqueueJobs(trx, reassessJobs(changed, options.reassess, key), now);
    }
    return hits;
  });
  count.hits = inserted.length;
  for (const hit of inserted.filter((h) => h.after_delivery === 1)) {
    log.warn(
      {
        event: 'screening.delivered_hit',
        busi_water_no: hit.busi_water_no,
        list: hit.list,
        reference: hit.reference,
      },
      'a delivered application matches a sanctions list entry',
    );
  }
  return { ...count, matched };
}
