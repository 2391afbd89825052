import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import pino from 'pino';
import type { ServiceContext } from '../../src/context.ts';
import { parseEncryptionKeys } from '../../src/crypto/keyRing.ts';
import { screenApplications } from '../../src/screening/screenApplications.ts';
import { ScreeningIndex } from '../../src/screening/screeningIndex.ts';
import { longestEventLoopGap } from '../helpers/eventLoopGaps.ts';
import { labelledApplicants, labelledListEntries } from './labelledSet.ts';

describe('screenApplications', () => {
  test('lets the event loop run while it screens a large batch', async () => {
    // The screening runs in the service's process beside the requests: a batch screened in one
    // go held every request for its whole length (up to 40 ms for a relay batch of a hundred).
    const keyRing = parseEncryptionKeys(`t1:${randomBytes(32).toString('base64')}`);
    const index = new ScreeningIndex([{ list: 'un', versionId: 'v1', entries: await labelledListEntries() }]);
    const ordinary = labelledApplicants('ordinary.tsv').filter((o) => index.screen(o, 0.9).length === 0);
    const rows = Array.from({ length: 3_000 }, (_, i) => {
      const serial = `SCREEN${String(i).padStart(26, '0')}`;
      const person = ordinary[i % ordinary.length]!;
      const payload = { ...person, label: undefined, cert_id: `S${String(i).padStart(9, '0')}` };
      return {
        busi_water_no: serial,
        status: 'SUBMITTED',
        payload_enc: keyRing.encrypt(JSON.stringify(payload), serial),
      };
    });
    const ctx = {
      keyRing,
      config: { screening: { threshold: 0.9 } },
      now: Date.now,
    } as unknown as ServiceContext;

    const started = performance.now();
    const { result: count, gapMs: longestGapMs } = await longestEventLoopGap(() =>
      screenApplications(ctx, index, rows, pino({ level: 'silent' })),
    );
    const tookMs = performance.now() - started;

    assert.equal(count.screened, rows.length);
    assert.equal(count.hits, 0);
    // Far longer in all than one slice (4 ms), so that a loop that never yields would show a gap
    // of its whole length; a yielding one shows gaps of a slice plus one application, and a timer.
    assert.ok(tookMs > 60, `the batch took ${tookMs.toFixed(0)} ms: too short to tell`);
    assert.ok(
      longestGapMs < tookMs / 3,
      `the event loop waited ${longestGapMs.toFixed(1)} ms at once during a ${tookMs.toFixed(0)} ms batch`,
    );
  });
});
