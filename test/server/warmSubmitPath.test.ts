import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { warmSubmitPath } from '../../src/applications/commands/submitApplication.ts';
import { storeNames } from '../helpers/stores.ts';
import { suiteContext } from '../helpers/suiteContext.ts';

/**
 * The start-up warm-up (server.ts) runs a submission's CPU work on the example applicant: under the
 * default configuration it passes every check (a failing one would warm the error path instead),
 * and it writes nothing, whichever store.
 */
for (const storeName of storeNames()) {
  describe(`warmSubmitPath on ${storeName}`, () => {
    const ctx = suiteContext(storeName);

    test('runs the whole submission without a write and leaves the store as it was', async () => {
      const tables = ['applications', 'events', 'jobs', 'audit_log'] as const;
      const count = async (table: (typeof tables)[number]) => {
        const row = await sql<{ n: number | string }>`select count(*) as n from ${ctx().store.table(table)}`
          .execute(ctx().store.db)
          .then((result) => result.rows[0]!);
        return Number(row.n);
      };
      const before = await Promise.all(tables.map(count));
      const watched: string[] = []; // one entry a write statement
      const stop = ctx().store.watchWrites([...tables], () => watched.push('write'));
      try {
        warmSubmitPath(ctx(), 50);
        // A write started there without being awaited (the submissions' batches go around the
        // write watch) would have committed by now, and shows in the counts below.
        await new Promise((resolve) => setTimeout(resolve, 250));
      } finally {
        stop();
      }
      assert.deepEqual(watched, []);
      assert.deepEqual(await Promise.all(tables.map(count)), before);
    });

    test('passes every check of the submit: the warm-up does not take the error path', () => {
      // warmSubmitPath throws the submit's ValidationError when the example stops validating.
      assert.doesNotThrow(() => warmSubmitPath(ctx(), 1));
    });
  });
}
