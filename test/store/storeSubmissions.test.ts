import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import type { Store, SubmissionOutcome, SubmissionRows } from '../../src/store/connect.ts';
import { openStore } from '../../src/store/connect.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';
import { captureStatements } from '../size/queryPlans.ts';

/**
 * The store's submission insert, on each store (and through PgBouncer with PGBOUNCER=1): many at
 * once share commits; a duplicate document or card number is answered with its conflict and only
 * the first is stored, also within one batch; an idempotency claim no longer held stores nothing;
 * a submission that fails (here: an unknown app, a foreign key) is refused alone while the ones
 * around it are stored.
 */
const APP = 'app_submissions';

function rows(
  n: number,
  overrides: { cert?: string; card?: string; app?: string; reference?: string } = {},
): SubmissionRows {
  const serial = `T${randomBytes(15).toString('hex').toUpperCase()}`.slice(0, 32);
  const cert = overrides.cert ?? `cert-${n}-${randomBytes(4).toString('hex')}`;
  const app = overrides.app ?? APP;
  return {
    application: {
      busi_water_no: serial,
      app_id: app,
      status: 'SUBMITTED',
      status_reason: null,
      cert_type: '00',
      cert_hash: cert,
      active_cert_hash: cert,
      card_no_hash: overrides.card ?? `card-${n}-${randomBytes(4).toString('hex')}`,
      card_no_masked: '539966******0000',
      payload_enc: 'not-a-real-payload',
      key_id: 'k1',
      version: 1,
      created_at: 1000 + n,
      updated_at: 1000 + n,
      external_id: overrides.reference ?? null,
      active_external_id: overrides.reference ?? null,
    },
    event: {
      event_id: `evt_${randomBytes(16).toString('hex')}`,
      app_id: app,
      busi_water_no: serial,
      type: 'application.submitted',
      payload: '{}',
      created_at: 1000 + n,
      seq: 1,
      fanned_out_at: null,
      from_status: null,
      to_status: 'SUBMITTED',
      actor: `caller:${app}`,
      reason: null,
      reason_codes: null,
      details: null,
    },
  };
}

async function withStore(name: 'sqlite' | 'postgres', work: (store: Store) => Promise<void>): Promise<void> {
  const target = createStoreTarget(name);
  const store = await openStore(loadConfig(target.env));
  try {
    await store.migrate();
    await store.db
      .insertInto('apps')
      .values({
        app_id: APP,
        name: APP,
        status: 'active',
        rate_limit_per_second: null,
        rate_limit_burst: null,
        concurrency_limit: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await work(store);
  } finally {
    await store.close();
    await target.cleanup();
  }
}

const count = async (store: Store, table: 'applications' | 'events') =>
  Number(
    (
      await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The history entries stored: the events that carry one, the submission's as it was sent. */
const histories = async (store: Store) =>
  Number(
    (
      await store.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('to_status', '=', 'SUBMITTED')
        .where('from_status', 'is', null)
        .where('actor', 'like', 'caller:%')
        .executeTakeFirstOrThrow()
    ).n,
  );

for (const storeName of storeNames()) {
  describe(`store submissions on ${storeName}`, () => {
    test('200 at once share commits; each stored with its history and event', async () => {
      await withStore(storeName, async (store) => {
        const outcomes = await Promise.all(
          Array.from({ length: 200 }, (_, n) => store.insertSubmission(rows(n))),
        );
        assert.ok(outcomes.every((o) => o.kind === 'ok'));
        assert.equal(await count(store, 'applications'), 200);
        assert.equal(await histories(store), 200);
        assert.equal(await count(store, 'events'), 200);
        const stats = store.groupCommitStats!();
        assert.ok(stats.commits < 200, `${stats.commits} commits for 200`);
      });
    });

    test('submissions made in one turn of the event loop share one commit', async (t) => {
      // On SQLite they go to the writer thread as one message after the turn; on PostgreSQL the
      // batch in flight holds the next ones back, so its figure is not one.
      if (storeName !== 'sqlite') return t.skip('SQLite writer thread only');
      await withStore(storeName, async (store) => {
        // The thread is started by the first submission: the burst finds it running and idle.
        assert.deepEqual(await store.insertSubmission(rows(0)), { kind: 'ok' });
        const before = store.groupCommitStats!().commits;
        const outcomes = await Promise.all(
          Array.from({ length: 200 }, (_, n) => store.insertSubmission(rows(1 + n))),
        );
        assert.ok(outcomes.every((o) => o.kind === 'ok'));
        assert.equal(store.groupCommitStats!().commits - before, 1);
        assert.equal(await count(store, 'applications'), 201);
      });
    });

    test('a submission and its duplicate run nothing on the event loop connection', async (t) => {
      // The writer thread probes the unique indexes itself and names a duplicate's holder, so no
      // read on the service's own connection comes first (it cost 0.2 ms of the loop a submission).
      if (storeName !== 'sqlite') return t.skip('SQLite writer thread only');
      await withStore(storeName, async (store) => {
        const first = rows(0);
        const capture = captureStatements(store.db as never, 'sqlite');
        try {
          assert.deepEqual(await store.insertSubmission(first), { kind: 'ok' });
          const duplicate = await store.insertSubmission(rows(1, { cert: first.application.cert_hash }));
          assert.deepEqual(duplicate.kind === 'document_taken' && { ...duplicate.holder }, {
            busi_water_no: first.application.busi_water_no,
            app_id: APP,
          });
        } finally {
          capture.stop();
        }
        assert.deepEqual(
          capture.captured.map((statement) => statement.sql),
          [],
        );
      });
    });

    test('duplicates in one burst: one stored per document and per card number, the others told why', async () => {
      await withStore(storeName, async (store) => {
        const first = rows(0);
        assert.deepEqual(await store.insertSubmission(first), { kind: 'ok' });
        const burst = [
          ...Array.from({ length: 20 }, (_, n) => rows(100 + n)),
          // The stored one's document, twice.
          rows(200, { cert: first.application.cert_hash }),
          rows(201, { cert: first.application.cert_hash }),
          // A new document sent four times at once.
          ...Array.from({ length: 4 }, (_, n) => rows(300 + n, { cert: 'cert-burst' })),
          // A card number taken, and a new one drawn twice.
          rows(400, { card: first.application.card_no_hash }),
          ...Array.from({ length: 2 }, (_, n) => rows(500 + n, { card: 'card-burst' })),
          // One partner reference on two new applications at once.
          ...Array.from({ length: 2 }, (_, n) => rows(600 + n, { reference: 'order-1' })),
        ];
        const outcomes: SubmissionOutcome[] = await Promise.all(burst.map((r) => store.insertSubmission(r)));
        const kinds = outcomes.map((o) => o.kind);
        assert.deepEqual(kinds.slice(0, 20), Array(20).fill('ok'));
        for (const outcome of outcomes.slice(20, 22)) {
          assert.equal(outcome.kind, 'document_taken');
          assert.deepEqual(outcome.kind === 'document_taken' && { ...outcome.holder }, {
            busi_water_no: first.application.busi_water_no,
            app_id: APP,
          });
        }
        const burstDocument = outcomes.slice(22, 26);
        assert.equal(burstDocument.filter((o) => o.kind === 'ok').length, 1, JSON.stringify(burstDocument));
        assert.equal(burstDocument.filter((o) => o.kind === 'document_taken').length, 3);
        assert.equal(kinds[26], 'card_no_taken');
        assert.deepEqual(kinds.slice(27, 29).sort(), ['card_no_taken', 'ok']);
        assert.deepEqual(kinds.slice(29).sort(), ['external_id_taken', 'ok']);
        const referenced = burst[29 + kinds.slice(29).indexOf('ok')]!;
        const taken = outcomes[29 + kinds.slice(29).indexOf('external_id_taken')]!;
        assert.deepEqual(taken.kind === 'external_id_taken' && { ...taken.holder }, {
          busi_water_no: referenced.application.busi_water_no,
          app_id: APP,
        });
        assert.equal(await count(store, 'applications'), 1 + 20 + 1 + 1 + 1);
        assert.equal(await count(store, 'events'), 1 + 20 + 1 + 1 + 1);
        assert.equal(await histories(store), 1 + 20 + 1 + 1 + 1);
      });
    });

    test('a failing submission is refused alone; a lost claim stores nothing; the others are stored', async () => {
      await withStore(storeName, async (store) => {
        const now = Date.now();
        const claim = (key: string, token: string) =>
          store.db
            .insertInto('idempotency_keys')
            .values({
              app_id: APP,
              idempotency_key: key,
              request_hash: 'h',
              state: 'in_progress',
              claim_token: token,
              locked_until: now + 60_000,
              status_code: null,
              response_body: null,
              result: null,
              created_at: now,
              expires_at: now + 86_400_000,
            })
            .execute();
        await claim('held', 'mine');
        await claim('taken-over', 'a-later-holder');
        const good = Array.from({ length: 20 }, (_, n) => rows(n));
        const unknownApp = rows(99, { app: 'app_nobody' });
        const withHeldClaim = rows(100);
        const withLostClaim = rows(101);
        const settled = await Promise.allSettled([
          ...good.map((r) => store.insertSubmission(r)),
          store.insertSubmission(unknownApp),
          store.insertSubmission(withHeldClaim, {
            appId: APP,
            key: 'held',
            claimToken: 'mine',
            result: '{"busi_water_no":"x"}',
          }),
          store.insertSubmission(withLostClaim, {
            appId: APP,
            key: 'taken-over',
            claimToken: 'mine',
            result: '{"busi_water_no":"y"}',
          }),
        ]);
        for (const result of settled.slice(0, 20))
          assert.deepEqual(result, { status: 'fulfilled', value: { kind: 'ok' } });
        assert.equal(settled[20]!.status, 'rejected', 'the unknown app is refused');
        assert.deepEqual(settled[21], { status: 'fulfilled', value: { kind: 'ok' } });
        assert.deepEqual(settled[22], { status: 'fulfilled', value: { kind: 'claim_lost' } });
        const stored = new Set(
          (await store.db.selectFrom('applications').select('busi_water_no').execute()).map(
            (r) => r.busi_water_no,
          ),
        );
        assert.equal(stored.size, 21);
        assert.ok(good.every((r) => stored.has(r.application.busi_water_no)));
        assert.ok(stored.has(withHeldClaim.application.busi_water_no));
        const keys = await store.db
          .selectFrom('idempotency_keys')
          .select(['idempotency_key', 'state', 'result'])
          .orderBy('idempotency_key')
          .execute();
        assert.deepEqual(
          keys.map((k) => ({ ...k })),
          [
            { idempotency_key: 'held', state: 'completed', result: '{"busi_water_no":"x"}' },
            { idempotency_key: 'taken-over', state: 'in_progress', result: null },
          ],
        );
      });
    });
  });
}
