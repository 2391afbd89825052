import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { SYSTEM } from '../../src/audit/actor.ts';
import { listAudit } from '../../src/audit/auditTrail.ts';
import { loadConfig } from '../../src/config.ts';
import { hashPasswordScrypt } from '../../src/crypto/passwordHash.ts';
import { createOperator } from '../../src/operators/operators.ts';
import {
  ADMIN,
  call,
  enrolFactor,
  newOperator,
  TEST_PASSWORD,
  uniqueName,
  type TestOperator,
} from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * PCI DSS v4 requirement 8 for operators, over HTTP on every store: password rules (8.3.6, 8.3.7),
 * argon2id with earlier hashes upgraded at sign-in, the lock after ten failures (8.3.4), idle and
 * absolute session ends (8.2.8), and the TOTP second factor (8.4.2): enrolment, required codes,
 * replays and wrong codes refused, recovery codes, enrolment-only sessions, and an admin's reset.
 */
for (const storeName of storeNames()) {
  describe(`operator security on ${storeName}`, () => {
    let service: TestService;
    let admin: TestOperator;
    const by = { actor: SYSTEM, source: 'test' };

    before(async () => {
      // The per-name rate limit is set out of the way: the lock itself is under test here.
      service = await startService(storeName, {
        AUTH_FAILURE_BURST: '1000',
        AUTH_FAILURES_PER_MINUTE: '1000',
      });
      admin = await newOperator(service, 'admin');
    });
    after(() => service.close());

    const login = (body: Record<string, unknown>) => call(service, 'POST', `${ADMIN}/login`, { body });
    const auditOf = async (username: string) =>
      (await listAudit(service.ctx.store.db, { targetType: 'operator', targetId: username, limit: 50 }))
        .items;

    test('passwords: at least 12 characters, not a common one, not one of the last four', async () => {
      const create = (password: string) =>
        call(service, 'POST', `${ADMIN}/operators`, {
          token: admin.token,
          body: { username: uniqueName('p'), role: 'viewer', password },
        });
      const short = await create('eleven char');
      assert.equal(short.status, 422, short.text);
      assert.match(short.body.msg, /password: must be at least 12 characters/);
      for (const common of ['password1234', 'Qwerty123456', '1qaz2wsx3edc']) {
        const refused = await create(common);
        assert.equal(refused.status, 422, refused.text);
        assert.equal(refused.body.code, 42270);
      }

      const username = uniqueName('hist');
      await createOperator(service.ctx, { username, role: 'viewer', password: 'first long password 1' }, by);
      const set = (password: string) =>
        call(service, 'POST', `${ADMIN}/operators/${username}/password`, {
          token: admin.token,
          body: { password },
        });
      for (const next of ['second long password 2', 'third long password 33', 'fourth long password 4']) {
        assert.equal((await set(next)).status, 200);
      }
      // The current one and the three before it are refused; the fifth-latest is allowed again.
      for (const old of ['fourth long password 4', 'third long password 33', 'second long password 2']) {
        const reused = await set(old);
        assert.equal(reused.status, 422, reused.text);
        assert.equal(reused.body.code, 42271);
      }
      assert.equal((await set('first long password 1')).status, 422);
      assert.equal((await set('fifth long password 55')).status, 200);
      assert.equal((await set('first long password 1')).status, 200, 'five passwords ago is allowed');
    });

    test('an scrypt hash is replaced by argon2id at the next sign-in, and the sign-in says so in the trail', async () => {
      const username = uniqueName('legacy');
      await createOperator(service.ctx, { username, role: 'viewer', password: TEST_PASSWORD }, by);
      await service.ctx.store.db
        .updateTable('operators')
        .set({ password_hash: await hashPasswordScrypt(TEST_PASSWORD) })
        .where('username', '=', username)
        .execute();
      assert.equal((await login({ username, password: TEST_PASSWORD })).status, 200);
      const row = await service.ctx.store.db
        .selectFrom('operators')
        .select('password_hash')
        .where('username', '=', username)
        .executeTakeFirstOrThrow();
      assert.match(row.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      assert.equal((await login({ username, password: TEST_PASSWORD })).status, 200, 'the new hash works');
      const logins = (await auditOf(username)).filter((e) => e.action === 'operator.login');
      assert.deepEqual(
        logins.map((e) => e.details?.['password_rehashed'] ?? null),
        [null, 'argon2id'],
      );
    });

    test('ten failures in a row lock the account for 30 minutes, audited; an admin enabling it lifts the lock', async () => {
      const { username } = await newOperator(service, 'reviewer');
      for (let i = 1; i <= 9; i++)
        assert.equal((await login({ username, password: 'wrong password!' })).status, 401);
      const tenth = await login({ username, password: 'wrong password!' });
      assert.equal(tenth.status, 401);
      const locked = await login({ username, password: TEST_PASSWORD });
      assert.equal(locked.status, 423, locked.text);
      assert.equal(locked.body.code, 42301);
      const retryAfter = Number(locked.headers.get('retry-after'));
      assert.ok(retryAfter > 1790 && retryAfter <= 1800, String(retryAfter));

      const trail = await auditOf(username);
      const lockout = trail.find((e) => e.action === 'operator.lockout');
      assert.ok(lockout !== undefined, 'the lock is in the trail');
      assert.equal(lockout.details?.['failures'], 10);
      assert.equal(trail.filter((e) => e.action === 'operator.login_failed').length, 10); // 9 + the locked attempt
      assert.equal(trail[0]!.details?.['reason'], 'locked');

      const enabled = await call(service, 'POST', `${ADMIN}/operators/${username}/enable`, {
        token: admin.token,
        body: {},
      });
      assert.equal(enabled.status, 200);
      assert.equal((await login({ username, password: TEST_PASSWORD })).status, 200);
    });

    test('a success resets the count: failures must be in a row to lock', async () => {
      const { username } = await newOperator(service, 'viewer');
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 9; i++) await login({ username, password: 'wrong password!' });
        assert.equal((await login({ username, password: TEST_PASSWORD })).status, 200);
      }
    });

    test('a session ends after 15 idle minutes and at its absolute lifetime; use keeps it alive', async () => {
      const operator = await newOperator(service, 'viewer');
      const me = () => call(service, 'GET', `${ADMIN}/me`, { token: operator.token });
      assert.equal((await me()).status, 200);
      const session = () =>
        service.ctx.store.db.updateTable('operator_sessions').where('username', '=', operator.username);
      await session()
        .set({ last_seen_at: Date.now() - 14 * 60_000 })
        .execute();
      assert.equal((await me()).status, 200, '14 idle minutes: still on, and now used again');
      // The console's own refreshes do not count as use: an open page still goes idle.
      await session()
        .set({ last_seen_at: Date.now() - 10 * 60_000 })
        .execute();
      const refresh = await call(service, 'GET', `${ADMIN}/me`, {
        token: operator.token,
        headers: { 'x-cardapply-background': '1' },
      });
      assert.equal(refresh.status, 200);
      const seen = await service.ctx.store.db
        .selectFrom('operator_sessions')
        .select('last_seen_at')
        .where('username', '=', operator.username)
        .executeTakeFirstOrThrow();
      assert.ok(
        Date.now() - seen.last_seen_at >= 10 * 60_000 - 1000,
        'a background request leaves it as it was',
      );
      await session()
        .set({ last_seen_at: Date.now() - 15 * 60_000 - 1000 })
        .execute();
      const idle = await me();
      assert.equal(idle.status, 401);
      assert.equal(idle.body.code, 40111);

      const again = await newOperator(service, 'viewer');
      await service.ctx.store.db
        .updateTable('operator_sessions')
        .where('username', '=', again.username)
        .set({ expires_at: Date.now() - 1 })
        .execute();
      assert.equal((await call(service, 'GET', `${ADMIN}/me`, { token: again.token })).status, 401);
    });

    test('the idle time-out is longer than 15 minutes only with a stated reason', () => {
      assert.throws(
        () => loadConfig({ OPERATOR_SESSION_IDLE_SECONDS: '1800' }),
        /OPERATOR_SESSION_IDLE_REASON/,
      );
      const config = loadConfig({
        OPERATOR_SESSION_IDLE_SECONDS: '1800',
        OPERATOR_SESSION_IDLE_REASON: 'kiosk in the vault room, badge access only',
      });
      assert.equal(config.operators.sessionIdleSeconds, 1800);
      assert.equal(loadConfig({}).operators.sessionIdleSeconds, 900);
      assert.equal(loadConfig({}).operators.mfaRequired, true, 'a second factor by default');
      assert.equal(loadConfig({ SANDBOX: 'true' }).operators.mfaRequired, false);
      assert.throws(() => loadConfig({ OPERATOR_LOCKOUT_SECONDS: '600' }), /OPERATOR_LOCKOUT_SECONDS/);
      assert.throws(() => loadConfig({ OPERATOR_LOCKOUT_THRESHOLD: '11' }), /OPERATOR_LOCKOUT_THRESHOLD/);
    });

    test('TOTP: enrol over the API, then every sign-in needs a code; wrong and replayed codes fail', async () => {
      const operator = await newOperator(service, 'reviewer');
      const post = (path: string, body: unknown) =>
        call(service, 'POST', `${ADMIN}${path}`, { token: operator.token, body });
      const started = await post('/mfa/enrol', {});
      assert.equal(started.status, 200, started.text);
      const enrolment = started.body.data as { secret: string; otpauth_uri: string; qr_svg: string };
      assert.match(
        enrolment.otpauth_uri,
        /^otpauth:\/\/totp\/cardapply:[^?]+\?issuer=cardapply&secret=[A-Z2-7]+&algorithm=SHA1&digits=6&period=30$/,
      );
      assert.match(enrolment.qr_svg, /^<svg[^>]*>.*<\/svg>$/s);
      const totp = OTPAuth.URI.parse(enrolment.otpauth_uri);
      const codeAt = (ms: number) => totp.generate({ timestamp: ms });
      const factor = async () =>
        (await call(service, 'GET', `${ADMIN}/mfa`, { token: operator.token })).body.data;
      assert.deepEqual(
        await factor(),
        { state: 'pending', enrolment },
        'the same secret again, until confirmed',
      );

      // A wrong code at enrolment refuses the code, not the session: its own code, the session and
      // the pending secret stand (the console keeps the operator on the page).
      for (const [otp, why] of [
        [codeAt(Date.now() + 120_000), 'a code of another time'],
        [String((Number(codeAt(Date.now())) + 1) % 1_000_000).padStart(6, '0'), 'a mistyped code'],
      ] as const) {
        const refused = await post('/mfa/confirm', { otp });
        assert.deepEqual([refused.status, refused.body.code], [401, 40172], why);
        assert.match(refused.body.msg as string, /^otp: the code does not match the secret being enrolled/);
        assert.deepEqual(await factor(), { state: 'pending', enrolment }, `${why}: the session stands`);
      }
      const confirmed = await post('/mfa/confirm', { otp: codeAt(Date.now() - 30_000) });
      assert.equal(confirmed.status, 200, confirmed.text);
      const { recovery_codes } = confirmed.body.data as { recovery_codes: string[] };
      assert.equal(recovery_codes.length, 10);
      const stored = await service.ctx.store.db
        .selectFrom('operator_recovery_codes')
        .select('code_hash')
        .execute();
      assert.ok(stored.every((r) => !recovery_codes.some((c) => r.code_hash.includes(c.replace(/-/g, '')))));
      assert.equal((await post('/mfa/enrol', {})).status, 409, 'a second enrolment is refused');
      assert.deepEqual(await factor(), { state: 'active' }, 'the secret is never shown again');

      const base = { username: operator.username, password: TEST_PASSWORD };
      const missing = await login(base);
      assert.equal(missing.status, 401);
      assert.equal(missing.body.code, 40170);
      const wrong = await login({
        ...base,
        otp: String((Number(codeAt(Date.now())) + 1) % 1_000_000).padStart(6, '0'),
      });
      assert.equal(wrong.body.code, 40171);
      const code = codeAt(Date.now());
      assert.equal((await login({ ...base, otp: code })).status, 200);
      const replayed = await login({ ...base, otp: code });
      assert.equal(replayed.status, 401, 'the same code again, within its window');
      assert.equal(replayed.body.code, 40171);
      assert.equal(
        (await login({ ...base, otp: codeAt(Date.now() - 30_000) })).status,
        401,
        'an earlier step',
      );

      assert.equal((await login({ ...base, recovery_code: recovery_codes[0]!.toUpperCase() })).status, 200);
      assert.equal(
        (await login({ ...base, recovery_code: recovery_codes[0]! })).status,
        401,
        'used once only',
      );

      const trail = await auditOf(operator.username);
      assert.deepEqual(
        trail.filter((e) => e.action === 'operator.login').map((e) => e.details?.['factor']),
        ['recovery_code', 'totp', 'none'],
      );
      assert.ok(trail.some((e) => e.action === 'operator.mfa_enrol_start'));
      assert.ok(trail.some((e) => e.action === 'operator.mfa_enrol'));
      assert.equal(trail.filter((e) => e.details?.['reason'] === 'wrong_code').length, 4);
    });

    test("an admin resets an operator's factor: audited, sessions end, and it can enrol again", async () => {
      const operator = await newOperator(service, 'viewer', uniqueName('lost'), { mfa: true });
      const reset = await call(service, 'POST', `${ADMIN}/operators/${operator.username}/mfa/reset`, {
        token: admin.token,
        body: {},
      });
      assert.equal(reset.status, 200, reset.text);
      assert.equal((await call(service, 'GET', `${ADMIN}/me`, { token: operator.token })).status, 401);
      const entry = (await auditOf(operator.username))[0]!;
      assert.deepEqual([entry.action, entry.actor], ['operator.mfa_reset', `operator:${admin.username}`]);
      assert.equal((await login({ username: operator.username, password: TEST_PASSWORD })).status, 200);
    });
  });
}

describe('a second factor required for everyone (OPERATOR_MFA_REQUIRED=true)', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite', { OPERATOR_MFA_REQUIRED: 'true' });
  });
  after(() => service.close());

  test('without a factor, a sign-in may only enrol; confirming makes it a full session', async () => {
    const username = uniqueName('new');
    await createOperator(
      service.ctx,
      { username, role: 'reviewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
    const signedIn = await call(service, 'POST', `${ADMIN}/login`, {
      body: { username, password: TEST_PASSWORD },
    });
    assert.equal(signedIn.status, 200);
    const data = signedIn.body.data as {
      token: string;
      mfa_enrolment_required: boolean;
      idle_timeout: number;
    };
    assert.equal(data.mfa_enrolment_required, true);
    assert.equal(data.idle_timeout, 900);
    const token = data.token;
    const list = await call(service, 'GET', `${ADMIN}/applications`, { token });
    assert.equal(list.status, 403);
    assert.equal(list.body.code, 40370);
    const session = await call(service, 'GET', `${ADMIN}/session`, { token });
    assert.equal((session.body.data as { mfa_enrolment_required: boolean }).mfa_enrolment_required, true);

    const started = await call(service, 'POST', `${ADMIN}/mfa/enrol`, { token, body: {} });
    const totp = OTPAuth.URI.parse((started.body.data as { otpauth_uri: string }).otpauth_uri);
    const confirmed = await call(service, 'POST', `${ADMIN}/mfa/confirm`, {
      token,
      body: { otp: totp.generate({ timestamp: Date.now() }) },
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.equal((await call(service, 'GET', `${ADMIN}/applications`, { token })).status, 200);
  });

  test('the test helper signs in with a factor of its own', async () => {
    const operator = await newOperator(service, 'viewer', uniqueName('helper'), { mfa: true });
    assert.equal(
      (await call(service, 'GET', `${ADMIN}/applications`, { token: operator.token })).status,
      200,
    );
    const factor = await enrolFactor(service, uniqueName('x')).catch((e: unknown) => e);
    assert.ok(factor instanceof Error, 'no factor for an unknown operator');
  });
});
