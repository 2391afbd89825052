import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import {
  completeClaimRow,
  deleteClaim,
  deleteExpiredKeys,
  findKey,
  insertClaim,
  takeOverClaim,
} from './idempotencyRepository.ts';

/**
 * Idempotency keys: the same key with the same request gets the first response again, with another
 * request a 409. A request claims its key (a row in state `in_progress`, unique per app and key)
 * before the operation runs; the claim is completed with the response, or released if the
 * operation failed with a fault. A concurrent request with the key waits for the holder a little,
 * then replays its response or answers 409 in progress. A claim whose holder crashed is taken over
 * after its lease; a claim token fences the old holder out, so even then one operation completes.
 * All of it goes through the store, so it holds across instances.
 */

export interface IdempotencySettings {
  /** How long a key and its response are kept. */
  ttlMs: number;
  /** How long a concurrent request waits for the holder before answering 409 in progress. */
  waitMs: number;
  /** After how long an unfinished claim may be taken over. */
  leaseMs: number;
}

export interface IdempotencyClaim {
  readonly appId: string;
  readonly key: string;
  readonly claimToken: string;
}

/** A response as the transport sent it, recorded by the transport: replayed byte for byte. */
export interface StoredResponse {
  readonly status: number;
  readonly body: string;
}

/**
 * What a completed key holds: the domain result of an operation that recorded its own success in
 * its transaction (handed the claim, as the submit is: a crash cannot separate the success from its
 * record), or a response the transport recorded.
 */
export type StoredOutcome =
  | { readonly kind: 'result'; readonly result: unknown }
  | { readonly kind: 'response'; readonly response: StoredResponse };

export type BeginOutcome = { readonly kind: 'claimed'; readonly claim: IdempotencyClaim } | StoredOutcome;

/** How often a waiting request looks again: soon at first, then less often. */
const POLL_MS = [10, 20, 40, 80, 100];

/**
 * Claims `key` for a request, or answers from what is stored: the stored response (same request,
 * completed), 409 `idempotencyKeyReused` (another request), or 409 `idempotencyInProgress` (the
 * holder did not finish within the wait).
 */
export async function beginIdempotentRequest(
  ctx: Pick<ServiceContext, 'store'>,
  request: { appId: string; key: string; requestHash: string },
  settings: IdempotencySettings,
  now: () => number,
): Promise<BeginOutcome> {
  const deadline = Date.now() + settings.waitMs;
  const newClaim = () => {
    const at = now();
    return {
      request_hash: request.requestHash,
      claim_token: randomBytes(16).toString('hex'),
      locked_until: at + settings.leaseMs,
      created_at: at,
      expires_at: at + settings.ttlMs,
    };
  };
  const claimed = (claimToken: string): BeginOutcome => ({
    kind: 'claimed',
    claim: { appId: request.appId, key: request.key, claimToken },
  });

  const db = ctx.store.db;
  for (let round = 0; ; round++) {
    const fresh = newClaim();
    const row = {
      app_id: request.appId,
      idempotency_key: request.key,
      state: 'in_progress' as const,
      ...fresh,
    };
    if (await insertClaim(db, { ...row, status_code: null, response_body: null, result: null })) {
      return claimed(fresh.claim_token);
    }
    const seen = await findKey(db, request.appId, request.key);
    if (seen === undefined) continue; // released in between: claim it again
    const at = now();
    // An expired key is as good as absent; a claim past its lease lost its holder.
    const abandoned = seen.state === 'in_progress' && (seen.locked_until ?? 0) <= at;
    if (seen.expires_at <= at || (abandoned && seen.request_hash === request.requestHash)) {
      if (await takeOverClaim(db, seen, fresh)) return claimed(fresh.claim_token);
      continue;
    }
    if (seen.request_hash !== request.requestHash) throw new ServiceError('idempotencyKeyReused');
    if (seen.state === 'completed' && seen.result !== null) {
      return { kind: 'result', result: JSON.parse(seen.result) as unknown };
    }
    if (seen.state === 'completed' && seen.status_code !== null && seen.response_body !== null) {
      return { kind: 'response', response: { status: seen.status_code, body: seen.response_body } };
    }
    const wait = POLL_MS[Math.min(round, POLL_MS.length - 1)]!;
    if (Date.now() + wait > deadline) {
      throw new ServiceError('idempotencyInProgress', { headers: { 'retry-after': '1' } });
    }
    await sleep(wait);
  }
}

/** Stores the transport's response of a claim; false when the claim was lost to a takeover. */
export function completeClaim(
  ctx: Pick<ServiceContext, 'store'>,
  claim: IdempotencyClaim,
  response: StoredResponse,
): Promise<boolean> {
  return completeClaimRow(ctx.store.db, claim, response);
}

/** Gives the claim up after a fault, so that a retry runs the operation again. */
export function releaseClaim(ctx: Pick<ServiceContext, 'store'>, claim: IdempotencyClaim): Promise<void> {
  return deleteClaim(ctx.store.db, claim);
}

/** Removes keys past their retention; run periodically by every instance (harmless when repeated). */
export function purgeExpiredKeys(ctx: Pick<ServiceContext, 'store'>, now: number): Promise<number> {
  return deleteExpiredKeys(ctx.store.db, now);
}
