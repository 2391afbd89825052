import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { ApplicationRequest } from '../../src/record/schema.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/context.ts';
import { parseEncryptionKeys } from '../../src/crypto/keyRing.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { PATHS } from '../../src/http/paths.ts';
import type { KeyStatus, RetireResult, RotateResult } from '../../src/keys/keyManagement.ts';
import { loadKeyFileRing } from '../../src/keys/loadKeyRing.ts';
import type { Keys } from '../../src/crypto/liveKeyRing.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { addEndpoint, secretAad } from '../../src/webhooks/endpoints.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { cardapplyFails, cardapplyJson } from '../helpers/cli.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { nowSeconds, post } from '../helpers/service.ts';
import { createStoreTarget, storeNames } from '../helpers/stores.ts';

/**
 * Key rotation end to end, on real processes: rows are written under key 1, the key is rotated to
 * key 2 while submissions continue (the embedded store's key file: `keys rotate`, followed by the
 * running service; PostgreSQL: the two-step redeploy `keys rotate` prints, one instance at a time),
 * the services re-encrypt in the background until `keys status` shows nothing left, and then every
 * row is under key 2 and decrypts to exactly what was submitted. Key 1 then retires, and duplicate
 * checks (blind indexes derived from it) keep working without it.
 */
const JOB = {
  REENCRYPT_INTERVAL_SECONDS: '1',
  REENCRYPT_BATCH_SIZE: '50',
  WEBHOOK_WORKER: 'false',
  WEBHOOK_ALLOW_PRIVATE: 'true',
};
const INITIAL_ROWS = 200;

let counter = 0;
function applicant(appId: string): ApplicationRequest {
  const n = counter++;
  return uniqueApplicant(n, appId, {
    email: `rotation.${n}@example.com`,
    mob_no: `1370013${String(1000 + (n % 9000)).padStart(4, '0')}`,
  });
}

/** Instances by index; a restarting one is undefined for a moment. */
class Fleet {
  readonly processes: (ServiceProcess | undefined)[] = [];
  #next = 0;

  async start(i: number, env: Record<string, string>): Promise<void> {
    this.processes[i] = await spawnService(env);
  }

  /**
   * A graceful stop (requests in flight finish) while the replacement, with the new environment,
   * starts: as a rolling deploy replaces an instance. The stop can outlast its last request (a
   * client's idle keep-alive connection, 3 s with fetch's), so the two are not run one after the
   * other; the other instances serve meanwhile.
   */
  async restart(i: number, env: Record<string, string>): Promise<void> {
    const old = this.processes[i];
    this.processes[i] = undefined;
    old?.child.kill('SIGTERM');
    const [replacement] = await Promise.all([spawnService(env), old?.exited]);
    this.processes[i] = replacement;
  }

  /** The next live instance, round robin. */
  next(): string | undefined {
    for (let k = 0; k < this.processes.length; k++) {
      const p = this.processes[this.#next++ % this.processes.length];
      if (p !== undefined) return p.baseUrl;
    }
    return undefined;
  }

  async stop(): Promise<void> {
    for (const p of this.processes) {
      p?.child.kill('SIGTERM');
      await p?.exited;
    }
  }
}

/** Submits until stopped, on whichever instance is up, retrying one that is shutting down. */
function keepSubmitting(fleet: Fleet, appId: string, token: string, sent: Map<string, ApplicationRequest>) {
  let stopping = false;
  const loop = async () => {
    while (!stopping) {
      const body = applicant(appId);
      for (let attempt = 0; ; attempt++) {
        assert.ok(attempt < 200, 'a submission found no instance');
        const url = fleet.next();
        if (url === undefined) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        try {
          const sending = { ...body, timestamp: nowSeconds() };
          const reply = await post(url, PATHS.apply, sending, { token });
          if (reply.body.code === 0) {
            sent.set((reply.body.data as { busi_water_no: string }).busi_water_no, sending);
            break;
          }
          assert.equal(reply.status, 503, reply.text); // closing: nothing was stored
        } catch (error) {
          if (error instanceof assert.AssertionError) throw error;
          // connection refused or reset by an instance going down: try another
        }
      }
    }
  };
  const loops = [loop(), loop()];
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Every row under `keyId`, decrypting with `ring` to exactly what was submitted. */
async function verifyRows(
  ctx: ServiceContext,
  ring: Keys,
  keyId: string,
  sent: Map<string, ApplicationRequest>,
  secret: { id: string; endpointId: string; value: string },
): Promise<void> {
  const rows = await ctx.store.db
    .selectFrom('applications')
    .select(['busi_water_no', 'payload_enc', 'key_id'])
    .execute();
  const stored = new Map(rows.map((r) => [r.busi_water_no, r]));
  for (const [serial, body] of sent) {
    const row = stored.get(serial);
    assert.ok(row !== undefined, `${serial} was acknowledged and is stored`);
    assert.equal(row.key_id, keyId);
    assert.equal(ring.keyIdOf(row.payload_enc), keyId);
    const decrypted = JSON.parse(ring.decrypt(row.payload_enc, serial)) as Record<string, unknown>;
    for (const [field, value] of Object.entries(body)) {
      assert.deepEqual(decrypted[field], value, `${serial}.${field} decrypts to what was sent`);
    }
  }
  for (const row of rows) assert.equal(row.key_id, keyId, `${row.busi_water_no} is under ${keyId}`);
  const secretRow = await ctx.store.db
    .selectFrom('webhook_secrets')
    .select(['secret_enc', 'key_id'])
    .where('id', '=', secret.id)
    .executeTakeFirstOrThrow();
  assert.equal(secretRow.key_id, keyId);
  assert.equal(ring.decrypt(secretRow.secret_enc, secretAad(secret.endpointId, secret.id)), secret.value);
}

for (const storeName of storeNames()) {
  describe(`key rotation on ${storeName}`, () => {
    test('rotating to key 2 under load leaves every row under key 2 and intact; key 1 then retires', async () => {
      const target = createStoreTarget(storeName);
      const inFile = storeName === 'sqlite';
      // PostgreSQL: keys in the environment, here a fresh k1. SQLite: the key file of DATA_DIR.
      let env: Record<string, string> = {
        ...target.env,
        ...JOB,
        ...(inFile ? {} : { ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` }),
      };
      const ctx = await openContext(loadConfig(env), createLogger({ logLevel: 'silent' }));
      const fleet = new Fleet();
      const sent = new Map<string, ApplicationRequest>();
      try {
        const instances = inFile ? 1 : 2;
        for (let i = 0; i < instances; i++) await fleet.start(i, env);
        const app = await createApp(ctx.store.db, 'rotation partner', Date.now());
        const exchanged = await post(fleet.next()!, PATHS.token, { ...app, timestamp: nowSeconds() });
        const token = (exchanged.body.data as { access_token: string }).access_token;
        const endpoint = await addEndpoint(ctx, { appId: app.app_id, url: 'http://127.0.0.1:9/hook' });
        const secret = { id: endpoint.secrets[0]!.id, endpointId: endpoint.id, value: endpoint.secret };

        // Under key 1.
        const initial = keepSubmitting(fleet, app.app_id, token, sent);
        await until('initial rows', async () => sent.size >= INITIAL_ROWS);
        await initial.stop();
        let status = await cardapplyJson<KeyStatus>(env, 'keys', 'status');
        assert.equal(status.current_key_id, 'k1');
        assert.equal(status.tables['applications']!['k1'], sent.size);
        assert.equal(status.pending, 0);
        assert.match(await cardapplyFails(env, 'keys', 'retire', 'k1'), /is the current key/);

        // Rotate while submissions continue.
        const load = keepSubmitting(fleet, app.app_id, token, sent);
        const rotated = await cardapplyJson<RotateResult>(env, 'keys', 'rotate');
        assert.equal(rotated.key_id, 'k2');
        if (inFile) {
          assert.equal(rotated.mode, 'file');
        } else {
          assert.equal(rotated.mode, 'environment');
          const [known, current] = rotated.steps!;
          const apply = (step: { env: Record<string, string | null> }) => {
            const next = { ...env };
            for (const [name, value] of Object.entries(step.env)) next[name] = value ?? '';
            return next;
          };
          // Step 1: every instance reads k2, none writes with it; one instance at a time.
          env = apply(known!);
          for (let i = 0; i < instances; i++) await fleet.restart(i, env);
          assert.match(await cardapplyFails(env, 'keys', 'retire', 'k2'), /newer than the current key/);
          // Step 2: k2 becomes current; the instances re-encrypt.
          env = apply(current!);
          for (let i = 0; i < instances; i++) await fleet.restart(i, env);
        }
        const atRotation = sent.size;
        await until('submissions after the rotation', async () => sent.size >= atRotation + 100);
        await until('re-encryption under load', async () => {
          status = await cardapplyJson<KeyStatus>(env, 'keys', 'status');
          return status.current_key_id === 'k2' && status.pending === 0;
        });
        await load.stop();
        await until('re-encryption of the last rows', async () => {
          status = await cardapplyJson<KeyStatus>(env, 'keys', 'status');
          return status.pending === 0;
        });
        assert.deepEqual(status.tables['applications'], { k2: sent.size });
        assert.deepEqual(status.tables['webhook_secrets'], { k2: 1 });

        const ringOf = (): Keys =>
          inFile
            ? loadKeyFileRing(target.dataDir)
            : parseEncryptionKeys(env['ENCRYPTION_KEYS']!, {
                indexKey: env['ENCRYPTION_INDEX_KEY']
                  ? Buffer.from(env['ENCRYPTION_INDEX_KEY'], 'base64')
                  : undefined,
              });
        await verifyRows(ctx, ringOf(), 'k2', sent, secret);

        // Key 1 retires; the blind-index key it gave is kept, so duplicates are still found.
        const retired = await cardapplyJson<RetireResult>(env, 'keys', 'retire', 'k1');
        assert.equal(retired.index_key_kept, true);
        if (!inFile) {
          for (const [name, value] of Object.entries(retired.steps![0]!.env)) env[name] = value ?? '';
          assert.doesNotMatch(env['ENCRYPTION_KEYS']!, /^k1:|,k1:/);
        }
        for (let i = 0; i < instances; i++) await fleet.restart(i, env);
        const ring = ringOf();
        assert.deepEqual(ring.keyIds, ['k2']);
        await verifyRows(ctx, ring, 'k2', sent, secret);
        const [someSerial, someApplicant] = [...sent][0]!;
        const again = await post(
          fleet.next()!,
          PATHS.apply,
          { ...someApplicant, timestamp: nowSeconds() },
          { token },
        );
        assert.equal(again.body.code, ERRORS.duplicateApplication.code, again.text);
        const queried = await post(
          fleet.next()!,
          PATHS.query,
          { app_id: app.app_id, timestamp: nowSeconds(), busi_water_no: someSerial },
          { token },
        );
        assert.equal(queried.body.code, 0, queried.text);
      } finally {
        await fleet.stop();
        await ctx.store.close();
        await target.cleanup();
      }
    });
  });
}
