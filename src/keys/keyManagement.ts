import { randomBytes } from 'node:crypto';
import { actorName, type ChangedBy } from '../audit/actor.ts';
import { recordAudit } from '../audit/auditTrail.ts';
import type { Config } from '../config.ts';
import type { ServiceContext } from '../context.ts';
import { defaultIndexKeyOf, parseEncryptionKeys, type KeyRing } from '../crypto/keyRing.ts';
import { appendKeyToFile, removeKeyFromFile } from './keyFile.ts';
import { rowsPerKey, rowsUnderKey } from './keyRepository.ts';
import { ENCRYPTED_COLUMNS, olderKeyIds } from './reencrypt.ts';

/**
 * Key rotation as operators drive it (`cardapply keys rotate | status | retire`).
 *
 * Two homes for keys:
 * - the key file of DATA_DIR (embedded store without ENCRYPTION_KEYS): the commands change the file
 *   and running services follow it within seconds;
 * - ENCRYPTION_KEYS (always with PostgreSQL): the environment of every instance, which a command
 *   cannot change. The commands check against the store and print the values to deploy, in order.
 */

/** Whether the keys live in DATA_DIR's key file (which the commands change themselves). */
export function keysInFile(config: Config): boolean {
  return config.encryptionKeys === undefined;
}

export interface KeyStatus {
  current_key_id: string;
  /** The ring's keys in order; those before the current one are older, after it newer. */
  key_ids: string[];
  /** Rows per key id, per table. */
  tables: Record<string, Record<string, number>>;
  /** Rows under an older key, waiting for re-encryption. */
  pending: number;
  /** Key ids found in rows but missing from the ring: those rows cannot be read. */
  unknown_key_ids: string[];
}

export async function keyStatus(ctx: ServiceContext): Promise<KeyStatus> {
  const ring = ctx.keyRing;
  const tables: KeyStatus['tables'] = {};
  const older = new Set(olderKeyIds(ring));
  const unknown = new Set<string>();
  let pending = 0;
  for (const target of ENCRYPTED_COLUMNS) {
    const rows = await rowsPerKey(ctx.store.db, target.table);
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const n = row.n;
      counts[row.key_id] = n;
      if (older.has(row.key_id)) pending += n;
      if (!ring.keyIds.includes(row.key_id)) unknown.add(row.key_id);
    }
    tables[target.table] = counts;
  }
  return {
    current_key_id: ring.currentKeyId,
    key_ids: [...ring.keyIds],
    tables,
    pending,
    unknown_key_ids: [...unknown].sort(),
  };
}

/** Rows of every encrypted table still under `keyId`. */
async function rowsUnder(ctx: ServiceContext, keyId: string): Promise<number> {
  let total = 0;
  for (const target of ENCRYPTED_COLUMNS) {
    total += await rowsUnderKey(ctx.store.db, target.table, keyId);
  }
  return total;
}

export interface RotateResult {
  key_id: string;
  /** `file`: written to DATA_DIR, running services follow; `environment`: deploy `steps`. */
  mode: 'file' | 'environment';
  /** The new `id:base64` entry (environment mode only: the file holds it otherwise). */
  entry?: string;
  /** What to deploy, in order, on every instance (environment mode). */
  steps?: { env: Record<string, string | null>; then: string }[];
}

/** `k<n+1>`, n the highest number among the ring's `k<n>` ids. */
function nextKeyId(ring: Pick<KeyRing, 'keyIds'>): string {
  let highest = 0;
  for (const id of ring.keyIds) {
    const m = /^k([0-9]{1,9})$/.exec(id);
    if (m) highest = Math.max(highest, Number(m[1]));
  }
  return `k${highest + 1}`;
}

export async function rotateKey(ctx: ServiceContext, by: ChangedBy): Promise<RotateResult> {
  const { config } = ctx;
  let result: RotateResult;
  if (keysInFile(config)) {
    const { keyId } = appendKeyToFile(config.dataDir);
    result = { key_id: keyId, mode: 'file' };
  } else {
    const spec = config.encryptionKeys!;
    const ring = parseEncryptionKeys(spec, { indexKey: config.keys.indexKey });
    const last = ring.keyIds[ring.keyIds.length - 1]!;
    if (config.keys.currentKeyId !== undefined && config.keys.currentKeyId !== last) {
      throw new Error(
        `a rotation is in progress: ENCRYPTION_CURRENT_KEY=${config.keys.currentKeyId} is not the last key; ` +
          'finish it first (deploy without ENCRYPTION_CURRENT_KEY)',
      );
    }
    const keyId = nextKeyId(ring);
    const entry = `${keyId}:${randomBytes(32).toString('base64')}`;
    const keys = `${spec
      .split(/\s*[,\n]\s*/)
      .filter((e) => e !== '')
      .join(',')},${entry}`;
    result = {
      key_id: keyId,
      mode: 'environment',
      entry,
      steps: [
        {
          env: { ENCRYPTION_KEYS: keys, ENCRYPTION_CURRENT_KEY: ring.currentKeyId },
          then: 'restart every instance (one at a time): all can now read the new key, none writes with it yet',
        },
        {
          env: { ENCRYPTION_KEYS: keys, ENCRYPTION_CURRENT_KEY: null },
          then:
            'restart every instance again: new values use the new key and the instances re-encrypt old rows; ' +
            'follow with `cardapply keys status`',
        },
      ],
    };
  }
  await audit(ctx, 'key.rotate', result.key_id, { mode: result.mode }, by);
  return result;
}

export interface RetireResult {
  key_id: string;
  mode: 'file' | 'environment';
  /** The blind-index key, derived from the retired first key, is now kept explicitly. */
  index_key_kept: boolean;
  steps?: { env: Record<string, string | null>; then: string }[];
}

/**
 * Retires an older key once no row of any encrypted table uses it. Refuses the current key, a
 * newer key (being rolled out), and a key rows still use.
 */
export async function retireKey(ctx: ServiceContext, keyId: string, by: ChangedBy): Promise<RetireResult> {
  const ring = ctx.keyRing;
  if (!ring.keyIds.includes(keyId)) throw new Error(`key "${keyId}" is not in the key ring`);
  if (keyId === ring.currentKeyId) throw new Error(`key "${keyId}" is the current key: rotate first`);
  if (!olderKeyIds(ring).includes(keyId)) {
    throw new Error(
      `key "${keyId}" is newer than the current key "${ring.currentKeyId}": it is being rolled out`,
    );
  }
  const inUse = await rowsUnder(ctx, keyId);
  if (inUse > 0) {
    throw new Error(
      `key "${keyId}" still encrypts ${inUse} row(s): let re-encryption finish (cardapply keys status), then retry`,
    );
  }
  const { config } = ctx;
  let result: RetireResult;
  if (keysInFile(config)) {
    const removed = removeKeyFromFile(config.dataDir, keyId, (fileRing) => {
      if (fileRing.currentKeyId === keyId) throw new Error(`key "${keyId}" is the current key: rotate first`);
    });
    result = { key_id: keyId, mode: 'file', index_key_kept: removed.indexKeyWritten };
  } else {
    const spec = config.encryptionKeys!;
    const entries = spec.split(/\s*[,\n]\s*/).filter((e) => e !== '');
    const keys = entries.filter((e) => !e.startsWith(`${keyId}:`)).join(',');
    const env: Record<string, string | null> = { ENCRYPTION_KEYS: keys };
    // The blind-index key derives from the first key: it must outlive that key's retirement.
    const keepIndexKey = config.keys.indexKey === undefined && ring.keyIds[0] === keyId;
    if (keepIndexKey) env['ENCRYPTION_INDEX_KEY'] = defaultIndexKeyOf(spec).toString('base64');
    result = {
      key_id: keyId,
      mode: 'environment',
      index_key_kept: keepIndexKey,
      steps: [{ env, then: 'restart every instance (one at a time)' }],
    };
  }
  await audit(ctx, 'key.retire', keyId, { mode: result.mode, index_key_kept: result.index_key_kept }, by);
  return result;
}

async function audit(
  ctx: ServiceContext,
  action: 'key.rotate' | 'key.retire',
  keyId: string,
  details: Record<string, unknown>,
  by: ChangedBy,
): Promise<void> {
  await recordAudit(ctx.store.db, {
    actor: actorName(by.actor),
    action,
    targetType: 'key',
    targetId: keyId,
    details,
    source: by.source,
    at: ctx.now(),
  });
}
