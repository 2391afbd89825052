import { claimApplication } from '../src/operators/reviewClaims.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { SENSITIVE_FIELDS } from '../src/redaction.ts';
import { PATHS } from '../src/http/paths.ts';
import type { Role } from '../src/operators/roles.ts';
import {
  ADMIN,
  Applications,
  call,
  loginAs,
  newOperator,
  TEST_PASSWORD,
  uniqueName,
  type TestOperator,
} from './helpers/operators.ts';
import {
  newCaller,
  nowSeconds,
  post,
  startService,
  type Reply,
  type TestService,
} from './helpers/service.ts';
import { storeNames } from './helpers/stores.ts';
import { createOperator } from '../src/operators/operators.ts';
import { createApp } from '../src/callers/credentials.ts';
import { uniqueApplicant } from './helpers/applicants.ts';
import { SYSTEM } from '../src/audit/actor.ts';

/**
 * The admin API on every store: login, sessions, cookies and CSRF; every route tried by each role
 * and without a token (a refused attempt changes nothing); masking and audited reveals; search;
 * apps and operators management; the audit trail, append-only and free of identity values, as
 * are the logs.
 */

type Fixture = (role?: Role) => Promise<{ path: string; body?: unknown; token?: string }>;

interface RouteCase {
  method: 'GET' | 'POST';
  /** The route as the OpenAPI document names it, below /admin/v1. */
  route: string;
  minRole: Role;
  fixture: Fixture;
}

const RANK: Record<Role, number> = { viewer: 0, reviewer: 1, admin: 2 };

for (const storeName of storeNames()) {
  describe(`admin API on ${storeName}`, () => {
    let service: TestService;
    let apps: Applications;
    let appId: string;
    const operators = {} as Record<Role, TestOperator>;

    const as = (operator: TestOperator | undefined, method: string, path: string, body?: unknown) =>
      call(service, method, `${ADMIN}${path}`, {
        ...(operator === undefined ? {} : { token: operator.token }),
        ...(body === undefined ? {} : { body }),
      });

    /** Everything a refused request could have changed. */
    const everything = async () => {
      const db = service.ctx.store.db;
      return {
        applications: await db
          .selectFrom('applications')
          .select(['busi_water_no', 'status', 'version', 'status_reason'])
          .orderBy('busi_water_no')
          .execute(),
        operators: await db
          .selectFrom('operators')
          .select(['username', 'role', 'disabled', 'password_hash'])
          .orderBy('username')
          .execute(),
        apps: await db.selectFrom('apps').select(['app_id', 'status']).orderBy('app_id').execute(),
        counts: await Promise.all(
          (
            ['audit_log', 'application_transitions', 'events', 'operator_sessions', 'app_secrets'] as const
          ).map(async (table) =>
            Number(
              (
                await db
                  .selectFrom(table)
                  .select((eb) => eb.fn.countAll<number>().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          ),
        ),
        liveSessions: Number(
          (
            await db
              .selectFrom('operator_sessions')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('revoked_at', 'is', null)
              .executeTakeFirstOrThrow()
          ).n,
        ),
      };
    };

    before(async () => {
      service = await startService(storeName);
      apps = new Applications(service);
      appId = (await newCaller(service)).appId;
      for (const role of ['viewer', 'reviewer', 'admin'] as const)
        operators[role] = await newOperator(service, role);
    });
    after(() => service.close());

    describe('login and sessions', () => {
      test('a wrong password, an unknown name and a disabled operator all get the same 401, each audited', async () => {
        const disabled = uniqueName('gone');
        await createOperator(
          service.ctx,
          { username: disabled, role: 'admin', password: TEST_PASSWORD },
          { actor: SYSTEM, source: 'test' },
        );
        await service.ctx.store.db
          .updateTable('operators')
          .set({ disabled: 1 })
          .where('username', '=', disabled)
          .execute();
        const attempts = [
          { username: operators.admin.username, password: 'wrong password!!' },
          { username: 'nobody-here', password: TEST_PASSWORD },
          { username: disabled, password: TEST_PASSWORD },
        ];
        const replies: Reply[] = [];
        for (const body of attempts) replies.push(await as(undefined, 'POST', '/login', body));
        for (const reply of replies) {
          assert.equal(reply.status, 401, reply.text);
          assert.deepEqual(reply.body, replies[0]!.body);
          assert.equal(reply.body.code, 40112);
        }
        const failures = await service.ctx.store.db
          .selectFrom('audit_log')
          .select(['actor', 'target_id', 'details'])
          .where('action', '=', 'operator.login_failed')
          .orderBy('id')
          .execute();
        assert.deepEqual(
          failures.slice(-3).map((f) => [f.actor, f.target_id, JSON.parse(f.details!).reason]),
          [
            [`operator:${operators.admin.username}`, operators.admin.username, 'wrong_password'],
            ['anonymous', null, 'unknown_user'],
            [`operator:${disabled}`, disabled, 'disabled'],
          ],
        );
        assert.ok(
          failures.every((f) => !JSON.stringify(f).includes('nobody-here')),
          'unknown names are not kept',
        );
      });

      test('a login returns an expiring token and a CSRF token; the cookie only when asked for', async () => {
        const plain = await as(undefined, 'POST', '/login', {
          username: operators.viewer.username,
          password: TEST_PASSWORD,
        });
        assert.equal(plain.status, 200, plain.text);
        const data = plain.body.data as { token: string; expires_in: number; csrf_token: string };
        assert.match(data.token, /^os_[A-Za-z0-9_-]{43}$/);
        assert.equal(data.expires_in, 8 * 3600);
        assert.equal(plain.headers.get('set-cookie'), null);
        const stored = await service.ctx.store.db
          .selectFrom('operator_sessions')
          .select('token_hash')
          .execute();
        assert.ok(
          stored.every((s) => s.token_hash !== data.token),
          'only the hash is stored',
        );

        const withCookie = await as(undefined, 'POST', '/login', {
          username: operators.reviewer.username,
          password: TEST_PASSWORD,
          cookie: true,
        });
        const cookie = withCookie.headers.get('set-cookie')!;
        assert.match(
          cookie,
          /^cardapply_session=os_[A-Za-z0-9_-]{43}; Path=\/; Max-Age=28800; HttpOnly; SameSite=Strict$/,
        );
      });

      test('the cookie authenticates reads; a change needs the CSRF token too', async () => {
        const login = await as(undefined, 'POST', '/login', {
          username: operators.reviewer.username,
          password: TEST_PASSWORD,
          cookie: true,
        });
        const session = login.headers.get('set-cookie')!.split(';')[0]!;
        const csrf = (login.body.data as { csrf_token: string }).csrf_token;
        const me = await call(service, 'GET', `${ADMIN}/me`, { headers: { cookie: session } });
        assert.equal(me.status, 200, me.text);
        assert.deepEqual(me.body.data, {
          username: operators.reviewer.username,
          role: 'reviewer',
          via: 'cookie',
        });

        const serial = await apps.inState(appId, 'SUBMITTED');
        const before = await everything();
        for (const headers of [{ cookie: session }, { cookie: session, 'x-csrf-token': 'forged' }] as Record<
          string,
          string
        >[]) {
          const refused = await call(service, 'POST', `${ADMIN}/applications/${serial}/review`, {
            headers,
            body: {},
          });
          assert.equal(refused.status, 403, refused.text);
          assert.equal(refused.body.code, 40304);
        }
        assert.deepEqual(await everything(), before);
        const done = await call(service, 'POST', `${ADMIN}/applications/${serial}/review`, {
          headers: { cookie: session, 'x-csrf-token': csrf },
          body: {},
        });
        assert.equal(done.status, 200, done.text);
      });

      test('logout ends the session and clears the cookie; expired sessions are refused', async () => {
        const op = await loginAs(service, operators.viewer.username, 'viewer');
        const out = await as(op, 'POST', '/logout', {});
        assert.equal(out.status, 200, out.text);
        assert.match(out.headers.get('set-cookie')!, /^cardapply_session=; Path=\/; Max-Age=0;/);
        const after = await as(op, 'GET', '/me');
        assert.equal(after.status, 401);
        assert.equal(after.body.code, 40111);

        const stale = await loginAs(service, operators.viewer.username, 'viewer');
        await service.ctx.store.db
          .updateTable('operator_sessions')
          .set({ expires_at: Date.now() - 1 })
          .where('revoked_at', 'is', null)
          .where('username', '=', operators.viewer.username)
          .where('created_at', '>=', Date.now() - 5_000)
          .execute();
        const expired = await as(stale, 'GET', '/me');
        assert.equal(expired.status, 401);
        // The shared viewer session may have been caught by the update above: log in again.
        operators.viewer = await loginAs(service, operators.viewer.username, 'viewer');
      });

      test('a token that is not an operator session is a 401', async () => {
        const caller = await newCaller(service);
        for (const headers of [
          {},
          { authorization: `Bearer ${caller.token}` },
          { authorization: 'Basic abc' },
        ] as Record<string, string>[]) {
          const reply = await call(service, 'GET', `${ADMIN}/me`, { headers });
          assert.equal(reply.status, 401, reply.text);
        }
      });
    });

    describe('every route, by each role and without a token', () => {
      const newTarget = async (role: Role) => {
        const username = uniqueName('target');
        await createOperator(
          service.ctx,
          { username, role, password: TEST_PASSWORD },
          { actor: SYSTEM, source: 'test' },
        );
        return username;
      };
      const inState = (status: Parameters<Applications['inState']>[1]) => apps.inState(appId, status);
      /** An application in review claimed by the operator of that role (none without a role). */
      const claimedBy = async (role?: Role) => {
        const serial = await inState('IN_REVIEW');
        if (role !== undefined) {
          const { username } = operators[role];
          await claimApplication(service.ctx, serial, { username, role }, { actor: SYSTEM, source: 'test' });
        }
        return serial;
      };
      const ROUTES: RouteCase[] = [
        { method: 'GET', route: '/me', minRole: 'viewer', fixture: async () => ({ path: '/me' }) },
        {
          method: 'GET',
          route: '/applications',
          minRole: 'viewer',
          fixture: async () => ({ path: '/applications?limit=5' }),
        },
        {
          method: 'GET',
          route: '/applications/{busi_water_no}',
          minRole: 'viewer',
          fixture: async () => ({ path: `/applications/${await inState('SUBMITTED')}` }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/reveal',
          minRole: 'reviewer',
          fixture: async () => ({
            path: `/applications/${await inState('SUBMITTED')}/reveal`,
            body: { field: 'mob_no', purpose: 'identity_check' },
          }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/claim',
          minRole: 'reviewer',
          fixture: async () => ({ path: `/applications/${await inState('IN_REVIEW')}/claim`, body: {} }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/release',
          minRole: 'reviewer',
          fixture: async (role) => ({ path: `/applications/${await claimedBy(role)}/release`, body: {} }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/reassign',
          minRole: 'admin',
          fixture: async () => ({
            path: `/applications/${await claimedBy('reviewer')}/reassign`,
            body: { username: operators.admin.username },
          }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/open-for-review',
          minRole: 'reviewer',
          fixture: async (role) => ({
            path: `/applications/${await claimedBy(role)}/open-for-review`,
            body: { purpose: 'identity_check' },
          }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/review',
          minRole: 'reviewer',
          fixture: async () => ({ path: `/applications/${await inState('SUBMITTED')}/review`, body: {} }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/approve',
          minRole: 'reviewer',
          fixture: async () => ({ path: `/applications/${await inState('IN_REVIEW')}/approve`, body: {} }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/reject',
          minRole: 'reviewer',
          fixture: async () => ({
            path: `/applications/${await inState('IN_REVIEW')}/reject`,
            body: { reason_codes: ['address_incomplete'], reason: 'address unclear' },
          }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/supplement',
          minRole: 'reviewer',
          fixture: async () => ({
            path: `/applications/${await inState('IN_REVIEW')}/supplement`,
            body: { reason_codes: ['document_unreadable'], requested_fields: ['id_card_img'] },
          }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/return',
          minRole: 'reviewer',
          fixture: async () => ({
            path: `/applications/${await inState('SHIPPED')}/return`,
            body: { reason_codes: ['recipient_unreachable'] },
          }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/issue',
          minRole: 'reviewer',
          fixture: async () => ({ path: `/applications/${await inState('APPROVED')}/issue`, body: {} }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/ship',
          minRole: 'reviewer',
          fixture: async () => ({
            path: `/applications/${await inState('CARD_ISSUED')}/ship`,
            body: { carrier: 'EMS', tracking_no: 'EE123456789CN' },
          }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/deliver',
          minRole: 'reviewer',
          fixture: async () => ({ path: `/applications/${await inState('SHIPPED')}/deliver`, body: {} }),
        },
        { method: 'GET', route: '/apps', minRole: 'admin', fixture: async () => ({ path: '/apps' }) },
        {
          method: 'POST',
          route: '/apps',
          minRole: 'admin',
          fixture: async () => ({ path: '/apps', body: { name: 'new partner' } }),
        },
        {
          method: 'POST',
          route: '/apps/{app_id}/disable',
          minRole: 'admin',
          fixture: async () => ({
            path: `/apps/${(await createApp(service.ctx.store.db, 'p', Date.now())).app_id}/disable`,
            body: {},
          }),
        },
        {
          method: 'POST',
          route: '/apps/{app_id}/enable',
          minRole: 'admin',
          fixture: async () => ({
            path: `/apps/${(await createApp(service.ctx.store.db, 'p', Date.now())).app_id}/enable`,
            body: {},
          }),
        },
        // Added for the console (test/console/console.http.test.ts tests what they answer).
        {
          method: 'POST',
          route: '/apps/{app_id}/rotate-secret',
          minRole: 'admin',
          fixture: async () => ({
            path: `/apps/${(await createApp(service.ctx.store.db, 'p', Date.now())).app_id}/rotate-secret`,
            body: {},
          }),
        },
        {
          method: 'GET',
          route: '/applications/counts',
          minRole: 'viewer',
          fixture: async () => ({ path: '/applications/counts' }),
        },
        {
          method: 'GET',
          route: '/applications/{busi_water_no}/events',
          minRole: 'viewer',
          fixture: async () => ({ path: `/applications/${await inState('SUBMITTED')}/events` }),
        },
        {
          method: 'GET',
          route: '/operators',
          minRole: 'admin',
          fixture: async () => ({ path: '/operators' }),
        },
        {
          method: 'POST',
          route: '/operators',
          minRole: 'admin',
          fixture: async () => ({
            path: '/operators',
            body: { username: uniqueName('new'), role: 'viewer', password: TEST_PASSWORD },
          }),
        },
        {
          method: 'POST',
          route: '/operators/{username}/disable',
          minRole: 'admin',
          fixture: async () => ({ path: `/operators/${await newTarget('viewer')}/disable`, body: {} }),
        },
        {
          method: 'POST',
          route: '/operators/{username}/enable',
          minRole: 'admin',
          fixture: async () => ({ path: `/operators/${await newTarget('viewer')}/enable`, body: {} }),
        },
        {
          method: 'POST',
          route: '/operators/{username}/role',
          minRole: 'admin',
          fixture: async () => ({
            path: `/operators/${await newTarget('viewer')}/role`,
            body: { role: 'admin' },
          }),
        },
        {
          method: 'POST',
          route: '/operators/{username}/password',
          minRole: 'admin',
          fixture: async () => ({
            path: `/operators/${await newTarget('viewer')}/password`,
            body: { password: 'another long password' },
          }),
        },
        {
          method: 'POST',
          route: '/operators/{username}/mfa/reset',
          minRole: 'admin',
          fixture: async () => ({ path: `/operators/${await newTarget('viewer')}/mfa/reset`, body: {} }),
        },
        {
          method: 'GET',
          route: '/audit',
          minRole: 'viewer',
          fixture: async () => ({ path: '/audit?limit=3' }),
        },
        // Last: it ends the session it is called with.
        {
          method: 'POST',
          route: '/logout',
          minRole: 'viewer',
          // A session of its own: the shared ones serve the other tests.
          fixture: async (role) => ({
            path: '/logout',
            body: {},
            ...(role === undefined
              ? {}
              : { token: (await loginAs(service, operators[role].username, role)).token }),
          }),
        },
      ];

      const documentedAdminRoutes = async () => {
        const doc = (await (await fetch(`${service.baseUrl}/admin/openapi.json`)).json()) as {
          paths: Record<string, Record<string, unknown>>;
        };
        return (
          Object.entries(doc.paths)
            .filter(([path]) => path.startsWith(ADMIN))
            .flatMap(([path, methods]) =>
              Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.slice(ADMIN.length)}`),
            )
            .filter((route) => route !== 'POST /login')
            // Answers `signed_in: false` without a session (the console's signed-out check).
            .filter((route) => route !== 'GET /session')
        );
      };

      test('the table covers every route of the lifecycle, apps, operators and audit', async () => {
        const mine = /^[A-Z]+ \/(me|logout|applications|apps|operators|audit)\b/;
        const documented = (await documentedAdminRoutes()).filter((route) => mine.test(route)).sort();
        assert.deepEqual(documented, ROUTES.map((r) => `${r.method} ${r.route}`).sort());
      });

      test('every admin route but the login, whoever added it, refuses a request without a token', async () => {
        for (const route of await documentedAdminRoutes()) {
          const [method, template] = route.split(' ') as [string, string];
          const path = template.replace(/\{[a-z_]+\}/g, 'x');
          for (const headers of [{}, { cookie: 'cardapply_session=os_forged' }] as Record<string, string>[]) {
            const reply = await call(service, method, `${ADMIN}${path}`, {
              headers,
              ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
            });
            assert.equal(reply.status, 401, `${route}: ${reply.text}`);
          }
        }
      });

      for (const route of ROUTES) {
        test(`${route.method} ${route.route}: 401 without a token, 403 below ${route.minRole}, 200 from it`, async () => {
          const anonymous = await route.fixture();
          const before = await everything();
          const none = await as(undefined, route.method, anonymous.path, anonymous.body);
          assert.equal(none.status, 401, none.text);
          assert.equal(none.body.code, 40110);
          assert.deepEqual(await everything(), before, 'an anonymous attempt changes nothing');

          for (const role of ['viewer', 'reviewer', 'admin'] as const) {
            const { path, body, token } = await route.fixture(role);
            const state = await everything();
            const reply = await as(
              token === undefined ? operators[role] : { ...operators[role], token },
              route.method,
              path,
              body,
            );
            if (RANK[role] < RANK[route.minRole]) {
              assert.equal(reply.status, 403, `${role}: ${reply.text}`);
              assert.equal(reply.body.code, 40303);
              assert.match(reply.body.msg, new RegExp(`^role: a ${role} cannot`));
              assert.deepEqual(await everything(), state, `a ${role}'s refused attempt changes nothing`);
            } else {
              assert.equal(reply.status, 200, `${role}: ${reply.text}`);
              assert.equal(reply.body.code, 0);
            }
          }
        });
      }
    });

    describe('applications', () => {
      test('show masks every identity field and never shows the payment password', async () => {
        const partner = await newCaller(service, 'shown partner');
        const applicant = uniqueApplicant(900_000, partner.appId);
        const serial = (await post(service.baseUrl, PATHS.apply, applicant, { token: partner.token })).body
          .data as { busi_water_no: string };
        const reply = await as(operators.viewer, 'GET', `/applications/${serial.busi_water_no}`);
        assert.equal(reply.status, 200, reply.text);
        const view = reply.body.data as { application: Record<string, unknown>; history: unknown[] };
        for (const field of SENSITIVE_FIELDS) {
          const value = (applicant as Record<string, unknown>)[field];
          if (typeof value === 'string')
            assert.ok(!reply.text.includes(value), `${field} is not in the clear`);
        }
        assert.ok(!('pay_pwd' in view.application));
        assert.equal(view.application['name'], '李*');
        assert.equal(view.application['name_en'], 'L* L**');
        assert.equal(view.application['mob_no'], '*******8000');
        assert.equal(view.application['email'], 'l***@example.com');
        assert.equal(view.application['address'], '广东省-深圳市-南山区-****');
        assert.equal(view.application['id_card_img'], 'https://img.example.com/****');
        assert.match(String(view.application['cert_id']), /^4\*{16}[0-9X]$/);
        assert.equal(view.application['birthday'], applicant.birthday, 'the rest is shown as submitted');
        assert.equal(view.history.length, 1);
      });

      test('a reveal shows one field to a reviewer and is audited: who, when, which field, which application', async () => {
        const serial = await apps.submit(appId);
        const row = await service.ctx.store.db
          .selectFrom('applications')
          .select(['payload_enc'])
          .where('busi_water_no', '=', serial)
          .executeTakeFirstOrThrow();
        const clear = JSON.parse(service.ctx.keyRing.decrypt(row.payload_enc, serial)) as Record<
          string,
          string
        >;
        const started = nowSeconds();
        const reply = await as(operators.reviewer, 'POST', `/applications/${serial}/reveal`, {
          field: 'cert_id',
          purpose: 'document_comparison',
          purpose_text: 'passport page against the form',
        });
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(reply.body.data, {
          busi_water_no: serial,
          field: 'cert_id',
          value: clear['cert_id'],
        });
        const audit = await as(
          operators.admin,
          'GET',
          `/audit?target_id=${serial}&action=application.reveal`,
        );
        const entries = (audit.body.data as { items: Record<string, unknown>[] }).items;
        assert.equal(entries.length, 1);
        assert.equal(entries[0]!['actor'], `operator:${operators.reviewer.username}`);
        assert.deepEqual(entries[0]!['details'], {
          field: 'cert_id',
          purpose: 'document_comparison',
          purpose_text: 'passport page against the form',
        });
        assert.equal(entries[0]!['target_type'], 'application');
        assert.ok(Number(entries[0]!['at']) >= started - 1);
        assert.match(String(entries[0]!['source']), /^admin-api /);
        assert.ok(!audit.text.includes(clear['cert_id']!));
      });

      test('the payment password and unknown fields cannot be revealed; unknown serials are 404', async () => {
        const serial = await apps.submit(appId);
        for (const field of ['pay_pwd', 'nickname']) {
          const reply = await as(operators.admin, 'POST', `/applications/${serial}/reveal`, {
            field,
            purpose: 'identity_check',
          });
          assert.equal(reply.status, 422, reply.text);
          assert.equal(reply.body.code, 42206);
        }
        const unknown = await as(operators.admin, 'POST', `/applications/${'0'.repeat(32)}/reveal`, {
          field: 'cert_id',
          purpose: 'identity_check',
        });
        assert.equal(unknown.status, 404);
      });

      test('moves over the API: history with actors, 409 naming both states, reason and details required', async () => {
        const serial = await apps.submit(appId);
        const r = operators.reviewer;
        assert.equal(
          (await as(r, 'POST', `/applications/${serial}/approve`, {})).body.msg,
          'status: cannot move from SUBMITTED to APPROVED',
        );
        const reject = await as(r, 'POST', `/applications/${serial}/reject`, {});
        assert.equal(reject.status, 422);
        assert.equal(reject.body.msg, 'reason_codes: is required');
        for (const [action, body] of [
          ['review', {}],
          ['approve', { reason: 'all documents in order' }],
          ['issue', {}],
        ] as const) {
          const reply = await as(r, 'POST', `/applications/${serial}/${action}`, body);
          assert.equal(reply.status, 200, reply.text);
        }
        const ship = await as(r, 'POST', `/applications/${serial}/ship`, { carrier: 'EMS' });
        assert.equal(ship.status, 422);
        assert.equal(ship.body.msg, 'tracking_no: is required');
        const stale = await as(r, 'POST', `/applications/${serial}/ship`, {
          carrier: 'EMS',
          tracking_no: 'EE1',
          version: 2,
        });
        assert.equal(stale.status, 409);
        assert.equal(stale.body.code, 40906);
        const shipped = await as(r, 'POST', `/applications/${serial}/ship`, {
          carrier: 'EMS',
          tracking_no: 'EE123456789CN',
          version: 4,
        });
        assert.equal(shipped.status, 200, shipped.text);
        const view = shipped.body.data as {
          status: string;
          version: number;
          history: { from_status: string | null; status: string; actor: string; details: unknown }[];
        };
        assert.equal(view.status, 'SHIPPED');
        assert.equal(view.version, 5);
        assert.deepEqual(
          view.history.map((h) => [h.from_status, h.status, h.actor]),
          [
            [null, 'SUBMITTED', `caller:${appId}`],
            ['SUBMITTED', 'IN_REVIEW', `operator:${r.username}`],
            ['IN_REVIEW', 'APPROVED', `operator:${r.username}`],
            ['APPROVED', 'CARD_ISSUED', `operator:${r.username}`],
            ['CARD_ISSUED', 'SHIPPED', `operator:${r.username}`],
          ],
        );
        assert.deepEqual(view.history[4]!.details, { carrier: 'EMS', tracking_no: 'EE123456789CN' });
      });

      test('search filters by status, app, serial and creation time, page by page', async () => {
        const own = await newCaller(service, 'searched');
        const serials: string[] = [];
        for (let i = 0; i < 7; i++) serials.push(await apps.submit(own.appId));
        await as(operators.reviewer, 'POST', `/applications/${serials[2]}/review`, {});
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const reply = await as(
            operators.viewer,
            'GET',
            `/applications?app_id=${own.appId}&limit=3${cursor === null ? '' : `&cursor=${cursor}`}`,
          );
          assert.equal(reply.status, 200, reply.text);
          const page = reply.body.data as { items: { busi_water_no: string }[]; next_cursor: string | null };
          assert.ok(page.items.length <= 3);
          seen.push(...page.items.map((i) => i.busi_water_no));
          cursor = page.next_cursor;
        } while (cursor !== null);
        assert.deepEqual(seen, serials);
        const inReview = await as(
          operators.viewer,
          'GET',
          `/applications?app_id=${own.appId}&status=IN_REVIEW`,
        );
        assert.deepEqual(
          (inReview.body.data as { items: { busi_water_no: string }[] }).items.map((i) => i.busi_water_no),
          [serials[2]],
        );
        const bySerial = await as(operators.viewer, 'GET', `/applications?busi_water_no=${serials[5]}`);
        assert.equal((bySerial.body.data as { items: unknown[] }).items.length, 1);
        const future = await as(operators.viewer, 'GET', `/applications?created_from=${nowSeconds() + 3600}`);
        assert.deepEqual((future.body.data as { items: unknown[] }).items, []);
        for (const query of ['limit=0', 'limit=101', 'limit=x', 'status=LOST', 'cursor=zzz', 'extra=1']) {
          const reply = await as(operators.viewer, 'GET', `/applications?${query}`);
          assert.equal(reply.status, 422, `${query}: ${reply.text}`);
        }
      });
    });

    describe('apps and operators', () => {
      test('an app created by an admin gets its secret once; disabling it stops its caller at once', async () => {
        const created = await as(operators.admin, 'POST', '/apps', { name: 'console partner' });
        assert.equal(created.status, 200, created.text);
        const app = created.body.data as { app_id: string; app_secret: string };
        const list = await as(operators.admin, 'GET', '/apps');
        assert.ok(!list.text.includes(app.app_secret));
        const token = await post(service.baseUrl, PATHS.token, { ...app, timestamp: nowSeconds() });
        assert.equal(token.status, 200, token.text);
        const accessToken = (token.body.data as { access_token: string }).access_token;
        const listing = () =>
          post(
            service.baseUrl,
            PATHS.list,
            { app_id: app.app_id, timestamp: nowSeconds() },
            { token: accessToken },
          );
        assert.equal((await listing()).status, 200);
        assert.equal((await as(operators.admin, 'POST', `/apps/${app.app_id}/disable`, {})).status, 200);
        const refused = await listing();
        assert.equal(refused.status, 403);
        assert.equal(refused.body.code, 40302);
        assert.equal((await as(operators.admin, 'POST', `/apps/${app.app_id}/enable`, {})).status, 200);
        assert.equal((await listing()).status, 200);
        assert.equal((await as(operators.admin, 'POST', '/apps/app_unknown/disable', {})).status, 404);
        const trail = await as(operators.admin, 'GET', `/audit?target_type=app&target_id=${app.app_id}`);
        assert.deepEqual(
          (trail.body.data as { items: { action: string }[] }).items.map((i) => i.action),
          ['app.enable', 'app.disable', 'app.create'],
        );
      });

      test('operators: create, duplicates, weak passwords, roles take effect at once, no self-lockout', async () => {
        const admin = operators.admin;
        const username = uniqueName('olga');
        const created = await as(admin, 'POST', '/operators', {
          username,
          role: 'viewer',
          password: TEST_PASSWORD,
        });
        assert.equal(created.status, 200, created.text);
        assert.deepEqual(
          { ...(created.body.data as object), created_at: 0, updated_at: 0 },
          { username, role: 'viewer', disabled: false, created_at: 0, updated_at: 0 },
        );
        const again = await as(admin, 'POST', '/operators', {
          username,
          role: 'viewer',
          password: TEST_PASSWORD,
        });
        assert.equal(again.status, 409);
        assert.equal(again.body.code, 40907);
        const weak = await as(admin, 'POST', '/operators', {
          username: uniqueName('w'),
          role: 'viewer',
          password: 'short',
        });
        assert.equal(weak.status, 422);
        assert.equal(weak.body.code, 42250);
        const badName = await as(admin, 'POST', '/operators', {
          username: 'Bad Name',
          role: 'viewer',
          password: TEST_PASSWORD,
        });
        assert.equal(badName.status, 422);
        const list = await as(admin, 'GET', '/operators');
        assert.ok(!list.text.includes('scrypt$'), 'password hashes never leave the store');

        const olga = await loginAs(service, username, 'viewer');
        const serial = await apps.submit(appId);
        assert.equal((await as(olga, 'POST', `/applications/${serial}/review`, {})).status, 403);
        assert.equal(
          (await as(admin, 'POST', `/operators/${username}/role`, { role: 'reviewer' })).status,
          200,
        );
        assert.equal((await as(olga, 'POST', `/applications/${serial}/review`, {})).status, 200);

        assert.equal(
          (await as(admin, 'POST', `/operators/${username}/password`, { password: 'a brand new password' }))
            .status,
          200,
        );
        assert.equal((await as(olga, 'GET', '/me')).status, 401, 'a new password ends the sessions');
        const olga2 = await call(service, 'POST', `${ADMIN}/login`, {
          body: { username, password: 'a brand new password' },
        });
        assert.equal(olga2.status, 200);
        const token = (olga2.body.data as { token: string }).token;
        assert.equal((await as(admin, 'POST', `/operators/${username}/disable`, {})).status, 200);
        assert.equal(
          (await call(service, 'GET', `${ADMIN}/me`, { token })).status,
          401,
          'disabled: sessions end',
        );

        for (const [path, body] of [
          [`/operators/${admin.username}/disable`, {}],
          [`/operators/${admin.username}/role`, { role: 'viewer' }],
        ] as const) {
          const self = await as(admin, 'POST', path, body);
          assert.equal(self.status, 403, self.text);
          assert.equal(self.body.code, 40305);
        }
        assert.equal((await as(admin, 'POST', '/operators/nobody/enable', {})).status, 404);
      });
    });

    describe('audit trail', () => {
      test('is append-only in the store itself', async () => {
        await assert.rejects(sql`UPDATE audit_log SET actor = 'someone else'`.execute(service.ctx.store.db));
        await assert.rejects(sql`DELETE FROM audit_log`.execute(service.ctx.store.db));
      });

      test('pages newest first without repeating', async () => {
        const seen: number[] = [];
        let cursor: string | null = null;
        for (let i = 0; i < 4; i++) {
          const reply = await as(
            operators.viewer,
            'GET',
            `/audit?limit=5${cursor === null ? '' : `&cursor=${cursor}`}`,
          );
          assert.equal(reply.status, 200, reply.text);
          const page = reply.body.data as { items: { id: number }[]; next_cursor: string | null };
          seen.push(...page.items.map((e) => e.id));
          cursor = page.next_cursor;
          if (cursor === null) break;
        }
        assert.deepEqual(
          seen,
          [...seen].sort((a, b) => b - a),
        );
        assert.equal(new Set(seen).size, seen.length);
      });

      test('records every transition and reveal made over the API, and no identity value; nor do the logs', async () => {
        const db = service.ctx.store.db;
        const moves = await db
          .selectFrom('application_transitions')
          .select(['busi_water_no', 'to_status', 'actor'])
          .where('from_status', 'is not', null)
          .execute();
        const audited = await db
          .selectFrom('audit_log')
          .selectAll()
          .where('action', '=', 'application.transition')
          .execute();
        assert.equal(audited.length, moves.length, 'one audit entry per state change');
        for (const move of moves) {
          assert.ok(
            audited.some(
              (a) =>
                a.target_id === move.busi_water_no &&
                a.actor === move.actor &&
                (JSON.parse(a.details!) as { to: string }).to === move.to_status,
            ),
            `${move.busi_water_no} -> ${move.to_status}`,
          );
        }
        const reveals = await db
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', 'application.reveal')
          .execute();
        assert.equal(reveals.length, 3, 'the three reveals of this file: two in the role table, one alone');

        const identity = new Set<string>();
        for (const row of await db
          .selectFrom('applications')
          .select(['busi_water_no', 'payload_enc'])
          .execute()) {
          const clear = JSON.parse(service.ctx.keyRing.decrypt(row.payload_enc, row.busi_water_no)) as Record<
            string,
            unknown
          >;
          for (const field of SENSITIVE_FIELDS) {
            const value = clear[field];
            if (typeof value === 'string' && value.length >= 6) identity.add(value);
          }
        }
        assert.ok(identity.size > 20);
        const trail = JSON.stringify(await db.selectFrom('audit_log').selectAll().execute());
        const logs = service.logs.join('');
        for (const value of identity) {
          assert.ok(!trail.includes(value), 'no identity value in the audit trail');
          assert.ok(!logs.includes(value), 'no identity value in the logs');
        }
        assert.ok(logs.includes(`"operator":"${operators.reviewer.username}"`), 'logs name the operator');
      });
    });
  });
}
