import { claimApplication } from '../../../src/applications/commands/reviewClaims.ts';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Role } from '../../../src/access/roles.ts';
import {
  ADMIN,
  call,
  loginAs,
  TEST_PASSWORD,
  uniqueName,
  type Applications,
} from '../../helpers/operators.ts';
import { storeNames } from '../../helpers/stores.ts';
import { createOperator } from '../../../src/operators/operators.ts';
import { createApp } from '../../../src/partners/credentials.ts';
import { SYSTEM } from '../../../src/audit/actor.ts';
import { adminBench } from '../../helpers/adminService.ts';
import { post } from '../../helpers/service.ts';
import { plantHit, unList } from '../../screening/screeningHelpers.ts';

/** Every admin route tried by each role and without a token: a refused attempt changes nothing. */

type Fixture = (role?: Role) => Promise<{
  path: string;
  body?: unknown;
  token?: string;
  /** A body that is not JSON (a list file), with its content type. */
  raw?: { contentType: string; text: string };
}>;

interface RouteCase {
  method: 'GET' | 'POST';
  /** The route as the OpenAPI document names it, below /admin/v1. */
  route: string;
  minRole: Role;
  fixture: Fixture;
}

const RANK: Record<Role, number> = { viewer: 0, reviewer: 1, admin: 2 };

/** A list file of one test-made entry, for the upload route. */
const LIST = unList({ dataId: 9, first: 'ROLE', second: 'TABLE', reference: 'TSi.ROLES', original: '罗表' });

for (const storeName of storeNames()) {
  describe(`admin API on ${storeName}`, () => {
    const bench = adminBench(storeName);

    describe('every route, by each role and without a token', () => {
      /** One attempt: a JSON body, or a raw one (a list file) with its content type. */
      const send = (
        token: string | undefined,
        method: string,
        request: { path: string; body?: unknown; raw?: { contentType: string; text: string } | undefined },
      ) =>
        request.raw === undefined
          ? call(bench.service, method, `${ADMIN}${request.path}`, {
              ...(token === undefined ? {} : { token }),
              ...(request.body === undefined ? {} : { body: request.body }),
            })
          : post(bench.service.baseUrl, `${ADMIN}${request.path}`, undefined, {
              ...(token === undefined ? {} : { token }),
              headers: { 'content-type': request.raw.contentType },
              raw: request.raw.text,
            });
      const newTarget = async (role: Role) => {
        const username = uniqueName('target');
        await createOperator(
          bench.service.ctx,
          { username, role, password: TEST_PASSWORD },
          { actor: SYSTEM, source: 'test' },
        );
        return username;
      };
      const inState = (status: Parameters<Applications['inState']>[1]) =>
        bench.apps.inState(bench.appId, status);
      /** An application in review claimed by the operator of that role (none without a role). */
      const claimedBy = async (role?: Role) => {
        const serial = await inState('IN_REVIEW');
        if (role !== undefined) {
          const { username } = bench.operators[role];
          await claimApplication(
            bench.service.ctx,
            serial,
            { username, role },
            { actor: SYSTEM, source: 'test' },
          );
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
            body: { username: bench.operators.admin.username },
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
            path: `/apps/${(await createApp(bench.service.ctx.store.db, 'p', Date.now())).app_id}/disable`,
            body: {},
          }),
        },
        {
          method: 'POST',
          route: '/apps/{app_id}/enable',
          minRole: 'admin',
          fixture: async () => ({
            path: `/apps/${(await createApp(bench.service.ctx.store.db, 'p', Date.now())).app_id}/enable`,
            body: {},
          }),
        },
        {
          method: 'POST',
          route: '/apps/{app_id}/risk-level',
          minRole: 'admin',
          fixture: async () => ({
            path: `/apps/${(await createApp(bench.service.ctx.store.db, 'p', Date.now())).app_id}/risk-level`,
            body: { level: 'medium', reason: 'volumes unknown' },
          }),
        },
        // Added for the console (test/console/console.http.test.ts tests what they answer).
        {
          method: 'POST',
          route: '/apps/{app_id}/rotate-secret',
          minRole: 'admin',
          fixture: async () => ({
            path: `/apps/${(await createApp(bench.service.ctx.store.db, 'p', Date.now())).app_id}/rotate-secret`,
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
          route: '/operators/{username}/compliance',
          minRole: 'admin',
          fixture: async () => ({
            path: `/operators/${await newTarget('viewer')}/compliance`,
            body: { compliance: true },
          }),
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
          route: '/screening/status',
          minRole: 'viewer',
          fixture: async () => ({ path: '/screening/status' }),
        },
        {
          method: 'GET',
          route: '/screening/readiness',
          minRole: 'viewer',
          fixture: async () => ({ path: '/screening/readiness' }),
        },
        {
          method: 'GET',
          route: '/screening/alerts',
          minRole: 'viewer',
          fixture: async () => ({ path: '/screening/alerts?limit=5' }),
        },
        {
          method: 'POST',
          route: '/screening/lists/{list}',
          minRole: 'admin',
          fixture: async () => ({
            path: '/screening/lists/un',
            raw: { contentType: 'application/xml', text: LIST },
          }),
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/screening/{hit_id}/clear',
          minRole: 'reviewer',
          fixture: async () => {
            const serial = await inState('IN_REVIEW');
            return {
              path: `/applications/${serial}/screening/${await plantHit(bench.service, serial)}/clear`,
              body: { note: 'a namesake: another date of birth' },
            };
          },
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/screening/{hit_id}/confirm',
          minRole: 'reviewer',
          // Cleared by another operator: the one confirming is the second pair of eyes.
          fixture: async () => {
            const serial = await inState('IN_REVIEW');
            const hit = await plantHit(bench.service, serial, { clearedBy: uniqueName('first') });
            return { path: `/applications/${serial}/screening/${hit}/confirm`, body: {} };
          },
        },
        {
          method: 'POST',
          route: '/applications/{busi_water_no}/screening/{hit_id}/reject',
          minRole: 'reviewer',
          fixture: async () => {
            const serial = await inState('IN_REVIEW');
            return {
              path: `/applications/${serial}/screening/${await plantHit(bench.service, serial)}/reject`,
              body: {},
            };
          },
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
              : { token: (await loginAs(bench.service, bench.operators[role].username, role)).token }),
          }),
        },
      ];

      const documentedAdminRoutes = async () => {
        const doc = (await (await fetch(`${bench.service.baseUrl}/admin/openapi.json`)).json()) as {
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
        const mine = /^[A-Z]+ \/(me|logout|applications|apps|operators|audit|screening)\b/;
        // A kept document and its preview answer bytes, not an envelope: their roles and audited
        // opening are tested in test/documents/admin.test.ts and preview.test.ts.
        const binary = [
          'GET /applications/{busi_water_no}/documents/{field}',
          'GET /applications/{busi_water_no}/documents/{field}/preview',
        ];
        const documented = (await documentedAdminRoutes())
          .filter((route) => mine.test(route) && !binary.includes(route))
          .sort();
        assert.deepEqual(documented, ROUTES.map((r) => `${r.method} ${r.route}`).sort());
      });

      test('every admin route but the login, whoever added it, refuses a request without a token', async () => {
        for (const route of await documentedAdminRoutes()) {
          const [method, template] = route.split(' ') as [string, string];
          const path = template.replace(/\{[a-z_]+\}/g, 'x');
          for (const headers of [{}, { cookie: 'cardapply_session=os_forged' }] as Record<string, string>[]) {
            const reply = await call(bench.service, method, `${ADMIN}${path}`, {
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
          const before = await bench.everything();
          const none = await send(undefined, route.method, anonymous);
          assert.equal(none.status, 401, none.text);
          assert.equal(none.body.code, 40110);
          assert.deepEqual(await bench.everything(), before, 'an anonymous attempt changes nothing');

          for (const role of ['viewer', 'reviewer', 'admin'] as const) {
            const { path, body, token, raw } = await route.fixture(role);
            const state = await bench.everything();
            const reply = await send(
              token === undefined ? bench.operators[role].token : token,
              route.method,
              { path, body, raw },
            );
            if (RANK[role] < RANK[route.minRole]) {
              assert.equal(reply.status, 403, `${role}: ${reply.text}`);
              assert.equal(reply.body.code, 40303);
              assert.match(reply.body.msg, new RegExp(`^role: a ${role} cannot`));
              assert.deepEqual(
                await bench.everything(),
                state,
                `a ${role}'s refused attempt changes nothing`,
              );
            } else {
              assert.equal(reply.status, 200, `${role}: ${reply.text}`);
              assert.equal(reply.body.code, 0);
            }
          }
        });
      }
    });
  });
}
