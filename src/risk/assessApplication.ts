import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import { documentRows, keptByOtherApplicants } from '../documents/documentRepository.ts';
import { REQUIRED_DOCUMENT_FIELDS } from '../documents/outcome.ts';
import { DOCUMENT_FIELDS } from '../events/documentOutcomes.ts';
import { RISK_LEVELS, type LoadedRiskPolicy, type RiskLevel } from '../policies/riskPolicy.ts';
import { findForAssessment } from '../record/applicationRepository.ts';
import { readEmail, readPhone } from '../record/canonical.ts';
import { businessDay, NO_EXPIRY } from '../record/dates.ts';
import { isErasedPayload } from '../record/erasure.ts';
import { isFinal, type Status } from '../record/lifecycle.ts';
import { riskFlags } from '../record/riskFlags.ts';
import type { ApplicationRequest } from '../record/schema.ts';
import { openPayload } from '../record/sealedPayload.ts';
import { screeningIndexFor } from '../screening/indexCache.ts';
import { screenApplications } from '../screening/screenApplications.ts';
import { findEntry } from '../screening/listRepository.ts';
import { hitsOf } from '../screening/hitRepository.ts';
import { pepMatchesOf } from '../screening/pepMatchRepository.ts';
import { OPEN_HIT_STATES } from '../store/screeningTables.ts';
import { assess, type Assessment, type RiskEvidence } from './assessment.ts';
import {
  assessmentsOf,
  insertAssessment,
  keepPolicy,
  partnerRiskLevel,
  putContacts,
  sharingContact,
} from './riskRepository.ts';

/**
 * An application's assessment, made once its evidence is in (every image settled) and again
 * whenever evidence changes. It screens the applicant first (screening is idempotent: a hit
 * recorded is not recorded again), so a rating never misses a hit that the screening job had not
 * yet recorded; then it gathers the evidence, weighs it by the policy in force and stores the
 * assessment with its evidence and the policy's version, unless it is the same as the latest.
 */

export type AssessOutcome =
  | {
      outcome: 'assessed';
      assessment: Assessment;
      stored: boolean;
      /** What was weighed: the policy's decision checks it again (risk/policyAction.ts). */
      evidence: RiskEvidence;
      /** The application as read before it was weighed: a decision moves it only if still so. */
      status: Status;
      version: number;
    }
  /** Some image is still being fetched: assessed when it settles. */
  | { outcome: 'waiting' }
  /** Final, erased, unreadable or gone: nothing to rate. */
  | { outcome: 'skipped'; reason: string };

const DAY_MS = 86_400_000;

export async function assessApplication(
  ctx: ServiceContext,
  serial: string,
  cause: string,
  log: Logger,
): Promise<AssessOutcome> {
  const row = await findForAssessment(ctx.store.db, serial);
  if (row === undefined) return { outcome: 'skipped', reason: 'no such application' };
  if (isFinal(row.status)) return { outcome: 'skipped', reason: 'final' };
  let payload;
  try {
    payload = openPayload(ctx.keyRing, row.busi_water_no, row.payload_enc);
  } catch {
    return { outcome: 'skipped', reason: 'unreadable' };
  }
  if (isErasedPayload(payload)) return { outcome: 'skipped', reason: 'erased' };
  const documents = await documentRows(ctx.store.db, [serial]);
  // Every image the application carries settled (kept or failed): before its fetch job has run, a
  // field has no row yet.
  const carried = DOCUMENT_FIELDS.filter((field) => typeof payload[field] === 'string');
  const settled = (field: string) => documents.some((d) => d.field === field && d.state !== 'pending');
  if (!carried.every(settled)) return { outcome: 'waiting' };

  const index = await screeningIndexFor(ctx.store);
  if (index.entries.length > 0) await screenApplications(ctx, index, [row], log);
  const evidence = await gatherEvidence(ctx, row, payload, documents);
  const assessment = assess(ctx.riskPolicy.policy, evidence);
  const stored = await storeAssessment(ctx, ctx.riskPolicy, serial, assessment, evidence, cause);
  return { outcome: 'assessed', assessment, stored, evidence, status: row.status, version: row.version };
}

type DocumentRows = Awaited<ReturnType<typeof documentRows>>;

async function gatherEvidence(
  ctx: ServiceContext,
  row: { busi_water_no: string; app_id: string; cert_hash: string },
  payload: ApplicationRequest,
  documents: DocumentRows,
): Promise<RiskEvidence> {
  const db = ctx.store.db;
  const serial = row.busi_water_no;
  const hits = await hitsOf(db, serial);
  const kept = documents.filter((d) => d.state === 'kept' && d.sha256 !== null);
  const others =
    kept.length === 0
      ? []
      : await keptByOtherApplicants(
          db,
          serial,
          kept.map((d) => d.sha256!),
        );
  const contacts = contactHashes(ctx, payload);
  await putContacts(db, serial, row.cert_hash, contacts);
  const shared = async (kind: string) => {
    const contact = contacts.find((c) => c.kind === kind);
    if (contact === undefined) return [];
    return sharingContact(db, { busiWaterNo: serial, certHash: row.cert_hash, ...contact });
  };
  const today = businessDay(new Date(ctx.now()), ctx.config.businessTimeZone);
  const flags = riskFlags(payload, {
    today,
    minAge: ctx.config.minAge,
    otherCodes: {
      position: ctx.codes.position.otherCode,
      purpose: ctx.codes.purpose.otherCode,
      wealth_source: ctx.codes.wealth_source.otherCode,
    },
  });
  const level = await partnerRiskLevel(db, row.app_id);
  const end = payload.cert_end_date;
  return {
    openSanctionsHits: hits
      .filter((hit) => OPEN_HIT_STATES.includes(hit.state))
      .map((hit) => ({ list: hit.list, reference: hit.reference })),
    pepMatches: await pepEvidence(db, serial),
    documents: documents.map((d) => ({
      field: d.field,
      state: d.state,
      reason: d.reason,
      required: (REQUIRED_DOCUMENT_FIELDS as readonly string[]).includes(d.field),
    })),
    reusedImages: kept
      .map((d) => ({
        field: d.field,
        serials: [...new Set(others.filter((o) => o.sha256 === d.sha256).map((o) => o.busi_water_no))].sort(),
      }))
      .filter((image) => image.serials.length > 0),
    sharedMobile: await shared('mobile'),
    sharedEmail: await shared('email'),
    country: payload.country,
    profession: payload.profession,
    otherTextMissing: (flags.find((f) => f.code === 'other_text_missing')?.fields ?? []).filter(
      (field) => !field.endsWith('_other'),
    ),
    documentDaysLeft:
      end === undefined || end === NO_EXPIRY
        ? null
        : Math.round((Date.parse(end) - Date.parse(today)) / DAY_MS),
    partnerRiskLevel: RISK_LEVELS.includes(level as RiskLevel) ? (level as RiskLevel) : 'low',
  };
}

/** Each PEP match as evidence: list, entry and position (list data), never a name. */
async function pepEvidence(
  db: ServiceContext['store']['db'],
  serial: string,
): Promise<RiskEvidence['pepMatches']> {
  return Promise.all(
    (await pepMatchesOf(db, serial)).map(async (match) => {
      const entry = await findEntry(db, match.version_id, match.reference);
      return {
        list: match.list,
        reference: match.reference,
        role: match.role,
        position: entry?.pep?.positions[0]?.title ?? null,
      };
    }),
  );
}

/** The keyed hashes of the applicant's mobile number and e-mail, in their canonical readings. */
function contactHashes(ctx: ServiceContext, payload: ApplicationRequest): { kind: string; hash: string }[] {
  const contacts: { kind: string; hash: string }[] = [];
  const digits = readPhone(payload.mob_no).digits;
  if (digits !== undefined) {
    const area = payload.mob_no_of.normalize('NFKC').replace(/[\s+]/g, '');
    contacts.push({ kind: 'mobile', hash: ctx.keyRing.blindIndex('risk.mobile', `${area}:${digits}`) });
  }
  const email = payload.email === undefined ? undefined : readEmail(payload.email.normalize('NFKC'));
  if (email !== undefined) {
    const value = `${email.local.toLowerCase()}@${email.domain.toLowerCase()}`;
    contacts.push({ kind: 'email', hash: ctx.keyRing.blindIndex('risk.email', value) });
  }
  return contacts;
}

/** Stores the assessment (and its policy's text, once), unless the latest one says the same. */
async function storeAssessment(
  ctx: ServiceContext,
  policy: LoadedRiskPolicy,
  serial: string,
  assessment: Assessment,
  evidence: RiskEvidence,
  cause: string,
): Promise<boolean> {
  const factors = JSON.stringify(assessment.factors);
  return ctx.store.transaction(async (trx) => {
    const [latest] = await assessmentsOf(trx, serial, 1);
    const same =
      latest !== undefined &&
      latest.policy_version === policy.version &&
      latest.tier === assessment.tier &&
      latest.score === assessment.score &&
      latest.routing === assessment.routing &&
      latest.factors === factors;
    if (same) return false;
    const now = ctx.now();
    await keepPolicy(trx, {
      version: policy.version,
      name: policy.policy.name,
      content: policy.content,
      first_used_at: now,
    });
    await insertAssessment(trx, {
      id: randomUUID(),
      busi_water_no: serial,
      tier: assessment.tier,
      score: assessment.score,
      routing: assessment.routing,
      policy_version: policy.version,
      factors,
      evidence: JSON.stringify(evidence),
      cause,
      assessed_at: now,
    });
    return true;
  });
}
