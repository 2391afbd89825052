import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { generateCardNumber } from '../../src/cards/cardNumber.ts';
import { loadConfig } from '../../src/config.ts';
import { PATHS } from '../../src/http/paths.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import {
  privatePostgresAvailable,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../helpers/privatePostgres.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { createStoreTarget, TEST_ENCRYPTION_KEYS, type StoreTarget } from '../helpers/stores.ts';
import { isEnvelope, send, type Exchange } from './support/http.ts';
import { findLeaks, identityValues } from './support/leaks.ts';
import { killHard, stopGracefully, tokenFor } from './support/service.ts';
import { inspectStore } from './support/storeChecks.ts';
import { eventually, report, scale } from './support/summary.ts';

/**
 * Several instances: three service processes on one PostgreSQL schema take concurrent submissions,
 * half of them requesting card numbers that collide on purpose. No two applications share a card
 * number or a serial, every collision is a clean 409, an idempotency key holds across instances,
 * and every event is delivered to the webhook receiver exactly once although three dispatchers
 * compete for the deliveries. PostgreSQL from DATABASE_URL (a schema of its own), else a private one.
 */
const INSTANCES = 3;
const SUBMISSIONS = scale(150, 600);
const CONCURRENCY = 12;
/** Requested card numbers: each is asked for by about five submissions, on any instance. */
const POOL = Math.ceil(SUBMISSIONS / 2 / 5);
const IDEMPOTENCY_KEYS = scale(5, 20);

const usable = process.env['DATABASE_URL'] !== undefined || privatePostgresAvailable();

describe('chaos: several instances', { skip: !usable && 'no PostgreSQL (DATABASE_URL or binaries)' }, () => {
  test(`${INSTANCES} processes on one PostgreSQL: unique numbers, clean 409s, keys hold, events once`, async (t) => {
    let privateServer: PrivatePostgres | undefined;
    let target: StoreTarget;
    let env: Record<string, string>;
    let location: { url: string; schema: string };
    if (process.env['DATABASE_URL']) {
      target = createStoreTarget('postgres');
      env = { ...target.env };
      location = { url: target.directUrl!, schema: target.schema! };
    } else {
      privateServer = await startPrivatePostgres();
      target = createStoreTarget('sqlite');
      env = {
        ...target.env,
        DATABASE_URL: privateServer.url,
        DATABASE_SCHEMA: 'instances',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      };
      location = { url: privateServer.url, schema: 'instances' };
    }
    Object.assign(env, {
      DATABASE_POOL_SIZE: '4',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_LEASE_MS: '5000',
      WEBHOOK_BACKOFF_BASE_MS: '50',
      WEBHOOK_BACKOFF_MAX_MS: '500',
    });
    const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
    const services: ServiceProcess[] = [];
    const receiver = await startReceiver();
    try {
      const app = await createApp(ctx.store.db, 'scale partner', Date.now());
      const endpoint = await addEndpoint(ctx, { appId: app.app_id, url: receiver.url });
      receiver.secrets = [endpoint.secret];
      services.push(...(await Promise.all(Array.from({ length: INSTANCES }, () => spawnService(env)))));
      const token = await tokenFor(services[0]!.baseUrl, app);
      const pool = Array.from({ length: POOL }, () => generateCardNumber(ctx.config.card));

      // Concurrent submissions spread over the instances; every other one requests a pool number.
      const replies: { reply: Exchange; requested: string | undefined; instance: number }[] = [];
      const identity: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < SUBMISSIONS) {
          const i = next++;
          const requested = i % 2 === 0 ? pool[Math.floor(i / 2) % POOL] : undefined;
          const body = uniqueApplicant(i, app.app_id, requested === undefined ? {} : { card_no: requested });
          identity.push(...identityValues(body));
          const instance = i % INSTANCES;
          const reply = await send(services[instance]!.baseUrl, PATHS.apply, { body, token });
          replies.push({ reply, requested, instance });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));

      const unclean = replies.filter(({ reply }) => reply.status >= 500 || !isEnvelope(reply.json));
      assert.deepEqual(
        unclean.map((r) => `${r.reply.status} ${r.reply.text.slice(0, 200)}`),
        [],
        'no 5xx, always the envelope',
      );
      let collisions = 0;
      for (const number of pool) {
        const asked = replies.filter((r) => r.requested === number);
        const won = asked.filter((r) => r.reply.status === 200);
        const lost = asked.filter((r) => r.reply.status !== 200);
        assert.equal(won.length, 1, `a requested number is given exactly once (${asked.length} asked)`);
        for (const { reply } of lost) {
          assert.equal(reply.status, 409, reply.text);
          assert.equal((reply.json as { code: number }).code, 40902, reply.text);
          assert.match((reply.json as { msg: string }).msg, /^card_no: /);
        }
        collisions += lost.length;
      }
      const unrequested = replies.filter((r) => r.requested === undefined);
      assert.ok(
        unrequested.every((r) => r.reply.status === 200),
        'assigned numbers never collide',
      );
      const instancesThatWon = new Set(
        replies.filter((r) => r.requested !== undefined && r.reply.status === 200).map((r) => r.instance),
      );

      // Idempotency keys across instances: the same key and body on all three at once, one application.
      let keysHeld = 0;
      for (let k = 0; k < IDEMPOTENCY_KEYS; k++) {
        const body = uniqueApplicant(SUBMISSIONS + k, app.app_id);
        identity.push(...identityValues(body));
        const key = `chaos-key-${k}-${Date.now()}`;
        const answers = await Promise.all(
          services.map((s) =>
            send(s.baseUrl, PATHS.apply, { body, token, headers: { 'idempotency-key': key } }),
          ),
        );
        assert.ok(
          answers.every((a) => a.status === 200),
          answers.map((a) => `${a.status} ${a.text.slice(0, 120)}`).join('; '),
        );
        const serials = new Set(
          answers.map((a) => (a.json as { data: { busi_water_no: string } }).data.busi_water_no),
        );
        assert.equal(serials.size, 1, 'one application per key, whichever instance answers');
        const other = await send(services[(k + 1) % INSTANCES]!.baseUrl, PATHS.apply, {
          body: { ...body, yearly_income: '300000' },
          token,
          headers: { 'idempotency-key': key },
        });
        assert.equal(other.status, 409, other.text);
        assert.equal((other.json as { code: number }).code, 40903);
        keysHeld++;
      }

      // Every event delivered, each exactly once, although three dispatchers compete.
      const events = await ctx.store.db
        .selectFrom('events')
        .select('event_id')
        .where('app_id', '=', app.app_id)
        .execute();
      const ids = events.map((e) => e.event_id);
      const delivered = await eventually(
        () => {
          const acked = receiver.acknowledged();
          return ids.every((id) => acked.has(id));
        },
        60_000,
        100,
      );
      assert.ok(delivered, `every event delivered (${receiver.acknowledged().size} of ${ids.length})`);
      const perId = new Map<string, number>();
      for (const r of receiver.received) perId.set(r.id, (perId.get(r.id) ?? 0) + 1);
      const twice = [...perId].filter(([, count]) => count > 1);
      assert.deepEqual(twice, [], 'no event delivered twice');
      assert.ok(
        receiver.received.every((r) => r.verifiedBy === 0),
        'every delivery signed with the endpoint secret',
      );

      const state = await inspectStore(ctx, location);
      const accepted = replies.filter((r) => r.reply.status === 200).length + IDEMPOTENCY_KEYS;
      assert.equal(state.rows, accepted, 'one stored application per acknowledgement');
      assert.equal(ids.length, accepted, 'one event per application');
      assert.equal(state.duplicateSerials, 0);
      assert.equal(state.duplicateCardNumbers, 0);
      assert.equal(state.integrity, 'ok', state.integrityCheck);

      const logs = services.flatMap((s) => s.output);
      await Promise.all(services.map((s) => stopGracefully(s)));
      const leaks = findLeaks({ values: [...identity, ...state.cardNumbers], postgres: [location], logs });
      assert.deepEqual(leaks, [], 'identity data in the clear');
      report(t, {
        part: 'instances/postgres',
        figures: {
          instances: INSTANCES,
          submissions: SUBMISSIONS,
          'requested numbers': POOL,
          'collisions answered 409': collisions,
          'instances that won a number': instancesThatWon.size,
          'idempotency keys held': keysHeld,
          'events delivered once': ids.length,
          integrity: `${state.integrity} (${state.integrityCheck})`,
          'leaks found': leaks.length,
        },
        held: [
          'no card number or serial shared; each collision a clean 409 card_no',
          'an idempotency key replays across instances; another body with it is a 409',
          'every event delivered exactly once, signed, with three dispatchers competing',
        ],
      });
    } finally {
      await Promise.all(services.map((s) => killHard(s)));
      await receiver.close();
      await ctx.store.close();
      await target.cleanup();
      privateServer?.cleanup();
    }
  });
});
