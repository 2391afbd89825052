import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { SQLITE_FILE } from '../../src/store/connect.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { growPostgres, growSqlite } from './growTables.ts';
import { prepareSizeSetup, SIZE_OPERATOR, sizeRequests, type SizeRequest } from './sizeRequests.ts';

/**
 * A service on a private store grown to `count` applications by the fixture, with the requests to
 * measure on it. Returns how long the growth took.
 */
export async function sizedService(
  storeName: 'sqlite' | 'postgres',
  count: number,
  env: Record<string, string> = {},
): Promise<{ service: TestService; requests: SizeRequest[]; growMs: number }> {
  const service = await startService(storeName, { OPERATOR_REVEALS_PER_HOUR: '100000', ...env });
  try {
    const setup = await prepareSizeSetup(service);
    const growth = {
      count,
      apps: [setup.partner.appId, ...setup.otherApps],
      operator: `operator:${SIZE_OPERATOR}`,
      now: Date.now(),
    };
    const started = performance.now();
    if (storeName === 'sqlite') {
      const database = new DatabaseSync(join(service.target.dataDir, SQLITE_FILE));
      try {
        growSqlite(database, growth);
      } finally {
        database.close();
      }
    } else {
      const pool = new pg.Pool({ connectionString: service.target.directUrl, max: 1 });
      try {
        await growPostgres(pool, service.target.schema!, growth);
      } finally {
        await pool.end();
      }
    }
    const growMs = performance.now() - started;
    return { service, requests: await sizeRequests(service, setup), growMs };
  } catch (error) {
    await service.close();
    throw error;
  }
}
