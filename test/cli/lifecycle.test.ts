import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../src/partners/credentials.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { partnerOf, TEST_PASSWORD } from '../helpers/operators.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

/**
 * `cardapply operators|applications|audit` as an operator runs them: separate processes on the
 * same store, through the same domain code as the admin API (same rules, history and audit).
 */
const BIN = fileURLToPath(new URL('../../bin/cardapply.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(target: Pick<StoreTarget, 'env'>, args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...target.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

function json<T>(run: Run): T {
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

test('--version prints the package version alone, with no configuration or store to read', async () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  // A configuration that every command with a store refuses (exit 78): --version never reads it.
  const unconfigured = { env: { PORT: 'not a port' } };
  assert.deepEqual(await cli(unconfigured, ['--version']), { code: 0, stdout: `${version}\n`, stderr: '' });
  assert.deepEqual(await cli(unconfigured, ['-V']), { code: 0, stdout: `${version}\n`, stderr: '' });
  const refused = await cli(unconfigured, ['apps', 'list']);
  assert.equal(refused.code, 78);
  assert.match(refused.stderr, /^configuration error: /);
});

for (const storeName of storeNames()) {
  describe(`cardapply CLI lifecycle on ${storeName}`, () => {
    let target: StoreTarget;
    let ctx: ServiceContext;
    const serials: string[] = [];
    const certIds: string[] = [];

    before(async () => {
      target = createStoreTarget(storeName);
      ctx = await openContext(loadConfig(target.env), createLogger({ logLevel: 'silent' }));
      const app = await createApp(ctx.store.db, 'cli partner', Date.now());
      for (let i = 0; i < 3; i++) {
        const applicant = uniqueApplicant(i, app.app_id);
        certIds.push(applicant.cert_id);
        serials.push((await submitApplication(ctx, partnerOf(app.app_id), applicant)).busi_water_no);
      }
    });
    after(async () => {
      await ctx.store.close();
      await target.cleanup();
    });

    test('operators are created with a password from stdin or the option, never without one', async () => {
      const admin = json<{ username: string; role: string }>(
        await cli(
          target,
          ['operators', 'create', '--username', 'ada', '--role', 'admin', '--password-stdin', '--json'],
          `${TEST_PASSWORD}\n`,
        ),
      );
      assert.deepEqual([admin.username, admin.role], ['ada', 'admin']);
      const reviewer = await cli(target, [
        'operators',
        'create',
        '--username',
        'rey',
        '--role',
        'reviewer',
        '--password',
        TEST_PASSWORD,
        '--operator',
        'ada',
      ]);
      assert.equal(reviewer.code, 0, reviewer.stderr);
      const viewer = await cli(target, [
        'operators',
        'create',
        '--username',
        'vic',
        '--role',
        'viewer',
        '--password',
        TEST_PASSWORD,
        '--operator',
        'ada',
      ]);
      assert.equal(viewer.code, 0, viewer.stderr);

      const none = await cli(target, [
        'operators',
        'create',
        '--username',
        'nopw',
        '--role',
        'viewer',
        '--operator',
        'ada',
      ]);
      assert.equal(none.code, 1);
      assert.match(none.stderr, /no password given/);
      const short = await cli(target, [
        'operators',
        'create',
        '--username',
        'short',
        '--role',
        'viewer',
        '--password',
        'abc',
        '--operator',
        'ada',
      ]);
      assert.equal(short.code, 1);
      assert.match(short.stderr, /^error: password: must be at least 12 characters/);
      const badRole = await cli(target, [
        'operators',
        'create',
        '--username',
        'boss',
        '--role',
        'root',
        '--password',
        TEST_PASSWORD,
        '--operator',
        'ada',
      ]);
      assert.match(badRole.stderr, /role: must be one of viewer, reviewer, admin/);

      const list = json<{ username: string; role: string }[]>(
        await cli(target, ['operators', 'list', '--json']),
      );
      assert.deepEqual(
        list.map((o) => [o.username, o.role]),
        [
          ['ada', 'admin'],
          ['rey', 'reviewer'],
          ['vic', 'viewer'],
        ],
      );
    });

    test('list and show as a viewer, identity fields masked', async () => {
      const page = json<{ items: { busi_water_no: string }[] }>(
        await cli(target, ['applications', 'list', '--operator', 'vic', '--json']),
      );
      assert.deepEqual(
        page.items.map((i) => i.busi_water_no),
        serials,
      );
      const shown = await cli(target, ['applications', 'show', serials[0]!, '--operator', 'vic']);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /status +SUBMITTED/);
      assert.ok(!shown.stdout.includes(certIds[0]!), 'cert_id is masked');
      const unknown = await cli(target, ['applications', 'list', '--operator', 'nobody']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /^error: --operator nobody: no such operator/);
    });

    test('a viewer cannot act: refused, nothing changed', async () => {
      const refused = await cli(target, ['applications', 'review', serials[0]!, '--operator', 'vic']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /^error: --operator vic: a viewer cannot do this/);
      const row = await ctx.store.db
        .selectFrom('applications')
        .select(['status', 'version'])
        .where('busi_water_no', '=', serials[0]!)
        .executeTakeFirstOrThrow();
      assert.deepEqual({ ...row }, { status: 'SUBMITTED', version: 1 });
    });

    test('a reviewer walks an application to DELIVERED and rejects another; forbidden moves are refused', async () => {
      const steps: [string, ...string[]][] = [
        ['review'],
        ['approve', '--reason', 'all in order'],
        ['issue'],
        ['ship', '--carrier', 'SF Express', '--tracking-no', 'SF1234567890'],
        ['deliver'],
      ];
      let view: { status: string; version: number; history: { actor: string }[] } | undefined;
      for (const [action, ...extra] of steps) {
        view = json(
          await cli(target, ['applications', action, serials[0]!, '--operator', 'rey', '--json', ...extra]),
        );
      }
      assert.equal(view!.status, 'DELIVERED');
      assert.equal(view!.version, 6);
      assert.deepEqual(
        view!.history.slice(1).map((h) => h.actor),
        Array(5).fill('operator:rey'),
      );
      const again = await cli(target, ['applications', 'approve', serials[0]!, '--operator', 'rey']);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /^error: status: cannot move from DELIVERED to APPROVED/);

      const noReason = await cli(target, ['applications', 'reject', serials[1]!, '--operator', 'ada']);
      assert.equal(noReason.code, 1);
      assert.match(noReason.stderr, /--reason/);
      const rejected = json<{ status: string; status_reason: string; reason_codes: string[] }>(
        await cli(target, [
          'applications',
          'reject',
          serials[1]!,
          '--operator',
          'ada',
          '--reason',
          'photo unreadable',
          '--reason-code',
          'document_unreadable,image_missing',
          '--json',
        ]),
      );
      assert.deepEqual(
        [rejected.status, rejected.status_reason, rejected.reason_codes],
        ['REJECTED', 'photo unreadable', ['document_unreadable', 'image_missing']],
      );
    });

    test('a reveal prints the field and is audited; the audit list shows who did what from the CLI', async () => {
      const revealed = json<{ field: string; value: string }>(
        await cli(target, [
          'applications',
          'reveal',
          serials[2]!,
          '--field',
          'cert_id',
          '--operator',
          'rey',
          '--purpose',
          'customer_request',
          '--json',
        ]),
      );
      assert.deepEqual(revealed, { busi_water_no: serials[2], field: 'cert_id', value: certIds[2] });
      const audit = await cli(target, ['audit', 'list', '--json', '--limit', '100', '--operator', 'vic']);
      const page = json<{
        items: { actor: string; action: string; target_id: string; details: unknown; source: string }[];
      }>(audit);
      assert.ok(!audit.stdout.includes(certIds[2]!), 'the trail never holds the value');
      const reveal = page.items.find((e) => e.action === 'application.reveal');
      assert.deepEqual(
        [reveal?.actor, reveal?.target_id, reveal?.details],
        ['operator:rey', serials[2], { field: 'cert_id', purpose: 'customer_request', purpose_text: null }],
      );
      assert.match(reveal!.source, /^cli/);
      const moves = page.items.filter((e) => e.action === 'application.transition');
      assert.equal(moves.length, 6, 'five moves of the first application and the rejection');
      const created = page.items
        .filter((e) => e.action === 'operator.create')
        .map((e) => [e.actor, e.target_id]);
      assert.deepEqual(created.reverse(), [
        ['system', 'ada'],
        ['operator:ada', 'rey'],
        ['operator:ada', 'vic'],
      ]);
      const human = await cli(target, [
        'audit',
        'list',
        '--action',
        'application.reveal',
        '--operator',
        'vic',
      ]);
      assert.equal(human.code, 0, human.stderr);
      assert.match(human.stdout, /operator:rey +application\.reveal/);
    });

    test('codes lists the reason table; supplement asks for fields with codes, with one audit row', async () => {
      const reasons = json<{ code: string; other: boolean }[]>(
        await cli(target, ['codes', 'reason', '--json']),
      );
      assert.ok(reasons.some((entry) => entry.code === 'document_unreadable'));
      const app = await createApp(ctx.store.db, 'cli supplement partner', Date.now());
      const serial = (await submitApplication(ctx, partnerOf(app.app_id), uniqueApplicant(3, app.app_id)))
        .busi_water_no;
      json(await cli(target, ['applications', 'review', serial, '--operator', 'rey', '--json']));
      const noFields = await cli(target, [
        'applications',
        'supplement',
        serial,
        '--operator',
        'rey',
        '--reason-code',
        'document_unreadable',
      ]);
      assert.equal(noFields.code, 1);
      assert.match(noFields.stderr, /--field/);
      const asked = json<{ status: string; requested_fields: string[]; reason_codes: string[] }>(
        await cli(target, [
          'applications',
          'supplement',
          serial,
          '--operator',
          'rey',
          '--field',
          'id_card_img,id_card_back_img',
          '--reason-code',
          'document_unreadable',
          '--json',
        ]),
      );
      assert.deepEqual(
        [asked.status, asked.requested_fields, asked.reason_codes],
        ['SUPPLEMENT_REQUIRED', ['id_card_img', 'id_card_back_img'], ['document_unreadable']],
      );
      const audit = await ctx.store.db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('target_id', '=', serial)
        .where('actor', '=', 'operator:rey')
        .execute();
      assert.equal(audit.filter((a) => (a.details ?? '').includes('SUPPLEMENT_REQUIRED')).length, 1);
    });
  });
}
