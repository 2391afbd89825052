import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { ServiceError } from '../../src/errors/serviceError.ts';
import type { ServiceContext } from '../../src/context.ts';
import { partnerAuthentication } from '../../src/http/partnerAuth.ts';
import { success } from '../../src/http/envelope.ts';
import { PATHS } from '../../src/http/paths.ts';
import { requestHash } from '../../src/idempotency/canonicalJson.ts';
import { purgeExpiredKeys } from '../../src/idempotency/idempotencyKeys.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { startInstances, type Instances } from '../helpers/instances.ts';
import { newPartner, nowSeconds, post, type Reply, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Idempotency-Key over real HTTP, on every store, with two instances on one store: one operation
 * per key however many requests race, the first response replayed byte for byte, another body 409.
 */

const newKey = () => `key-${randomBytes(8).toString('hex')}`;

/** How often the test route ran, per `run` id in its body. */
const runs = new Map<string, number>();

/** A test-only idempotent route: `fault-once` fails with a 500 on its first run, `conflict` is a 409. */
function testRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  void app.register(async (scope) => {
    scope.addHook('preValidation', partnerAuthentication(ctx));
    scope.post(
      '/test/idempotent',
      { config: { operation: 'test.idempotent', idempotent: true } },
      async (request, reply) => {
        const body = request.body as { run: string; outcome: string };
        const count = (runs.get(body.run) ?? 0) + 1;
        runs.set(body.run, count);
        if (body.outcome === 'fault-once' && count === 1) throw new Error('a fault');
        if (body.outcome === 'conflict')
          return reply.code(409).send({ code: 40905, data: null, msg: 'conflict' });
        return success(request, { run: body.run, count });
      },
    );
  });
}

for (const storeName of storeNames()) {
  describe(`idempotency on ${storeName}`, () => {
    let group: Instances;
    let partner: TestPartner;
    let counter = 0;
    const fresh = () => uniqueApplicant(counter++, partner.appId);
    const urls = () => group.instances.map((i) => i.baseUrl);
    const submit = (
      body: unknown,
      key: string | undefined,
      instance = 0,
      token = partner.token,
    ): Promise<Reply> =>
      post(urls()[instance]!, PATHS.apply, body, {
        token,
        headers: key === undefined ? {} : { 'idempotency-key': key },
      });
    const db = () => group.instances[0]!.ctx.store.db;
    const applicationsOf = async (appId: string) =>
      Number(
        (
          await db()
            .selectFrom('applications')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('app_id', '=', appId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      group = await startInstances(
        storeName,
        3,
        (i): Record<string, string> => (i === 2 ? { IDEMPOTENCY_WAIT_MS: '300' } : {}),
        testRoutes,
      );
      partner = await newPartner(group.instances[0]!);
    });
    after(() => group.close());

    test('50 concurrent submissions with one key, on two instances, create one application', async () => {
      const applicant = await newPartner(group.instances[0]!, 'racing partner');
      const body = uniqueApplicant(counter++, applicant.appId);
      const key = newKey();
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => submit(body, key, i % 2, applicant.token)),
      );
      assert.equal(await applicationsOf(applicant.appId), 1);
      const succeeded = replies.filter((r) => r.status === 200);
      const inProgress = replies.filter((r) => r.status === 409);
      assert.equal(succeeded.length + inProgress.length, 50, replies.map((r) => r.text).join('\n'));
      for (const reply of inProgress) assert.equal(reply.body.code, 40904);
      assert.ok(succeeded.length >= 1);
      assert.equal(new Set(succeeded.map((r) => r.text)).size, 1, 'every success is the same response');
      const originals = succeeded.filter((r) => r.headers.get('idempotent-replayed') === null);
      assert.equal(originals.length, 1, 'one response is the original, every other one a replay');
      for (const reply of succeeded.filter((r) => r !== originals[0]))
        assert.equal(reply.headers.get('idempotent-replayed'), 'true');
    });

    test('a retry after the first response replays it byte for byte, on any instance', async () => {
      const body = fresh();
      const key = newKey();
      const first = await submit(body, key);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const before = await applicationsOf(partner.appId);
      // A retry carries a fresh timestamp (the replay window demands it) and keys in another order.
      const reordered = Object.fromEntries(
        Object.entries({ ...body, timestamp: nowSeconds() + 1 }).reverse(),
      );
      for (const instance of [0, 1]) {
        const again = await submit(reordered, key, instance);
        assert.equal(again.status, first.status);
        assert.equal(again.text, first.text);
        assert.equal(again.headers.get('idempotent-replayed'), 'true');
        assert.match(again.headers.get('content-type') ?? '', /^application\/json/);
      }
      assert.equal(await applicationsOf(partner.appId), before);
    });

    test('the same key with a changed body is a 409, and nothing is stored', async () => {
      const body = fresh();
      const key = newKey();
      assert.equal((await submit(body, key)).status, 200);
      const before = await applicationsOf(partner.appId);
      const changed = await submit({ ...body, company_name: 'Another Company Ltd' }, key, 1);
      assert.equal(changed.status, 409, changed.text);
      assert.equal(changed.body.code, 40903);
      assert.equal(changed.body.msg, 'Idempotency-Key: was used before with a different body');
      assert.equal(await applicationsOf(partner.appId), before);
    });

    test('keys belong to their app: another app may use the same key', async () => {
      const key = newKey();
      assert.equal((await submit(fresh(), key)).status, 200);
      const other = await newPartner(group.instances[0]!, 'other partner');
      const theirs = await submit(uniqueApplicant(counter++, other.appId), key, 0, other.token);
      assert.equal(theirs.status, 200, theirs.text);
      assert.equal(theirs.headers.get('idempotent-replayed'), null);
    });

    test('a refused submission is replayed too; a request without a key is untouched', async () => {
      const body = { ...fresh(), sex: 'X' };
      const key = newKey();
      const first = await submit(body, key);
      assert.equal(first.status, 422);
      const again = await submit(body, key);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const plain = await submit(fresh(), undefined);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('idempotent-replayed'), null);
    });

    test('a malformed key is a 400 naming the header', async () => {
      for (const key of ['', 'x'.repeat(256), 'caf\u00e9']) {
        const reply = await submit(fresh(), key);
        assert.equal(reply.status, 400, `${JSON.stringify(key)}: ${reply.text}`);
        assert.equal(reply.body.code, 40008);
        assert.match(reply.body.msg, /^Idempotency-Key: must be 1 to 255 printable ASCII characters$/);
      }
      assert.equal((await submit(fresh(), 'x'.repeat(255))).status, 200);
      assert.equal((await submit(fresh(), 'a key with spaces and ~!@#$%^&*()')).status, 200);
    });

    test('the response is recorded in the transaction of the submission; the body never is', async () => {
      const body = fresh();
      const key = newKey();
      const reply = await submit(body, key);
      const row = await db()
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('app_id', '=', partner.appId)
        .where('idempotency_key', '=', key)
        .executeTakeFirstOrThrow();
      assert.equal(row.state, 'completed');
      // The domain result, from which the transport builds the response (and its replays).
      assert.deepEqual(JSON.parse(row.result!), reply.body.data);
      assert.deepEqual(reply.body.data, {
        busi_water_no: (reply.body.data as { busi_water_no: string }).busi_water_no,
      });
      assert.equal(row.request_hash, requestHash('application.submit', body));
      assert.ok(!JSON.stringify(row).includes(body.cert_id), 'no identity data in the record');
      assert.ok(row.expires_at - row.created_at >= 24 * 3600 * 1000, 'kept at least 24 hours');
    });

    test('expired keys are purged, and the key can then be used anew', async () => {
      const key = newKey();
      assert.equal((await submit(fresh(), key)).status, 200);
      await db()
        .updateTable('idempotency_keys')
        .set({ expires_at: Date.now() - 1 })
        .where('idempotency_key', '=', key)
        .execute();
      assert.ok((await purgeExpiredKeys(group.instances[0]!.ctx, Date.now())) >= 1);
      const reused = await submit(fresh(), key);
      assert.equal(reused.status, 200);
      assert.equal(reused.headers.get('idempotent-replayed'), null);
    });

    test("a crashed holder's claim is taken over after its lease, not before", async () => {
      const body = fresh();
      const key = newKey();
      const now = Date.now();
      const claim = {
        app_id: partner.appId,
        idempotency_key: key,
        request_hash: requestHash('application.submit', body),
        state: 'in_progress' as const,
        claim_token: 'crashed',
        locked_until: now + 60_000,
        status_code: null,
        response_body: null,
        result: null,
        created_at: now,
        expires_at: now + 86_400_000,
      };
      await db().insertInto('idempotency_keys').values(claim).execute();
      // Its holder could still be running: the request waits while the lease lasts.
      let settled = false;
      const waiting = post(urls()[1]!, PATHS.apply, body, {
        token: partner.token,
        headers: { 'idempotency-key': key },
      }).finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(settled, false, 'no takeover while the lease lasts');
      await db()
        .updateTable('idempotency_keys')
        .set({ locked_until: Date.now() - 1 })
        .where('idempotency_key', '=', key)
        .execute();
      const taken = await waiting;
      assert.equal(taken.status, 200, taken.text);
      assert.equal(taken.headers.get('idempotent-replayed'), null);
      assert.equal((await submit(body, key)).text, taken.text);
    });

    test('a holder whose claim was taken over cannot complete: its submission rolls back', async () => {
      const body = fresh();
      const key = newKey();
      const now = Date.now();
      await db()
        .insertInto('idempotency_keys')
        .values({
          app_id: partner.appId,
          idempotency_key: key,
          request_hash: requestHash('application.submit', body),
          state: 'in_progress',
          claim_token: 'the-new-holder',
          locked_until: now + 60_000,
          status_code: null,
          response_body: null,
          result: null,
          created_at: now,
          expires_at: now + 86_400_000,
        })
        .execute();
      const before = await applicationsOf(partner.appId);
      const fencedOut = { appId: partner.appId, key, claimToken: 'the-old-holder' };
      const instance = group.instances[0]!;
      const partnerView = {
        appId: partner.appId,
        rateLimitPerSecond: null,
        rateLimitBurst: null,
        concurrencyLimit: null,
      };
      await assert.rejects(
        submitApplication(instance.ctx, partnerView, body, { idempotency: fencedOut }),
        (error: unknown) => error instanceof ServiceError && error.error === 'idempotencyInProgress',
      );
      assert.equal(await applicationsOf(partner.appId), before);
    });

    test('a holder that does not finish within the wait gets a 409 in progress with Retry-After', async () => {
      const body = fresh();
      const key = newKey();
      const now = Date.now();
      await db()
        .insertInto('idempotency_keys')
        .values({
          app_id: partner.appId,
          idempotency_key: key,
          request_hash: requestHash('application.submit', body),
          state: 'in_progress',
          claim_token: 'slow',
          locked_until: now + 60_000,
          status_code: null,
          response_body: null,
          result: null,
          created_at: now,
          expires_at: now + 86_400_000,
        })
        .execute();
      // The third instance waits only 300 ms.
      const started = Date.now();
      const reply = await submit(body, key, 2);
      assert.ok(Date.now() - started < 3000);
      assert.equal(reply.status, 409, reply.text);
      assert.equal(reply.body.code, 40904);
      assert.equal(reply.headers.get('retry-after'), '1');
    });

    test('any route opts in with one line: a 5xx releases the key, a 4xx is kept', async () => {
      const call = (body: object, key: string) =>
        post(
          urls()[0]!,
          '/test/idempotent',
          { app_id: partner.appId, timestamp: nowSeconds(), ...body },
          {
            token: partner.token,
            headers: { 'idempotency-key': key },
          },
        );
      const run = newKey();
      const key = newKey();
      const fault = await call({ run, outcome: 'fault-once' }, key);
      assert.equal(fault.status, 500);
      const retried = await call({ run, outcome: 'fault-once' }, key);
      assert.equal(retried.status, 200, retried.text);
      assert.deepEqual(retried.body.data, { run, count: 2 });
      const replayed = await call({ run, outcome: 'fault-once' }, key);
      assert.equal(replayed.text, retried.text);
      assert.equal(runs.get(run), 2);

      const conflictRun = newKey();
      const conflictKey = newKey();
      const conflict = await call({ run: conflictRun, outcome: 'conflict' }, conflictKey);
      assert.equal(conflict.status, 409);
      const again = await call({ run: conflictRun, outcome: 'conflict' }, conflictKey);
      assert.equal(again.text, conflict.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(runs.get(conflictRun), 1);
    });

    test('a cancel with a key is replayed, not refused as a second cancel', async () => {
      const submitted = await submit(fresh(), undefined);
      const serial = (submitted.body.data as { busi_water_no: string }).busi_water_no;
      const key = newKey();
      const cancel = (instance: number, reason: string) =>
        post(
          urls()[instance]!,
          PATHS.cancel,
          { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial, reason },
          { token: partner.token, headers: { 'idempotency-key': key } },
        );
      const first = await cancel(0, 'changed my mind');
      assert.equal(first.status, 200, first.text);
      const again = await cancel(1, 'changed my mind');
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const other = await cancel(0, 'another reason');
      assert.equal(other.status, 409);
      assert.equal(other.body.code, 40903);
    });

    test('the header is documented on idempotent routes', async () => {
      const doc = (await (await fetch(`${urls()[0]}/openapi.json`)).json()) as {
        paths: Record<string, { post: { parameters?: { name: string; in: string }[] } }>;
      };
      const parameters = doc.paths[PATHS.apply]?.post.parameters ?? [];
      assert.ok(parameters.some((p) => p.in === 'header' && p.name === 'idempotency-key'));
      const query = doc.paths[PATHS.query]?.post.parameters ?? [];
      assert.ok(!query.some((p) => p.name === 'idempotency-key'));
    });
  });
}
