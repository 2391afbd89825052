import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { listHistory } from '../../src/events/eventRepository.ts';
import type { Status } from '../../src/record/lifecycle.ts';
import { showApplication } from '../../src/applications/views/operatorView.ts';
import type { ApplicationRequest } from '../../src/record/schema.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { listAudit } from '../../src/audit/auditTrail.ts';
import { ERASED_CERT_HASH } from '../../src/record/erasure.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { newAppId } from '../helpers/events.ts';
import { partnerOf, move, pathTo } from '../helpers/operators.ts';
import { spawnService } from '../helpers/process.ts';
import { startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Retention erases exactly the identity data of applications final for longer than the period, by
 * `cardapply retention run` and by the service's scheduled job, audits each erasure once, keeps the
 * record and its history, and leaves no trace of the erased data in the store: not in the SQLite
 * files (secure_delete, truncated WAL), not in a pg_dump.
 */
const BIN = fileURLToPath(new URL('../../bin/cardapply.js', import.meta.url));
const exec = promisify(execFile);
const DAY_MS = 86_400_000;

interface Made {
  serial: string;
  applicant: ApplicationRequest;
  status: Status;
  old: boolean;
}

let counter = 0;
async function make(service: TestService, appId: string, status: Status, old: boolean): Promise<Made> {
  const n = counter++;
  const applicant = uniqueApplicant(n, appId, {
    email: `retention.${n}@example.com`,
    mob_no: `1390013${String(1000 + n).slice(-4)}`,
    address: `广东省-深圳市-南山区-保留路${100 + n}号`,
  });
  const { busi_water_no: serial } = await submitApplication(service.ctx, partnerOf(appId), applicant);
  for (const to of pathTo(status)) await move(service, serial, to, appId);
  if (old) {
    await service.ctx.store.db
      .updateTable('applications')
      .set({ updated_at: Date.now() - 40 * DAY_MS })
      .where('busi_water_no', '=', serial)
      .execute();
  }
  return { serial, applicant, status, old };
}

/** Everything the store holds, as bytes: the SQLite files themselves, or a pg_dump of the schema. */
function dumpOf(service: TestService): string {
  const { target } = service;
  if (target.name === 'sqlite') {
    // Read by another process: closing a file descriptor of the database in this one would drop
    // this process's POSIX locks on it, which SQLite relies on (its connection here goes stale).
    const files = readdirSync(target.dataDir)
      .filter((f) => f.startsWith('cardapply.db'))
      .map((f) => join(target.dataDir, f));
    return execFileSync('cat', files, { encoding: 'latin1', maxBuffer: 256 * 1024 * 1024 });
  }
  return execFileSync('pg_dump', ['--dbname', process.env['DATABASE_URL']!, '--schema', target.schema!], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** Pieces of a stored value, spread over it: a page boundary may split one, not most. */
function pieces(value: string): string[] {
  const size = 24;
  const step = Math.max(size, Math.floor((value.length - size) / 10));
  const out: string[] = [];
  for (let i = 0; i + size <= value.length; i += step) out.push(value.slice(i, i + size));
  return out;
}

function found(dump: string, value: string): number {
  return pieces(value).filter((p) => dump.includes(p)).length;
}

async function rowOf(service: TestService, serial: string) {
  return service.ctx.store.db
    .selectFrom('applications')
    .selectAll()
    .where('busi_water_no', '=', serial)
    .executeTakeFirstOrThrow();
}

for (const storeName of storeNames()) {
  describe(`retention on ${storeName}`, () => {
    test('erases exactly the eligible applications, audited, with no trace in a dump', async () => {
      const service = await startService(storeName);
      const cli = async (...args: string[]) => {
        const { stdout } = await exec(process.execPath, [BIN, 'retention', 'run', ...args, '--json'], {
          env: { ...process.env, ...service.target.env },
        });
        return JSON.parse(stdout) as {
          count: number;
          serials: string[];
          dry_run: boolean;
          store_compacted: boolean | null;
        };
      };
      try {
        const appId = await newAppId(service.ctx, 'retention partner');
        const made: Made[] = [];
        for (const status of ['REJECTED', 'CANCELLED', 'DELIVERED'] as const) {
          made.push(await make(service, appId, status, true), await make(service, appId, status, true));
        }
        made.push(
          await make(service, appId, 'REJECTED', false),
          await make(service, appId, 'DELIVERED', false),
        );
        for (const status of ['SUBMITTED', 'APPROVED', 'SHIPPED'] as const)
          made.push(await make(service, appId, status, true));
        const eligible = made.filter(
          (m) => m.old && ['REJECTED', 'CANCELLED', 'DELIVERED'].includes(m.status),
        );
        const kept = made.filter((m) => !eligible.includes(m));
        assert.equal(eligible.length, 6);

        const before = new Map<string, Awaited<ReturnType<typeof rowOf>>>();
        const histories = new Map<string, number>();
        for (const m of made) {
          before.set(m.serial, await rowOf(service, m.serial));
          histories.set(m.serial, (await listHistory(service.ctx.store.db, m.serial)).length);
        }
        // The dump holds the encrypted applications and document hashes before: the check can see them.
        const dumpBefore = dumpOf(service);
        for (const m of eligible) {
          assert.ok(found(dumpBefore, before.get(m.serial)!.payload_enc) >= 5, 'payload visible before');
          assert.ok(dumpBefore.includes(before.get(m.serial)!.cert_hash), 'cert hash visible before');
        }

        const dry = await cli('--dry-run', '--days', '30');
        assert.equal(dry.dry_run, true);
        assert.deepEqual([...dry.serials].sort(), eligible.map((m) => m.serial).sort());
        for (const m of made)
          assert.equal((await rowOf(service, m.serial)).erased_at, null, 'dry run changes nothing');

        const run = await cli('--days', '30');
        assert.equal(run.count, 6);
        assert.deepEqual([...run.serials].sort(), eligible.map((m) => m.serial).sort());
        assert.equal(run.store_compacted, true);

        for (const m of eligible) {
          const row = await rowOf(service, m.serial);
          const was = before.get(m.serial)!;
          assert.ok(row.erased_at !== null && row.erased_at !== undefined);
          assert.equal(row.cert_hash, ERASED_CERT_HASH);
          assert.notEqual(row.payload_enc, was.payload_enc);
          assert.deepEqual(
            Object.keys(JSON.parse(service.ctx.keyRing.decrypt(row.payload_enc, m.serial))).sort(),
            ['erased', 'erased_at'],
          );
          // The record stays: status, masked card number, card hash, times and history.
          assert.equal(row.status, was.status);
          assert.equal(row.card_no_masked, was.card_no_masked);
          assert.equal(row.card_no_hash, was.card_no_hash);
          assert.equal(row.updated_at, was.updated_at);
          assert.equal((await listHistory(service.ctx.store.db, m.serial)).length, histories.get(m.serial));
          const view = await showApplication(service.ctx, m.serial, { role: 'reviewer' });
          assert.equal(view.status, m.status);
          assert.equal(view.history.length, histories.get(m.serial));
        }
        for (const m of kept) {
          const row = await rowOf(service, m.serial);
          assert.equal(row.erased_at, null);
          assert.equal(row.payload_enc, before.get(m.serial)!.payload_enc);
          assert.equal(row.cert_hash, before.get(m.serial)!.cert_hash);
        }

        // Each erasure audited once.
        const audit = await listAudit(service.ctx.store.db, { action: 'application.erase', limit: 100 });
        assert.deepEqual(audit.items.map((a) => a.target_id).sort(), eligible.map((m) => m.serial).sort());
        for (const entry of audit.items) {
          assert.equal(entry.actor, 'system');
          assert.match(entry.source, /^cli/);
          assert.equal(entry.details?.['retention_days'], 30);
        }

        // No trace of the erased data in a dump; the kept applications are still there.
        const dumpAfter = dumpOf(service);
        for (const m of eligible) {
          const was = before.get(m.serial)!;
          assert.equal(found(dumpAfter, was.payload_enc), 0, `${m.serial}: old payload left in the store`);
          assert.equal(
            dumpAfter.includes(was.cert_hash),
            false,
            `${m.serial}: document hash left in the store`,
          );
          for (const value of [
            m.applicant.cert_id,
            m.applicant.email,
            m.applicant.mob_no,
            m.applicant.address,
          ]) {
            assert.equal(dumpAfter.includes(value), false);
          }
        }
        for (const m of kept) assert.ok(found(dumpAfter, before.get(m.serial)!.payload_enc) >= 5);

        // Again: nothing left to do.
        assert.equal((await cli('--days', '30')).count, 0);

        // The service's own scheduled job erases a newly eligible application.
        const late = await make(service, appId, 'CANCELLED', true);
        const spawned = await spawnService({
          ...service.target.env,
          RETENTION_DAYS: '30',
          RETENTION_INTERVAL_SECONDS: '10',
        });
        try {
          const end = Date.now() + 30_000;
          while ((await rowOf(service, late.serial)).erased_at === null) {
            assert.ok(Date.now() < end, 'the scheduled job erased it within its interval');
            await new Promise((r) => setTimeout(r, 250));
          }
          const entries = await listAudit(service.ctx.store.db, {
            targetId: late.serial,
            action: 'application.erase',
            limit: 10,
          });
          assert.equal(entries.items.length, 1);
          assert.match(entries.items[0]!.source, /^retention job /);
        } finally {
          spawned.child.kill('SIGTERM');
          await spawned.exited;
        }
      } finally {
        await service.close();
      }
    });
  });
}
