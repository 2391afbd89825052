import { maskName } from '../record/masking.ts';
import type { RiskFlag } from '../record/riskFlags.ts';
import type { ServiceContext } from '../context.ts';
import { ACTING_ROLE, hasRole, type Role } from '../access/roles.ts';
import type { ScreeningHitsTable } from '../store/screeningTables.ts';
import { findEntry } from './listRepository.ts';
import { hitsOf } from './hitRepository.ts';

/** One hit as a reviewer sees it, beside the applicant: the entry's names, dates and nationalities. */
export interface ScreeningHitView {
  id: string;
  list: string;
  version_id: string;
  reference: string;
  matched_name: string;
  matched_kind: string;
  /** The application's fields that matched, for the console to highlight. */
  fields: string[];
  score: number;
  state: ScreeningHitsTable['state'];
  after_delivery: boolean;
  resolved_by: string | null;
  resolution_note: string | null;
  resolved_at: number | null;
  confirmed_by: string | null;
  confirmed_at: number | null;
  created_at: number;
  /** The listed entry (document numbers left out: one may be the applicant's own). */
  entry: {
    names: { text: string; kind: string; weak: boolean }[];
    birth_dates: string[];
    nationalities: string[];
    documents: { type: string; country: string | null }[];
  } | null;
}

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/**
 * The hits as `viewer` may see them. A listed name that matched is, near enough, the applicant's
 * own name: a viewer, who sees the applicant's name masked and cannot reveal it, sees the listed
 * names masked the same way (`maskName`). Reviewers and admins, who judge the hit, see the entry as
 * published (list data); the applicant's own fields stay masked for them until a reveal, audited.
 * The clearing operator's note may quote the listed name: a viewer is not shown it (null).
 */
export async function screeningHitsView(
  ctx: ServiceContext,
  busiWaterNo: string,
  viewer: { role: Role },
): Promise<ScreeningHitView[]> {
  const hits = await hitsOf(ctx.store.db, busiWaterNo);
  const views = await Promise.all(
    hits.map(async (hit) => {
      const entry = await findEntry(ctx.store.db, hit.version_id, hit.reference);
      return {
        id: hit.id,
        list: hit.list,
        version_id: hit.version_id,
        reference: hit.reference,
        matched_name: hit.matched_name,
        matched_kind: hit.matched_kind,
        fields: JSON.parse(hit.fields) as string[],
        score: hit.score / 1000,
        state: hit.state,
        after_delivery: hit.after_delivery === 1,
        resolved_by: hit.resolved_by,
        resolution_note: hit.resolution_note,
        resolved_at: seconds(hit.resolved_at),
        confirmed_by: hit.confirmed_by,
        confirmed_at: seconds(hit.confirmed_at),
        created_at: Math.floor(hit.created_at / 1000),
        entry:
          entry === undefined
            ? null
            : {
                names: entry.names,
                birth_dates: entry.birthDates.map((d) => d.text),
                nationalities: entry.nationalities,
                documents: entry.documents.map((d) => ({ type: d.type, country: d.country })),
              },
      };
    }),
  );
  return hasRole(viewer.role, ACTING_ROLE) ? views : views.map(maskedForViewer);
}

function maskedForViewer(hit: ScreeningHitView): ScreeningHitView {
  return {
    ...hit,
    matched_name: maskName(hit.matched_name),
    // Free text of the clearing operator's, which may quote the listed name: withheld, not masked.
    resolution_note: null,
    entry:
      hit.entry === null
        ? null
        : { ...hit.entry, names: hit.entry.names.map((name) => ({ ...name, text: maskName(name.text) })) },
  };
}

/** The risk flag of each hit that still holds the application. */
export function screeningFlags(hits: readonly ScreeningHitView[]): RiskFlag[] {
  return hits
    .filter((hit) => hit.state === 'unresolved' || hit.state === 'clearing')
    .map((hit) => ({
      code: 'sanctions_hit',
      fields: hit.fields,
      params: { score: hit.score },
      details: { hit_id: hit.id, list: hit.list, reference: hit.reference, matched_name: hit.matched_name },
    }));
}
