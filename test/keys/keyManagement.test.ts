import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { SYSTEM } from '../../src/audit/actor.ts';
import { listAudit } from '../../src/audit/auditTrail.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { keyStatus, retireKey, rotateKey } from '../../src/keys/keyManagement.ts';
import { LiveKeyRing } from '../../src/crypto/liveKeyRing.ts';
import { ENCRYPTED_COLUMNS, reencryptAll } from '../../src/keys/reencrypt.ts';
import { rewriteEncrypted, ROWS_PER_REWRITE, type RewrittenRow } from '../../src/keys/keyRepository.ts';
import { createLogger } from '../../src/logger.ts';
import { openContext } from '../../src/start.ts';
import { newAppId } from '../helpers/events.ts';
import { Applications } from '../helpers/operators.ts';
import { startService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

const BY_TEST = { actor: SYSTEM, source: 'test' };

/**
 * Rotation, status and retirement as the domain does them, without the background job, so that
 * the refusals are deterministic: a key rows still use does not retire; after re-encryption it
 * does, and both steps are audited. SQLite keeps its keys in DATA_DIR's file; PostgreSQL in
 * ENCRYPTION_KEYS, where the commands print what to deploy.
 */
for (const storeName of storeNames()) {
  describe(`key management on ${storeName}`, () => {
    test('a key in use does not retire; after re-encryption it does', async () => {
      const k1 = `k1:${randomBytes(32).toString('base64')}`;
      const service = await startService(storeName, storeName === 'postgres' ? { ENCRYPTION_KEYS: k1 } : {});
      const contexts = [service.ctx];
      try {
        const appId = await newAppId(service.ctx);
        const applications = new Applications(service);
        for (let i = 0; i < 3; i++) await applications.submit(appId);

        const rotated = await rotateKey(service.ctx, BY_TEST);
        assert.equal(rotated.key_id, 'k2');
        let ctx = service.ctx;
        if (storeName === 'sqlite') {
          assert.equal(rotated.mode, 'file');
          assert.ok(ctx.keyRing instanceof LiveKeyRing);
          ctx.keyRing.refreshIfChanged();
        } else {
          // What the instances would run with after both deploy steps.
          assert.equal(rotated.mode, 'environment');
          const last = rotated.steps![1]!.env;
          assert.equal(last['ENCRYPTION_CURRENT_KEY'], null);
          ctx = await openContext(
            loadConfig({ ...service.target.env, ENCRYPTION_KEYS: last['ENCRYPTION_KEYS']! }),
            createLogger({ logLevel: 'silent' }),
          );
          contexts.push(ctx);
        }
        assert.equal(ctx.keyRing.currentKeyId, 'k2');
        let status = await keyStatus(ctx);
        assert.deepEqual(status.tables['applications'], { k1: 3 });
        assert.equal(status.pending, 3);

        await assert.rejects(retireKey(ctx, 'k2', BY_TEST), /is the current key/);
        await assert.rejects(retireKey(ctx, 'k1', BY_TEST), /still encrypts 3 row/);

        const report = await reencryptAll(ctx, { batchSize: 2 });
        assert.equal(report.moved['applications'], 3);
        assert.deepEqual(report.failed, []);
        status = await keyStatus(ctx);
        assert.deepEqual(status.tables['applications'], { k2: 3 });
        assert.equal(status.pending, 0);

        const retired = await retireKey(ctx, 'k1', BY_TEST);
        assert.equal(retired.index_key_kept, true);
        if (storeName === 'postgres') {
          const env = retired.steps![0]!.env;
          assert.match(env['ENCRYPTION_KEYS']!, /^k2:/);
          assert.equal(Buffer.from(env['ENCRYPTION_INDEX_KEY']!, 'base64').length, 32);
        }
        const audit = await listAudit(ctx.store.db, { targetType: 'key', limit: 10 });
        assert.deepEqual(audit.items.map((a) => `${a.action} ${a.target_id}`).sort(), [
          'key.retire k1',
          'key.rotate k2',
        ]);
      } finally {
        for (const c of contexts.slice(1)) await c.store.close();
        await service.close();
      }
    });

    test('a batch rewrite replaces each row with its own value, only where the value read is still there', async () => {
      const service = await startService(storeName);
      try {
        const { ctx } = service;
        const appId = await newAppId(ctx);
        const applications = new Applications(service);
        const serials: string[] = [];
        for (let i = 0; i < 3; i++) serials.push(await applications.submit(appId));
        const read = async () =>
          new Map(
            (
              await ctx.store.db
                .selectFrom('applications')
                .select(['busi_water_no', 'payload_enc', 'key_id'])
                .where('busi_water_no', 'in', serials)
                .execute()
            ).map((row) => [row.busi_water_no, row]),
          );
        const before = await read();
        const rewrite = (serial: string, enc: string): RewrittenRow => ({
          pk: serial,
          enc,
          rewritten: ctx.keyRing.encrypt(
            ctx.keyRing.decrypt(before.get(serial)!.payload_enc, serial),
            serial,
          ),
          keyId: `new-${serial}`,
        });
        // A whole statement of rows gone since they were read (erased, or taken by another
        // instance), then one whose value changed since, then two as read: two are replaced,
        // by the second statement.
        const gone = Array.from({ length: ROWS_PER_REWRITE }, (_, i) => ({
          ...rewrite(serials[0]!, before.get(serials[0]!)!.payload_enc),
          pk: `gone-${i}`,
        }));
        const rows = [
          ...gone,
          rewrite(serials[0]!, 'a value since replaced'),
          rewrite(serials[1]!, before.get(serials[1]!)!.payload_enc),
          rewrite(serials[2]!, before.get(serials[2]!)!.payload_enc),
        ];
        const applicationsPlace = ENCRYPTED_COLUMNS.find((c) => c.table === 'applications')!;
        assert.equal(await rewriteEncrypted(ctx.store, ctx.store.db, applicationsPlace, rows), 2);

        const after = await read();
        assert.deepEqual(after.get(serials[0]!), before.get(serials[0]!), 'the changed row is left alone');
        for (const row of rows.slice(-2)) {
          assert.deepEqual(
            { ...after.get(row.pk) },
            { busi_water_no: row.pk, payload_enc: row.rewritten, key_id: row.keyId },
          );
        }
      } finally {
        await service.close();
      }
    });
  });
}

describe('operations configuration', () => {
  const keys = `k1:${randomBytes(32).toString('base64')},k2:${randomBytes(32).toString('base64')}`;
  test('defaults: metrics on the main port, retention off, re-encryption in batches of 200', () => {
    const config = loadConfig({});
    assert.equal(config.operations.metricsPort, undefined);
    assert.equal(config.operations.retentionDays, undefined);
    assert.equal(config.operations.retentionIntervalMs, 3_600_000);
    assert.equal(config.keys.reencryptBatchSize, 200);
    assert.equal(config.keys.reencryptIntervalMs, 60_000);
  });

  test('values are read and checked', () => {
    const config = loadConfig({
      METRICS_PORT: '9464',
      RETENTION_DAYS: '365',
      ENCRYPTION_KEYS: keys,
      ENCRYPTION_CURRENT_KEY: 'k1',
    });
    assert.equal(config.operations.metricsPort, 9464);
    assert.equal(config.operations.retentionDays, 365);
    assert.equal(config.keys.currentKeyId, 'k1');
    const cases: [Record<string, string>, RegExp][] = [
      [{ RETENTION_DAYS: '0' }, /^RETENTION_DAYS: /],
      [{ METRICS_PORT: 'x' }, /^METRICS_PORT: /],
      [{ ENCRYPTION_KEYS: keys, ENCRYPTION_CURRENT_KEY: 'k3' }, /^ENCRYPTION_CURRENT_KEY: /],
      [{ ENCRYPTION_KEYS: keys, ENCRYPTION_INDEX_KEY: 'short' }, /^ENCRYPTION_INDEX_KEY: /],
      [{ ENCRYPTION_CURRENT_KEY: 'k1' }, /only with ENCRYPTION_KEYS/],
      [{ REENCRYPT_BATCH_SIZE: '0' }, /^REENCRYPT_BATCH_SIZE: /],
    ];
    for (const [env, message] of cases) {
      assert.throws(
        () => loadConfig(env),
        (e: unknown) => e instanceof ConfigError && message.test(e.message),
      );
    }
  });
});
