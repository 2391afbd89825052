import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { importList } from '../../src/screening/importList.ts';
import { cardapply, cardapplyJson } from '../helpers/cli.ts';
import { newPartner, startService, type TestPartner, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { screenPending, submitOver, unList } from './screeningHelpers.ts';

/**
 * `cardapply screening status` reports what a finished re-screen did: it once printed "done, 0
 * screened, 0 hits" while the service logged `"screened":2` (issue 55), since a finished job kept
 * the payload it was queued with rather than its counts.
 */
const LIST = unList({
  dataId: 55,
  first: 'QIAN',
  second: 'ZHILIN',
  reference: 'TSi.STATUS',
  original: '钱志林',
});

for (const storeName of storeNames()) {
  describe(`screening status after a re-screen on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service, 'status partner');
    });
    after(() => service.close());

    test('names the applications the re-screen screened and the hits it found', async () => {
      await submitOver(service, partner, 550_001);
      await submitOver(service, partner, 550_002, { name: '钱志林', name_en: 'QIAN ZHILIN' });
      await screenPending(service, 'the submissions, before any list');
      const version = await importList(service.ctx, {
        list: 'un',
        source: Readable.from([LIST]),
        actor: 'operator:test',
        origin: 'test',
      });
      await screenPending(service, 'the re-screen after the import');
      const status = await cardapplyJson<{
        rescreens: { version_id: string; status: string; screened: number; hits: number }[];
      }>(service.target.env, 'screening', 'status');
      assert.deepEqual(status.rescreens, [
        { version_id: version.version_id, status: 'done', screened: 2, hits: 1 },
      ]);
      const text = await cardapply(service.target.env, 'screening', 'status');
      assert.match(text, new RegExp(`re-screen ${version.version_id}: done, 2 screened, 1 hits`));
    });
  });
}
