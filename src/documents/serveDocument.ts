import { refuseIfRestricted } from '../record/restriction.ts';
import { applicationExists } from '../record/applicationRepository.ts';
import { isSerialNumber } from '../record/serialNumber.ts';
import type { ServiceContext } from '../context.ts';
import { ServiceError } from '../errors/serviceError.ts';
import { ACTING_ROLE, hasRole } from '../access/roles.ts';
import { actionsOnTarget } from '../audit/auditRepository.ts';
import { findSessionStart } from '../operators/operatorRepository.ts';
import type { OperatorIdentity } from '../operators/sessions.ts';
import { readBlob } from './documentStore.ts';
import { documentRows } from './documentRepository.ts';
import { isDocumentField } from './outcome.ts';
import { PREVIEW_TYPE } from './preview.ts';

/**
 * A kept document for an operator's eyes: the console shows it from here, never from the partner's
 * URL: the preview the service drew of an image (preview.ts), inline, and the original, byte-exact
 * (its SHA-256 is the evidence), as a download only. A document is identity data (PIPL: sensitive personal information), so it is served only
 * inside a viewing that is already audited: the same operator, in the same sign-in session, opened
 * the application for review (`application.review_open`, which shows every image field) or
 * revealed this image field (`application.reveal`). That one audit row covers the session's
 * viewings; each image request adds none. The bytes stream decrypted a few chunks at a time.
 */

const OPENING_ACTIONS = ['application.review_open', 'application.reveal'];

/**
 * The headers of every document response, its errors included. A kept copy is the partner's bytes:
 * whatever it hides (an HTML page after a JPEG's end, script in a PDF), the browser is told to run
 * nothing of it (`default-src 'none'` loads nothing, `sandbox` gives it an opaque origin with no
 * script, forms or plugins), not to guess another type than the one sent (`nosniff`), and not to
 * keep it (`no-store`).
 */
export const DOCUMENT_RESPONSE_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
} as const;

export interface ServedDocument {
  contentType: string;
  byteSize: number;
  /** A file name for Content-Disposition: the serial and the field, never the partner's name. */
  fileName: string;
  sha256: string;
  /** `previous`: the field's newer document (an amend's) is pending or failed; this is the one before. */
  copy: 'current' | 'previous';
  body: AsyncIterable<Buffer>;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'application/pdf': 'pdf',
};

/**
 * The field's kept copy: `original`, the partner's bytes as served (the evidence, a download), or
 * `preview`, the image the service drew from them (shown inline). Both under the same viewing.
 */
export async function openDocument(
  ctx: ServiceContext,
  request: {
    busiWaterNo: string;
    field: string;
    operator: OperatorIdentity;
    copy: 'original' | 'preview';
  },
): Promise<ServedDocument> {
  const { busiWaterNo, field, operator } = request;
  if (!hasRole(operator.role, ACTING_ROLE)) {
    throw new ServiceError('forbidden', {
      params: {
        reason: `a ${operator.role} cannot view documents; ${ACTING_ROLE} or admin is required`,
        reason_zh: `${operator.role} 无权查看文件，需要 ${ACTING_ROLE} 或 admin 角色`,
      },
    });
  }
  if (!isSerialNumber(busiWaterNo)) throw new ServiceError('applicationNotFound');
  if (!(await applicationExists(ctx.store.db, busiWaterNo))) throw new ServiceError('applicationNotFound');
  await refuseIfRestricted(ctx.store.db, busiWaterNo, operator);
  const safeField = isDocumentField(field) ? field : 'field';
  if (!(await openedInSession(ctx, busiWaterNo, field, operator)))
    throw new ServiceError('documentNotOpened', { params: { field: safeField } });
  const row = (await documentRows(ctx.store.db, [busiWaterNo])).find((r) => r.field === field);
  // The copy held: the field's document once kept, or, while an amend's is pending or failed, the one before.
  if (row === undefined || row.blob_id === null || !isDocumentField(field)) {
    throw new ServiceError('documentNotKept', {
      params: { field: safeField, state: row?.state ?? 'not sent' },
    });
  }
  const copy = row.state === 'kept' ? 'current' : 'previous';
  if (request.copy === 'preview') {
    if (row.preview_blob_id === null || row.preview_chunk_count === null)
      throw new ServiceError('documentNoPreview', { params: { field: safeField } });
    return {
      contentType: PREVIEW_TYPE,
      byteSize: Number(row.preview_byte_size),
      fileName: `${busiWaterNo}-${field}-preview.jpg`,
      sha256: row.sha256 ?? '',
      copy,
      body: readBlob(ctx, {
        busi_water_no: busiWaterNo,
        blob_id: row.preview_blob_id,
        chunk_count: row.preview_chunk_count,
      }),
    };
  }
  const contentType = row.content_type ?? 'application/octet-stream';
  return {
    contentType,
    byteSize: Number(row.byte_size),
    fileName: `${busiWaterNo}-${field}.${EXTENSIONS[contentType] ?? 'bin'}`,
    sha256: row.sha256 ?? '',
    copy,
    body: readBlob(ctx, row),
  };
}

/** Whether this session has an audited opening of the application (or a reveal of the field). */
async function openedInSession(
  ctx: ServiceContext,
  busiWaterNo: string,
  field: string,
  operator: OperatorIdentity,
): Promise<boolean> {
  const session = await findSessionStart(ctx.store.db, operator.sessionHash);
  if (session === undefined) return false;
  const rows = await actionsOnTarget(ctx.store.db, {
    actor: `operator:${operator.username}`,
    targetType: 'application',
    targetId: busiWaterNo,
    actions: OPENING_ACTIONS,
    since: session.created_at,
  });
  return rows.some((row) => {
    if (row.action === 'application.review_open') return true;
    const details = JSON.parse(row.details ?? '{}') as { field?: unknown };
    return details.field === field;
  });
}
