import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { createLogger } from '../../src/logger.ts';
import { DEFAULT_RISK_POLICY_URL, loadRiskPolicy } from '../../src/policies/riskPolicy.ts';
import { assess, type RiskEvidence } from '../../src/risk/assessment.ts';
import type { ReplayResult } from '../../src/risk/replay.ts';
import { openContext } from '../../src/start.ts';
import { SQLITE_FILE } from '../../src/store/connect.ts';
import type { ApplicationsTable, RiskAssessmentsTable } from '../../src/store/tables.ts';
import { cardapplyJson } from '../helpers/cli.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

/**
 * `cardapply risk replay` on a store of realistic size (REPLAY_COUNT, 100,000 by default), run as
 * a risk team runs it before a policy goes live: a separate process, its JSON read back. The store
 * is built by SQL with one application in ten of each kind of evidence, so what must move under
 * the changed policy follows from how it was built, not from the code that weighs it:
 *
 *   i % 10 = 1  another applicant's mobile number (20)          medium; low once medium starts at 25
 *   i % 10 = 2  an image in another applicant's file (40, high) high; enhanced review
 *   i % 10 = 3  a country under a FATF call for action          prohibited; declined
 *   i % 10 = 4  a high-risk profession (25)                     medium under both
 *   otherwise   nothing                                         low
 *
 * Every third application also has an older assessment that said prohibited: only the latest
 * counts. Ten thousand applications a day from 1 November 2026 (Asia/Shanghai), so a window of
 * days holds a known range of them. Every table's row count and checksum is the same afterwards.
 */

const COUNT = Number(process.env['REPLAY_COUNT'] ?? 100_000);
const PER_DAY = 10_000;
const FIRST_DAY = Date.parse('2026-11-01T00:00:00+08:00');
const APP = 'app_replay';
const serial = (i: number) => `REPLAY${String(i).padStart(26, '0')}`;

const KEPT = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'].map(
  (field) => ({ field, state: 'kept' as const, reason: null, required: field !== 'pay_voucher' }),
);

function evidenceOf(i: number): RiskEvidence {
  const kind = i % 10;
  return {
    openSanctionsHits: [],
    pepMatches: [],
    documents: KEPT,
    reusedImages: kind === 2 ? [{ field: 'passport_img', serials: [serial(i + 1)] }] : [],
    sharedMobile: kind === 1 ? [serial(i + 1)] : [],
    sharedEmail: [],
    country: kind === 3 ? 'KP' : 'CN',
    profession: kind === 4 ? 'K' : 'A',
    otherTextMissing: [],
    documentDaysLeft: null,
    partnerRiskLevel: 'low',
  };
}

/** The stored rating, by construction (the default policy's weights, written out). */
const STORED = [
  { tier: 'low', score: 0 },
  { tier: 'medium', score: 20 },
  { tier: 'high', score: 40 },
  { tier: 'prohibited', score: 100 },
  { tier: 'medium', score: 25 },
] as const;
const storedOf = (i: number) => STORED[i % 10] ?? STORED[0];

async function seed(ctx: ServiceContext, policyVersion: string): Promise<void> {
  const db = ctx.store.db;
  const now = ctx.now();
  await db
    .insertInto('apps')
    .values({ app_id: APP, name: 'replay partner', status: 'active', created_at: now, updated_at: now })
    .execute();
  await db
    .insertInto('risk_policies')
    .values({
      version: policyVersion,
      name: 'default',
      content: readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8'),
      first_used_at: FIRST_DAY,
    })
    .execute();
  // Replay never opens a payload: one sealed empty object serves every row.
  const sealed = ctx.keyRing.encrypt('{}', 'replay');
  const policy = loadRiskPolicy().policy;
  for (let start = 0; start < COUNT; start += 500) {
    const applications: Insertable<ApplicationsTable>[] = [];
    const assessments: RiskAssessmentsTable[] = [];
    for (let i = start; i < Math.min(COUNT, start + 500); i++) {
      const created = FIRST_DAY + Math.floor((i * 86_400_000) / PER_DAY);
      applications.push({
        busi_water_no: serial(i),
        app_id: APP,
        status: 'IN_REVIEW',
        status_reason: null,
        cert_type: '01',
        cert_hash: `replay${i}`,
        active_cert_hash: `replay${i}`,
        card_no_hash: `replaycard${i}`,
        card_no_masked: '539966******0000',
        payload_enc: sealed,
        key_id: 'k',
        version: 1,
        created_at: created,
        updated_at: created,
      });
      const evidence = evidenceOf(i);
      const { tier, score } = storedOf(i);
      if (i % 3 === 0)
        assessments.push({
          id: `ra_old_${i}`,
          busi_water_no: serial(i),
          tier: 'prohibited',
          score: 100,
          routing: 'review',
          policy_version: policyVersion,
          factors: '[]',
          evidence: JSON.stringify({ ...evidence, country: 'KP' }),
          cause: 'application.submitted',
          assessed_at: created + 1_000,
        });
      assessments.push({
        id: `ra_${i}`,
        busi_water_no: serial(i),
        tier,
        score,
        routing: 'review',
        policy_version: policyVersion,
        factors: JSON.stringify(assess(policy, evidence).factors),
        evidence: JSON.stringify(evidence),
        cause: 'application.documents_kept',
        assessed_at: created + 60_000,
      });
    }
    await db.insertInto('applications').values(applications).execute();
    await db.insertInto('risk_assessments').values(assessments).execute();
  }
}

/** Row count and a SHA-256 of every row of every table, whatever order the rows come in. */
async function fingerprint(ctx: ServiceContext, target: StoreTarget): Promise<Record<string, string>> {
  const tables = new Map<string, string[]>();
  if (target.name === 'sqlite') {
    // Read apart from the service's connection, as 64-bit integers (some counters do not fit a double).
    const file = new DatabaseSync(join(target.dataDir, SQLITE_FILE), { readOnly: true });
    try {
      const names = file.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all();
      for (const { name } of names as { name: string }[]) {
        const statement = file.prepare(`SELECT * FROM "${name}"`);
        statement.setReadBigInts(true);
        tables.set(
          name,
          statement
            .all()
            .map((row) => JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))),
        );
      }
    } finally {
      file.close();
    }
  } else {
    const db = ctx.store.db;
    const names = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = ${target.schema} AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(db);
    for (const { name } of names.rows) {
      const rows = await sql<{
        row: string;
      }>`SELECT t::text AS row FROM ${sql.table(`${target.schema}.${name}`)} t`.execute(db);
      tables.set(
        name,
        rows.rows.map((r) => r.row),
      );
    }
  }
  const prints: Record<string, string> = {};
  for (const [name, lines] of tables) {
    lines.sort();
    prints[name] = `${lines.length} ${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  }
  return prints;
}

const cell = (table: ReplayResult['tiers'] | ReplayResult['routings'], from: string, to: string) =>
  table.find((c) => c.from === from && c.to === to);
const indices = (predicate: (i: number) => boolean, from = 0, to = COUNT) =>
  Array.from({ length: to - from }, (_, k) => from + k).filter(predicate);

for (const storeName of storeNames()) {
  describe(`risk replay of ${COUNT} applications (${storeName})`, () => {
    let target: StoreTarget;
    let ctx: ServiceContext;
    let changedPolicy: string;
    let env: Record<string, string>;

    before(async () => {
      target = createStoreTarget(storeName);
      env = { ...target.env, BUSINESS_TIMEZONE: 'Asia/Shanghai' };
      ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }), { migrate: true });
      await seed(ctx, loadRiskPolicy().version);
      const policy = JSON.parse(readFileSync(DEFAULT_RISK_POLICY_URL, 'utf8')) as {
        name: string;
        tiers: Record<string, number>;
        routing: Record<string, string>;
      };
      policy.name = 'stricter routing';
      policy.tiers['medium'] = 25;
      policy.routing['high'] = 'enhanced_review';
      policy.routing['prohibited'] = 'decline';
      changedPolicy = join(target.dataDir, 'changed-policy.json');
      writeFileSync(changedPolicy, JSON.stringify(policy, null, 2));
    });
    after(async () => {
      await ctx.store.close();
      await target.cleanup();
    });

    test('under the policy the assessments were made by, nothing moves', async () => {
      const result = await cardapplyJson<ReplayResult>(
        env,
        'risk',
        'replay',
        '--policy',
        fileURLToPath(DEFAULT_RISK_POLICY_URL),
      );
      assert.equal(result.applications, COUNT);
      assert.deepEqual(result.moved, { tier: 0, routing: 0 });
      assert.deepEqual(result.stored_policies, { [loadRiskPolicy().version]: COUNT });
    });

    test('under a changed policy: exactly the applications built to move, at 20,000 a minute or more, changing nothing', async (t) => {
      const before = await fingerprint(ctx, target);
      const result = await cardapplyJson<ReplayResult & { seconds: number }>(
        env,
        'risk',
        'replay',
        '--policy',
        changedPolicy,
      );
      const perMinute = (COUNT / result.seconds) * 60;
      t.diagnostic(`${COUNT} replayed in ${result.seconds.toFixed(2)} s: ${Math.round(perMinute)} a minute`);
      assert.deepEqual(await fingerprint(ctx, target), before, 'a table changed');

      assert.equal(result.policy.name, 'stricter routing');
      assert.equal(result.applications, COUNT);
      const sharedMobile = indices((i) => i % 10 === 1).map(serial);
      const reused = indices((i) => i % 10 === 2).map(serial);
      const prohibited = indices((i) => i % 10 === 3).map(serial);
      assert.deepEqual(cell(result.tiers, 'medium', 'low'), {
        from: 'medium',
        to: 'low',
        count: sharedMobile.length,
        serials: sharedMobile,
      });
      assert.equal(cell(result.tiers, 'medium', 'medium')?.count, indices((i) => i % 10 === 4).length);
      assert.equal(
        cell(result.tiers, 'medium', 'medium')?.serials,
        undefined,
        'cells that stay carry counts',
      );
      assert.deepEqual(cell(result.routings, 'review', 'enhanced_review')?.serials, reused);
      assert.deepEqual(cell(result.routings, 'review', 'decline')?.serials, prohibited);
      assert.deepEqual(result.moved, {
        tier: sharedMobile.length,
        routing: reused.length + prohibited.length,
      });
      assert.ok(perMinute >= 20_000, `${Math.round(perMinute)} a minute`);
    });

    test('--from and --to take the applications submitted on those business days, both included', async () => {
      const result = await cardapplyJson<ReplayResult>(
        env,
        'risk',
        'replay',
        '--policy',
        changedPolicy,
        '--from',
        '2026-11-02',
        '--to',
        '2026-11-03',
      );
      const from = Math.min(COUNT, PER_DAY);
      const to = Math.min(COUNT, 3 * PER_DAY);
      assert.equal(result.applications, to - from);
      assert.deepEqual(
        cell(result.tiers, 'medium', 'low')?.serials,
        indices((i) => i % 10 === 1, from, to).map(serial),
      );
    });

    test('a policy file that is not valid is refused, and nothing is read', async () => {
      const bad = join(target.dataDir, 'bad-policy.json');
      writeFileSync(bad, JSON.stringify({ name: 'bad' }));
      await assert.rejects(
        cardapplyJson(env, 'risk', 'replay', '--policy', bad),
        (error: { code?: number; stdout?: string }) => error.code === 1 && /factors/.test(error.stdout ?? ''),
      );
    });
  });
}
