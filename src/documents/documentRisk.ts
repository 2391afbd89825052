import type { ServiceContext } from '../context.ts';
import type { RiskFlag } from '../record/riskFlags.ts';
import { keptByOtherApplicants, type DocumentRow } from './documentRepository.ts';
import { REQUIRED_DOCUMENT_FIELDS } from './outcome.ts';

/**
 * The reviewer's signals from the documents: a required image that failed for good
 * (`document_missing`: ask for it again with SUPPLEMENT_REQUIRED and `image_missing`), and the same
 * bytes (SHA-256) kept for an active application of another applicant (`document_reused`, naming
 * the other serial: one photo passed round several identities is a fraud pattern).
 */
export async function documentRiskFlags(
  ctx: Pick<ServiceContext, 'store'>,
  application: { busi_water_no: string },
  rows: readonly DocumentRow[],
): Promise<RiskFlag[]> {
  const flags: RiskFlag[] = [];
  const missing = rows
    .filter((r) => r.state === 'failed' && REQUIRED_DOCUMENT_FIELDS.some((field) => field === r.field))
    .map((r) => r.field);
  if (missing.length > 0)
    flags.push({ code: 'document_missing', fields: missing, params: { count: missing.length } });

  const kept = rows.filter((r) => r.state === 'kept' && r.sha256 !== null);
  if (kept.length === 0) return flags;
  const others = await keptByOtherApplicants(
    ctx.store.db,
    application.busi_water_no,
    kept.map((r) => r.sha256!),
  );
  for (const row of kept) {
    const matches = [...new Set(others.filter((o) => o.sha256 === row.sha256).map((o) => o.busi_water_no))];
    if (matches.length > 0) {
      flags.push({
        code: 'document_reused',
        fields: [row.field],
        params: { serial: matches[0]!, count: matches.length },
      });
    }
  }
  return flags;
}
