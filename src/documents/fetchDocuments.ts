import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import { appendEvent } from '../events/eventRepository.ts';
import { findApplication, lockForDocumentEvent } from '../record/applicationRepository.ts';
import { isErasedPayload } from '../record/erasure.ts';
import { openPayload } from '../record/sealedPayload.ts';
import { DOCUMENT_EVENT_TYPES } from '../record/lifecycle.ts';
import type { ServiceContext } from '../context.ts';
import { DOCUMENT_FIELDS, type DocumentField, type DocumentOutcomes } from '../events/documentOutcomes.ts';
import { eventRow } from '../events/outbox.ts';
import type { Database } from '../store/tables.ts';
import {
  deleteBlob,
  deleteOtherBlobs,
  documentRows,
  heldBlobIds,
  markDocumentsPending,
  restartDocument,
  settleIfPending,
} from './documentRepository.ts';
import { readBlob, writeBlob, type WrittenBlob } from './documentStore.ts';
import { checkPdf } from './pdfCheck.ts';
import { outcomeOf } from './documentView.ts';
import { fetchDocument, type FetchOptions } from './fetcher.ts';
import { FetchDeferred, type Slot } from './fetchSlots.ts';
import { makePreview } from './preview.ts';
import { DocumentFailure, isDocumentField } from './outcome.ts';

/**
 * Fetches, checks and keeps the documents of an application's image fields: the body of the
 * `documents.fetch` job. Idempotent: a field whose row is already settled for the URL the
 * application holds now is left alone, so a job run again after a crash (or twice by an
 * at-least-once relay) only does what is left. A field's outcome is written by one conditional
 * update (still pending, still for the same URL) in a transaction that holds the application's
 * row, with its event: `application.document_failed` for a field failed for good, and
 * `application.documents_kept` once every image the application carries is kept.
 */

const [DOCUMENTS_KEPT_EVENT, DOCUMENT_FAILED_EVENT] = DOCUMENT_EVENT_TYPES;

/** An image under this many pixels on its short side shows too little to check an identity. */
export const MIN_SHORT_SIDE = 300;

export interface FetchRun {
  /** Fields still to try again (unreachable, before the give-up time). */
  retry: DocumentField[];
  /** A short description of the last failure, never a URL or a byte. */
  lastError: string | null;
}

export function fetchOptionsOf(ctx: Pick<ServiceContext, 'config'>): FetchOptions {
  const { documents } = ctx.config;
  return {
    maxBytes: documents.maxBytes,
    connectTimeoutMs: documents.connectTimeoutMs,
    timeoutMs: documents.timeoutMs,
    allowPrivate: documents.allowPrivate,
    addressAllowed: documents.addressAllowed,
  };
}

/** The keyed hash of a document URL: which URL a row's state is about, without keeping the URL. */
export function urlHashOf(ctx: Pick<ServiceContext, 'keyRing'>, url: string): string {
  return ctx.keyRing.blindIndex('document_url', url);
}

/**
 * One pass over `fields` of the application. `giveUp`: an unreachable document fails for good
 * now instead of being tried again (a fetch deferred for want of a slot was not tried: it stays
 * to do). `options` replaces the configured fetch rules (tests). `slots`: how a field's fetch
 * waits for its slot (fetchSlots.ts), given the application's partner.
 */
export async function fetchApplicationDocuments(
  ctx: ServiceContext,
  busiWaterNo: string,
  fields: readonly string[],
  log: Logger,
  run: {
    giveUp: boolean;
    options?: FetchOptions;
    signal?: AbortSignal;
    slots?: (partner: string, field: DocumentField) => (host: string) => Promise<Slot>;
  },
): Promise<FetchRun> {
  const row = await findApplication(ctx.store.db, busiWaterNo);
  if (row === undefined) return { retry: [], lastError: null };
  const payload = openPayload(ctx.keyRing, busiWaterNo, row.payload_enc);
  if (isErasedPayload(payload)) return { retry: [], lastError: null };
  const urls = new Map<DocumentField, string>();
  for (const field of fields) {
    const url = isDocumentField(field) ? payload[field] : undefined;
    if (isDocumentField(field) && typeof url === 'string') urls.set(field, url);
  }
  const present = DOCUMENT_FIELDS.filter((field) => typeof payload[field] === 'string');
  await markPending(
    ctx,
    busiWaterNo,
    [...urls].map(([field, url]) => ({ field, urlHash: urlHashOf(ctx, url) })),
  );
  const settled = new Set(
    (await documentRows(ctx.store.db, [busiWaterNo]))
      .filter((r) => r.state !== 'pending' && urls.has(r.field as DocumentField))
      .filter((r) => r.url_hash === urlHashOf(ctx, urls.get(r.field as DocumentField)!))
      .map((r) => r.field),
  );
  const options = { ...(run.options ?? fetchOptionsOf(ctx)), signal: run.signal };
  const results = await Promise.all(
    [...urls]
      .filter(([field]) => !settled.has(field))
      .map(async ([field, url]) => {
        const place = { busiWaterNo, field, urlHash: urlHashOf(ctx, url), present };
        try {
          const slot = run.slots?.(row.app_id, field);
          const blob = await fetchDocument(url, { ...options, slot }, (body) =>
            writeBlob(ctx, place, body, { maxPixels: ctx.config.documents.maxPixels }),
          );
          try {
            if (
              blob.sniffed.width !== null &&
              Math.min(blob.sniffed.width, blob.sniffed.height!) < MIN_SHORT_SIDE
            )
              throw new DocumentFailure('too_small', `${blob.sniffed.width}x${blob.sniffed.height} px`);
            if (blob.sniffed.type === 'application/pdf')
              await checkPdf(await readWhole(ctx, busiWaterNo, blob));
          } catch (error) {
            await deleteBlob(ctx.store.db, blob.blobId);
            throw error;
          }
          // Drawn before the outcome is written, so that it is kept with it: a kept image has its
          // preview (or libvips could not draw it, and its original is a download only).
          const preview = await makePreview(ctx, place, blob, log);
          await settle(ctx, place, { kept: blob, preview });
          log.info({ busi_water_no: busiWaterNo, field, bytes: blob.byteSize }, 'document kept');
          return null;
        } catch (error) {
          // Stopped by the runner: not the document's fault; the job is retried as interrupted.
          if (run.signal?.aborted === true || !(error instanceof DocumentFailure)) throw error;
          if (error.retryable && (!run.giveUp || error instanceof FetchDeferred)) {
            log.info({ busi_water_no: busiWaterNo, field, error: error.message }, 'document not fetched yet');
            return { field, error: error.message };
          }
          await settle(ctx, place, { failed: error });
          log.info(
            { busi_water_no: busiWaterNo, field, reason: error.reason, detail: error.detail },
            'document failed',
          );
          return null;
        }
      }),
  );
  const retrying = results.filter((r): r is { field: DocumentField; error: string } => r !== null);
  return { retry: retrying.map((r) => r.field), lastError: retrying[0]?.error ?? null };
}

/** A blob just written, read back whole (a PDF, for its parser: at most DOCUMENT_MAX_BYTES). */
async function readWhole(ctx: ServiceContext, busiWaterNo: string, blob: WrittenBlob): Promise<Buffer> {
  const parts: Buffer[] = [];
  const row = { busi_water_no: busiWaterNo, blob_id: blob.blobId, chunk_count: blob.chunkCount };
  for await (const part of readBlob(ctx, row)) parts.push(part);
  return Buffer.concat(parts);
}

/**
 * Rows for fields not yet taken up (the submission's first run), and pending again for a row about
 * another URL (an amend whose own transaction did not say so); a row for this URL is left alone.
 */
async function markPending(
  ctx: ServiceContext,
  busiWaterNo: string,
  fields: readonly { field: DocumentField; urlHash: string }[],
): Promise<void> {
  if (fields.length === 0) return;
  const now = ctx.now();
  await ctx.store.transaction((trx) => markDocumentsPending(trx, busiWaterNo, fields, now));
}

/**
 * An amend's image fields start again: pending for their new URL, inside the amend's own
 * transaction, so that the status view says so from the moment the amend is acknowledged. The copy
 * kept of the document it replaces stays until the new one is kept (it is the evidence the issuer
 * had; a new fetch that fails leaves it), and operators see it as `previous`.
 */
export async function restartDocuments(
  ctx: Pick<ServiceContext, 'keyRing'>,
  trx: Kysely<Database>,
  busiWaterNo: string,
  amended: Record<string, unknown>,
  now: number,
): Promise<void> {
  for (const field of DOCUMENT_FIELDS) {
    const url = amended[field];
    if (typeof url !== 'string') continue;
    await restartDocument(trx, busiWaterNo, field, urlHashOf(ctx, url), now);
  }
}

type Settlement = { kept: WrittenBlob; preview: WrittenBlob | null } | { failed: DocumentFailure };

const keptBlobIds = (outcome: { kept: WrittenBlob; preview: WrittenBlob | null }) =>
  outcome.preview === null ? [outcome.kept.blobId] : [outcome.kept.blobId, outcome.preview.blobId];

/** Writes one field's outcome with its event, unless an amend or another run got there first. */
async function settle(
  ctx: ServiceContext,
  place: { busiWaterNo: string; field: DocumentField; urlHash: string; present: readonly string[] },
  outcome: Settlement,
): Promise<void> {
  const now = ctx.now();
  const applied = await ctx.store.transaction(async (trx) => {
    // Holding the application's row serialises the outcomes of its fields (and an amend).
    const application = await lockForDocumentEvent(ctx.store, trx, place.busiWaterNo);
    if (application === undefined) return false;
    const values =
      'kept' in outcome
        ? {
            state: 'kept' as const,
            reason: null,
            blob_id: outcome.kept.blobId,
            content_type: outcome.kept.sniffed.type,
            byte_size: outcome.kept.byteSize,
            sha256: outcome.kept.sha256,
            width: outcome.kept.sniffed.width,
            height: outcome.kept.sniffed.height,
            chunk_count: outcome.kept.chunkCount,
            fetched_at: now,
            preview_blob_id: outcome.preview?.blobId ?? null,
            preview_chunk_count: outcome.preview?.chunkCount ?? null,
            preview_byte_size: outcome.preview?.byteSize ?? null,
          }
        : // The copy held for the field (an earlier document's, before an amend) stays: evidence.
          { state: 'failed' as const, reason: outcome.failed.reason };
    const held = await heldBlobIds(trx, place.busiWaterNo, place.field);
    if (!(await settleIfPending(trx, place, values, now))) return false;
    // Kept: the newer copy and its preview replace the ones held. Failed: the held ones stay.
    // Either way, chunks of neither (a crash's leftovers) go.
    await deleteOtherBlobs(trx, place, 'kept' in outcome ? keptBlobIds(outcome) : held);
    await recordDocumentEvent(trx, application, place, outcome, now);
    return true;
  });
  if (!applied && 'kept' in outcome)
    for (const blobId of keptBlobIds(outcome)) await deleteBlob(ctx.store.db, blobId);
  if (!applied) return;
  ctx.metrics.documents.inc({ outcome: 'kept' in outcome ? 'kept' : outcome.failed.reason });
  if ('kept' in outcome) ctx.metrics.documentBytes.inc(outcome.kept.byteSize);
}

async function recordDocumentEvent(
  trx: Transaction<Database>,
  application: {
    busi_water_no: string;
    app_id: string;
    status: string;
    card_no_masked: string;
    external_id?: string | null;
  },
  place: { busiWaterNo: string; field: DocumentField; present: readonly string[] },
  outcome: Settlement,
  now: number,
): Promise<void> {
  let documents: DocumentOutcomes;
  let type: string;
  if ('failed' in outcome) {
    type = DOCUMENT_FAILED_EVENT;
    documents = { [place.field]: { state: 'failed', reason: outcome.failed.reason } };
  } else {
    const rows = await documentRows(trx, [place.busiWaterNo]);
    const allKept = place.present.every((field) => rows.some((r) => r.field === field && r.state === 'kept'));
    if (!allKept) return;
    type = DOCUMENTS_KEPT_EVENT;
    documents = Object.fromEntries(
      rows.filter((r) => place.present.includes(r.field)).map((r) => [r.field, outcomeOf(r)]),
    );
  }
  await appendEvent(
    trx,
    eventRow({
      appId: application.app_id,
      type,
      payload: {
        busi_water_no: application.busi_water_no,
        status: application.status,
        // Not a move: the state stays.
        previous_status: application.status,
        reason: null,
        reason_codes: [],
        card_no_masked: application.card_no_masked,
        external_id: application.external_id ?? null,
        documents,
      },
      at: now,
    }),
  );
}
