import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

/**
 * The submission writer's savepoints never reach a temporary file. SQLite creates its temporary
 * files in SQLITE_TMPDIR and unlinks them at once; a watch on that directory sees each one come and
 * go. In a child process: an ordinary connection runs savepoints that each change a leaf of twenty
 * indexes (80 KB to journal, past SQLite's 64 KB spill), and must spill (or the watch proves
 * nothing); then the store itself takes 1,000 submissions through its writer thread, 50 at a time
 * (with the thread's connection opened as an ordinary one, tens of thousands of files), and must
 * create none.
 */
const here = (file: string) => JSON.stringify(new URL(file, import.meta.url).href);
const ORDINARY = `
import { openSqliteConnection } from ${here('./sqliteConnection.ts')};
import { randomBytes } from 'node:crypto';
const db = openSqliteConnection(process.argv[2] + '/db.sqlite');
const columns = Array.from({ length: 20 }, (_, i) => 'k' + i);
db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, ' + columns.map((c) => c + ' TEXT').join(', ') + ')');
for (const c of columns) db.exec('CREATE INDEX t_' + c + ' ON t (' + c + ')');
const insert = db.prepare('INSERT INTO t (' + columns.join(', ') + ') VALUES (' + columns.map(() => '?').join(', ') + ')');
const row = () => columns.map(() => randomBytes(24).toString('hex'));
db.exec('BEGIN');
for (let i = 0; i < 3000; i++) insert.run(...row());
db.exec('COMMIT');
for (let batch = 0; batch < 5; batch++) {
  db.exec('BEGIN IMMEDIATE');
  for (let unit = 0; unit < 20; unit++) {
    db.exec('SAVEPOINT unit');
    insert.run(...row());
    db.exec('RELEASE unit');
  }
  db.exec('COMMIT');
}
db.close();
`;
const WRITER = `
import { loadConfig } from ${here('../config.ts')};
import { openStore } from ${here('./connect.ts')};
import { randomBytes } from 'node:crypto';
const store = await openStore(loadConfig({ DATA_DIR: process.argv[2] }));
await store.migrate();
await store.db.insertInto('apps').values({ app_id: 'a', name: 'a', status: 'active', rate_limit_per_second: null,
  rate_limit_burst: null, concurrency_limit: null, created_at: 1, updated_at: 1 }).execute();
const hex = (n) => randomBytes(n).toString('hex');
const rows = (n) => {
  const serial = ('T' + hex(16).toUpperCase()).slice(0, 32);
  const cert = hex(16);
  return {
    application: { busi_water_no: serial, app_id: 'a', status: 'SUBMITTED', status_reason: null, cert_type: '00',
      cert_hash: cert, active_cert_hash: cert, card_no_hash: hex(16), card_no_masked: '539966******0000',
      payload_enc: randomBytes(1200).toString('base64'), key_id: 'k1', version: 1, created_at: n, updated_at: n,
      external_id: null, active_external_id: null },
    event: { event_id: 'evt_' + hex(16), app_id: 'a', busi_water_no: serial, type: 'application.submitted',
      payload: '{}', created_at: n, seq: 1, fanned_out_at: null, from_status: null, to_status: 'SUBMITTED',
      actor: 'caller:a', reason: null, reason_codes: null, details: null },
  };
};
for (let round = 0; round < 20; round++) {
  const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => store.insertSubmission(rows(round * 50 + i), undefined)));
  if (outcomes.some((o) => o.kind !== 'ok')) throw new Error('a submission was not stored');
}
await store.close();
`;

async function temporaryFilesOf(kind: 'writer' | 'ordinary'): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'cardapply-journal-'));
  const temporary = join(dir, 'tmp');
  mkdirSync(temporary);
  let seen = 0;
  const watcher = watch(temporary, () => (seen += 1));
  try {
    // A file, not `-e`: the writer thread would inherit `--input-type`, which a file entry refuses.
    const script = join(dir, 'child.mjs');
    writeFileSync(script, kind === 'writer' ? WRITER : ORDINARY);
    const child = spawn(process.execPath, [script, dir], {
      env: { ...process.env, SQLITE_TMPDIR: temporary },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0);
    // inotify's events reach the watch after the child is gone.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return seen;
  } finally {
    watcher.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('an ordinary connection spills large savepoints to temporary files (the watch sees them)', async () => {
  assert.ok((await temporaryFilesOf('ordinary')) > 0);
});

test("the store's submission writer keeps its savepoints in memory: no temporary file", async () => {
  assert.equal(await temporaryFilesOf('writer'), 0);
});
