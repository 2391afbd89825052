import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { EARLIER_RELEASE, REPOSITORY, skipWithout } from '../helpers/components.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { nowSeconds, post, type Reply } from '../helpers/service.ts';
import { createStoreTarget, storeNames, type StoreTarget } from '../helpers/stores.ts';

const run = promisify(execFile);

/**
 * A rolling deploy from the earlier release (taken from git history, run with this checkout's
 * node_modules: the dependencies are the same) to this one, on each store: an instance of the
 * earlier release answers submissions and cancels with Idempotency-Keys; an instance of this one
 * starts beside it on the same store (and migrates it); then every retry, sent to either
 * instance, replays the answer first given, whichever version gave it, and a key reused with
 * another body is refused by both. The state changes of both versions show in the status query
 * of both.
 */
async function extractEarlierRelease(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cardapply-earlier-'));
  await new Promise<void>((resolve, reject) => {
    const archive = spawn('git', ['archive', EARLIER_RELEASE], { cwd: REPOSITORY });
    const untar = spawn('tar', ['-x', '-C', dir]);
    archive.stdout.pipe(untar.stdin);
    archive.on('error', reject);
    untar.on('error', reject);
    untar.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`))));
  });
  symlinkSync(join(REPOSITORY, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

describe('a rolling deploy from the earlier release', { skip: skipWithout('earlierRelease') }, () => {
  let earlier: string;
  before(async () => {
    earlier = await extractEarlierRelease();
  });
  after(() => rmSync(earlier, { recursive: true, force: true }));

  for (const storeName of storeNames()) {
    test(`on ${storeName}: each version replays the other's idempotency records`, async () => {
      const target: StoreTarget = createStoreTarget(storeName);
      const started: ServiceProcess[] = [];
      const start = async (main?: string) => {
        const service = await spawnService(target.env, main);
        started.push(service);
        return service;
      };
      try {
        const { stdout } = await run(
          process.execPath,
          [join(earlier, 'bin', 'cardapply.js'), 'apps', 'create', '--name', 'Rolling partner', '--json'],
          { env: { ...process.env, ...target.env } },
        );
        const app = JSON.parse(stdout) as { app_id: string; app_secret: string };
        const old = await start(join(earlier, 'bin', 'server.js'));
        const token = await post(old.baseUrl, PATHS.token, { ...app, timestamp: nowSeconds() });
        assert.equal(token.status, 200, token.text);
        const bearer = (token.body.data as { access_token: string }).access_token;
        const send = (baseUrl: string, path: string, body: unknown, key: string) =>
          post(baseUrl, path, body, { token: bearer, headers: { 'idempotency-key': key } });
        const submitBody = (n: number) => uniqueApplicant(n, app.app_id);
        const cancelBody = (serial: string) => ({
          app_id: app.app_id,
          timestamp: nowSeconds(),
          busi_water_no: serial,
          reason: 'changed my mind',
        });
        /** The answer as a retry must see it again (the timestamp in a body is the partner's own). */
        const answer = (reply: Reply) => ({ status: reply.status, body: reply.body });

        // The earlier release alone: two submissions, one cancelled, each with its key.
        interface FirstAnswer {
          path: string;
          body: object;
          answer: ReturnType<typeof answer>;
        }
        const firstAnswers = new Map<string, FirstAnswer>();
        const give = async (baseUrl: string, key: string, path: string, body: object) => {
          const reply = await send(baseUrl, path, body, key);
          assert.equal(reply.status, 200, reply.text);
          assert.equal(reply.body.code, 0, reply.text);
          firstAnswers.set(key, { path, body, answer: answer(reply) });
          return reply;
        };
        const s1 = await give(old.baseUrl, 'old-submit-1', PATHS.apply, submitBody(1));
        await give(old.baseUrl, 'old-submit-2', PATHS.apply, submitBody(2));
        const serial1 = (s1.body.data as { busi_water_no: string }).busi_water_no;
        await give(old.baseUrl, 'old-cancel-1', PATHS.cancel, cancelBody(serial1));

        // This release starts beside it on the same store, migrating it; both serve from now on.
        const current = await start();
        const s3 = await give(current.baseUrl, 'new-submit-3', PATHS.apply, submitBody(3));
        const serial3 = (s3.body.data as { busi_water_no: string }).busi_water_no;
        await give(current.baseUrl, 'new-cancel-3', PATHS.cancel, cancelBody(serial3));
        const s4 = await give(old.baseUrl, 'old-submit-4', PATHS.apply, submitBody(4));
        const serial4 = (s4.body.data as { busi_water_no: string }).busi_water_no;

        // Every retry, to either instance, replays the first answer; another body under a key is a 409.
        for (const [key, first] of firstAnswers) {
          for (const [version, instance] of [
            ['earlier', old],
            ['current', current],
          ] as const) {
            const again = await send(instance.baseUrl, first.path, first.body, key);
            assert.deepEqual(answer(again), first.answer, `${key} replayed by the ${version} release`);
            assert.equal(
              again.headers.get('idempotent-replayed'),
              'true',
              `${key} on the ${version} release`,
            );
            const otherBody =
              first.path === PATHS.apply ? submitBody(99) : { ...first.body, reason: 'another reason' };
            const other = await send(instance.baseUrl, first.path, otherBody, key);
            assert.equal(
              other.status,
              409,
              `${key} with another body on the ${version} release: ${other.text}`,
            );
          }
        }

        // The status each version reads: the changes of both.
        for (const instance of [old, current]) {
          for (const [serial, status] of [
            [serial1, 'CANCELLED'],
            [serial3, 'CANCELLED'],
            [serial4, 'SUBMITTED'],
          ] as const) {
            const query = await post(
              instance.baseUrl,
              PATHS.query,
              { app_id: app.app_id, timestamp: nowSeconds(), busi_water_no: serial },
              { token: bearer },
            );
            assert.equal(query.status, 200, query.text);
            assert.equal((query.body.data as { status: string }).status, status);
          }
        }
        for (const service of started) {
          service.child.kill('SIGTERM');
          assert.equal(await service.exited, 0, service.output.slice(-5).join('\n'));
        }
      } finally {
        for (const service of started) if (service.child.exitCode === null) service.child.kill('SIGKILL');
        await target.cleanup();
      }
    });
  }
});
