import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { PATHS } from '../../src/http/paths.ts';
import { newPartner, nowSeconds, startService } from '../helpers/service.ts';
import { FINGERPRINT_HEADERS, isEnvelope } from '../chaos/support/http.ts';
import { report, scale, seedOf } from '../chaos/support/summary.ts';

/**
 * Hostile HTTP below the JSON body: request lines, header lines and framing written byte by byte
 * on a socket (bad methods and versions, header names and values with control characters or line
 * breaks, obsolete folding, conflicting Content-Length and Transfer-Encoding, oversized headers,
 * bad percent escapes). Whatever the parser or the router refuses must still be answered with the
 * envelope and a 4xx, never Fastify's own error body or a 5xx. 200 cases in `npm test`, 2,000 in
 * `npm run fuzz`.
 */
const CASES = Number(process.env['PROTOCOL_CASES'] ?? scale(200, 2_000));

interface RawReply {
  status: number;
  head: string;
  body: string;
}

/** The responses in a byte stream, one after another (a refused request may be followed by more). */
function responsesIn(data: Buffer): RawReply[] {
  const replies: RawReply[] = [];
  let rest = data;
  for (;;) {
    const text = rest.toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return replies;
    const head = text.slice(0, end);
    const length = Number(/\r\ncontent-length: *([0-9]+)/i.exec(head)?.[1] ?? 0);
    replies.push({
      status: Number(head.split(' ')[1]),
      head,
      body: rest.subarray(end + 4, end + 4 + length).toString('utf8'),
    });
    rest = rest.subarray(end + 4 + length);
  }
}

/** Writes the bytes, reads every response until the server closes (or five seconds pass). */
function exchange(port: number, request: Buffer): Promise<RawReply[]> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const done = () => {
      socket.destroy();
      resolve(responsesIn(data));
    };
    const timer = setTimeout(done, 5_000);
    socket.on('data', (chunk: Buffer) => (data = Buffer.concat([data, chunk])));
    socket.on('close', () => {
      clearTimeout(timer);
      done();
    });
    socket.on('error', () => undefined);
    socket.write(request);
  });
}

const token = (s: string) => fc.constant(s);

function arbRequest(body: string, bearer: string) {
  const method = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('POST', 'GET') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'PUT',
        'DELETE',
        'PATCH',
        'OPTIONS',
        'HEAD',
        'BREW',
        'G ET',
        '',
        'post',
        'CONNECT',
      ),
    },
  );
  const path = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(PATHS.apply, PATHS.query, PATHS.codes, PATHS.token, '/healthz') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '/%zz',
        '/%00',
        `${PATHS.codes}?a=%zz`,
        '//..//..',
        `/${'a'.repeat(10_000)}`,
        '*',
        'http://evil.example/',
        '/admin/v1/applications/%E0%A4%A',
        `/admin/v1/applications/${'9'.repeat(200)}`,
      ),
    },
  );
  const version = fc.oneof(
    { weight: 5, arbitrary: token('HTTP/1.1') },
    { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'FOO', '') },
  );
  const strange = fc.constantFrom(
    'X-Bad Name: 1',
    'NoColon',
    'X-Nul: a\u0000b',
    'X-Ctl: a\u0001b',
    'X-Folded: a\r\n continued',
    'X-Lf: a\nInjected: 1',
    `X-Big: ${'a'.repeat(20_000)}`,
    'Content-Length: 5',
    'Content-Length: -1',
    'Content-Length: 99999999999999999999',
    'Transfer-Encoding: chunked',
    'Transfer-Encoding: gzip, chunked',
    'Transfer-Encoding: identity',
    'Content-Encoding: gzip',
    'Expect: 100-continue',
    'Host: a\u00ffb',
    'Content-Type: application/json; charset=utf-16',
    `Authorization: Bearer ${'x'.repeat(5_000)}`,
    'Authorization: Basic \u00e9',
    `Idempotency-Key: ${'k'.repeat(300)}`,
    'Accept-Language: zh\u0000',
  );
  return fc
    .record({
      method,
      path,
      version,
      extra: fc.array(strange, { maxLength: 3 }),
      keepLength: fc.boolean(),
      withToken: fc.boolean(),
      chunkedBody: fc.constantFrom('', '5\r\n{}\r\n0\r\n\r\n', 'zz\r\n', '0\r\n\r\n'),
    })
    .map((r) => {
      const lines = [
        `${r.method} ${r.path} ${r.version}`,
        'Host: 127.0.0.1',
        'Connection: close',
        'Content-Type: application/json',
      ];
      if (r.withToken) lines.push(`Authorization: Bearer ${bearer}`);
      if (r.keepLength) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      lines.push(...r.extra);
      const chunked = r.extra.some((h) => h.startsWith('Transfer-Encoding'));
      const payload = chunked ? r.chunkedBody : body;
      return {
        what: `${JSON.stringify(lines.map((l) => l.slice(0, 60))).slice(0, 400)}`,
        method: r.method,
        bytes: Buffer.from(`${lines.join('\r\n')}\r\n\r\n${payload}`, 'latin1'),
      };
    });
}

describe('fuzz: hostile HTTP framing', () => {
  test(`${CASES} raw requests: refused ones get the envelope too`, async (t) => {
    const service = await startService('sqlite');
    try {
      const partner = await newPartner(service, 'protocol fuzz');
      const port = Number(new URL(service.baseUrl).port);
      const body = JSON.stringify({ app_id: partner.appId, timestamp: nowSeconds() });
      const seed = seedOf();
      const counts = {
        cases: 0,
        'answered cases': 0,
        '5xx': 0,
        'answered 4xx': 0,
        'answered 2xx': 0,
        'closed without answer': 0,
      };
      let lastFailure = '';
      const property = fc.asyncProperty(arbRequest(body, partner.token), async (c) => {
        counts.cases++;
        const replies = await exchange(port, c.bytes);
        if (replies.length === 0) {
          counts['closed without answer']++;
          return true;
        }
        if (replies.some((r) => r.status >= 200)) counts['answered cases']++;
        const problems: string[] = [];
        // An interim `100 Continue` (the request said `Expect: 100-continue`) has no body.
        for (const [i, reply] of replies.filter((r) => r.status >= 200).entries()) {
          if (reply.status >= 500) counts['5xx']++;
          else if (reply.status >= 400) counts['answered 4xx']++;
          else counts['answered 2xx']++;
          if (!(reply.status >= 200 && reply.status < 500)) problems.push(`status ${reply.status}`);
          const fingerprint = FINGERPRINT_HEADERS.find((h) =>
            new RegExp(`\\r\\n${h}:`, 'i').test(reply.head),
          );
          if (fingerprint !== undefined) problems.push(`fingerprint header ${fingerprint}`);
          if ((c.method !== 'HEAD' || i > 0) && reply.status !== 204) {
            let json: unknown;
            try {
              json = JSON.parse(reply.body);
            } catch {
              json = undefined;
            }
            if (!isEnvelope(json))
              problems.push(`not the envelope: ${reply.head.split('\r\n')[0]} ${reply.body.slice(0, 200)}`);
            else if (reply.status >= 400 && Math.floor(json.code / 100) !== reply.status)
              problems.push(`code ${json.code} on ${reply.status}`);
          }
          if (reply.body.includes('FST_')) problems.push('framework error code');
        }
        const reply = replies[0]!;
        if (problems.length > 0) {
          lastFailure = `${c.what} -> ${reply.head.split('\r\n')[0]} ${reply.body.slice(0, 200)}: ${problems.join('; ')}`;
          return false;
        }
        return true;
      });
      const result = await fc.check(property, { numRuns: CASES, seed, endOnFailure: true });
      assert.ok(!result.failed, `seed ${seed}: ${lastFailure}`);
      // A server that hangs up on everything must not pass: nearly every case gets an answer (a
      // few requests legitimately end with the connection, such as a body that never completes).
      assert.ok(
        counts['answered cases'] >= Math.ceil(counts.cases * 0.95),
        `seed ${seed}: only ${counts['answered cases']} of ${counts.cases} cases were answered`,
      );
      report(t, {
        part: 'fuzz/protocol',
        figures: { seed, ...counts },
        held: ['every answer to bad framing is the envelope with a 4xx; never a 5xx or a framework body'],
      });
    } finally {
      await service.close();
    }
  });
});
