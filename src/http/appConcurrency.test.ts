import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import type { FastifyReply } from 'fastify';
import { promotedBytes, scavenge } from '../../test/helpers/promoted.ts';
import { AppConcurrency } from './appConcurrency.ts';

/** A reply as far as the cap sees it: its response, which closes once. */
function reply(): { reply: FastifyReply; close: () => void } {
  const raw = Object.assign(new EventEmitter(), { closed: false });
  return {
    reply: { raw } as unknown as FastifyReply,
    close: () => {
      raw.closed = true;
      raw.emit('close');
    },
  };
}

/**
 * The cap lives as long as the process, so what a request leaves in it goes to the old generation.
 * Deleting an app's entry whenever its last request ended (and adding it again with the next)
 * kept 155 bytes a request past the scavenges here (with the replies it held), one app going
 * quiet and busy in turn.
 */
test('an app going quiet and busy in turn leaves nothing in the cap', async () => {
  const cap = new AppConcurrency(16);
  for (let i = 0; i < 3; i++) scavenge();
  const count = 40_000;
  // Everything under this test's frames: the cap's work and the replies it held.
  const promoted = await promotedBytes('http/appConcurrency.test.ts', () => {
    for (let i = 0; i < count; i++) {
      const one = reply();
      cap.admit('app_quiet', one.reply);
      one.close();
      if (i % 100 === 99) scavenge();
    }
  });
  assert.equal(cap.inFlight('app_quiet'), 0);
  assert.ok(promoted < 5 * count, `${(promoted / count).toFixed(1)} bytes a request kept past the scavenges`);
});
