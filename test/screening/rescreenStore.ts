import { createReadStream } from 'node:fs';
import type { Insertable } from 'kysely';
import type { ServiceContext } from '../../src/context.ts';
import type { ApplicationsTable } from '../../src/store/tables.ts';
import { importList } from '../../src/screening/importList.ts';
import { ScreeningIndex } from '../../src/screening/screeningIndex.ts';
import { labelledApplicants, labelledListEntries } from './labelledSet.ts';

/** One application in this many is a planted variant of a listed name. */
const PLANT_EVERY = 5_000;

const rescreenSerial = (i: number) => `RESCREEN${String(i).padStart(24, '0')}`;

/**
 * A store ready for a re-screen (test/screening/rescreen.test.ts, bench/rescreen.ts): `count`
 * applications of `appId` inserted by SQL, each with its own encrypted payload (ordinary names that
 * no list entry matches, and every `PLANT_EVERY`th a variant of a listed name that the screening
 * finds; one in seven delivered), then the labelled UN list imported, which queues the re-screen.
 * Returns the serials planted.
 */
export async function seedRescreen(ctx: ServiceContext, appId: string, count: number): Promise<Set<string>> {
  const entries = await labelledListEntries();
  const index = new ScreeningIndex([{ list: 'un', versionId: 'local', entries }]);
  // Ordinary: those no list entry matches (the false positives are measured elsewhere).
  const ordinary = labelledApplicants('ordinary.tsv').filter((o) => index.screen(o, 0.9).length === 0);
  // Planted: variants that the screening finds (recall is measured elsewhere).
  const variants = labelledApplicants('variants.tsv').filter((v) => index.screen(v, 0.9).length > 0);
  const planted = new Set<string>();
  const now = ctx.now();
  for (let start = 0; start < count; start += 1000) {
    const rows: Insertable<ApplicationsTable>[] = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      const plant = i % PLANT_EVERY === 0;
      const person = plant ? variants[(i / PLANT_EVERY) % variants.length]! : ordinary[i % ordinary.length]!;
      if (plant) planted.add(rescreenSerial(i));
      const payload = { ...person, label: undefined, cert_id: `R${String(i).padStart(9, '0')}` };
      rows.push({
        busi_water_no: rescreenSerial(i),
        app_id: appId,
        status: i % 7 === 0 ? 'DELIVERED' : 'SUBMITTED',
        status_reason: null,
        cert_type: '01',
        cert_hash: `rescreen${i}`,
        active_cert_hash: null,
        card_no_hash: `rescreencard${i}`,
        card_no_masked: '539966******0000',
        payload_enc: ctx.keyRing.encrypt(JSON.stringify(payload), rescreenSerial(i)),
        key_id: 'k',
        version: 1,
        created_at: now,
        updated_at: now,
      });
    }
    await ctx.store.db.insertInto('applications').values(rows).execute();
  }
  await importList(ctx, {
    list: 'un',
    source: createReadStream(new URL('./labelled/list.xml', import.meta.url)),
    actor: 'system',
    origin: 'test',
  });
  return planted;
}
