import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

/**
 * The submission writer's savepoints never reach a temporary file. SQLite creates its temporary
 * files in SQLITE_TMPDIR and unlinks them at once; a watch on that directory sees each one come and
 * go. A child process runs batches of savepoints, each changing a leaf of twenty indexes (80 KB to
 * journal, past SQLite's 64 KB spill), on the writer's connection, and the same on an ordinary one:
 * the ordinary one must spill (or the watch proves nothing), the writer's must not.
 */
const CHILD = `
import { openSqliteConnection, openWriterConnection } from ${JSON.stringify(new URL('./sqliteConnection.ts', import.meta.url).href)};
import { randomBytes } from 'node:crypto';
const [file, kind] = process.argv.slice(1);
const db = kind === 'writer' ? openWriterConnection(file) : openSqliteConnection(file);
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

async function temporaryFilesOf(kind: 'writer' | 'ordinary'): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'cardapply-journal-'));
  const temporary = join(dir, 'tmp');
  mkdirSync(temporary);
  let seen = 0;
  const watcher = watch(temporary, () => (seen += 1));
  try {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', CHILD, join(dir, 'db.sqlite'), kind],
      {
        env: { ...process.env, SQLITE_TMPDIR: temporary },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
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

test("the submission writer's savepoints stay in memory: no temporary file", async () => {
  assert.equal(await temporaryFilesOf('writer'), 0);
});
