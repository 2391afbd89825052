import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { cardapply, cardapplyFails, cardapplyJson } from '../helpers/cli.ts';
import { TEST_PASSWORD } from '../helpers/operators.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Operator commands name the operator who runs them (`--operator`, or CARDAPPLY_OPERATOR), checked
 * against the operators table and recorded as the actor, in the audit trail and in a list import's
 * `imported_by`. What the console does only in a session with a second factor is refused without
 * an operator; the first admin is created without one (nobody could be named yet), and the
 * service's own commands (migrate, the audit chain's check) still run as the system. On each
 * store, through the real `cardapply` process.
 */

const LIST = fileURLToPath(new URL('../screening/fixtures/un-consolidated.xml', import.meta.url));

interface AuditRow {
  actor: string;
  action: string;
  target_id: string | null;
  source: string;
}

for (const storeName of storeNames()) {
  describe(`cardapply as a named operator on ${storeName}`, () => {
    let service: TestService;
    let env: Record<string, string>;

    before(async () => {
      service = await startService(storeName);
      env = { ...service.target.env, LOG_LEVEL: 'silent', CARDAPPLY_OPERATOR: '' };
    });
    after(() => service.close());

    const trail = async (): Promise<AuditRow[]> =>
      (await service.ctx.store.db
        .selectFrom('audit_log')
        .select(['actor', 'action', 'target_id', 'source'])
        .orderBy('id', 'asc')
        .execute()) as AuditRow[];
    const lastRow = async (action: string) => (await trail()).filter((row) => row.action === action).at(-1);
    const refusedWithout = (message: string) =>
      assert.match(
        message,
        /is an operator's command: name the operator who runs it with --operator <username> \(or CARDAPPLY_OPERATOR\)/,
      );

    test('the first admin is made from a shell without an operator; every later account names its admin', async () => {
      const create = (username: string, role: string, ...more: string[]) => [
        'operators',
        'create',
        '--username',
        username,
        '--role',
        role,
        '--password',
        TEST_PASSWORD,
        ...more,
      ];
      const reviewerFirst = await cardapplyFails(env, ...create('rita', 'reviewer'));
      assert.match(reviewerFirst, /the first operator, created without --operator, must be an admin/);
      await cardapplyJson(env, ...create('ada', 'admin'));
      const first = await lastRow('operator.create');
      assert.deepEqual([first?.actor, first?.target_id], ['system', 'ada']);
      assert.match(first!.source, /^cli/);
      // An admin exists: nobody else is made without naming who makes them.
      const second = await cardapplyFails(env, ...create('bob', 'admin'));
      refusedWithout(second);
      assert.match(second, /only the first admin is created without one/);
      await cardapplyJson(env, ...create('rita', 'reviewer', '--operator', 'ada'));
      await cardapplyJson({ ...env, CARDAPPLY_OPERATOR: 'ada' }, ...create('vic', 'viewer'));
      assert.deepEqual(
        (await trail())
          .filter((row) => row.action === 'operator.create')
          .map((row) => [row.target_id, row.actor]),
        [
          ['ada', 'system'],
          ['rita', 'operator:ada'],
          ['vic', 'operator:ada'],
        ],
      );
    });

    test('what the console guards is refused without an operator, before it prompts or changes anything', async () => {
      const before = (await trail()).length;
      for (const args of [
        ['apps', 'create', '--name', 'Nobody'],
        ['apps', 'disable', '--app', 'app_0000000000000000'],
        ['apps', 'risk-level', '--app', 'app_0000000000000000', '--level', 'high', '--reason', 'x'],
        ['tokens', 'revoke', '--app', 'app_0000000000000000'],
        ['operators', 'set-role', '--username', 'rita', '--role', 'admin'],
        ['operators', 'set-password', '--username', 'rita'],
        ['operators', 'mfa-reset', '--username', 'rita'],
        ['operators', 'mfa-enrol', '--username', 'rita'],
        ['webhooks', 'add', '--app', 'app_0000000000000000', '--url', 'https://partner.example/hooks'],
        ['webhooks', 'redeliver', '--event', 'evt_0'],
        ['screening', 'import', '--list', 'un', '--file', LIST],
        ['audit', 'list'],
        ['applications', 'list'],
        ['applications', 'review', '01M897M2742BW3QS06MJE3BE0FKYHWPM'],
      ]) {
        const message = await cardapplyFails(env, ...args);
        refusedWithout(message);
        assert.match(
          message,
          new RegExp(`^error: ${args[0]} ${args[1]} is an operator's command`),
          args.join(' '),
        );
      }
      assert.equal((await trail()).length, before, 'nothing written, no read recorded');
    });

    test('the operator named is recorded as the actor: by option, by environment, in a list import', async () => {
      const created = await cardapplyJson<{ app_id: string }>(
        env,
        'apps',
        'create',
        '--name',
        'Lotus',
        '--operator',
        'ada',
      );
      const made = await lastRow('app.create');
      assert.deepEqual([made?.actor, made?.target_id], ['operator:ada', created.app_id]);
      assert.match(made!.source, /^cli /);
      // The option may stand before the command too; the environment serves a whole session.
      await cardapply(env, '--operator', 'ada', 'apps', 'disable', '--app', created.app_id);
      assert.equal((await lastRow('app.disable'))?.actor, 'operator:ada');
      await cardapply({ ...env, CARDAPPLY_OPERATOR: 'ada' }, 'apps', 'enable', '--app', created.app_id);
      assert.equal((await lastRow('app.enable'))?.actor, 'operator:ada');
      // The option wins over the environment.
      await cardapply(
        { ...env, CARDAPPLY_OPERATOR: 'nobody' },
        'apps',
        'disable',
        '--app',
        created.app_id,
        '--operator',
        'ada',
      );
      assert.equal((await lastRow('app.disable'))?.actor, 'operator:ada');

      await cardapply(env, 'screening', 'import', '--list', 'un', '--file', LIST, '--operator', 'ada');
      const status = await cardapplyJson<{ in_force: { list: string; imported_by: string }[] }>(
        env,
        'screening',
        'status',
      );
      assert.deepEqual(
        status.in_force.filter((v) => v.list === 'un').map((v) => v.imported_by),
        ['operator:ada'],
      );
      assert.equal((await lastRow('screening.import'))?.actor, 'operator:ada');

      // A reviewer acts on applications as the API lets one.
      const page = await cardapplyJson<{ items: unknown[] }>(
        env,
        'applications',
        'list',
        '--operator',
        'rita',
      );
      assert.ok(Array.isArray(page.items));
      await cardapply(env, 'audit', 'list', '--limit', '1', '--operator', 'vic');
      assert.equal((await lastRow('audit.read'))?.actor, 'operator:vic');
    });

    test('an operator named must exist, be enabled and have the role the console would ask for', async () => {
      const app = ['apps', 'create', '--name', 'Refused'];
      assert.match(
        await cardapplyFails(env, ...app, '--operator', 'ghost'),
        /^error: --operator ghost: no such operator/,
      );
      assert.match(
        await cardapplyFails(env, ...app, '--operator', 'rita'),
        /^error: --operator rita: a reviewer cannot do this; admin or higher is required/,
      );
      assert.match(
        await cardapplyFails(
          env,
          'applications',
          'review',
          '01M897M2742BW3QS06MJE3BE0FKYHWPM',
          '--operator',
          'vic',
        ),
        /^error: --operator vic: a viewer cannot do this; reviewer or higher is required/,
      );
      // An operator enrols their own second factor; an admin may enrol another's.
      assert.match(
        await cardapplyFails(env, 'operators', 'mfa-enrol', '--username', 'vic', '--operator', 'rita'),
        /^error: --operator rita: an operator enrols their own second factor/,
      );
      await cardapplyJson(env, 'operators', 'mfa-enrol', '--username', 'rita', '--operator', 'rita');
      await cardapply(env, 'operators', 'disable', '--username', 'vic', '--operator', 'ada');
      assert.match(
        await cardapplyFails(env, 'audit', 'list', '--operator', 'vic'),
        /^error: --operator vic: the operator is disabled/,
      );
      assert.deepEqual(
        (await trail()).filter((row) => row.action === 'app.create').map((row) => row.actor),
        ['operator:ada'],
        'no app was made by a refused command',
      );
    });

    test("the service's own commands run without an operator, as the system, and record one when named", async () => {
      assert.match(await cardapply(env, 'migrate', '--status'), /applied/);
      const verified = JSON.parse(await cardapply(env, 'audit', 'verify', '--json')) as { ok: boolean };
      assert.equal(verified.ok, true);
      assert.equal((await lastRow('audit.read'))?.actor, 'system');
      await cardapply(env, 'audit', 'verify', '--operator', 'ada');
      assert.equal((await lastRow('audit.read'))?.actor, 'operator:ada');
      await cardapply(env, 'codes', 'reason', '--json');
    });
  });
}
