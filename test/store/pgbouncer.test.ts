import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { nowSeconds, post, type Reply } from '../helpers/service.ts';
import { skipWithout } from '../helpers/components.ts';
import { startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.ts';
import { createStoreTarget, type StoreTarget } from '../helpers/stores.ts';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { checkConnectionBudget, openContext } from '../../src/start.ts';
import type { ServiceContext } from '../../src/context.ts';

/**
 * The service behind a real PgBouncer in transaction pooling mode (the rest of the PostgreSQL suite
 * runs through one with PGBOUNCER=1, see `npm run test:pgbouncer`): three service processes, whose
 * pools together hold far more client connections than the bouncer has server connections, take
 * 300 concurrent submissions, queries, duplicates and cancels with no error. With
 * DATABASE_PREPARED_STATEMENTS=true the same load fails as it did before the store was made
 * pooler-safe, which shows the bouncer really lends server sessions per transaction.
 */
const INSTANCES = 3;
const SUBMISSIONS = 300;

describe('behind PgBouncer in transaction mode', { skip: skipWithout('postgres', 'pgbouncer') }, () => {
  let bouncer: PgBouncer;
  let target: StoreTarget;
  let ctx: ServiceContext;
  let env: Record<string, string>;

  before(async () => {
    // Fewer server connections than the three pools' 3 × 8 clients: sessions are shared for real.
    bouncer = await startPgBouncer(process.env['DATABASE_URL']!, { poolSize: 6 });
    target = createStoreTarget('postgres');
    env = { ...target.env, DATABASE_URL: bouncer.url, DATABASE_POOL_SIZE: '8' };
    ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
  });
  after(async () => {
    await ctx?.store.close();
    await target?.cleanup();
    await bouncer?.stop();
  });

  /** 300 submissions at once over three processes, then queries, duplicates and cancels. */
  async function load(
    extraEnv: Record<string, string>,
    base: number,
  ): Promise<{ replies: Reply[]; serials: string[] }> {
    const processes: ServiceProcess[] = await Promise.all(
      Array.from({ length: INSTANCES }, () => spawnService({ ...env, ...extraEnv })),
    );
    try {
      const app = await createApp(ctx.store.db, 'pooled partner', Date.now());
      const token = (
        (await post(processes[0]!.baseUrl, PATHS.token, { ...app, timestamp: nowSeconds() })).body.data as {
          access_token: string;
        }
      ).access_token;
      const url = (i: number) => processes[i % INSTANCES]!.baseUrl;
      const submitted = await Promise.all(
        Array.from({ length: SUBMISSIONS }, (_, i) =>
          post(url(i), PATHS.apply, uniqueApplicant(base + i, app.app_id), { token }),
        ),
      );
      const serials = submitted
        .filter((r) => r.body.code === 0)
        .map((r) => (r.body.data as { busi_water_no: string }).busi_water_no);
      const call = (i: number, path: string, body: Record<string, unknown>) =>
        post(url(i), path, { app_id: app.app_id, timestamp: nowSeconds(), ...body }, { token });
      const queried = await Promise.all(
        serials.map((serial, i) => call(i + 1, PATHS.query, { busi_water_no: serial })),
      );
      const duplicates = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          post(url(i + 2), PATHS.apply, uniqueApplicant(base + i, app.app_id), { token }),
        ),
      );
      const cancelled = await Promise.all(
        serials.slice(0, 30).map((serial, i) => call(i, PATHS.cancel, { busi_water_no: serial })),
      );
      return { replies: [...submitted, ...queried, ...duplicates, ...cancelled], serials };
    } finally {
      for (const p of processes) p.child.kill('SIGTERM');
      await Promise.all(processes.map((p) => p.exited));
    }
  }

  test(`${INSTANCES} instances take ${SUBMISSIONS} concurrent submissions and more with 0 errors`, async () => {
    const { replies, serials } = await load({}, 0);
    const failures = replies.filter((r) => r.status >= 500);
    assert.deepEqual(
      failures.map((r) => r.text),
      [],
      'no 5xx',
    );
    assert.equal(serials.length, SUBMISSIONS, 'every submission accepted');
    assert.equal(new Set(serials).size, SUBMISSIONS);
    const duplicates = replies.filter((r) => r.body.code === ERRORS.duplicateApplication.code);
    assert.equal(duplicates.length, 30, 'the 30 resubmitted documents are duplicates');
    const stored = await ctx.store.db.selectFrom('applications').select('busi_water_no').execute();
    assert.ok(serials.every((s) => stored.some((row) => row.busi_water_no === s)));
    const cancelled = await ctx.store.db
      .selectFrom('applications')
      .select('busi_water_no')
      .where('status', '=', 'CANCELLED')
      .execute();
    assert.equal(cancelled.length, 30);
  });

  test('named prepared statements (DATABASE_PREPARED_STATEMENTS=true) break behind it, as expected', async () => {
    const { replies } = await load({ DATABASE_PREPARED_STATEMENTS: 'true' }, 10_000);
    const failures = replies.filter((r) => r.status >= 500);
    assert.ok(failures.length > 0, 'the bouncer lends sessions per transaction: named statements collide');
  });

  test('the connection budget is checked at start on a direct connection, not behind a pooler', async () => {
    const lines: string[] = [];
    const logger = createLogger(
      { logLevel: 'warn' },
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(chunk.toString('utf8'));
          callback();
        },
      }),
    );
    const check = async (url: string, poolSize: number): Promise<boolean> => {
      const config = loadConfig({ ...target.env, DATABASE_URL: url, DATABASE_POOL_SIZE: String(poolSize) });
      const other = await openContext(config, logger, { migrate: false });
      try {
        return await checkConnectionBudget(other, logger, 2);
      } finally {
        await other.store.close();
      }
    };
    const direct = target.directUrl!;
    assert.equal(await check(direct, 1000), true, '2 × 1000 cannot fit');
    assert.match(lines.join(''), /connection budget: 2 process\(es\) × DATABASE_POOL_SIZE 1000 = 2000/);
    lines.length = 0;
    assert.equal(await check(direct, 2), false, '2 × 2 fits');
    assert.equal(await check(bouncer.url, 1000), false, 'behind the pooler its pool size is the bound');
    assert.deepEqual(lines, []);
  });
});
