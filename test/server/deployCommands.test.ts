import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { npmStart, parseNodeCommand } from '../helpers/startCommand.ts';

/**
 * The ways the service is started outside `npm start` (the Procfile, the systemd unit) run the
 * same entry with the same Node flags: a flag left out of one of them (the young generation's
 * size, say) would make production differ from what the benchmark measured.
 */
const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('deployment commands', () => {
  const start = npmStart();

  test('npm start runs an entry that exists', () => {
    assert.ok(existsSync(new URL(start.entry, root)), start.entry);
  });

  const others = {
    'deploy/Procfile': /^web:\s*(.+)$/m,
    'deploy/systemd/cardapply@.service': /^ExecStart=(.+)$/m,
  };
  for (const [file, pattern] of Object.entries(others)) {
    test(`${file} runs what npm start runs`, () => {
      const command = pattern.exec(read(file))?.[1];
      assert.ok(command !== undefined, `no start command in ${file}`);
      assert.deepEqual(parseNodeCommand(command), start);
    });
  }
});
