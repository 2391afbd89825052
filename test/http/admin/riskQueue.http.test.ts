import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Tier } from '../../../src/policies/riskPolicy.ts';
import { insertAssessment, keepPolicy } from '../../../src/risk/riskRepository.ts';
import { adminBench } from '../../helpers/adminService.ts';
import { Applications, move } from '../../helpers/operators.ts';
import { newPartner } from '../../helpers/service.ts';
import { storeNames } from '../../helpers/stores.ts';

/**
 * The risk tier in the review queue and on the workload (issue 52, the console), over HTTP on every
 * store: the queue filters on the tier of each application's latest assessment (or on none yet),
 * sorts by it (unrated < low < medium < high < prohibited, then by creation) and pages through
 * that order; the workload counts the waiting applications per tier and the decisions the policy
 * took itself (their actor `policy:<version>`).
 */

interface Item {
  busi_water_no: string;
  risk_tier: Tier | null;
}
interface Workload {
  statuses: { status: string; count: number }[];
  risk: {
    tiers: { tier: Tier; count: number }[];
    unrated: number;
    decisions: number;
    policy_decisions: number;
  };
}

const FINAL = ['DELIVERED', 'REJECTED', 'CANCELLED', 'EXPIRED'];

for (const storeName of storeNames()) {
  describe(`the queue and the workload by risk tier on ${storeName}`, () => {
    const bench = adminBench(storeName);
    let at = Date.now() - 60_000;

    /** Stores an assessment of `tier` as the risk job does (its repository), a millisecond after the last. */
    async function rate(serial: string, tier: Tier) {
      const { ctx } = bench.service;
      const policy = ctx.riskPolicy;
      await keepPolicy(ctx.store.db, {
        version: policy.version,
        name: policy.policy.name,
        content: policy.content,
        first_used_at: at,
      });
      await insertAssessment(ctx.store.db, {
        id: randomUUID(),
        busi_water_no: serial,
        tier,
        score: { low: 0, medium: 20, high: 40, prohibited: 100 }[tier],
        routing: 'review',
        policy_version: policy.version,
        factors: '[]',
        evidence: '{}',
        cause: 'test',
        assessed_at: at++,
      });
    }
    const search = async (query: string) => {
      const reply = await bench.as(bench.operators.viewer, 'GET', `/applications?${query}`);
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as { items: Item[]; next_cursor: string | null };
    };
    const serialsOf = async (query: string) => (await search(query)).items.map((i) => i.busi_water_no);
    const workload = async () => {
      const reply = await bench.as(bench.operators.viewer, 'GET', '/workload');
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as Workload;
    };
    const tierCounts = (w: Workload) => Object.fromEntries(w.risk.tiers.map((t) => [t.tier, t.count]));

    test('filters on the tier, sorts by it and pages through that order; counts the waiting per tier', async () => {
      const before = await workload();
      const { appId } = await newPartner(bench.service, 'risk queue');
      const apps = new Applications(bench.service, 930_000);
      const low = await apps.submit(appId);
      const high = await apps.submit(appId);
      const reRated = await apps.submit(appId);
      const rejected = await apps.submit(appId);
      const unrated = await apps.submit(appId);
      await rate(low, 'low');
      await rate(high, 'high');
      await rate(reRated, 'medium');
      await rate(reRated, 'prohibited'); // the latest assessment is the rating
      await rate(rejected, 'high');
      await move(bench.service, rejected, 'IN_REVIEW', appId);
      await move(bench.service, rejected, 'REJECTED', appId);

      const mine = `app_id=${appId}`;
      assert.deepEqual((await serialsOf(`${mine}&risk_tier=high`)).sort(), [high, rejected].sort());
      assert.deepEqual(await serialsOf(`${mine}&risk_tier=prohibited`), [reRated]);
      assert.deepEqual(await serialsOf(`${mine}&risk_tier=medium`), []);
      assert.deepEqual(await serialsOf(`${mine}&risk_tier=unrated`), [unrated]);
      assert.deepEqual(await serialsOf('status=SUBMITTED&risk_tier=high'), [high]);
      assert.deepEqual(await serialsOf('status=REJECTED&risk_tier=high'), [rejected]);

      // Each row carries its tier; null while none is made.
      const rows = (await search(`${mine}&limit=10`)).items;
      assert.deepEqual(Object.fromEntries(rows.map((r) => [r.busi_water_no, r.risk_tier])), {
        [low]: 'low',
        [high]: 'high',
        [reRated]: 'prohibited',
        [rejected]: 'high',
        [unrated]: null,
      });

      // Riskiest first (newest first within a tier), not yet rated last; and the other way round.
      const riskiest = [reRated, rejected, high, low, unrated];
      assert.deepEqual(await serialsOf(`${mine}&sort=risk&order=desc`), riskiest);
      assert.deepEqual(await serialsOf(`${mine}&sort=risk&order=asc`), [...riskiest].reverse());
      // Pages of two, through the same order, neither skipping nor repeating.
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await search(
          `${mine}&sort=risk&order=desc&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        paged.push(...page.items.map((i) => i.busi_water_no));
        cursor = page.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(paged, riskiest);
      const first = await search(`${mine}&sort=risk&order=desc&limit=2`);
      // A cursor of one order is refused by the other.
      const mixed = await bench.as(
        bench.operators.viewer,
        'GET',
        `/applications?${mine}&order=desc&limit=2&cursor=${first.next_cursor}`,
      );
      assert.equal(mixed.status, 422, mixed.text);
      const unknown = await bench.as(bench.operators.viewer, 'GET', '/applications?risk_tier=severe');
      assert.equal(unknown.status, 422, unknown.text);

      // The workload: the waiting (not final) per tier; the rejected one no longer counts.
      const after = await workload();
      const was = tierCounts(before);
      assert.deepEqual(tierCounts(after), {
        low: was['low']! + 1,
        medium: was['medium']!,
        high: was['high']! + 1,
        prohibited: was['prohibited']! + 1,
      });
      const waiting = after.statuses
        .filter((s) => !FINAL.includes(s.status))
        .reduce((n, s) => n + s.count, 0);
      assert.equal(after.risk.unrated, waiting - 3 - before.risk.tiers.reduce((n, t) => n + t.count, 0));

      // A new rating moves it between tiers; a final move takes it out.
      await rate(low, 'medium');
      await move(bench.service, high, 'IN_REVIEW', appId);
      await move(bench.service, high, 'REJECTED', appId);
      assert.deepEqual(tierCounts(await workload()), {
        low: was['low']!,
        medium: was['medium']! + 1,
        high: was['high']!,
        prohibited: was['prohibited']! + 1,
      });
    });

    test("counts the decisions of the week and those the policy took itself (actor 'policy:')", async () => {
      const before = (await workload()).risk;
      const { appId } = await newPartner(bench.service, 'straight through');
      const apps = new Applications(bench.service, 940_000);
      const byOperator = await apps.inState(appId, 'APPROVED');
      const byPolicy = await apps.submit(appId);
      // The policy's own decision (its helper writes it through the one change of state); here its
      // event, as the outbox stores it, with the policy's actor.
      const db = bench.service.ctx.store.db;
      const now = Date.now();
      await db
        .insertInto('events')
        .values({
          event_id: `evt_${randomUUID().replaceAll('-', '')}`,
          app_id: appId,
          busi_water_no: byPolicy,
          type: 'application.approved',
          payload: JSON.stringify({ busi_water_no: byPolicy, status: 'APPROVED' }),
          created_at: now,
          seq: 100,
          fanned_out_at: now,
          from_status: 'SUBMITTED',
          to_status: 'APPROVED',
          actor: 'policy:0123456789abcdef',
        })
        .execute();
      assert.ok(byOperator);
      const after = (await workload()).risk;
      assert.equal(after.decisions, before.decisions + 2);
      assert.equal(after.policy_decisions, before.policy_decisions + 1);
    });
  });
}
