import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PATHS } from '../../../src/http/paths.ts';
import { ADMIN, call, loginAs, TEST_PASSWORD, uniqueName } from '../../helpers/operators.ts';
import { nowSeconds, post } from '../../helpers/service.ts';
import { storeNames } from '../../helpers/stores.ts';
import { adminBench } from '../../helpers/adminService.ts';

/** Apps and operators managed through the admin API on every store. */

for (const storeName of storeNames()) {
  describe(`admin API on ${storeName}`, () => {
    const bench = adminBench(storeName);

    describe('apps and operators', () => {
      test('an app created by an admin gets its secret once; disabling it stops its partner at once', async () => {
        const created = await bench.as(bench.operators.admin, 'POST', '/apps', { name: 'console partner' });
        assert.equal(created.status, 200, created.text);
        const app = created.body.data as { app_id: string; app_secret: string };
        const list = await bench.as(bench.operators.admin, 'GET', '/apps');
        assert.ok(!list.text.includes(app.app_secret));
        const token = await post(bench.service.baseUrl, PATHS.token, { ...app, timestamp: nowSeconds() });
        assert.equal(token.status, 200, token.text);
        const accessToken = (token.body.data as { access_token: string }).access_token;
        const listing = () =>
          post(
            bench.service.baseUrl,
            PATHS.list,
            { app_id: app.app_id, timestamp: nowSeconds() },
            { token: accessToken },
          );
        assert.equal((await listing()).status, 200);
        assert.equal(
          (await bench.as(bench.operators.admin, 'POST', `/apps/${app.app_id}/disable`, {})).status,
          200,
        );
        const refused = await listing();
        assert.equal(refused.status, 403);
        assert.equal(refused.body.code, 40302);
        assert.equal(
          (await bench.as(bench.operators.admin, 'POST', `/apps/${app.app_id}/enable`, {})).status,
          200,
        );
        assert.equal((await listing()).status, 200);
        assert.equal(
          (await bench.as(bench.operators.admin, 'POST', '/apps/app_unknown/disable', {})).status,
          404,
        );
        const trail = await bench.as(
          bench.operators.admin,
          'GET',
          `/audit?target_type=app&target_id=${app.app_id}`,
        );
        assert.deepEqual(
          (trail.body.data as { items: { action: string }[] }).items.map((i) => i.action),
          ['app.enable', 'app.disable', 'app.create'],
        );
      });

      test('operators: create, duplicates, weak passwords, roles take effect at once, no self-lockout', async () => {
        const admin = bench.operators.admin;
        const username = uniqueName('olga');
        const created = await bench.as(admin, 'POST', '/operators', {
          username,
          role: 'viewer',
          password: TEST_PASSWORD,
        });
        assert.equal(created.status, 200, created.text);
        assert.deepEqual(
          { ...(created.body.data as object), created_at: 0, updated_at: 0 },
          { username, role: 'viewer', disabled: false, compliance: false, created_at: 0, updated_at: 0 },
        );
        const again = await bench.as(admin, 'POST', '/operators', {
          username,
          role: 'viewer',
          password: TEST_PASSWORD,
        });
        assert.equal(again.status, 409);
        assert.equal(again.body.code, 40907);
        const weak = await bench.as(admin, 'POST', '/operators', {
          username: uniqueName('w'),
          role: 'viewer',
          password: 'short',
        });
        assert.equal(weak.status, 422);
        assert.equal(weak.body.code, 42250);
        const badName = await bench.as(admin, 'POST', '/operators', {
          username: 'Bad Name',
          role: 'viewer',
          password: TEST_PASSWORD,
        });
        assert.equal(badName.status, 422);
        const list = await bench.as(admin, 'GET', '/operators');
        assert.ok(!list.text.includes('scrypt$'), 'password hashes never leave the store');

        const olga = await loginAs(bench.service, username, 'viewer');
        const serial = await bench.apps.submit(bench.appId);
        assert.equal((await bench.as(olga, 'POST', `/applications/${serial}/review`, {})).status, 403);
        assert.equal(
          (await bench.as(admin, 'POST', `/operators/${username}/role`, { role: 'reviewer' })).status,
          200,
        );
        assert.equal((await bench.as(olga, 'POST', `/applications/${serial}/review`, {})).status, 200);

        assert.equal(
          (
            await bench.as(admin, 'POST', `/operators/${username}/password`, {
              password: 'a brand new password',
            })
          ).status,
          200,
        );
        assert.equal((await bench.as(olga, 'GET', '/me')).status, 401, 'a new password ends the sessions');
        const olga2 = await call(bench.service, 'POST', `${ADMIN}/login`, {
          body: { username, password: 'a brand new password' },
        });
        assert.equal(olga2.status, 200);
        const token = (olga2.body.data as { token: string }).token;
        assert.equal((await bench.as(admin, 'POST', `/operators/${username}/disable`, {})).status, 200);
        assert.equal(
          (await call(bench.service, 'GET', `${ADMIN}/me`, { token })).status,
          401,
          'disabled: sessions end',
        );

        for (const [path, body] of [
          [`/operators/${admin.username}/disable`, {}],
          [`/operators/${admin.username}/role`, { role: 'viewer' }],
        ] as const) {
          const self = await bench.as(admin, 'POST', path, body);
          assert.equal(self.status, 403, self.text);
          assert.equal(self.body.code, 40305);
        }
        assert.equal((await bench.as(admin, 'POST', '/operators/nobody/enable', {})).status, 404);
      });
    });
  });
}
