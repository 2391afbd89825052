import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { newPartner, startService, type TestPartner, type TestService } from '../helpers/service.ts';
import { send } from '../chaos/support/http.ts';

/**
 * Failures the hostile-input fuzzer found, kept as plain cases. Each names the generated request
 * that broke a promise and what was fixed.
 */
describe('fuzz regressions', () => {
  let service: TestService;
  let partner: TestPartner;
  let n = 0;
  before(async () => {
    service = await startService('sqlite');
    partner = await newPartner(service, 'fuzz regressions');
  });
  after(() => service.close());

  const submitWith = (extra: string) => {
    const text = JSON.stringify(uniqueApplicant(n++, partner.appId));
    return send(service.baseUrl, PATHS.validate, {
      raw: `${text.slice(0, -1)},${extra}}`,
      token: partner.token,
    });
  };

  // Found: an unknown key was named as written, so `"cert_id[0]"` read as a path into cert_id, `""`
  // as the whole body, and a 10,000-character key came back whole, three times over. Fixed in
  // validation/schemaValidator.ts (fieldPath names keys as the JSON body reader does).
  test('an unknown key that looks like a path is quoted, not read as another field', async () => {
    const reply = await submitWith('"cert_id[0]":1');
    assert.equal(reply.status, 422, reply.text);
    const errors = (reply.json as { data: { errors: { field: string }[] } }).data.errors;
    assert.deepEqual(
      errors.map((e) => e.field),
      ['["cert_id[0]"]'],
    );
  });

  test('an empty unknown key is named as a key, not as the body', async () => {
    const reply = await submitWith('"":1');
    assert.equal(reply.status, 422, reply.text);
    assert.match((reply.json as { msg: string }).msg, /^\[""\]: /);
  });

  test('a very long unknown key is shortened in the answer', async () => {
    const key = 'k'.repeat(10_000);
    const reply = await submitWith(`"${key}":1`);
    assert.equal(reply.status, 422, reply.text);
    assert.ok(!reply.text.includes(key), 'the key is not echoed whole');
    assert.ok(reply.text.length < 1000, `a short answer (${reply.text.length} bytes)`);
  });

  /** Writes raw bytes to the service's port and reads whatever comes back until it closes. */
  const rawExchange = (request: string) =>
    new Promise<string>((resolve) => {
      const url = new URL(service.baseUrl);
      const socket = connect(Number(url.port), url.hostname);
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString('utf8')));
      socket.on('close', () => resolve(received));
      socket.on('error', () => undefined);
      socket.write(request);
      setTimeout(() => socket.end(), 2000).unref();
    });

  const envelopeOf = (raw: string) => {
    const [head, body] = raw.split('\r\n\r\n', 2) as [string, string];
    return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) as Record<string, unknown> };
  };

  // Found: requests the HTTP parser or the router refuse (a header line without a colon, headers
  // past the size limit, an invalid Content-Length, a URL with a bad percent escape) were answered
  // with Fastify's own `{"error","message","statusCode"}` body (`FST_ERR_BAD_URL` and the URL
  // itself in one of them): not the envelope, and a framework fingerprint. Fixed with
  // `frameworkErrors` and `clientErrorHandler` in app.ts (http/errorHandler.ts renders them).
  for (const [what, request, expectedStatus, code] of [
    ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, 40009],
    [
      'an invalid Content-Length',
      `POST ${PATHS.codes} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}`,
      400,
      40009,
    ],
    ['not HTTP at all', 'GARBAGE\r\n\r\n', 400, 40009],
    [
      'headers past the size limit',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      43101,
    ],
    [
      'a URL with a bad percent escape',
      'GET /%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      400,
      40009,
    ],
  ] as const) {
    test(`a request with ${what} gets the envelope`, async () => {
      const raw = await rawExchange(request);
      const { status, body } = envelopeOf(raw);
      assert.equal(status, expectedStatus, raw);
      assert.deepEqual(Object.keys(body).sort(), ['code', 'data', 'msg'], raw);
      assert.equal(body['code'], code, raw);
      assert.equal(Math.floor(Number(body['code']) / 100), status);
      assert.ok(!raw.includes('FST_') && !raw.includes('%zz'), `no framework code, no echo: ${raw}`);
    });
  }
});
