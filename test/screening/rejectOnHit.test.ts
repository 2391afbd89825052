import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { transitionApplication } from '../../src/applications/commands/transitionApplication.ts';
import { updateHit } from '../../src/screening/hitRepository.ts';
import { adminBench } from '../helpers/adminService.ts';
import { storeNames } from '../helpers/stores.ts';
import { plantHit } from './screeningHelpers.ts';

/**
 * Rejecting an application on a screening hit is one transaction: the application REJECTED (row,
 * history, event, audit row), the hit confirmed and the `screening.reject` audit row, or none of
 * them. A hit cleared by another operator while the rejection waits refuses the whole move.
 */
for (const storeName of storeNames()) {
  describe(`rejecting on a screening hit on ${storeName}`, () => {
    const bench = adminBench(storeName);

    /** What a rejection on `serial` has recorded: its status, the hit, its history, events and audit rows. */
    const recorded = async (serial: string, hitId: string) => {
      const db = bench.service.ctx.store.db;
      return {
        application: await db
          .selectFrom('applications')
          .select(['status', 'version'])
          .where('busi_water_no', '=', serial)
          .executeTakeFirstOrThrow(),
        hit: await db
          .selectFrom('screening_hits')
          .select(['state', 'resolved_by', 'resolved_at'])
          .where('id', '=', hitId)
          .executeTakeFirstOrThrow(),
        rejections: await db
          .selectFrom('events')
          .select('created_at as at')
          .where('busi_water_no', '=', serial)
          .where('to_status', '=', 'REJECTED')
          .execute(),
        events: await db
          .selectFrom('events')
          .select('type')
          .where('busi_water_no', '=', serial)
          .where('type', '=', 'application.rejected')
          .execute(),
        audit: await db
          .selectFrom('audit_log')
          .select(['action', 'at'])
          .where('target_id', '=', serial)
          .where((eb) =>
            eb.or([
              eb('action', '=', 'screening.reject'),
              eb.and([
                eb('action', '=', 'application.transition'),
                eb('details', 'like', '%"to":"REJECTED"%'),
              ]),
            ]),
          )
          .orderBy('id')
          .execute(),
      };
    };

    test('the application is rejected and the hit confirmed at one instant, with both audit rows', async () => {
      const serial = await bench.apps.inState(bench.appId, 'IN_REVIEW');
      const hitId = await plantHit(bench.service, serial);
      const reply = await bench.as(
        bench.operators.reviewer,
        'POST',
        `/applications/${serial}/screening/${hitId}/reject`,
        {},
      );
      assert.equal(reply.status, 200, reply.text);
      const after = await recorded(serial, hitId);
      assert.equal(after.application.status, 'REJECTED');
      assert.equal(after.hit.state, 'confirmed');
      assert.equal(after.hit.resolved_by, bench.operators.reviewer.username);
      assert.equal(after.rejections.length, 1);
      assert.equal(after.events.length, 1);
      assert.deepEqual(
        after.audit.map((row) => row.action),
        ['application.transition', 'screening.reject'],
      );
      const at = after.rejections[0]!.at;
      assert.deepEqual([after.hit.resolved_at, ...after.audit.map((row) => row.at)], [at, at, at]);
    });

    test('a write with the move that fails takes the move back with it', async () => {
      const serial = await bench.apps.inState(bench.appId, 'IN_REVIEW');
      const hitId = await plantHit(bench.service, serial);
      const before = await recorded(serial, hitId);
      await assert.rejects(
        transitionApplication(bench.service.ctx, {
          busiWaterNo: serial,
          to: 'REJECTED',
          actor: { kind: 'operator', id: 'test', role: 'reviewer' },
          reasonCodes: ['sanctions_hit'],
          source: 'test',
          alsoInTransaction: async (trx) => {
            assert.ok(await updateHit(trx, hitId, 'unresolved', { state: 'confirmed' }));
            throw new Error('a crash after the hit was confirmed');
          },
        }),
        /a crash after the hit was confirmed/,
      );
      assert.deepEqual(await recorded(serial, hitId), before);
      assert.equal(before.hit.state, 'unresolved');
    });

    test('a hit already cleared by two operators is not rejected on; nothing changes', async () => {
      const serial = await bench.apps.inState(bench.appId, 'IN_REVIEW');
      const hitId = await plantHit(bench.service, serial, { clearedBy: 'first-of-two' });
      const hitPath = `/applications/${serial}/screening/${hitId}`;
      assert.equal((await bench.as(bench.operators.admin, 'POST', `${hitPath}/confirm`, {})).status, 200);
      const before = await recorded(serial, hitId);
      const reply = await bench.as(bench.operators.reviewer, 'POST', `${hitPath}/reject`, {});
      assert.equal(reply.status, 409, reply.text);
      assert.equal(reply.body.code, 40941);
      assert.deepEqual(await recorded(serial, hitId), before);
    });

    if (storeName === 'postgres') {
      test('a hit cleared while the rejection waits for it refuses the whole move (409), nothing recorded', async () => {
        const { target } = bench.service;
        const serial = await bench.apps.inState(bench.appId, 'IN_REVIEW');
        const hitId = await plantHit(bench.service, serial);
        const before = await recorded(serial, hitId);
        // `other` clears the hit in a transaction; `watcher` sees who waits (a transaction's own
        // reads of pg_stat_activity are a snapshot).
        const other = new pg.Client({ connectionString: target.directUrl });
        const watcher = new pg.Client({ connectionString: target.directUrl });
        await other.connect();
        await watcher.connect();
        try {
          // Another operator's clearing, not committed yet: it holds the hit's row.
          await other.query('BEGIN');
          await other.query(
            `UPDATE "${target.schema}".screening_hits SET state = 'clearing', resolved_by = 'other', resolution_note = 'cleared meanwhile', resolved_at = $2 WHERE id = $1`,
            [hitId, Date.now()],
          );
          const rejecting = bench.as(
            bench.operators.reviewer,
            'POST',
            `/applications/${serial}/screening/${hitId}/reject`,
            {},
          );
          // The rejection has read the hit as unresolved and now waits for the row lock.
          const deadline = Date.now() + 30_000;
          for (;;) {
            const waiting = await watcher.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()
                  AND query LIKE '%' || $1 || '%screening_hits%'`,
              [target.schema],
            );
            if ((waiting.rows[0] as { n: number }).n > 0) break;
            if (Date.now() > deadline) assert.fail('the rejection never waited for the hit');
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          await other.query('COMMIT');
          const reply = await rejecting;
          assert.equal(reply.status, 409, reply.text);
          assert.equal(reply.body.code, 40906);
        } finally {
          await other.end();
          await watcher.end();
        }
        const after = await recorded(serial, hitId);
        assert.deepEqual(after.application, before.application, 'still IN_REVIEW, the same version');
        assert.deepEqual(
          [after.rejections, after.events, after.audit],
          [[], [], []],
          'no REJECTED history, event or audit row',
        );
        assert.equal(after.hit.state, 'clearing', "the other operator's clearing stands");
        assert.equal(after.hit.resolved_by, 'other');

        // Read again, the reviewer may still reject on the hit being cleared.
        const again = await bench.as(
          bench.operators.reviewer,
          'POST',
          `/applications/${serial}/screening/${hitId}/reject`,
          {},
        );
        assert.equal(again.status, 200, again.text);
        assert.equal((await recorded(serial, hitId)).hit.state, 'confirmed');
      });
    }
  });
}
