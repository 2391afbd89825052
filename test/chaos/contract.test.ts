import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { setRateLimit } from '../../src/partners/manageCredentials.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { generateCardNumber } from '../../src/cards/cardNumber.ts';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { ADMIN, newOperator } from '../helpers/operators.ts';
import { newPartner, nowSeconds, startService } from '../helpers/service.ts';
import { arbHostileCase, requestOf, ROUTE_PATHS, routeFieldsOf, type HostileCase } from '../fuzz/hostile.ts';
import {
  contractValidator,
  proxyViolations,
  servedDocuments,
  startPrism,
  type Violation,
} from './support/contract.ts';
import { fingerprints, send, type Exchange, type SendOptions } from './support/http.ts';
import { report, scale, seedOf } from './support/summary.ts';
import { SYSTEM } from '../../src/audit/actor.ts';

/**
 * Contract: the test traffic of this run passes through Stoplight Prism's validating proxy (made
 * by others, from npm) against the service's own /openapi.json, and no response violates it. The
 * traffic: the happy path of every partner route and the main admin routes, each error class the
 * routes document (400, 401, 403, 404, 409, 413, 415, 422, 429), and generated hostile cases. A
 * canary first proves that Prism does report a violation.
 */
const FUZZ_THROUGH_PROXY = scale(200, 2_000);

/** The deepest nesting of arrays and objects in a JSON text. */
function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') max = Math.max(max, ++depth);
    else if (ch === ']' || ch === '}') depth--;
  }
  return max;
}

/**
 * Whether Prism's proxy can carry a body unchanged in meaning. It parses JSON bodies itself (and
 * hangs on one that does not parse), decodes by the charset parameter, and its validator recurses
 * (a body nested thousands deep overflows Prism's stack, not the service's).
 */
function carriable(c: HostileCase): boolean {
  const json = c.contentType !== undefined && /^application\/([a-z0-9.+-]+\+)?json\b/i.test(c.contentType);
  if (!json) return true;
  // Prism decodes by the charset parameter: anything but UTF-8 would not reach the service as sent.
  if (/charset=(?!"?utf-8)/i.test(c.contentType ?? '')) return false;
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(c.body);
    JSON.parse(text);
    return text.length > 0 && depthOf(text) <= 500;
  } catch {
    return false;
  }
}

describe('chaos: contract through a validating proxy', () => {
  test('no response violates /openapi.json (Stoplight Prism proxy)', async (t) => {
    const service = await startService('sqlite', {
      SANDBOX: 'true',
      AUTH_FAILURE_BURST: '100000',
      AUTH_FAILURES_PER_MINUTE: '100000',
    });
    // The partner API's document and the admin API's, together: the traffic below uses both.
    const document = await servedDocuments(service.baseUrl);
    const validator = await contractValidator(document);

    // The canary: a copy of the document that says the codes route answers code 7 must be flagged.
    const wrong = structuredClone(document) as unknown as {
      paths: Record<
        string,
        {
          post: {
            responses: Record<
              string,
              { content: Record<string, { schema: { properties: Record<string, unknown> } }> }
            >;
          };
        }
      >;
    };
    wrong.paths[PATHS.codes]!.post.responses['200']!.content['application/json']!.schema.properties['code'] =
      {
        const: 7,
      };
    const canaryProxy = await startPrism(wrong, service.baseUrl);
    const partner = await newPartner(service, 'contract partner');
    let canaryFlagged: boolean;
    try {
      const canary = await send(canaryProxy.url, PATHS.codes, {
        body: { app_id: partner.appId, timestamp: nowSeconds() },
        token: partner.token,
      });
      canaryFlagged = proxyViolations(canary).length > 0;
    } finally {
      await canaryProxy.stop();
    }
    assert.ok(canaryFlagged, 'Prism reports a response that breaks the document');

    const prism = await startPrism(document, service.baseUrl);
    const exchanges: Exchange[] = [];
    const violations: Violation[] = [];
    let viaProxy = 0;
    let direct = 0;
    const straight = async (path: string, options: SendOptions = {}) => {
      const reply = await send(service.baseUrl, path, options);
      direct++;
      exchanges.push(reply);
      violations.push(...validator.check(reply));
      return reply;
    };
    const through = async (path: string, options: SendOptions = {}) => {
      const reply = await send(prism.url, path, { timeoutMs: 15_000, ...options }).catch((error: unknown) => {
        const raw =
          typeof options.raw === 'string' ? options.raw : options.raw && Buffer.from(options.raw).toString();
        const body = (raw ?? JSON.stringify(options.body)).slice(0, 160);
        const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : '';
        throw new Error(`through the proxy: ${path} ${body}: ${String(error)}${cause}`);
      });
      // Prism answers a request without credentials itself, whatever --validate-request says: it
      // never reached the service, so it goes straight in and is checked in-process.
      const type = (reply.json as { type?: unknown } | undefined)?.type;
      if (type === 'https://stoplight.io/prism/errors#UNAUTHORIZED') return straight(path, options);
      viaProxy++;
      exchanges.push(reply);
      violations.push(...proxyViolations(reply));
      return reply;
    };
    const statusOf = async (label: string, expected: number, reply: Promise<Exchange>) => {
      const r = await reply;
      assert.equal(r.status, expected, `${label}: ${r.text.slice(0, 300)}`);
      return r;
    };
    const common = () => ({ app_id: partner.appId, timestamp: nowSeconds() });
    let n = 0;
    const applicant = () => uniqueApplicant(n++, partner.appId);

    try {
      // Happy paths of every partner route.
      const submitted = await statusOf(
        'submit',
        200,
        through(PATHS.apply, { body: applicant(), token: partner.token }),
      );
      const serial = (submitted.json as { data: { busi_water_no: string } }).data.busi_water_no;
      await statusOf('validate', 200, through(PATHS.validate, { body: applicant(), token: partner.token }));
      await statusOf(
        'query',
        200,
        through(PATHS.query, { body: { ...common(), busi_water_no: serial }, token: partner.token }),
      );
      await statusOf(
        'codes',
        200,
        through(PATHS.codes, { body: common(), token: partner.token, headers: { 'accept-language': 'zh' } }),
      );
      await statusOf(
        'list',
        200,
        through(PATHS.list, { body: { ...common(), status: 'SUBMITTED', limit: 2 }, token: partner.token }),
      );
      await statusOf('events', 200, through(PATHS.events, { body: common(), token: partner.token }));
      const movedApplicant = applicant();
      const moved = await statusOf(
        'submit',
        200,
        through(PATHS.apply, { body: movedApplicant, token: partner.token }),
      );
      const movedSerial = (moved.json as { data: { busi_water_no: string } }).data.busi_water_no;
      for (const status of ['IN_REVIEW', 'APPROVED', 'CARD_ISSUED']) {
        await statusOf(
          `simulate ${status}`,
          200,
          through(PATHS.simulate, {
            body: { ...common(), busi_water_no: movedSerial, status },
            token: partner.token,
          }),
        );
      }
      await statusOf(
        'simulate SHIPPED',
        200,
        through(PATHS.simulate, {
          body: {
            ...common(),
            busi_water_no: movedSerial,
            status: 'SHIPPED',
            carrier: 'SF Express',
            tracking_no: 'SF1',
          },
          token: partner.token,
        }),
      );
      const keyed = applicant();
      await statusOf(
        'idempotent submit',
        200,
        through(PATHS.apply, {
          body: keyed,
          token: partner.token,
          headers: { 'idempotency-key': 'contract-1' },
        }),
      );
      await statusOf(
        'idempotent replay',
        200,
        through(PATHS.apply, {
          body: keyed,
          token: partner.token,
          headers: { 'idempotency-key': 'contract-1' },
        }),
      );
      await statusOf(
        'cancel',
        200,
        through(PATHS.cancel, {
          body: { ...common(), busi_water_no: serial, reason: 'changed my mind' },
          token: partner.token,
        }),
      );

      // Each error class.
      await statusOf(
        '400 not JSON',
        400,
        through(PATHS.apply, { raw: '{"a":', contentType: 'text/plain', token: partner.token }).then(
          async () => straight(PATHS.apply, { raw: '{"a":', token: partner.token }),
        ),
      );
      await statusOf('400 not an object', 400, through(PATHS.apply, { raw: '[1,2]', token: partner.token }));
      await statusOf(
        '400 forbidden key',
        400,
        through(PATHS.apply, { raw: '{"__proto__":{"x":1}}', token: partner.token }),
      );
      await statusOf(
        '400 too deep',
        400,
        through(PATHS.apply, { raw: `{"a":${'['.repeat(40)}${']'.repeat(40)}}`, token: partner.token }),
      );
      await statusOf('400 empty', 400, through(PATHS.apply, { raw: '', token: partner.token }));
      await statusOf(
        '400 duplicate key',
        400,
        straight(PATHS.apply, { raw: '{"a":1,"a":2}', token: partner.token }),
      );
      await statusOf(
        '400 bad UTF-8',
        400,
        straight(PATHS.apply, { raw: Buffer.from([0x7b, 0xff, 0x7d]), token: partner.token }),
      );
      await statusOf('401 no token', 401, through(PATHS.apply, { body: applicant() }));
      await statusOf(
        '401 bad token',
        401,
        through(PATHS.query, { body: { ...common(), busi_water_no: serial }, token: 'not-a-token' }),
      );
      await statusOf(
        '401 bad secret',
        401,
        through(PATHS.token, {
          body: { app_id: partner.appId, app_secret: 'wrong', timestamp: nowSeconds() },
        }),
      );
      await statusOf(
        '401 timestamp skew',
        401,
        through(PATHS.codes, {
          body: { app_id: partner.appId, timestamp: nowSeconds() - 3600 },
          token: partner.token,
        }),
      );
      await statusOf(
        '403 app mismatch',
        403,
        through(PATHS.codes, {
          body: { app_id: 'someone-else', timestamp: nowSeconds() },
          token: partner.token,
        }),
      );
      await statusOf(
        '404 no such application',
        404,
        through(PATHS.query, {
          body: { ...common(), busi_water_no: '01M80000000000000000000000000000' },
          token: partner.token,
        }),
      );
      await statusOf(
        '409 duplicate application',
        409,
        through(PATHS.apply, { body: { ...movedApplicant, timestamp: nowSeconds() }, token: partner.token }),
      );
      const cardNo = generateCardNumber(service.ctx.config.card);
      await statusOf(
        'submit with card',
        200,
        through(PATHS.apply, { body: applicant(), token: partner.token }).then(() =>
          through(PATHS.apply, { body: { ...applicant(), card_no: cardNo }, token: partner.token }),
        ),
      );
      await statusOf(
        '409 card number taken',
        409,
        through(PATHS.apply, { body: { ...applicant(), card_no: cardNo }, token: partner.token }),
      );
      await statusOf(
        '409 transition',
        409,
        through(PATHS.cancel, { body: { ...common(), busi_water_no: serial }, token: partner.token }),
      );
      await statusOf(
        '409 idempotency key reused',
        409,
        through(PATHS.apply, {
          body: applicant(),
          token: partner.token,
          headers: { 'idempotency-key': 'contract-1' },
        }),
      );
      await statusOf(
        '413 too large',
        413,
        through(PATHS.apply, {
          body: { ...applicant(), company_name: 'x'.repeat(70_000) },
          token: partner.token,
        }),
      );
      await statusOf(
        '415 content type',
        415,
        through(PATHS.apply, {
          raw: 'a=1',
          contentType: 'application/x-www-form-urlencoded',
          token: partner.token,
        }),
      );
      await statusOf(
        '422 fields',
        422,
        through(PATHS.apply, { body: { ...applicant(), sex: 'X', email: 'no' }, token: partner.token }),
      );
      await statusOf(
        '422 list filter',
        422,
        through(PATHS.list, { body: { ...common(), limit: 0 }, token: partner.token }),
      );
      const limited = await createApp(service.ctx.store.db, 'limited partner', Date.now());
      await setRateLimit(
        service.ctx,
        limited.app_id,
        { perSecond: 1, burst: 1 },
        { actor: SYSTEM, source: 'test' },
      );
      const limitedToken = (
        (await through(PATHS.token, { body: { ...limited, timestamp: nowSeconds() } })).json as {
          data: { access_token: string };
        }
      ).data.access_token;
      const codes = () =>
        through(PATHS.codes, {
          body: { app_id: limited.app_id, timestamp: nowSeconds() },
          token: limitedToken,
        });
      const answers = [await codes(), await codes(), await codes()];
      assert.ok(
        answers.some((a) => a.status === 429),
        '429 rate limited',
      );

      // The admin API, as an operator.
      const admin = await newOperator(service, 'admin');
      const op = { token: admin.token };
      await statusOf('admin me', 200, through(`${ADMIN}/me`, { method: 'GET', ...op }));
      await statusOf('admin list', 200, through(`${ADMIN}/applications?limit=5`, { method: 'GET', ...op }));
      await statusOf(
        'admin show',
        200,
        through(`${ADMIN}/applications/${movedSerial}`, { method: 'GET', ...op }),
      );
      await statusOf(
        'admin 404',
        404,
        through(`${ADMIN}/applications/01M80000000000000000000000000000`, { method: 'GET', ...op }),
      );
      await statusOf('admin 401', 401, through(`${ADMIN}/applications`, { method: 'GET' }));
      await statusOf('admin counts', 200, through(`${ADMIN}/applications/counts`, { method: 'GET', ...op }));
      await statusOf('admin audit', 200, through(`${ADMIN}/audit`, { method: 'GET', ...op }));
      await statusOf('admin apps', 200, through(`${ADMIN}/apps`, { method: 'GET', ...op }));
      await statusOf(
        'admin review',
        200,
        through(
          `${ADMIN}/applications/${(submitted.json as { data: { busi_water_no: string } }).data.busi_water_no}/events`,
          { method: 'GET', ...op },
        ),
      );

      // Generated hostile requests: through the proxy when it can carry them, else straight in.
      const routeFields = routeFieldsOf(document);
      const seed = seedOf();
      const target = { appId: partner.appId, appSecret: partner.secret, serials: [serial, movedSerial] };
      // Drawing the cases blocks this process for seconds (about 12 s for the first 20 on a
      // loaded machine), and the service runs in this process: keep-alive time-outs of the client,
      // the service and Prism all expire meanwhile. A moment's pause lets the sockets they closed be
      // seen as closed; otherwise the first request is written to one of them and reset.
      const cases = fc.sample(arbHostileCase(target, routeFields), { numRuns: FUZZ_THROUGH_PROXY, seed });
      await sleep(250);
      for (const c of cases) {
        const request = requestOf(c, partner.token);
        const reply = await (carriable(c) ? through : straight)(ROUTE_PATHS[c.route], request).catch(
          (error: unknown) => {
            throw new Error(`${c.route} ${c.what} (CHAOS_SEED=${seed}): ${String(error)}`);
          },
        );
        assert.ok(reply.status < 500, `${c.route} ${c.what}: ${reply.status} ${reply.text.slice(0, 300)}`);
      }

      const prints = exchanges.flatMap((e) => fingerprints(e.headers).map((f) => `${e.path}: ${f}`));
      assert.deepEqual(prints, [], 'framework fingerprint headers');
      assert.deepEqual(violations.slice(0, 10), [], `${violations.length} responses break /openapi.json`);
      report(t, {
        part: 'contract',
        figures: {
          seed,
          'through Prism proxy': viaProxy,
          'checked with Prism validator (not carriable)': direct,
          'generated cases': FUZZ_THROUGH_PROXY,
          violations: violations.length,
          'canary flagged': String(canaryFlagged),
        },
        held: ['every response matches /openapi.json; no framework fingerprint header'],
      });
    } finally {
      await prism.stop();
      await service.close();
    }
  });
});
