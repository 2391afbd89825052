import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { budgetMs } from '../helpers/budget.ts';
import { newPartner, startService } from '../helpers/service.ts';
import { contractValidator } from '../chaos/support/contract.ts';
import { send, type Exchange } from '../chaos/support/http.ts';
import { findLeaks } from '../chaos/support/leaks.ts';
import { report, scale, seedOf } from '../chaos/support/summary.ts';
import { arbHostileCase, judge, requestOf, ROUTE_PATHS, routeFieldsOf } from './hostile.ts';
import { PATHS } from '../../src/http/paths.ts';

/**
 * Hostile input over real HTTP: fast-check generates requests (arbitrary JSON, valid requests with
 * one thing wrong, raw bytes under assorted content types) for every partner route, and every answer
 * must be a 2xx or a 4xx envelope that names a field, a header or the body; never a 5xx, a stack
 * trace, a framework fingerprint or an echo of the input. Every answer is also checked against the
 * service's OpenAPI document with Prism's validator. 500 cases in `npm test`, 10,000 in
 * `npm run fuzz` (FUZZ_CASES overrides; CHAOS_SEED replays a run).
 */
const CASES = Number(process.env['FUZZ_CASES'] ?? scale(500, 10_000));

describe('fuzz: hostile input over HTTP', () => {
  test(`${CASES} generated requests: never a 5xx, always the envelope naming a field or the body`, async (t) => {
    // The failed-secret limit would turn the token route's cases into 429s after ten: lift it here.
    // Idle connections stay open for the whole run: on a loaded machine the judging of one answer
    // can outlast the default 5 s keep-alive, and the next request would then race the server
    // closing its connection (a property of HTTP keep-alive, not of the input under test).
    const service = await startService('sqlite', {
      AUTH_FAILURE_BURST: '100000',
      AUTH_FAILURES_PER_MINUTE: '100000',
      KEEP_ALIVE_TIMEOUT_MS: '600000',
    });
    try {
      const partner = await newPartner(service, 'fuzz partner');
      const serials: string[] = [];
      for (let i = 0; i < 3; i++) {
        const reply = await send(service.baseUrl, PATHS.apply, {
          body: uniqueApplicant(i, partner.appId),
          token: partner.token,
        });
        assert.equal(reply.status, 200, reply.text);
        serials.push((reply.json as { data: { busi_water_no: string } }).data.busi_water_no);
      }
      const document = await (await fetch(`${service.baseUrl}/openapi.json`)).json();
      const routeFields = routeFieldsOf(document);
      const contract = await contractValidator(document);
      const target = { appId: partner.appId, appSecret: partner.secret, serials };

      const seed = seedOf();
      const counts = { cases: 0, '5xx': 0, '2xx': 0, '4xx': 0, 'contract violations': 0 };
      const families = new Map<string, number>();
      const identity = new Set<string>();
      let lastFailure = '';
      const property = fc.asyncProperty(arbHostileCase(target, routeFields), async (c) => {
        counts.cases++;
        families.set(`${c.family}/${c.route}`, (families.get(`${c.family}/${c.route}`) ?? 0) + 1);
        for (const v of c.identity) identity.add(v);
        let reply: Exchange;
        try {
          reply = await send(service.baseUrl, ROUTE_PATHS[c.route], {
            ...requestOf(c, partner.token),
            timeoutMs: budgetMs(10_000),
          });
        } catch (error) {
          lastFailure = `${c.route} ${c.what}: the connection failed (${String(error)})`;
          return false;
        }
        if (reply.status >= 500) counts['5xx']++;
        else if (reply.status >= 400) counts['4xx']++;
        else counts['2xx']++;
        const problems = judge(c, reply, routeFields);
        const violations = contract.check(reply);
        counts['contract violations'] += violations.length;
        problems.push(...violations.map((v) => `contract: ${v.where} ${v.message}`));
        if (problems.length > 0) {
          lastFailure = `${c.family} ${c.route} ${c.what} -> ${reply.status} ${reply.text.slice(0, 300)}: ${problems.join('; ')}`;
          return false;
        }
        return true;
      });
      const result = await fc.check(property, { numRuns: CASES, seed, endOnFailure: true });
      assert.ok(!result.failed, `seed ${seed}: ${lastFailure}`);

      const unexpected = service.logs.filter((line) => line.includes('"unexpected error"'));
      assert.deepEqual(unexpected.slice(0, 3), [], 'no unexpected error was logged');
      const leaks = findLeaks({ values: identity, logs: service.logs, sqliteDirs: [service.target.dataDir] });
      assert.deepEqual(leaks, [], 'identity data in the clear');
      report(t, {
        part: 'fuzz',
        figures: { seed, ...counts, 'leaks found': leaks.length },
        held: [
          `families/routes: ${[...families].map(([k, v]) => `${k} ${v}`).join(', ')}`,
          'no 5xx, every answer the envelope; every 4xx names a field, a header or the body',
          'no fingerprint header, stack trace or echoed input; every answer matches /openapi.json',
        ],
      });
    } finally {
      await service.close();
    }
  });
});
