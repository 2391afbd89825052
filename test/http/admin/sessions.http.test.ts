import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ADMIN, call, loginAs, TEST_PASSWORD, uniqueName } from '../../helpers/operators.ts';
import { newPartner, type Reply } from '../../helpers/service.ts';
import { storeNames } from '../../helpers/stores.ts';
import { createOperator } from '../../../src/operators/operators.ts';
import { SYSTEM } from '../../../src/audit/actor.ts';
import { adminBench } from '../../helpers/adminService.ts';

/** Operator sign-in on every store: login, sessions, cookies and CSRF. */

for (const storeName of storeNames()) {
  describe(`admin API on ${storeName}`, () => {
    const bench = adminBench(storeName);

    describe('login and sessions', () => {
      test('a wrong password, an unknown name and a disabled operator all get the same 401, each audited', async () => {
        const disabled = uniqueName('gone');
        await createOperator(
          bench.service.ctx,
          { username: disabled, role: 'admin', password: TEST_PASSWORD },
          { actor: SYSTEM, source: 'test' },
        );
        await bench.service.ctx.store.db
          .updateTable('operators')
          .set({ disabled: 1 })
          .where('username', '=', disabled)
          .execute();
        const attempts = [
          { username: bench.operators.admin.username, password: 'wrong password!!' },
          { username: 'nobody-here', password: TEST_PASSWORD },
          { username: disabled, password: TEST_PASSWORD },
        ];
        const replies: Reply[] = [];
        for (const body of attempts) replies.push(await bench.as(undefined, 'POST', '/login', body));
        for (const reply of replies) {
          assert.equal(reply.status, 401, reply.text);
          assert.deepEqual(reply.body, replies[0]!.body);
          assert.equal(reply.body.code, 40112);
        }
        const failures = await bench.service.ctx.store.db
          .selectFrom('audit_log')
          .select(['actor', 'target_id', 'details'])
          .where('action', '=', 'operator.login_failed')
          .orderBy('id')
          .execute();
        assert.deepEqual(
          failures.slice(-3).map((f) => [f.actor, f.target_id, JSON.parse(f.details!).reason]),
          [
            [`operator:${bench.operators.admin.username}`, bench.operators.admin.username, 'wrong_password'],
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
        const plain = await bench.as(undefined, 'POST', '/login', {
          username: bench.operators.viewer.username,
          password: TEST_PASSWORD,
        });
        assert.equal(plain.status, 200, plain.text);
        const data = plain.body.data as { token: string; expires_in: number; csrf_token: string };
        assert.match(data.token, /^os_[A-Za-z0-9_-]{43}$/);
        assert.equal(data.expires_in, 8 * 3600);
        assert.equal(plain.headers.get('set-cookie'), null);
        const stored = await bench.service.ctx.store.db
          .selectFrom('operator_sessions')
          .select('token_hash')
          .execute();
        assert.ok(
          stored.every((s) => s.token_hash !== data.token),
          'only the hash is stored',
        );

        const withCookie = await bench.as(undefined, 'POST', '/login', {
          username: bench.operators.reviewer.username,
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
        const login = await bench.as(undefined, 'POST', '/login', {
          username: bench.operators.reviewer.username,
          password: TEST_PASSWORD,
          cookie: true,
        });
        const session = login.headers.get('set-cookie')!.split(';')[0]!;
        const csrf = (login.body.data as { csrf_token: string }).csrf_token;
        const me = await call(bench.service, 'GET', `${ADMIN}/me`, { headers: { cookie: session } });
        assert.equal(me.status, 200, me.text);
        assert.deepEqual(me.body.data, {
          username: bench.operators.reviewer.username,
          role: 'reviewer',
          via: 'cookie',
        });

        const serial = await bench.apps.inState(bench.appId, 'SUBMITTED');
        const before = await bench.everything();
        for (const headers of [{ cookie: session }, { cookie: session, 'x-csrf-token': 'forged' }] as Record<
          string,
          string
        >[]) {
          const refused = await call(bench.service, 'POST', `${ADMIN}/applications/${serial}/review`, {
            headers,
            body: {},
          });
          assert.equal(refused.status, 403, refused.text);
          assert.equal(refused.body.code, 40304);
        }
        assert.deepEqual(await bench.everything(), before);
        const done = await call(bench.service, 'POST', `${ADMIN}/applications/${serial}/review`, {
          headers: { cookie: session, 'x-csrf-token': csrf },
          body: {},
        });
        assert.equal(done.status, 200, done.text);
      });

      test('logout ends the session and clears the cookie; expired sessions are refused', async () => {
        const op = await loginAs(bench.service, bench.operators.viewer.username, 'viewer');
        const out = await bench.as(op, 'POST', '/logout', {});
        assert.equal(out.status, 200, out.text);
        assert.match(out.headers.get('set-cookie')!, /^cardapply_session=; Path=\/; Max-Age=0;/);
        const after = await bench.as(op, 'GET', '/me');
        assert.equal(after.status, 401);
        assert.equal(after.body.code, 40111);

        const stale = await loginAs(bench.service, bench.operators.viewer.username, 'viewer');
        await bench.service.ctx.store.db
          .updateTable('operator_sessions')
          .set({ expires_at: Date.now() - 1 })
          .where('revoked_at', 'is', null)
          .where('username', '=', bench.operators.viewer.username)
          .where('created_at', '>=', Date.now() - 5_000)
          .execute();
        const expired = await bench.as(stale, 'GET', '/me');
        assert.equal(expired.status, 401);
        // The shared viewer session may have been caught by the update above: log in again.
        bench.operators.viewer = await loginAs(bench.service, bench.operators.viewer.username, 'viewer');
      });

      test('a token that is not an operator session is a 401', async () => {
        const partner = await newPartner(bench.service);
        for (const headers of [
          {},
          { authorization: `Bearer ${partner.token}` },
          { authorization: 'Basic abc' },
        ] as Record<string, string>[]) {
          const reply = await call(bench.service, 'GET', `${ADMIN}/me`, { headers });
          assert.equal(reply.status, 401, reply.text);
        }
      });
    });
  });
}
