import { sql } from 'kysely';
import { startProgress } from '../src/cli/progress.ts';
import type { Store } from '../src/store/connect.ts';

const BATCH = 100_000;

/**
 * Bulk seeding of synthetic applications for the query and list benchmarks, in the store itself
 * (generate_series / a recursive CTE): a million rows in seconds, not hours. Seeded serials are
 * `SEED` + 28 digits, each with its submission's event (and history entry), already fanned out;
 * their payload is not decryptable, which query and list never need.
 */
export function seededSerial(i: number): string {
  return `SEED${String(i).padStart(28, '0')}`;
}

export async function seedApplications(
  store: Store,
  kind: 'sqlite' | 'postgres',
  appId: string,
  from: number,
  to: number,
): Promise<void> {
  const base = Date.now() - 86_400_000;
  const progress = startProgress(`seeding ${kind}`, { total: to - from + 1, unit: 'applications' });
  for (let start = from; start <= to; start += BATCH) {
    const end = Math.min(to, start + BATCH - 1);
    if (kind === 'postgres') {
      await sql`INSERT INTO ${store.table('applications')} (busi_water_no, app_id, status, status_reason, cert_type, cert_hash,
          active_cert_hash, card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at)
        SELECT 'SEED' || lpad(i::text, 28, '0'), ${appId}, 'SUBMITTED', NULL, '00', 'seedcert' || i, NULL,
          'seedcard' || i, '539966******0000', 'seed', 'seed', 1, ${base}::bigint + i, ${base}::bigint + i
        FROM generate_series(${start}::int, ${end}::int) AS i`.execute(store.db);
      await sql`INSERT INTO ${store.table('events')} (event_id, app_id, busi_water_no, type, payload, created_at, seq,
          fanned_out_at, from_status, to_status, actor)
        SELECT 'evt_seed' || i, ${appId}, 'SEED' || lpad(i::text, 28, '0'), 'application.submitted', '{}',
          ${base}::bigint + i, 1, ${base}::bigint + i, NULL, 'SUBMITTED', 'system'
        FROM generate_series(${start}::int, ${end}::int) AS i`.execute(store.db);
    } else {
      await store.transaction(async (trx) => {
        await sql`WITH RECURSIVE n(i) AS (SELECT ${start} UNION ALL SELECT i + 1 FROM n WHERE i < ${end})
          INSERT INTO ${store.table('applications')} (busi_water_no, app_id, status, status_reason, cert_type, cert_hash,
            active_cert_hash, card_no_hash, card_no_masked, payload_enc, key_id, version, created_at, updated_at)
          SELECT 'SEED' || printf('%028d', i), ${appId}, 'SUBMITTED', NULL, '00', 'seedcert' || i, NULL,
            'seedcard' || i, '539966******0000', 'seed', 'seed', 1, ${base} + i, ${base} + i FROM n`.execute(
          trx,
        );
        await sql`WITH RECURSIVE n(i) AS (SELECT ${start} UNION ALL SELECT i + 1 FROM n WHERE i < ${end})
          INSERT INTO ${store.table('events')} (event_id, app_id, busi_water_no, type, payload, created_at, seq,
            fanned_out_at, from_status, to_status, actor)
          SELECT 'evt_seed' || i, ${appId}, 'SEED' || printf('%028d', i), 'application.submitted', '{}',
            ${base} + i, 1, ${base} + i, NULL, 'SUBMITTED', 'system' FROM n`.execute(trx);
      });
    }
    progress.advance(end - start + 1);
  }
  if (kind === 'postgres') await sql`ANALYZE`.execute(store.db);
  progress.finish();
}
