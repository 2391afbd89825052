import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as OTPAuth from 'otpauth';
import { SYSTEM } from '../../src/audit/actor.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { buildProgram } from '../../src/cli/program.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { claimApplication } from '../../src/applications/commands/reviewClaims.ts';
import { startEnrolment } from '../../src/operators/totp.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { createSubjectRequest } from '../../src/subjects/subjectRequests.ts';
import type { Status } from '../../src/record/lifecycle.ts';
import { cardapplyJson } from '../helpers/cli.ts';
import { commandTable, routeTable } from '../helpers/routeTable.ts';
import {
  ADMIN,
  Applications,
  call,
  newOperator,
  partnerOf,
  TEST_PASSWORD,
  uniqueName,
  type TestOperator,
} from '../helpers/operators.ts';
import { newPartner, post, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { plantHit, unList } from '../screening/screeningHelpers.ts';

/**
 * PCI DSS v4 10.2: every change someone makes leaves exactly one audit row. The admin routes are
 * taken from Fastify's own route table and the CLI commands from the command tree, so a route or
 * command added later without a case here fails the test; each case makes the change for real and
 * counts the rows it wrote.
 */

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Commands that change nothing the audit trail records, and why. */
/**
 * Mutating routes whose single audit row is asserted by their own feature's test, with why they
 * cannot be driven from here.
 */
const AUDITED_ELSEWHERE: Record<string, string> = {};

const READ_ONLY_COMMANDS: Record<string, string> = {
  'screening status': 'reads the lists in force and the open hits',
  serve: 'runs the service',
  worker: 'runs the webhook dispatcher',
  migrate: 'schema migrations: recorded in the migrations table, not a change of data',
  codes: 'reads the code tables in force',
  'keys generate': 'prints a new key; stores nothing',
  'keys status': 'reads',
  'retention run --dry-run': 'reads',
  'apps list': 'reads',
  'operators list': 'reads',
  'applications list': 'reads',
  'applications show': 'reads',
  'audit list': 'a read of the trail: its one audit.read row is test/audit/auditReads.test.ts',
  'audit verify': 'a read of the trail (its hash chain walked): one audit.read row, auditReads.test.ts',
  'webhooks list': 'reads',
  'webhooks deliveries': 'reads',
  'risk policy validate': 'reads a file',
  'risk policy show': 'reads the policy in force',
  'risk explain': 'reads the stored assessment and weighs it again in memory',
  'risk replay':
    'reads the latest assessments and weighs them again in memory (test/risk/riskReplay.test.ts)',
};

for (const storeName of storeNames()) {
  describe(`audit completeness on ${storeName}`, () => {
    let service: TestService;
    let admin: TestOperator;
    let reviewer: TestOperator;
    let applications: Applications;
    let appId: string;
    let env: Record<string, string>;

    before(async () => {
      service = await startService(storeName, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_WORKER: 'false' });
      env = { ...service.target.env, WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent' };
      admin = await newOperator(service, 'admin');
      reviewer = await newOperator(service, 'reviewer');
      applications = new Applications(service);
      appId = (await createApp(service.ctx.store.db, 'Audit partner', Date.now())).app_id;
    });
    after(() => service.close());

    const rows = async () =>
      Number(
        (
          await service.ctx.store.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const newApp = async () => (await createApp(service.ctx.store.db, uniqueName('app'), Date.now())).app_id;
    const newTarget = async () => {
      const username = uniqueName('t');
      await createOperator(
        service.ctx,
        { username, role: 'viewer', password: TEST_PASSWORD },
        { actor: SYSTEM, source: 'test' },
      );
      return username;
    };
    const newEndpoint = async () =>
      (await addEndpoint(service.ctx, { appId, url: 'http://127.0.0.1:9/hooks' })).id;
    const eventId = async () => {
      await newEndpoint();
      await applications.submit(appId);
      const row = await service.ctx.store.db
        .selectFrom('events')
        .select('event_id')
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      return row.event_id;
    };
    const pendingFactor = async () => {
      const username = await newTarget();
      const enrolment = await startEnrolment(service.ctx, username, { actor: SYSTEM, source: 'test' });
      return { username, totp: OTPAuth.URI.parse(enrolment.otpauth_uri) };
    };

    /** A request of a new person whose one application is in `status`. */
    const subjectRequest = async (kind: 'access' | 'portability' | 'deletion', status: Status) => {
      const serial = await applications.inState(appId, status);
      return (await createSubjectRequest(service.ctx, partnerOf(appId), { kind, busi_water_no: serial }))
        .request_id;
    };

    const claimed = async () => {
      const serial = await applications.inState(appId, 'IN_REVIEW');
      await claimApplication(
        service.ctx,
        serial,
        { username: reviewer.username, role: 'reviewer' },
        { actor: SYSTEM, source: 'test' },
      );
      return serial;
    };

    /** `rows`: the audit rows the request writes, when it makes more than one change (1 otherwise). */
    type Case = () => Promise<{
      path: string;
      body?: unknown;
      token?: string;
      rows?: number;
      /** A body that is not JSON (a list file), with its content type. */
      raw?: { contentType: string; text: string };
    }>;
    const HTTP: Record<string, Case> = {
      'POST /admin/v1/login': async () => ({
        path: '/login',
        body: { username: reviewer.username, password: TEST_PASSWORD },
      }),
      'POST /admin/v1/logout': async () => ({
        path: '/logout',
        body: {},
        token: (await newOperator(service, 'viewer')).token,
      }),
      'POST /admin/v1/mfa/enrol': async () => ({
        path: '/mfa/enrol',
        body: {},
        token: (await newOperator(service, 'viewer')).token,
      }),
      'POST /admin/v1/mfa/confirm': async () => {
        const operator = await newOperator(service, 'viewer');
        const enrolment = await startEnrolment(service.ctx, operator.username, {
          actor: SYSTEM,
          source: 'test',
        });
        const otp = OTPAuth.URI.parse(enrolment.otpauth_uri).generate();
        return { path: '/mfa/confirm', body: { otp }, token: operator.token };
      },
      'POST /admin/v1/applications/:busi_water_no/reveal': async () => ({
        path: `/applications/${await applications.inState(appId, 'SUBMITTED')}/reveal`,
        body: { field: 'cert_id', purpose: 'identity_check' },
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/review': async () => ({
        path: `/applications/${await applications.inState(appId, 'SUBMITTED')}/review`,
        body: {},
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/reject': async () => ({
        path: `/applications/${await applications.inState(appId, 'IN_REVIEW')}/reject`,
        body: { reason: 'address unclear', reason_codes: ['address_incomplete'] },
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/supplement': async () => ({
        path: `/applications/${await applications.inState(appId, 'IN_REVIEW')}/supplement`,
        body: { reason_codes: ['document_unreadable'], requested_fields: ['id_card_img'] },
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/return': async () => ({
        path: `/applications/${await applications.inState(appId, 'SHIPPED')}/return`,
        body: { reason_codes: ['recipient_unreachable'] },
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/approve': async () => ({
        path: `/applications/${await applications.inState(appId, 'IN_REVIEW')}/approve`,
        body: {},
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/issue': async () => ({
        path: `/applications/${await applications.inState(appId, 'APPROVED')}/issue`,
        body: {},
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/ship': async () => ({
        path: `/applications/${await applications.inState(appId, 'CARD_ISSUED')}/ship`,
        body: { carrier: 'EMS', tracking_no: 'EE123456789CN' },
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/deliver': async () => ({
        path: `/applications/${await applications.inState(appId, 'SHIPPED')}/deliver`,
        body: {},
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/claim': async () => ({
        path: `/applications/${await applications.inState(appId, 'IN_REVIEW')}/claim`,
        body: {},
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/release': async () => ({
        path: `/applications/${await claimed()}/release`,
        body: {},
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/reassign': async () => ({
        path: `/applications/${await claimed()}/reassign`,
        body: { username: admin.username },
      }),
      'POST /admin/v1/applications/:busi_water_no/open-for-review': async () => ({
        path: `/applications/${await claimed()}/open-for-review`,
        body: { purpose: 'document_comparison' },
        token: reviewer.token,
      }),
      'POST /admin/v1/applications/:busi_water_no/screening/:hit_id/clear': async () => {
        const serial = await applications.inState(appId, 'IN_REVIEW');
        return {
          path: `/applications/${serial}/screening/${await plantHit(service, serial)}/clear`,
          body: { note: 'a namesake: another date of birth' },
          token: reviewer.token,
        };
      },
      'POST /admin/v1/applications/:busi_water_no/screening/:hit_id/confirm': async () => {
        const serial = await applications.inState(appId, 'IN_REVIEW');
        const hit = await plantHit(service, serial, { clearedBy: uniqueName('first') });
        return { path: `/applications/${serial}/screening/${hit}/confirm`, body: {}, token: reviewer.token };
      },
      // Two changes, each with its row: the application's rejection (application.transition, as
      // every state change) and the hit's confirmation (screening.reject).
      'POST /admin/v1/applications/:busi_water_no/screening/:hit_id/reject': async () => {
        const serial = await applications.inState(appId, 'IN_REVIEW');
        return {
          path: `/applications/${serial}/screening/${await plantHit(service, serial)}/reject`,
          body: {},
          token: reviewer.token,
          rows: 2,
        };
      },
      'POST /admin/v1/screening/lists/:list': async () => ({
        path: '/screening/lists/un',
        raw: {
          contentType: 'application/xml',
          text: unList({
            dataId: 8,
            first: 'AUDIT',
            second: 'ROW',
            reference: 'TSi.AUDIT',
            original: '审计',
          }),
        },
      }),
      'POST /admin/v1/apps': async () => ({ path: '/apps', body: { name: 'Another partner' } }),
      'POST /admin/v1/apps/:app_id/disable': async () => ({
        path: `/apps/${await newApp()}/disable`,
        body: {},
      }),
      'POST /admin/v1/apps/:app_id/enable': async () => ({
        path: `/apps/${await newApp()}/enable`,
        body: {},
      }),
      'POST /admin/v1/apps/:app_id/risk-level': async () => ({
        path: `/apps/${await newApp()}/risk-level`,
        body: { level: 'medium', reason: 'a new partner, volumes unknown' },
      }),
      'POST /admin/v1/apps/:app_id/rotate-secret': async () => ({
        path: `/apps/${await newApp()}/rotate-secret`,
        body: {},
      }),
      'POST /admin/v1/operators': async () => ({
        path: '/operators',
        body: { username: uniqueName('op'), role: 'viewer', password: TEST_PASSWORD },
      }),
      'POST /admin/v1/operators/:username/disable': async () => ({
        path: `/operators/${await newTarget()}/disable`,
        body: {},
      }),
      'POST /admin/v1/operators/:username/enable': async () => ({
        path: `/operators/${await newTarget()}/enable`,
        body: {},
      }),
      'POST /admin/v1/operators/:username/role': async () => ({
        path: `/operators/${await newTarget()}/role`,
        body: { role: 'reviewer' },
      }),
      'POST /admin/v1/operators/:username/compliance': async () => ({
        path: `/operators/${await newTarget()}/compliance`,
        body: { compliance: true },
      }),
      'POST /admin/v1/subject-requests/:request_id/start': async () => ({
        path: `/subject-requests/${await subjectRequest('access', 'DELIVERED')}/start`,
        body: {},
        token: reviewer.token,
      }),
      'POST /admin/v1/subject-requests/:request_id/refuse': async () => ({
        path: `/subject-requests/${await subjectRequest('portability', 'DELIVERED')}/refuse`,
        body: { reason_code: 'excessive', reason: 'The same copy was sent last week.' },
        token: reviewer.token,
      }),
      // Two changes: the cancelled application's erasure (application.erase) and the request's end.
      'POST /admin/v1/subject-requests/:request_id/delete': async () => ({
        path: `/subject-requests/${await subjectRequest('deletion', 'CANCELLED')}/delete`,
        body: {},
        token: reviewer.token,
        rows: 2,
      }),
      // Two changes: the application's request for information (application.transition) and the
      // request's start, linked to it.
      'POST /admin/v1/subject-requests/:request_id/request-information': async () => {
        const serial = await applications.inState(appId, 'IN_REVIEW');
        const { request_id } = await createSubjectRequest(service.ctx, partnerOf(appId), {
          kind: 'correction',
          busi_water_no: serial,
        });
        return {
          path: `/subject-requests/${request_id}/request-information`,
          body: { busi_water_no: serial, requested_fields: ['email'], reason_codes: ['other'] },
          token: reviewer.token,
          rows: 2,
        };
      },
      'POST /admin/v1/operators/:username/password': async () => ({
        path: `/operators/${await newTarget()}/password`,
        body: { password: 'another long password' },
      }),
      'POST /admin/v1/operators/:username/mfa/reset': async () => ({
        path: `/operators/${await newTarget()}/mfa/reset`,
        body: {},
      }),
      'POST /admin/v1/webhooks': async () => ({
        path: '/webhooks',
        body: { app_id: appId, url: 'http://127.0.0.1:9/new' },
      }),
      'DELETE /admin/v1/webhooks/:id': async () => ({ path: `/webhooks/${await newEndpoint()}` }),
      'POST /admin/v1/webhooks/:id/rotate-secret': async () => ({
        path: `/webhooks/${await newEndpoint()}/rotate-secret`,
        body: {},
      }),
      'POST /admin/v1/webhooks/:id/redeliver-failed': async () => ({
        path: `/webhooks/${await newEndpoint()}/redeliver-failed`,
        body: {},
      }),
      'POST /admin/v1/webhooks/:id/disable': async () => ({
        path: `/webhooks/${await newEndpoint()}/disable`,
        body: {},
      }),
      'POST /admin/v1/webhooks/:id/enable': async () => ({
        path: `/webhooks/${await newEndpoint()}/enable`,
        body: {},
      }),
      'POST /admin/v1/events/:event_id/redeliver': async () => ({
        path: `/events/${await eventId()}/redeliver`,
        body: {},
      }),
    };

    test('every mutating admin route in the route table has a case here', () => {
      const mutating = routeTable(service.app).filter(
        (r) => r.includes(ADMIN) && MUTATING.has(r.split(' ')[0]!),
      );
      assert.ok(mutating.length >= 25, `found ${mutating.length} routes: is the route table parsed?`);
      assert.deepEqual(
        mutating.filter((r) => !(r in HTTP) && !(r in AUDITED_ELSEWHERE)).sort(),
        [],
        'routes without a case',
      );
      assert.deepEqual(
        Object.keys(HTTP).filter((r) => !mutating.includes(r)),
        [],
        'cases without a route',
      );
    });

    for (const [route, fixture] of Object.entries(HTTP)) {
      test(`${route} writes exactly one audit row per change`, async () => {
        const { path, body, token, raw, rows: expected = 1 } = await fixture();
        const before = await rows();
        const reply =
          raw === undefined
            ? await call(service, route.split(' ')[0]!, `${ADMIN}${path}`, {
                token: token ?? admin.token,
                ...(body === undefined ? {} : { body }),
              })
            : await post(service.baseUrl, `${ADMIN}${path}`, undefined, {
                token: token ?? admin.token,
                headers: { 'content-type': raw.contentType },
                raw: raw.text,
              });
        assert.ok(reply.status >= 200 && reply.status < 300, `${route}: ${reply.status} ${reply.text}`);
        assert.equal((await rows()) - before, expected, route);
      });
    }

    type CliCase = () => Promise<string[]>;
    const serial = (status: Parameters<Applications['inState']>[1]) => applications.inState(appId, status);
    const CLI: Record<string, CliCase> = {
      'apps create': async () => ['apps', 'create', '--name', 'CLI partner'],
      'screening import': async () => [
        'screening',
        'import',
        '--list',
        'un',
        '--file',
        fileURLToPath(new URL('../screening/fixtures/un-consolidated.xml', import.meta.url)),
      ],
      'apps rotate-secret': async () => ['apps', 'rotate-secret', '--app', await newApp()],
      'apps disable': async () => ['apps', 'disable', '--app', await newApp()],
      'apps enable': async () => ['apps', 'enable', '--app', await newApp()],
      'apps risk-level': async () => [
        'apps',
        'risk-level',
        '--app',
        await newApp(),
        '--level',
        'high',
        '--reason',
        'chargebacks',
        '--operator',
        admin.username,
      ],
      'apps set-limit': async () => [
        'apps',
        'set-limit',
        '--app',
        await newApp(),
        '--per-second',
        '5',
        '--burst',
        '10',
      ],
      'apps set-concurrency': async () => [
        'apps',
        'set-concurrency',
        '--app',
        await newApp(),
        '--limit',
        '32',
      ],
      // A token to revoke: revoking none changes nothing and is not recorded.
      'tokens revoke': async () => ['tokens', 'revoke', '--app', (await newPartner(service)).appId],
      'operators create': async () => [
        'operators',
        'create',
        '--username',
        uniqueName('cli'),
        '--role',
        'viewer',
        '--password',
        TEST_PASSWORD,
      ],
      'operators disable': async () => ['operators', 'disable', '--username', await newTarget()],
      'operators enable': async () => ['operators', 'enable', '--username', await newTarget()],
      'operators set-role': async () => [
        'operators',
        'set-role',
        '--username',
        await newTarget(),
        '--role',
        'admin',
      ],
      'operators set-password': async () => [
        'operators',
        'set-password',
        '--username',
        await newTarget(),
        '--password',
        'yet another long one',
      ],
      'operators mfa-enrol': async () => ['operators', 'mfa-enrol', '--username', await newTarget()],
      'operators mfa-confirm': async () => {
        const { username, totp } = await pendingFactor();
        return ['operators', 'mfa-confirm', '--username', username, '--otp', totp.generate()];
      },
      'operators mfa-reset': async () => [
        'operators',
        'mfa-reset',
        '--username',
        (await pendingFactor()).username,
      ],
      'applications reveal': async () => [
        'applications',
        'reveal',
        await serial('SUBMITTED'),
        '--field',
        'cert_id',
        '--operator',
        reviewer.username,
        '--purpose',
        'identity_check',
      ],
      'applications review': async () => [
        'applications',
        'review',
        await serial('SUBMITTED'),
        '--operator',
        reviewer.username,
      ],
      'applications approve': async () => [
        'applications',
        'approve',
        await serial('IN_REVIEW'),
        '--operator',
        reviewer.username,
      ],
      'applications reject': async () => [
        'applications',
        'reject',
        await serial('IN_REVIEW'),
        '--operator',
        reviewer.username,
        '--reason',
        'unreadable',
        '--reason-code',
        'document_unreadable',
      ],
      'applications supplement': async () => [
        'applications',
        'supplement',
        await serial('IN_REVIEW'),
        '--operator',
        reviewer.username,
        '--field',
        'id_card_img',
        '--reason-code',
        'document_unreadable',
      ],
      'applications return': async () => [
        'applications',
        'return',
        await serial('SHIPPED'),
        '--operator',
        reviewer.username,
        '--reason-code',
        'recipient_unreachable',
      ],
      'applications issue': async () => [
        'applications',
        'issue',
        await serial('APPROVED'),
        '--operator',
        reviewer.username,
      ],
      'applications ship': async () => [
        'applications',
        'ship',
        await serial('CARD_ISSUED'),
        '--operator',
        reviewer.username,
        '--carrier',
        'EMS',
        '--tracking-no',
        'EE1',
      ],
      'applications deliver': async () => [
        'applications',
        'deliver',
        await serial('SHIPPED'),
        '--operator',
        reviewer.username,
      ],
      'webhooks add': async () => ['webhooks', 'add', '--app', appId, '--url', 'http://127.0.0.1:9/cli'],
      'webhooks rotate-secret': async () => ['webhooks', 'rotate-secret', '--id', await newEndpoint()],
      'webhooks disable': async () => ['webhooks', 'disable', '--id', await newEndpoint()],
      'webhooks enable': async () => ['webhooks', 'enable', '--id', await newEndpoint()],
      'webhooks delete': async () => ['webhooks', 'delete', '--id', await newEndpoint()],
      'webhooks redeliver': async () => ['webhooks', 'redeliver', '--event', await eventId()],
      'retention run': async () => ['retention', 'run', '--days', '3650'],
      'keys rotate': async () => ['keys', 'rotate'],
      'keys reencrypt': async () => ['keys', 'reencrypt'],
      'keys retire': async () => ['keys', 'retire', service.ctx.keyRing.keyIds[0]!],
    };
    // Keys live in the data directory's key file on SQLite; with ENCRYPTION_KEYS they are the
    // deployment's, and the commands print what to change instead (tested in keyManagement).
    const KEY_COMMANDS = ['keys rotate', 'keys reencrypt', 'keys retire'];

    test('every CLI command is either read-only (with a reason) or has a case here', () => {
      const commands = commandTable(buildProgram());
      assert.ok(commands.length >= 40, `found ${commands.length} commands`);
      const unclassified = commands.filter((c) => !(c in CLI) && !(c in READ_ONLY_COMMANDS));
      assert.deepEqual(unclassified, [], 'commands without a case or a reason');
      assert.deepEqual(
        Object.keys(CLI).filter((c) => !commands.includes(c)),
        [],
        'cases without a command',
      );
    });

    for (const [command, fixture] of Object.entries(CLI)) {
      const skip = storeName === 'postgres' && KEY_COMMANDS.includes(command);
      test(`cardapply ${command} writes exactly one audit row, naming its operator`, { skip }, async () => {
        const args = await fixture();
        const before = await rows();
        // An admin runs every command (CARDAPPLY_OPERATOR) but those that name a reviewer.
        await cardapplyJson({ ...env, CARDAPPLY_OPERATOR: admin.username }, ...args);
        assert.equal((await rows()) - before, 1, `cardapply ${args.join(' ')}`);
        const row = await service.ctx.store.db
          .selectFrom('audit_log')
          .select('actor')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        const named = args.includes(reviewer.username) ? reviewer : admin;
        assert.equal(row.actor, `operator:${named.username}`, `cardapply ${args.join(' ')}`);
      });
    }
  });
}
