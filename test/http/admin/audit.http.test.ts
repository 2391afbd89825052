import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { SENSITIVE_FIELDS } from '../../../src/redaction.ts';
import { storeNames } from '../../helpers/stores.ts';
import { adminBench } from '../../helpers/adminService.ts';

/** The audit trail through the admin API: append-only, and free of identity values, as are the logs. */

for (const storeName of storeNames()) {
  describe(`admin API on ${storeName}`, () => {
    const bench = adminBench(storeName);

    describe('audit trail', () => {
      test('is append-only in the store itself', async () => {
        const auditLog = bench.service.ctx.store.table('audit_log');
        // Refused by the store's trigger (not, say, for a table it cannot find).
        await assert.rejects(
          sql`UPDATE ${auditLog} SET actor = 'someone else'`.execute(bench.service.ctx.store.db),
          /audit_log is append-only/,
        );
        await assert.rejects(sql`DELETE FROM ${auditLog}`.execute(bench.service.ctx.store.db), /append-only/);
      });

      test('pages newest first without repeating', async () => {
        const seen: number[] = [];
        let cursor: string | null = null;
        for (let i = 0; i < 4; i++) {
          const reply = await bench.as(
            bench.operators.viewer,
            'GET',
            `/audit?limit=5${cursor === null ? '' : `&cursor=${cursor}`}`,
          );
          assert.equal(reply.status, 200, reply.text);
          const page = reply.body.data as { items: { id: number }[]; next_cursor: string | null };
          seen.push(...page.items.map((e) => e.id));
          cursor = page.next_cursor;
          if (cursor === null) break;
        }
        assert.deepEqual(
          seen,
          [...seen].sort((a, b) => b - a),
        );
        assert.equal(new Set(seen).size, seen.length);
      });

      test('records every transition and reveal made over the API, and no identity value; nor do the logs', async () => {
        const db = bench.service.ctx.store.db;
        // Traffic of its own: applications moved along the lifecycle, and three reveals by a reviewer.
        const serials: string[] = [];
        for (const status of [
          'SUBMITTED',
          'IN_REVIEW',
          'APPROVED',
          'CARD_ISSUED',
          'SHIPPED',
          'DELIVERED',
        ] as const)
          serials.push(await bench.apps.inState(bench.appId, status));
        for (const [serial, field] of [
          [serials[1]!, 'cert_id'],
          [serials[2]!, 'mob_no'],
          [serials[3]!, 'email'],
        ] as const) {
          const reply = await bench.as(bench.operators.reviewer, 'POST', `/applications/${serial}/reveal`, {
            field,
            purpose: 'identity_check',
          });
          assert.equal(reply.status, 200, reply.text);
        }
        const moves = await db
          .selectFrom('events')
          .select(['busi_water_no', 'to_status', 'actor'])
          .where('from_status', 'is not', null)
          .execute();
        const audited = await db
          .selectFrom('audit_log')
          .selectAll()
          .where('action', '=', 'application.transition')
          .execute();
        assert.equal(audited.length, moves.length, 'one audit entry per state change');
        for (const move of moves) {
          assert.ok(
            audited.some(
              (a) =>
                a.target_id === move.busi_water_no &&
                a.actor === move.actor &&
                (JSON.parse(a.details!) as { to: string }).to === move.to_status,
            ),
            `${move.busi_water_no} -> ${move.to_status}`,
          );
        }
        const reveals = await db
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', 'application.reveal')
          .execute();
        assert.equal(reveals.length, 3, 'the three reveals of this test');

        const identity = new Set<string>();
        for (const row of await db
          .selectFrom('applications')
          .select(['busi_water_no', 'payload_enc'])
          .execute()) {
          const clear = JSON.parse(
            bench.service.ctx.keyRing.decrypt(row.payload_enc, row.busi_water_no),
          ) as Record<string, unknown>;
          for (const field of SENSITIVE_FIELDS) {
            const value = clear[field];
            if (typeof value === 'string' && value.length >= 6) identity.add(value);
          }
        }
        assert.ok(identity.size >= serials.length + 4, 'each document number, and the shared contact values');
        const trail = JSON.stringify(await db.selectFrom('audit_log').selectAll().execute());
        const logs = bench.service.logs.join('');
        for (const value of identity) {
          assert.ok(!trail.includes(value), 'no identity value in the audit trail');
          assert.ok(!logs.includes(value), 'no identity value in the logs');
        }
        assert.ok(
          logs.includes(`"operator":"${bench.operators.reviewer.username}"`),
          'logs name the operator',
        );
      });
    });
  });
}
