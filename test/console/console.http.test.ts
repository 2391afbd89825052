import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { EVENT_TYPES, OPERATOR_ACTIONS, STATUSES, TRANSITIONS } from '../../src/record/lifecycle.ts';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../src/audit/auditTrail.ts';
import { LIST_NAMES } from '../../src/screening/listEntry.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/http/console/securityHeaders.ts';
import { PATHS } from '../../src/http/paths.ts';
import { ADMIN, Applications, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { nowSeconds, post, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { partnerOf } from '../helpers/operators.ts';

/**
 * The console as served (security headers, no inline code, no CDN, the page for every console path)
 * and the admin routes added for it (counts, sort order, events with deliveries, app secret
 * rotation, the session's CSRF token, risk flags), on every store.
 */

const WEB = new URL('../../web/', import.meta.url);
/** The browser modules' messages; imported by URL (plain JavaScript outside this project's tsconfig). */
const messages = async (language: 'en' | 'zh') =>
  ((await import(new URL(`src/i18n/${language}.js`, WEB).href)) as { default: Record<string, string> })
    .default;
const webFiles = () =>
  readdirSync(WEB, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(html|js|css|svg)$/.test(f))
    .map((f) => ({ name: f, text: readFileSync(new URL(f, WEB), 'utf8') }));

/** A raw GET, so that the path reaches the server exactly as written (no URL normalisation). */
function rawGet(baseUrl: string, path: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('console files', () => {
  test('no inline script, inline style, handler attribute, innerHTML, eval or remote URL in any file', () => {
    for (const { name, text } of webFiles()) {
      assert.doesNotMatch(text, /<script(?![^>]*\bsrc=)[^>]*>/i, `${name}: inline script`);
      assert.doesNotMatch(text, /\sstyle=|<style/i, `${name}: inline style`);
      assert.doesNotMatch(text, /\son[a-z]+="/i, `${name}: handler attribute`);
      assert.doesNotMatch(
        text,
        /\.innerHTML\b|\.outerHTML\s*=|\.insertAdjacentHTML|document\.write|\beval\(|new Function\(/,
        name,
      );
      const remote = (text.match(/https?:\/\/[^\s'"`)]+/g) ?? []).filter(
        (url) => !url.startsWith('http://www.w3.org/2000/svg'),
      );
      assert.deepEqual(remote, [], `${name}: nothing is loaded from elsewhere`);
    }
  });

  test('English and Chinese have the same messages, and every message used exists', async () => {
    const en = await messages('en');
    const zh = await messages('zh');
    assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      const params = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      assert.deepEqual(params(zh[key]!), params(text), `${key}: same parameters`);
    }
    for (const { name, text } of webFiles()) {
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) {
        assert.ok(match[1]! in en, `${name}: message ${match[1]} exists`);
      }
    }
    for (const status of STATUSES) assert.ok(`status.${status}` in en);
    for (const action of Object.keys(OPERATOR_ACTIONS)) {
      for (const suffix of ['', '.title', '.description']) assert.ok(`move.${action}${suffix}` in en);
    }
  });

  test('every audit action, audit target, event and list has words of its own, not its code', async () => {
    const en = await messages('en');
    const under = (prefix: string) =>
      Object.keys(en)
        .filter((key) => key.startsWith(prefix))
        .map((key) => key.slice(prefix.length))
        .sort();
    // The audit page's filters list exactly these, so they are the server's lists, no more, no less.
    assert.deepEqual(under('audit.action.'), [...AUDIT_ACTIONS].sort());
    assert.deepEqual(under('audit.target.'), [...AUDIT_TARGET_TYPES].sort());
    // An event is named by its state's label, or by one of its own where it is not a move.
    for (const type of EVENT_TYPES) {
      const status = type.replace(/^application\./, '').toUpperCase();
      assert.ok(`events.type.${type}` in en || `status.${status}` in en, `${type} has a label`);
    }
    for (const list of LIST_NAMES)
      assert.ok(`screening.list.${list}` in en, `${list} has its publisher's name`);
  });
});

for (const storeName of storeNames()) {
  describe(`console and its admin routes on ${storeName}`, () => {
    let service: TestService;
    let applications: Applications;
    let appId: string;
    const ops = {} as Record<'viewer' | 'reviewer' | 'admin', TestOperator>;
    const as = (operator: TestOperator | undefined, method: string, path: string, body?: unknown) =>
      call(service, method, `${ADMIN}${path}`, {
        ...(operator === undefined ? {} : { token: operator.token }),
        ...(body === undefined ? {} : { body }),
      });

    before(async () => {
      service = await startService(storeName);
      applications = new Applications(service);
      appId = (await createApp(service.ctx.store.db, 'console partner', Date.now())).app_id;
      for (const role of ['viewer', 'reviewer', 'admin'] as const)
        ops[role] = await newOperator(service, role);
    });
    after(() => service.close());

    test('the page: strict security headers, never stored, for every console path', async () => {
      for (const path of ['/console', '/console/', '/console/applications/01ABC', '/console/audit?x=1']) {
        const reply = await fetch(`${service.baseUrl}${path}`);
        assert.equal(reply.status, 200, path);
        assert.match(reply.headers.get('content-type')!, /^text\/html/);
        assert.equal(reply.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
        assert.equal(
          CONTENT_SECURITY_POLICY,
          "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        );
        assert.equal(reply.headers.get('x-frame-options'), 'DENY');
        assert.equal(reply.headers.get('referrer-policy'), 'no-referrer');
        assert.equal(reply.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(reply.headers.get('cache-control'), 'no-store');
        assert.match(
          await reply.text(),
          /<script type="module" src="\/console\/assets\/src\/main\.js"><\/script>/,
        );
      }
    });

    test('assets: their types, revalidated by ETag; unknown or traversing paths are 404 with the headers', async () => {
      const script = await fetch(`${service.baseUrl}/console/assets/src/main.js`);
      assert.equal(script.status, 200);
      assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.equal(script.headers.get('cache-control'), 'no-cache');
      const etag = script.headers.get('etag')!;
      const again = await fetch(`${service.baseUrl}/console/assets/src/main.js`, {
        headers: { 'if-none-match': etag },
      });
      assert.equal(again.status, 304);
      const css = await fetch(`${service.baseUrl}/console/assets/styles/base.css`);
      assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
      const missing = await fetch(`${service.baseUrl}/console/assets/src/nothing.js`);
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('x-frame-options'), 'DENY');
      for (const path of [
        '/console/assets/../../package.json',
        '/console/assets/%2e%2e/%2e%2e/package.json',
        '/console/assets/tsconfig.json',
      ]) {
        assert.equal(await rawGet(service.baseUrl, path), 404, path);
      }
    });

    test('meta.json carries the lifecycle table, the revealable fields and the code tables', async () => {
      const meta = (await (await fetch(`${service.baseUrl}/console/meta.json`)).json()) as {
        moves: Record<
          string,
          { action: string; to: string; reason_required: boolean; codes_required: boolean }[]
        >;
        revealable_fields: string[];
        codes: Record<string, unknown[]>;
      };
      assert.deepEqual(
        meta.moves['IN_REVIEW']!.map((m) => [m.action, m.to, m.reason_required, m.codes_required]),
        [
          ['approve', 'APPROVED', false, false],
          ['reject', 'REJECTED', false, true],
          ['supplement', 'SUPPLEMENT_REQUIRED', false, true],
        ],
      );
      for (const status of STATUSES) {
        const byOperator = TRANSITIONS[status]
          .filter((rule) => rule.by.includes('operator'))
          .map((rule) => rule.to);
        assert.deepEqual(
          meta.moves[status]!.map((m) => m.to),
          byOperator,
          status,
        );
      }
      assert.ok(meta.revealable_fields.includes('cert_id'));
      assert.ok(meta.codes['profession']!.length > 0);
    });

    test('counts per status, for all or one app and a creation range', async () => {
      await applications.inState(appId, 'IN_REVIEW');
      await applications.submit(appId);
      const other = (await createApp(service.ctx.store.db, 'other partner', Date.now())).app_id;
      await applications.submit(other);
      const all = await as(ops.viewer, 'GET', '/applications/counts');
      assert.equal(all.status, 200, all.text);
      const data = all.body.data as { counts: Record<string, number>; total: number };
      assert.deepEqual(Object.keys(data.counts), [...STATUSES]);
      const rows = await service.ctx.store.db.selectFrom('applications').select('status').execute();
      assert.equal(data.total, rows.length);
      assert.equal(data.counts['SUBMITTED'], rows.filter((r) => r.status === 'SUBMITTED').length);
      const mine = (await as(ops.viewer, 'GET', `/applications/counts?app_id=${other}`)).body
        .data as typeof data;
      assert.deepEqual([mine.total, mine.counts['SUBMITTED']], [1, 1]);
      const future = (await as(ops.viewer, 'GET', `/applications/counts?created_from=${nowSeconds() + 3600}`))
        .body.data as typeof data;
      assert.equal(future.total, 0);
      assert.equal((await as(undefined, 'GET', '/applications/counts')).status, 401);
    });

    test('search sorted newest first, page by page, neither skipping nor repeating', async () => {
      for (let i = 0; i < 5; i++) await applications.submit(appId);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const reply = await as(
          ops.viewer,
          'GET',
          `/applications?app_id=${appId}&order=desc&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        assert.equal(reply.status, 200, reply.text);
        const page = reply.body.data as { items: { busi_water_no: string }[]; next_cursor: string | null };
        seen.push(...page.items.map((i) => i.busi_water_no));
        cursor = page.next_cursor;
      } while (cursor !== null);
      const rows = await service.ctx.store.db
        .selectFrom('applications')
        .select('busi_water_no')
        .where('app_id', '=', appId)
        .orderBy('created_at', 'desc')
        .orderBy('busi_water_no', 'desc')
        .execute();
      assert.deepEqual(
        seen,
        rows.map((r) => r.busi_water_no),
      );
      assert.equal((await as(ops.viewer, 'GET', '/applications?order=sideways')).status, 422);
    });

    test('events of an application in order; deliveries for reviewers, not for viewers', async () => {
      const serial = await applications.inState(appId, 'APPROVED');
      const reviewer = await as(ops.reviewer, 'GET', `/applications/${serial}/events`);
      assert.equal(reviewer.status, 200, reviewer.text);
      const events = reviewer.body.data as {
        type: string;
        data: { sequence: number };
        deliveries: unknown[] | null;
      }[];
      assert.deepEqual(
        events.map((e) => [e.type, e.data.sequence]),
        [
          ['application.submitted', 1],
          ['application.in_review', 2],
          ['application.approved', 3],
        ],
      );
      assert.ok(events.every((e) => Array.isArray(e.deliveries)));
      const viewer = (await as(ops.viewer, 'GET', `/applications/${serial}/events`)).body
        .data as typeof events;
      assert.ok(viewer.every((e) => e.deliveries === null));
      const unknown = await as(ops.viewer, 'GET', `/applications/${'0'.repeat(32)}/events`);
      assert.equal(unknown.status, 404);
    });

    test('an admin rotates an app secret: shown once, audited, the old one kept for the overlap', async () => {
      const created = await createApp(service.ctx.store.db, 'rotating partner', Date.now());
      const exchange = (secret: string) =>
        post(service.baseUrl, PATHS.token, {
          app_id: created.app_id,
          app_secret: secret,
          timestamp: nowSeconds(),
        });
      const path = `/apps/${created.app_id}/rotate-secret`;
      assert.equal((await as(ops.reviewer, 'POST', path, {})).status, 403);
      const reply = await as(ops.admin, 'POST', path, { overlap_seconds: 3600 });
      assert.equal(reply.status, 200, reply.text);
      const rotated = reply.body.data as { app_secret: string; previous_secrets_expire_at: number };
      assert.ok(Math.abs(rotated.previous_secrets_expire_at - (nowSeconds() + 3600)) <= 2);
      assert.equal((await exchange(rotated.app_secret)).status, 200);
      assert.equal(
        (await exchange(created.app_secret)).status,
        200,
        'the old secret works during the overlap',
      );
      const audit = await service.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'details'])
        .where('action', '=', 'app.secret_rotate')
        .where('target_id', '=', created.app_id)
        .execute();
      assert.equal(audit.length, 1);
      assert.equal(audit[0]!.actor, `operator:${ops.admin.username}`);
      assert.ok(!JSON.stringify(audit).includes(rotated.app_secret));
      assert.equal((await as(ops.admin, 'POST', `/apps/app_nothing/rotate-secret`, {})).status, 404);
    });

    test("the session: who is signed in and the cookie session's CSRF token, which then works", async () => {
      const login = await as(undefined, 'POST', '/login', {
        username: ops.reviewer.username,
        password: 'correct horse battery staple',
        cookie: true,
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const session = await call(service, 'GET', `${ADMIN}/session`, { headers: { cookie } });
      assert.equal(session.status, 200, session.text);
      const data = session.body.data as { username: string; role: string; csrf_token: string };
      assert.deepEqual([data.username, data.role], [ops.reviewer.username, 'reviewer']);
      assert.equal(data.csrf_token, (login.body.data as { csrf_token: string }).csrf_token);
      const serial = await applications.submit(appId);
      const moved = await call(service, 'POST', `${ADMIN}/applications/${serial}/review`, {
        headers: { cookie, 'x-csrf-token': data.csrf_token },
        body: {},
      });
      assert.equal(moved.status, 200, moved.text);
      const bearer = await as(ops.reviewer, 'GET', '/session');
      assert.equal(
        (bearer.body.data as { csrf_token: unknown }).csrf_token,
        null,
        'a Bearer session needs none',
      );
      // Signed out is an answer, not a failed request (no error in the browser's console).
      const signedOut = await call(service, 'GET', `${ADMIN}/session`);
      assert.equal(signedOut.status, 200);
      assert.deepEqual(signedOut.body.data, { signed_in: false });
    });

    test('the application view carries risk flags and no identity value in them', async () => {
      const applicant = uniqueApplicant(70_000, appId, {
        consignee: '韩梅梅',
        consignee_mob_no: '13900139000',
      });
      const { busi_water_no } = await submitApplication(service.ctx, partnerOf(appId), applicant);
      const reply = await as(ops.viewer, 'GET', `/applications/${busi_water_no}`);
      const view = reply.body.data as { risk_flags: { code: string; fields: string[] }[] };
      assert.deepEqual(
        view.risk_flags.map((f) => f.code),
        ['consignee_not_applicant', 'consignee_mobile_differs'],
      );
      assert.ok(!reply.text.includes('韩梅梅') && !reply.text.includes('13900139000'));
    });
  });
}
