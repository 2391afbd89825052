import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { chainHash, formatHead, type ChainProblemKind } from '../../src/audit/auditChain.ts';
import { recordAudit } from '../../src/audit/auditTrail.ts';
import { verifyAuditTrail } from '../../src/audit/verifyTrail.ts';
import type { ServiceContext } from '../../src/context.ts';
import { cardapply } from '../helpers/cli.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';

/**
 * PCI DSS v4 10.3.2: the trail cannot be rewritten unseen. Each case writes a trail through the one
 * writer, then tampers with it as someone holding the database would (the append-only triggers
 * switched off, the SQL written by hand), and `audit verify` must name the first row touched and
 * what was done to it. Every case on a store of its own, on both stores.
 */

const ROWS = 12;

async function trail(ctx: ServiceContext, rows = ROWS): Promise<void> {
  for (let i = 1; i <= rows; i++) {
    await recordAudit(ctx.store.db, {
      actor: `operator:op${i}`,
      action: 'operator.login',
      targetType: 'operator',
      targetId: `op${i}`,
      details: { n: i },
      source: 'test',
      at: 1_700_000_000_000 + i,
    });
  }
}

/** Runs `tamper` with the triggers off, as an attacker with the database would switch them off. */
async function asAttacker(
  ctx: ServiceContext,
  storeName: string,
  tamper: (table: ReturnType<ServiceContext['store']['table']>) => Promise<void>,
) {
  const table = ctx.store.table('audit_log');
  const db = ctx.store.db;
  if (storeName === 'postgres') {
    await sql`ALTER TABLE ${table} DISABLE TRIGGER USER`.execute(db);
    await tamper(table);
    await sql`ALTER TABLE ${table} ENABLE TRIGGER USER`.execute(db);
  } else {
    await sql`DROP TRIGGER audit_log_no_update`.execute(db);
    await sql`DROP TRIGGER audit_log_no_delete`.execute(db);
    await tamper(table);
  }
}

async function rowOf(ctx: ServiceContext, id: number) {
  return ctx.store.db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function withStore(
  storeName: 'sqlite' | 'postgres',
  work: (ctx: ServiceContext, env: Record<string, string>) => Promise<void>,
) {
  const target = createStoreTarget(storeName);
  const ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
  try {
    await work(ctx, target.env);
  } finally {
    await ctx.store.close();
    await target.cleanup();
  }
}

/** `cardapply audit verify --json`: its report and exit code. */
async function verifyCli(env: Record<string, string>, ...args: string[]) {
  try {
    return {
      code: 0,
      report: JSON.parse(await cardapply(env, 'audit', 'verify', '--json', ...args)) as Report,
    };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, report: JSON.parse(failed.stdout ?? 'null') as Report };
  }
}
type Report = Awaited<ReturnType<typeof verifyAuditTrail>>;

function assertProblem(report: Report, kind: ChainProblemKind, id: number | null) {
  assert.equal(report.ok, false, 'the tampering is found');
  assert.deepEqual([report.problem?.kind, report.problem?.id], [kind, id], report.problem?.message);
}

for (const storeName of storeNames()) {
  describe(`the audit chain on ${storeName}`, () => {
    test('an untouched trail verifies, from the CLI too, and against its own head', async () => {
      await withStore(storeName, async (ctx, env) => {
        const empty = await verifyAuditTrail(ctx.store.db);
        assert.deepEqual([empty.ok, empty.rows], [true, 0]);
        await trail(ctx);
        const report = await verifyAuditTrail(ctx.store.db);
        assert.deepEqual(
          [report.ok, report.rows, report.head.seq],
          [true, ROWS, ROWS],
          report.problem?.message,
        );
        const last = await rowOf(ctx, report.head.row_id);
        assert.equal(last.hash, report.head.hash);
        const cli = await verifyCli(env, '--head', formatHead(report.head));
        assert.equal(cli.code, 0, JSON.stringify(cli.report));
        assert.equal(cli.report.rows, ROWS);
        // The chain links each row to the one before it.
        const rows = await ctx.store.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
        assert.deepEqual(
          rows.map((row) => row.seq),
          rows.map((_, i) => i + 1),
        );
        for (let i = 1; i < rows.length; i++) assert.equal(rows[i]!.prev_hash, rows[i - 1]!.hash);
      });
    });

    test('a changed row is named', async () => {
      await withStore(storeName, async (ctx, env) => {
        await trail(ctx);
        await asAttacker(ctx, storeName, (t) =>
          sql`UPDATE ${t} SET actor = 'operator:mallory' WHERE id = 5`.execute(ctx.store.db).then(() => {}),
        );
        assertProblem(await verifyAuditTrail(ctx.store.db), 'changed', 5);
        const cli = await verifyCli(env);
        assert.equal(cli.code, 1, 'the command fails');
        assertProblem(cli.report, 'changed', 5);
      });
    });

    test('a changed row whose hash was made again is named, not the row after it', async () => {
      await withStore(storeName, async (ctx) => {
        await trail(ctx);
        const row = await rowOf(ctx, 5);
        const forged = chainHash(row.prev_hash!, { ...row, seq: row.seq!, action: 'operator.logout' });
        await asAttacker(ctx, storeName, (t) =>
          sql`UPDATE ${t} SET action = 'operator.logout', hash = ${forged} WHERE id = 5`
            .execute(ctx.store.db)
            .then(() => {}),
        );
        assertProblem(await verifyAuditTrail(ctx.store.db), 'changed', 5);
      });
    });

    test('a deleted row is named by the row after the gap; a deleted tail by the head', async () => {
      await withStore(storeName, async (ctx) => {
        await trail(ctx);
        await asAttacker(ctx, storeName, (t) =>
          sql`DELETE FROM ${t} WHERE id = 7`.execute(ctx.store.db).then(() => {}),
        );
        const report = await verifyAuditTrail(ctx.store.db);
        assertProblem(report, 'deleted', 8);
        assert.match(report.problem!.message, /seq 7 is missing/);
      });
      await withStore(storeName, async (ctx, env) => {
        await trail(ctx);
        const logged = (await verifyAuditTrail(ctx.store.db)).head;
        await asAttacker(ctx, storeName, (t) =>
          sql`DELETE FROM ${t} WHERE id = ${ROWS}`.execute(ctx.store.db).then(() => {}),
        );
        assertProblem(await verifyAuditTrail(ctx.store.db), 'deleted', ROWS);
        // The whole tail rewritten, the store's head too: only the logged head tells.
        await sql`UPDATE ${ctx.store.table('audit_chain_head')} SET seq = ${ROWS - 1}, row_id = ${ROWS - 1}, hash = ${(await rowOf(ctx, ROWS - 1)).hash}`.execute(
          ctx.store.db,
        );
        assert.equal((await verifyAuditTrail(ctx.store.db)).ok, true, 'consistent without the log');
        const cli = await verifyCli(env, '--head', formatHead(logged));
        assert.equal(cli.code, 1);
        assertProblem(cli.report, 'deleted', ROWS);
      });
    });

    test('an inserted row is named: outside the chain, forged into it, or appended', async () => {
      await withStore(storeName, async (ctx, env) => {
        await trail(ctx);
        // Room made after row 6, and a row forged into the chain there, hashed as the writer would.
        const sixth = await rowOf(ctx, 6);
        const content = {
          seq: 7,
          at: sixth.at + 1,
          actor: 'operator:mallory',
          action: 'operator.login',
          target_type: null,
          target_id: null,
          details: null,
          source: 'test',
        };
        const hash = chainHash(sixth.hash!, content);
        await asAttacker(ctx, storeName, async (t) => {
          await sql`UPDATE ${t} SET id = id + 1000 WHERE id > 6`.execute(ctx.store.db);
          // The index that keeps seq unique would refuse the forged row: the attacker drops it.
          const schema = env['DATABASE_SCHEMA'];
          await sql`DROP INDEX ${sql.raw(schema === undefined ? '' : `"${schema}".`)}audit_log_seq`.execute(
            ctx.store.db,
          );
          await sql`INSERT INTO ${t} (id, seq, prev_hash, hash, at, actor, action, target_type, target_id, details, source)
            VALUES (7, ${content.seq}, ${sixth.hash}, ${hash}, ${content.at}, ${content.actor}, ${content.action}, null, null, null, 'test')`.execute(
            ctx.store.db,
          );
        });
        assertProblem(await verifyAuditTrail(ctx.store.db), 'inserted', 7);
      });
      await withStore(storeName, async (ctx) => {
        await trail(ctx);
        await asAttacker(ctx, storeName, (t) =>
          sql`INSERT INTO ${t} (at, actor, action, source) VALUES (1, 'operator:mallory', 'operator.login', 'test')`
            .execute(ctx.store.db)
            .then(() => {}),
        );
        assertProblem(await verifyAuditTrail(ctx.store.db), 'inserted', ROWS + 1);
      });
      await withStore(storeName, async (ctx) => {
        await trail(ctx);
        const last = await rowOf(ctx, ROWS);
        const content = {
          seq: ROWS + 1,
          at: last.at + 1,
          actor: 'system',
          action: 'retention.run',
          target_type: null,
          target_id: null,
          details: null,
          source: 'test',
        };
        await asAttacker(ctx, storeName, (t) =>
          sql`INSERT INTO ${t} (seq, prev_hash, hash, at, actor, action, source)
            VALUES (${content.seq}, ${last.hash}, ${chainHash(last.hash!, content)}, ${content.at}, 'system', 'retention.run', 'test')`
            .execute(ctx.store.db)
            .then(() => {}),
        );
        assertProblem(await verifyAuditTrail(ctx.store.db), 'inserted', ROWS + 1);
      });
    });

    test('two swapped rows are named', async () => {
      await withStore(storeName, async (ctx, env) => {
        await trail(ctx);
        await asAttacker(ctx, storeName, async (t) => {
          await sql`UPDATE ${t} SET id = -5 WHERE id = 5`.execute(ctx.store.db);
          await sql`UPDATE ${t} SET id = 5 WHERE id = 6`.execute(ctx.store.db);
          await sql`UPDATE ${t} SET id = 6 WHERE id = -5`.execute(ctx.store.db);
        });
        assertProblem(await verifyAuditTrail(ctx.store.db), 'reordered', 5);
        const cli = await verifyCli(env);
        assert.equal(cli.code, 1);
        assertProblem(cli.report, 'reordered', 5);
      });
    });

    test('concurrent writers make one chain', async () => {
      await withStore(storeName, async (ctx) => {
        const writers = 40;
        await Promise.all(
          Array.from({ length: writers }, (_, i) =>
            ctx.store.transaction(async (trx) => {
              await recordAudit(trx, {
                actor: 'system',
                action: 'retention.run',
                targetType: null,
                targetId: null,
                details: { i },
                source: 'test',
                at: Date.now(),
              });
              // Hold the transaction open across a turn of the event loop, as a real change would.
              await new Promise((resolve) => setImmediate(resolve));
              await recordAudit(trx, {
                actor: 'system',
                action: 'retention.run',
                targetType: null,
                targetId: null,
                details: { i, second: true },
                source: 'test',
                at: Date.now(),
              });
            }),
          ),
        );
        const report = await verifyAuditTrail(ctx.store.db);
        assert.deepEqual(
          [report.ok, report.rows, report.head.seq],
          [true, 2 * writers, 2 * writers],
          report.problem?.message,
        );
      });
    });
  });
}
