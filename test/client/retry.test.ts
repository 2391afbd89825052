import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  CardApplyClient,
  CardApplyError,
  CardApplyNetworkError,
  payPasswordDigest,
  retryDelayMs,
  type CardApplyClientOptions,
  type RetryEvent,
} from '../../packages/client/src/index.ts';

/**
 * The client's retry, token and error rules against a scripted fetch: each case says what the
 * "service" answers to each call. The same rules against the real service: client.test.ts.
 */

interface Sent {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'network error';

const TOKEN_PATH = '/mc-platformapi/v1/open/auth/token';

function scripted(answers: (sent: Sent, call: number) => Answer) {
  const sent: Sent[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const path = new URL(String(url)).pathname;
    const call: Sent = {
      path,
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    };
    sent.push(call);
    if (path === TOKEN_PATH) {
      return Response.json({
        code: 0,
        data: { access_token: `at_${sent.length}`, token_type: 'Bearer', expires_in: 7200 },
        msg: 'success',
      });
    }
    const answer = answers(call, sent.filter((s) => s.path !== TOKEN_PATH).length - 1);
    if (answer === 'network error') throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    return new Response(JSON.stringify(answer.body ?? { code: 0, data: { ok: true }, msg: 'success' }), {
      status: answer.status,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-1', ...answer.headers },
    });
  };
  return {
    fetch: fetch as typeof globalThis.fetch,
    sent,
    calls: () => sent.filter((s) => s.path !== TOKEN_PATH),
  };
}

function client(fetch: typeof globalThis.fetch, options: Partial<CardApplyClientOptions> = {}) {
  const retries: RetryEvent[] = [];
  const instance = new CardApplyClient({
    baseUrl: 'http://service.test/',
    appId: 'app_1',
    appSecret: 'sk_1',
    fetch,
    baseDelayMs: 1,
    onRetry: (r) => retries.push(r),
    ...options,
  });
  return { instance, retries };
}

const envelope = (status: number, code: number, msg: string, data: unknown = null) => ({
  status,
  body: { code, data, msg },
});

describe('client retries, tokens and errors (scripted service)', () => {
  test('retries 5xx and network errors with the same Idempotency-Key and a fresh timestamp', async () => {
    const service = scripted((_, call) =>
      call === 0
        ? envelope(503, 50301, 'service temporarily unavailable')
        : call === 1
          ? 'network error'
          : { status: 200, body: { code: 0, data: { busi_water_no: 'S1' }, msg: 'success' } },
    );
    const { instance, retries } = client(service.fetch);
    const result = await instance.submit({ name: 'x', pay_pwd: 'a'.repeat(32) } as never);
    assert.deepEqual(result, { busi_water_no: 'S1' });
    const calls = service.calls();
    assert.equal(calls.length, 3);
    const keys = new Set(calls.map((c) => c.headers['idempotency-key']));
    assert.equal(keys.size, 1, 'one key for the submission and its retries');
    assert.match([...keys][0]!, /^[0-9a-f-]{36}$/);
    for (const c of calls) {
      assert.equal(c.body['app_id'], 'app_1');
      assert.equal(typeof c.body['timestamp'], 'number');
      assert.equal(c.headers['authorization'], 'Bearer at_1');
    }
    assert.deepEqual(
      retries.map((r) => r.reason.name),
      ['CardApplyError', 'CardApplyNetworkError'],
    );
    // A second submission gets a key of its own.
    await instance.submit({ name: 'y', pay_pwd: 'b'.repeat(32) } as never);
    assert.notEqual(service.calls().at(-1)!.headers['idempotency-key'], [...keys][0]);
  });

  test('honours Retry-After on 429, and gives up when it asks for longer than maxDelayMs', async () => {
    const service = scripted((_, call) =>
      call === 0
        ? {
            ...envelope(429, 42901, 'rate limit exceeded', { retry_after: 1 }),
            headers: { 'retry-after': '1' },
          }
        : call === 1
          ? { status: 200 }
          : { ...envelope(429, 42901, 'rate limit exceeded'), headers: { 'retry-after': '120' } },
    );
    const { instance, retries } = client(service.fetch);
    const started = Date.now();
    await instance.codes();
    assert.ok(Date.now() - started >= 990, 'waited the second it was asked to');
    assert.equal(retries[0]!.delayMs, 1000);

    const error = await instance.codes().then(
      () => assert.fail('expected a 429'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof CardApplyError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 42901);
    assert.equal(error.retryAfterSeconds, 120);
    assert.equal(retries.length, 1, 'a 2-minute Retry-After is left to the caller');
  });

  test('does not retry other 4xx; the error carries code, msg, field errors and request id', async () => {
    const problems = [
      { field: 'sex', code: 42206, message: 'sex: must be one of M, F' },
      { field: 'email', code: 42220, message: 'email: is not a valid address' },
    ];
    const service = scripted(() =>
      envelope(422, 42206, 'sex: must be one of M, F (and 1 more)', { errors: problems }),
    );
    const { instance, retries } = client(service.fetch);
    const error = await instance.validate({ payPassword: '704193' } as never).then(
      () => assert.fail('expected a 422'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof CardApplyError);
    assert.equal(error.status, 422);
    assert.equal(error.code, 42206);
    assert.equal(error.msg, 'sex: must be one of M, F (and 1 more)');
    assert.deepEqual(error.fieldErrors, problems);
    assert.equal(error.requestId, 'req-1');
    assert.equal(service.calls().length, 1);
    assert.equal(retries.length, 0);
  });

  test('gives up after maxRetries with a CardApplyNetworkError', async () => {
    const service = scripted(() => 'network error');
    const { instance } = client(service.fetch, { maxRetries: 2 });
    const error = await instance.query('S1').then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof CardApplyNetworkError);
    assert.equal(error.attempts, 3);
    assert.match(error.message, /ECONNRESET/);
    assert.equal(service.calls().length, 3);
  });

  test('a non-JSON 502 from a proxy is retried, then reported with its status', async () => {
    const service = scripted(() => ({ status: 502, body: 'Bad Gateway' }));
    const { instance } = client(service.fetch, { maxRetries: 1 });
    const error = await instance.query('S1').catch((e: unknown) => e);
    assert.ok(error instanceof CardApplyError);
    assert.equal(error.status, 502);
    assert.equal(error.code, 50200);
    assert.equal(service.calls().length, 2);
  });

  test('renews the token once on token_expired, and only once', async () => {
    const once = scripted((sent, call) =>
      call === 0 ? envelope(401, 40103, 'Authorization: token has expired') : { status: 200 },
    );
    const first = client(once.fetch);
    await first.instance.query('S1');
    assert.deepEqual(
      once.sent.map((s) => s.headers['authorization'] ?? s.path),
      [TOKEN_PATH, 'Bearer at_1', TOKEN_PATH, 'Bearer at_3'],
    );

    const always = scripted(() => envelope(401, 40103, 'Authorization: token has expired'));
    const second = client(always.fetch);
    const error = await second.instance.query('S1').catch((e: unknown) => e);
    assert.ok(error instanceof CardApplyError);
    assert.equal(error.code, 40103);
    assert.equal(always.sent.filter((s) => s.path === TOKEN_PATH).length, 2);
    assert.equal(always.calls().length, 2);
  });

  test('exchanges once for concurrent calls, and again before the token expires', async () => {
    let clock = 1_000_000;
    const service = scripted(() => ({ status: 200 }));
    const { instance } = client(service.fetch, { now: () => clock, renewBeforeSeconds: 300 });
    await Promise.all([instance.codes(), instance.codes(), instance.codes()]);
    assert.equal(service.sent.filter((s) => s.path === TOKEN_PATH).length, 1);
    clock += (7200 - 301) * 1000;
    await instance.codes();
    assert.equal(service.sent.filter((s) => s.path === TOKEN_PATH).length, 1, 'still valid for a while');
    clock += 2000;
    await instance.codes();
    assert.equal(service.sent.filter((s) => s.path === TOKEN_PATH).length, 2, 'renewed before expiry');
    assert.equal(service.sent[0]!.body['app_secret'], 'sk_1');
    assert.equal(service.sent[0]!.headers['authorization'], undefined);
  });

  test('sends the MD5 digest of a plain payment password, never the password', async () => {
    const service = scripted(() => ({ status: 200 }));
    const { instance } = client(service.fetch);
    await instance.submit({ name: '李雷', payPassword: '704193' } as never);
    const body = service.calls()[0]!.body;
    assert.equal(body['pay_pwd'], createHash('md5').update('704193').digest('hex'));
    assert.equal(payPasswordDigest('704193'), body['pay_pwd']);
    assert.equal('payPassword' in body, false);
    assert.doesNotMatch(JSON.stringify(body), /704193/);
  });

  test('backoff doubles from baseDelayMs, with jitter, up to maxDelayMs', () => {
    const policy = { maxRetries: 10, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      retryDelayMs(policy, 0, undefined, () => 1),
      100,
    );
    assert.equal(
      retryDelayMs(policy, 0, undefined, () => 0),
      50,
    );
    assert.equal(
      retryDelayMs(policy, 3, undefined, () => 1),
      800,
    );
    assert.equal(
      retryDelayMs(policy, 8, undefined, () => 1),
      1000,
    );
    assert.equal(retryDelayMs(policy, 8, 2), undefined, 'a Retry-After beyond maxDelayMs is not waited');
    assert.equal(retryDelayMs(policy, 0, 1), 1000);
  });
});
