import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  CardApplyClient,
  CardApplyError,
  verifyWebhook,
  WebhookVerificationError,
  type ApplicationInput,
  type CardApplyClientOptions,
  type RetryEvent,
  type WebhookEvent,
} from '../../packages/client/src/index.ts';
import { setRateLimit } from '../../src/partners/manageCredentials.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { createLogger } from '../../src/logger.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import { addEndpoint, rotateSecret } from '../../src/webhooks/endpoints.ts';
import { transitionApplication } from '../../src/applications/commands/transitionApplication.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { SYSTEM } from '../../src/audit/actor.ts';

/**
 * The client package against the real service on a random port, on every store: what a partner's
 * integration does (submit, query, list, cancel, events), a dropped answer retried with the same
 * Idempotency-Key, the 429 of a tightly limited app, token renewal, and a real webhook delivery
 * verified by the client's verifier.
 */

const PAY_PASSWORD = '704193';
let applicants = 7000;

/** A valid application as the client takes it: no app_id, timestamp or digest, a plain password. */
function application(): ApplicationInput {
  const { app_id: _app, timestamp: _time, pay_pwd: _digest, ...fields } = uniqueApplicant(applicants++, 'x');
  return { ...fields, payPassword: PAY_PASSWORD };
}

interface Exchange {
  path: string;
  request: Record<string, string>;
  body: Record<string, unknown>;
  status: number | 'dropped';
  response: Headers | undefined;
}

/** A fetch that records every exchange, and can drop an answer after the service has sent it. */
function recordingFetch(drop: (exchange: Exchange, index: number) => boolean = () => false) {
  const exchanges: Exchange[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await globalThis.fetch(url, init);
    const exchange: Exchange = {
      path: new URL(String(url)).pathname,
      request: { ...(init?.headers as Record<string, string>) },
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
      status: response.status,
      response: response.headers,
    };
    exchanges.push(exchange);
    if (drop(exchange, exchanges.length - 1)) {
      await response.arrayBuffer(); // the service has answered; the caller never sees it
      exchange.status = 'dropped';
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    }
    return response;
  };
  return { fetch: fetch as typeof globalThis.fetch, exchanges };
}

async function clientFor(
  service: TestService,
  options: Partial<CardApplyClientOptions> = {},
): Promise<{ client: CardApplyClient; appId: string; secret: string; retries: RetryEvent[] }> {
  const app = await createApp(service.ctx.store.db, 'client test partner', Date.now());
  const retries: RetryEvent[] = [];
  const client = new CardApplyClient({
    baseUrl: service.baseUrl,
    appId: app.app_id,
    appSecret: app.app_secret,
    baseDelayMs: 20,
    onRetry: (retry) => retries.push(retry),
    ...options,
  });
  return { client, appId: app.app_id, secret: app.app_secret, retries };
}

async function rejection(promise: Promise<unknown>): Promise<CardApplyError> {
  const error = await promise.then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof CardApplyError, String(error));
  return error;
}

for (const storeName of storeNames()) {
  describe(`client against the service on ${storeName}`, () => {
    let service: TestService;
    before(async () => {
      // Tokens of 10 minutes and a wide timestamp window: the renewal test moves the client's clock.
      service = await startService(storeName, {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        TOKEN_TTL_SECONDS: '600',
        TIMESTAMP_SKEW_SECONDS: '3600',
      });
    });
    after(() => service.close());

    test('submits (MD5 of the plain password), queries, lists, cancels and lists the events', async () => {
      const recorder = recordingFetch();
      const { client } = await clientFor(service, { fetch: recorder.fetch });

      const { busi_water_no: serial } = await client.submit(application());
      const sent = recorder.exchanges.find((e) => e.path.endsWith('/card/apply'))!;
      assert.equal(sent.body['pay_pwd'], createHash('md5').update(PAY_PASSWORD).digest('hex'));
      assert.equal('payPassword' in sent.body, false);
      assert.match(sent.request['idempotency-key']!, /^[0-9a-f-]{36}$/);

      const status = await client.query(serial);
      assert.equal(status.status, 'SUBMITTED');
      assert.match(status.card_no_masked, /^539966\*{6}[0-9]{4}$/);

      const second = await client.submit(application());
      const page = await client.list({ status: 'SUBMITTED', limit: 1 });
      assert.deepEqual(
        page.items.map((i) => i.busi_water_no),
        [serial],
      );
      assert.notEqual(page.next_cursor, null);
      const all: string[] = [];
      for await (const item of client.listAll({ limit: 1 })) all.push(item.busi_water_no);
      assert.deepEqual(all, [serial, second.busi_water_no]);

      const cancelled = await client.cancel(serial, { reason: 'The customer withdrew.' });
      assert.equal(cancelled.status, 'CANCELLED');
      assert.equal(cancelled.status_reason, 'The customer withdrew.');
      assert.equal((await client.query(serial)).status, 'CANCELLED');

      const again = await rejection(client.cancel(serial));
      assert.equal(again.status, 409);
      assert.equal(again.code, ERRORS.transitionNotAllowed.code);

      const events = await client.listEvents({ busi_water_no: serial });
      assert.deepEqual(
        events.items.map((e) => [e.type, e.data.sequence]),
        [
          ['application.submitted', 1],
          ['application.cancelled', 2],
        ],
      );
      const tables = await client.codes();
      assert.ok(tables.country.some((c) => c.code === 'CN'));
    });

    test('amends by its own reference after a request for information, names the reason codes, manages its webhooks', async () => {
      const { client, appId } = await clientFor(service);
      const reference = `CLIENT-${applicants}`;
      const { busi_water_no: serial } = await client.submit({ ...application(), external_id: reference });
      await transitionApplication(service.ctx, {
        busiWaterNo: serial,
        to: 'IN_REVIEW',
        actor: { kind: 'operator', id: 'rita', role: 'reviewer' },
        source: 'test',
      });
      await transitionApplication(service.ctx, {
        busiWaterNo: serial,
        to: 'SUPPLEMENT_REQUIRED',
        actor: { kind: 'operator', id: 'rita', role: 'reviewer' },
        reasonCodes: ['document_unreadable'],
        requestedFields: ['id_card_img'],
        source: 'test',
      });
      const waiting = await client.query({ external_id: reference });
      assert.deepEqual(waiting.requested_fields, ['id_card_img']);
      assert.deepEqual(await client.reasonNames(waiting.reason_codes), [
        'Document image unreadable (blurred, cut off, glare)',
      ]);
      assert.deepEqual(await client.reasonNames(waiting.reason_codes, 'zh'), [
        '证件影像无法辨认（模糊、缺角、反光）',
      ]);
      const refused = await rejection(
        client.amend(serial, { id_card_img: 'https://img.example.com/c/1.jpg', name_en: 'X' }),
      );
      assert.equal(refused.code, ERRORS.fieldNotRequested.code);
      const amended = await client.amend(
        { external_id: reference },
        { id_card_img: 'https://img.example.com/c/1.jpg' },
      );
      assert.equal(amended.status, 'IN_REVIEW');

      const receiver = await startReceiver();
      try {
        const endpoint = await client.registerWebhook({ url: receiver.url });
        receiver.secrets = [endpoint.secret];
        assert.deepEqual(
          (await client.listWebhooks()).map((e) => e.id),
          [endpoint.id],
        );
        const tested = await client.testWebhook(endpoint.id);
        assert.equal(tested.delivered, true);
        assert.ok(receiver.received.every((r) => r.verifiedBy === 0));
        const rotated = await client.rotateWebhookSecret(endpoint.id, 0);
        assert.notEqual(rotated.secret, endpoint.secret);
        assert.equal((await client.disableWebhook(endpoint.id)).status, 'disabled');
        assert.equal((await client.enableWebhook(endpoint.id)).status, 'active');
        assert.deepEqual(await client.webhookDeliveries({ endpoint_id: endpoint.id }), []);
        const [event] = (await client.listEvents({ busi_water_no: serial })).items;
        assert.deepEqual(await client.redeliverWebhookEvent(event!.id, endpoint.id), {
          queued: 1,
          in_flight: 0,
        });
        assert.equal((await client.deleteWebhook(endpoint.id)).deleted, true);
        assert.equal((await rejection(client.showWebhook(endpoint.id))).status, 404);
      } finally {
        await receiver.close();
      }
      assert.ok(appId.length > 0);
    });

    test('a rejected request throws CardApplyError with every field error, not retried', async () => {
      const { client, retries } = await clientFor(service);
      // What the types would refuse, as a partner in plain JavaScript might send it.
      const wrong = { ...application(), sex: 'X' as 'M', email: 'not-an-address' };
      const error = await rejection(client.validate(wrong));
      assert.equal(error.status, 422);
      assert.deepEqual(error.fieldErrors.map((f) => f.field).sort(), ['email', 'sex']);
      assert.ok(error.fieldErrors.every((f) => typeof f.code === 'number' && f.message.length > 0));
      assert.equal(error.code, error.fieldErrors[0]!.code);
      assert.match(error.requestId ?? '', /.+/);
      assert.equal(retries.length, 0);

      const unknown = await rejection(client.query('0'.repeat(32)));
      assert.equal(unknown.status, 404);
      assert.equal(unknown.code, ERRORS.applicationNotFound.code);
    });

    test('an answer lost on the way is retried with the same Idempotency-Key and replayed', async () => {
      let dropped = 0;
      const lossy = recordingFetch((exchange) => {
        if (!exchange.path.endsWith('/card/apply') || dropped > 0) return false;
        dropped += 1;
        return true;
      });
      const { client, appId, retries } = await clientFor(service, { fetch: lossy.fetch });
      const input = application();
      const { busi_water_no: serial } = await client.submit(input);

      const submits = lossy.exchanges.filter((e) => e.path.endsWith('/card/apply'));
      assert.deepEqual(
        submits.map((e) => e.status),
        ['dropped', 200],
      );
      assert.equal(submits[0]!.request['idempotency-key'], submits[1]!.request['idempotency-key']);
      assert.equal(submits[1]!.response!.get('idempotent-replayed'), 'true');
      assert.equal(retries.length, 1);
      assert.equal(retries[0]!.reason.name, 'CardApplyNetworkError');

      const stored = await service.ctx.store.db
        .selectFrom('applications')
        .select('busi_water_no')
        .where('app_id', '=', appId)
        .execute();
      assert.deepEqual(
        stored.map((r) => r.busi_water_no),
        [serial],
        'one application, not two',
      );

      // A new submission of the same applicant (a new key) is a duplicate, answered with the serial.
      const duplicate = await rejection(client.submit(input));
      assert.equal(duplicate.code, ERRORS.duplicateApplication.code);
      assert.deepEqual(duplicate.data, { busi_water_no: serial });
    });

    test('429: the client waits Retry-After and succeeds; without retries the error carries it', async () => {
      const { client, appId, secret, retries } = await clientFor(service);
      await setRateLimit(service.ctx, appId, { perSecond: 1, burst: 1 }, { actor: SYSTEM, source: 'test' });
      const started = Date.now();
      await client.codes();
      await client.codes();
      assert.equal(retries.length, 1);
      const [retry] = retries;
      assert.ok(retry!.reason instanceof CardApplyError);
      assert.equal(retry!.reason.status, 429);
      assert.equal(retry!.reason.code, ERRORS.rateLimited.code);
      assert.equal(retry!.delayMs, retry!.reason.retryAfterSeconds! * 1000);
      assert.ok(Date.now() - started >= retry!.delayMs - 50);

      const impatient = new CardApplyClient({
        baseUrl: service.baseUrl,
        appId,
        appSecret: secret,
        maxRetries: 0,
      });
      const error = await rejection(
        (async () => {
          await impatient.codes();
          await impatient.codes();
        })(),
      );
      assert.equal(error.status, 429);
      assert.equal(error.code, ERRORS.rateLimited.code);
      assert.ok(error.retryAfterSeconds! >= 1);
      assert.deepEqual(error.data, { retry_after: error.retryAfterSeconds });
    });

    test('renews the token before it expires, and once when the service says it has expired', async () => {
      let clockMs = Date.now();
      const recorder = recordingFetch();
      const { client, appId } = await clientFor(service, { fetch: recorder.fetch, now: () => clockMs });
      const exchanges = () => recorder.exchanges.filter((e) => e.path.endsWith('/auth/token')).length;
      const refusals = () => recorder.exchanges.filter((e) => e.status === 401).length;
      await client.codes();
      await client.codes();
      assert.equal(exchanges(), 1);

      // 10-minute tokens are renewed after 5 (the margin is at most half the lifetime): no 401.
      clockMs += 301_000;
      await client.codes();
      assert.equal(exchanges(), 2);
      assert.equal(refusals(), 0);

      // The token expires in the store (as if the service's clock ran ahead): one 401, one renewal.
      await service.ctx.store.db
        .updateTable('access_tokens')
        .set({ expires_at: Date.now() - 1000 })
        .where('app_id', '=', appId)
        .execute();
      await client.codes();
      assert.equal(exchanges(), 3);
      assert.equal(refusals(), 1);
      const refused = recorder.exchanges.find((e) => e.status === 401)!;
      assert.equal(refused.path, '/mc-platformapi/v1/open/et/vs/card/codes');
    });

    test('a real delivery verifies with the raw body; a re-serialised one does not', async () => {
      const { client, appId } = await clientFor(service);
      const received: { raw: Buffer; headers: IncomingHttpHeaders; event?: WebhookEvent; error?: unknown }[] =
        [];
      const receiver: Server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const entry: (typeof received)[number] = { raw: Buffer.concat(chunks), headers: request.headers };
          try {
            entry.event = verifyWebhook(entry.raw, request.headers, secrets);
          } catch (error) {
            entry.error = error;
          }
          received.push(entry);
          response.writeHead(entry.event === undefined ? 400 : 204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const port = (receiver.address() as AddressInfo).port;
      const endpoint = await addEndpoint(service.ctx, { appId, url: `http://127.0.0.1:${port}/hooks` });
      let secrets: string[] = [endpoint.secret];
      const dispatcher = startDispatcher(service.ctx, createLogger({ logLevel: 'silent' }), {
        pollIntervalMs: 25,
      });
      const waitFor = async (type: string) => {
        const deadline = Date.now() + 15_000;
        for (;;) {
          const hit = received.find((r) => r.event?.type === type || r.error !== undefined);
          if (hit !== undefined) return hit;
          if (Date.now() > deadline) throw new Error(`no ${type} webhook arrived`);
          await new Promise((r) => setTimeout(r, 25));
        }
      };
      try {
        const { busi_water_no: serial } = await client.submit(application());
        const submitted = await waitFor('application.submitted');
        assert.equal(submitted.error, undefined);
        assert.equal(submitted.event!.data.busi_water_no, serial);
        assert.equal(submitted.event!.id, submitted.headers['webhook-id']);
        assert.equal((submitted.event!.data as { status?: string }).status, 'SUBMITTED');

        const parsedAgain = JSON.stringify(JSON.parse(submitted.raw.toString('utf8')) as unknown, null, 2);
        assert.throws(
          () => verifyWebhook(parsedAgain, submitted.headers, endpoint.secret),
          (e: unknown) => e instanceof WebhookVerificationError && e.reason === 'no_matching_signature',
        );
        assert.throws(
          () =>
            verifyWebhook(submitted.raw, submitted.headers, endpoint.secret, {
              now: () => Date.now() + 3_600_000,
            }),
          (e: unknown) => e instanceof WebhookVerificationError && e.reason === 'too_old',
        );

        // A rotation: both secrets sign while they overlap; the receiver may hold either.
        const rotated = await rotateSecret(service.ctx, endpoint.id, 3600);
        secrets = [rotated.secret];
        await client.cancel(serial);
        const cancelled = await waitFor('application.cancelled');
        assert.equal(cancelled.error, undefined);
        assert.equal(String(cancelled.headers['webhook-signature']).split(' ').length, 2);
        verifyWebhook(cancelled.raw, cancelled.headers, endpoint.secret);
        verifyWebhook(cancelled.raw, cancelled.headers, rotated.secret);
      } finally {
        await dispatcher.stop();
        await new Promise((resolve) => receiver.close(resolve));
      }
    });
  });
}
