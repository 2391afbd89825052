import { ACTING_ROLE, hasRole, type Role } from '../access/roles.ts';
import type { ServiceContext } from '../context.ts';
import { maskName } from '../record/masking.ts';
import type { ListedPosition, ListedRelation } from './listEntry.ts';
import { pepMatchesOf } from './pepMatchRepository.ts';
import { findEntry } from './listRepository.ts';

/**
 * A PEP match as a reviewer sees it beside the applicant: the entry's names, dates of birth and
 * nationalities, the positions held (country, start and end where the list gives them) and, for a
 * relative or close associate, the tie to the PEP. It holds nothing and has no state to resolve.
 */
export interface PepMatchView {
  id: string;
  list: string;
  version_id: string;
  reference: string;
  role: 'pep' | 'rca';
  matched_name: string;
  matched_kind: string;
  fields: string[];
  score: number;
  created_at: number;
  entry: {
    names: { text: string; kind: string; weak: boolean }[];
    birth_dates: string[];
    nationalities: string[];
    positions: ListedPosition[];
    relations: ListedRelation[];
  } | null;
}

/** The PEP matches as `viewer` may see them: names masked for a viewer, as a hit's are (screeningView.ts). */
export async function pepMatchesView(
  ctx: ServiceContext,
  busiWaterNo: string,
  viewer: { role: Role },
): Promise<PepMatchView[]> {
  const matches = await pepMatchesOf(ctx.store.db, busiWaterNo);
  const views = await Promise.all(
    matches.map(async (match): Promise<PepMatchView> => {
      const entry = await findEntry(ctx.store.db, match.version_id, match.reference);
      return {
        id: match.id,
        list: match.list,
        version_id: match.version_id,
        reference: match.reference,
        role: match.role,
        matched_name: match.matched_name,
        matched_kind: match.matched_kind,
        fields: JSON.parse(match.fields) as string[],
        score: match.score / 1000,
        created_at: Math.floor(match.created_at / 1000),
        entry:
          entry === undefined
            ? null
            : {
                names: entry.names,
                birth_dates: entry.birthDates.map((d) => d.text),
                nationalities: entry.nationalities,
                positions: entry.pep?.positions ?? [],
                relations: entry.pep?.relations ?? [],
              },
      };
    }),
  );
  if (hasRole(viewer.role, ACTING_ROLE)) return views;
  return views.map((view) => ({
    ...view,
    matched_name: maskName(view.matched_name),
    entry:
      view.entry === null
        ? null
        : {
            ...view.entry,
            names: view.entry.names.map((name) => ({ ...name, text: maskName(name.text) })),
            relations: view.entry.relations.map((r) => ({
              ...r,
              name: r.name === null ? null : maskName(r.name),
            })),
          },
  }));
}
