import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildProgram } from '../../src/cli/program.ts';
import { cardapply, cardapplyJson } from '../helpers/cli.ts';
import { ADMIN, Applications, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { commandTable, routeTable } from '../helpers/routeTable.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * PCI DSS v4 10.2.1.3: every access to the audit trail is itself recorded, as one `audit.read` row
 * (who, the filter, how many rows it answered, when), and a read of those rows is one more row,
 * never a loop. As auditCompleteness.test.ts lists writes, the admin API's reads are taken from
 * Fastify's route table and the CLI's from the command tree: a route or command added later must be
 * classified here, as a read of the trail with a case or as reading something else with a reason.
 */

/** Admin routes that read no row of the audit trail, and what they read instead. */
const NOT_TRAIL_READS: Record<string, string> = {
  'GET /admin/v1/me': 'the signed-in operator',
  'GET /admin/v1/mfa': "the operator's own second factor",
  'GET /admin/v1/session': 'the session',
  'GET /admin/v1/applications': 'applications',
  'GET /admin/v1/applications/counts': 'the counts per status',
  'GET /admin/v1/applications/:busi_water_no': 'an application and its history (events)',
  'GET /admin/v1/applications/:busi_water_no/documents/:field':
    "a kept document; the service checks its own viewing window in the trail, no person's read",
  'GET /admin/v1/applications/:busi_water_no/documents/:field/preview':
    "a kept image's preview; the same viewing window in the trail as the original's, no person's read",
  'GET /admin/v1/applications/:busi_water_no/events': "an application's events and deliveries",
  'GET /admin/v1/apps': 'apps',
  'GET /admin/v1/operators': 'operators',
  'GET /admin/v1/screening/status': 'screening lists',
  'GET /admin/v1/screening/readiness': 'screening lists',
  'GET /admin/v1/screening/alerts': 'screening hits',
  'GET /admin/v1/claims': 'review claims',
  'GET /admin/v1/workload': 'the workload counts',
  'GET /admin/v1/webhooks': 'webhook endpoints',
  'GET /admin/v1/webhooks/:id': 'a webhook endpoint',
  'GET /admin/v1/webhooks/:id/deliveries': 'deliveries',
  'GET /admin/v1/events/:event_id/deliveries': 'deliveries',
  'GET /admin/v1/subject-requests': "applicants' requests through the partners",
  'GET /admin/v1/subject-requests/:request_id': "an applicant's request",
};

/** CLI groups (or lone commands) that never read the audit trail, and why. */
const NOT_TRAIL_COMMAND_GROUPS: Record<string, string> = {
  apps: 'apps and their credentials',
  tokens: 'tokens',
  operators: 'operators',
  applications: 'applications',
  webhooks: 'webhook endpoints and deliveries',
  keys: 'the key ring',
  retention: 'applications past retention',
  screening: 'screening lists',
  risk: 'risk assessments and the policy',
  codes: 'code tables',
  serve: 'runs the service',
  worker: 'runs the dispatcher',
  migrate: 'the schema',
};

interface ReadRow {
  actor: string;
  action: string;
  target_type: string | null;
  details: { via: string; filter: Record<string, unknown>; rows: number };
  source: string;
}

for (const storeName of storeNames()) {
  describe(`reads of the audit trail on ${storeName}`, () => {
    let service: TestService;
    let viewer: TestOperator;
    let env: Record<string, string>;

    before(async () => {
      service = await startService(storeName);
      env = { ...service.target.env, LOG_LEVEL: 'silent' };
      viewer = await newOperator(service, 'viewer');
      // A trail to read: an application moved along by a reviewer.
      const partner = await newPartner(service);
      await new Applications(service).inState(partner.appId, 'DELIVERED');
    });
    after(() => service.close());

    const count = async () =>
      Number(
        (
          await service.ctx.store.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    /** The rows written since `before` rows, oldest first, details parsed. */
    const since = async (before: number): Promise<ReadRow[]> => {
      const rows = await service.ctx.store.db
        .selectFrom('audit_log')
        .selectAll()
        .orderBy('id', 'asc')
        .offset(before)
        .limit(1000)
        .execute();
      return rows.map((row) => ({
        ...row,
        details: JSON.parse(row.details ?? 'null') as ReadRow['details'],
      }));
    };
    const get = async (query: string) => {
      const reply = await call(service, 'GET', `${ADMIN}/audit${query}`, { token: viewer.token });
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as { items: { action: string; details: ReadRow['details'] }[] };
    };

    test('every admin GET route is classified, and the trail is read only at /audit', () => {
      const gets = routeTable(service.app).filter((r) => r.startsWith(`GET ${ADMIN}/`));
      assert.ok(gets.length >= 15, `found ${gets.length} routes: is the route table parsed?`);
      const reads = gets.filter((r) => !(r in NOT_TRAIL_READS));
      assert.deepEqual(reads, [`GET ${ADMIN}/audit`], 'routes that read the trail or are unclassified');
      assert.deepEqual(
        Object.keys(NOT_TRAIL_READS).filter((r) => !gets.includes(r)),
        [],
        'reasons for routes that no longer exist',
      );
    });

    test('every CLI command is classified: the audit group reads the trail, the others never do', () => {
      const commands = commandTable(buildProgram());
      const unclassified = commands.filter((c) => !(c.split(' ')[0]! in NOT_TRAIL_COMMAND_GROUPS));
      assert.deepEqual(unclassified.sort(), ['audit list', 'audit verify']);
    });

    test('GET /audit writes exactly one row after the read: who, the filter, how many rows', async () => {
      const before = await count();
      const page = await get('?target_type=application&limit=3');
      const written = await since(before);
      assert.equal(written.length, 1, 'one row for the read');
      const row = written[0]!;
      assert.deepEqual(
        [row.actor, row.action, row.target_type, row.source.startsWith('admin-api ')],
        [`operator:${viewer.username}`, 'audit.read', 'audit_log', true],
      );
      assert.deepEqual(row.details, {
        via: 'list',
        filter: { target_type: 'application', limit: 3 },
        rows: page.items.length,
      });
      assert.equal(page.items.length, 3);
      assert.ok(
        page.items.every((item) => item.action !== 'audit.read'),
        'the read is not shown its own row',
      );
    });

    test('a read of the reads is one row more, and the next such read shows it', async () => {
      const before = await count();
      const first = await get('?action=audit.read&limit=100');
      assert.equal((await count()) - before, 1, 'one row, no loop');
      const second = await get('?action=audit.read&limit=100');
      assert.equal((await count()) - before, 2);
      assert.equal(second.items.length, first.items.length + 1);
      assert.deepEqual(second.items[0]!.details, {
        via: 'list',
        filter: { action: 'audit.read', limit: 100 },
        rows: first.items.length,
      });
    });

    test('cardapply audit list writes exactly one row, naming the operator who read', async () => {
      const before = await count();
      const page = await cardapplyJson<{ items: unknown[] }>(
        env,
        'audit',
        'list',
        '--limit',
        '7',
        '--operator',
        viewer.username,
      );
      const written = await since(before);
      assert.equal(written.length, 1);
      assert.equal(written[0]!.actor, `operator:${viewer.username}`);
      assert.match(written[0]!.source, /^cli/);
      assert.deepEqual(written[0]!.details, { via: 'list', filter: { limit: 7 }, rows: page.items.length });
    });

    test('cardapply audit verify writes exactly one row, naming the rows it walked', async () => {
      const before = await count();
      const report = JSON.parse(await cardapply(env, 'audit', 'verify', '--json')) as {
        ok: boolean;
        rows: number;
      };
      assert.equal(report.ok, true);
      assert.equal(report.rows, before, 'the walk went through the whole trail');
      const written = await since(before);
      assert.equal(written.length, 1);
      assert.deepEqual(
        [written[0]!.action, written[0]!.details],
        ['audit.read', { via: 'verify', filter: {}, rows: before }],
      );
      // The trail with its read rows still verifies.
      const again = JSON.parse(await cardapply(env, 'audit', 'verify', '--json')) as { ok: boolean };
      assert.equal(again.ok, true);
    });
  });
}
