import { maskName } from '../../record/masking.ts';
import type { ServiceContext } from '../../context.ts';
import { openApplication } from '../../record/sealedPayload.ts';
import { appNames } from '../../partners/appRepository.ts';
import { sealedPayloads } from '../../record/applicationRepository.ts';
import { liveClaimsOf } from '../../record/reviewClaimRepository.ts';

/**
 * What tells the rows of the review queue apart at a glance (serials of applications submitted
 * together begin alike): the partner's name, the applicant's masked name (a surname and stars,
 * never the name) and who holds the application for review. One query per kind for a page.
 */
export interface QueueDetails {
  app_name: string | null;
  name_masked: string | null;
  claimed_by: string | null;
}

export async function queueDetails(
  ctx: ServiceContext,
  items: readonly { busi_water_no: string; app_id: string }[],
): Promise<Map<string, QueueDetails>> {
  const details = new Map<string, QueueDetails>();
  if (items.length === 0) return details;
  const serials = items.map((i) => i.busi_water_no);
  const appIds = [...new Set(items.map((i) => i.app_id))];
  const db = ctx.store.db;
  const apps = new Map((await appNames(db, appIds)).map((a) => [a.app_id, a.name]));
  const payloads = await sealedPayloads(db, serials);
  const claims = new Map(
    (await liveClaimsOf(db, serials, ctx.now())).map((c) => [c.busi_water_no, c.username]),
  );
  const names = new Map<string, string | null>();
  for (const row of payloads) {
    try {
      const { name } = openApplication(ctx.keyRing, row.busi_water_no, row.payload_enc);
      names.set(row.busi_water_no, name === undefined ? null : maskName(name));
    } catch {
      names.set(row.busi_water_no, null); // unreadable (key missing): the row still shows
    }
  }
  for (const item of items) {
    details.set(item.busi_water_no, {
      app_name: apps.get(item.app_id) ?? null,
      name_masked: names.get(item.busi_water_no) ?? null,
      claimed_by: claims.get(item.busi_water_no) ?? null,
    });
  }
  return details;
}
