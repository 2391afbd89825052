import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { importList } from '../../src/screening/importList.ts';
import { ScreeningIndex } from '../../src/screening/screeningIndex.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { spawnWorker, stopWorker } from '../helpers/worker.ts';
import { labelledApplicants, labelledListEntries } from './labelledSet.ts';

/**
 * The re-screen after a list import, on every store: 100,000 stored applications (seeded by SQL,
 * each with its own encrypted payload: ordinary names, and a few planted variants of listed names)
 * are screened by `cardapply worker` at 20,000 a minute or more; the worker is killed (SIGKILL)
 * midway and a new one resumes from the progress kept in the job, and exactly the planted
 * applications are flagged.
 */
const COUNT = Number(process.env['RESCREEN_COUNT'] ?? 100_000);
const PLANT_EVERY = 5_000;
const serial = (i: number) => `RESCREEN${String(i).padStart(24, '0')}`;

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const storeName of storeNames()) {
  describe(`re-screen on ${storeName}`, () => {
    let service: TestService;
    const planted = new Set<string>();

    before(async () => {
      service = await startService(storeName);
      const { appId } = await newPartner(service, 'rescreen partner');
      const entries = await labelledListEntries();
      const index = new ScreeningIndex([{ list: 'un', versionId: 'local', entries }]);
      // Ordinary: those no list entry matches (the false positives are measured elsewhere).
      const ordinary = labelledApplicants('ordinary.tsv').filter((o) => index.screen(o, 0.9).length === 0);
      // Planted: variants that the screening finds (recall is measured elsewhere).
      const variants = labelledApplicants('variants.tsv').filter((v) => index.screen(v, 0.9).length > 0);
      const { ctx } = service;
      const now = ctx.now();
      for (let start = 0; start < COUNT; start += 1000) {
        const rows = [];
        for (let i = start; i < Math.min(COUNT, start + 1000); i++) {
          const plant = i % PLANT_EVERY === 0;
          const person = plant
            ? variants[(i / PLANT_EVERY) % variants.length]!
            : ordinary[i % ordinary.length]!;
          if (plant) planted.add(serial(i));
          const payload = { ...person, label: undefined, cert_id: `R${String(i).padStart(9, '0')}` };
          rows.push({
            busi_water_no: serial(i),
            app_id: appId,
            status: i % 7 === 0 ? 'DELIVERED' : 'SUBMITTED',
            status_reason: null,
            cert_type: '01',
            cert_hash: `rescreen${i}`,
            active_cert_hash: null,
            card_no_hash: `rescreencard${i}`,
            card_no_masked: '539966******0000',
            payload_enc: ctx.keyRing.encrypt(JSON.stringify(payload), serial(i)),
            key_id: 'k',
            version: 1,
            created_at: now,
            updated_at: now,
          });
        }
        await ctx.store.db.insertInto('applications').values(rows).execute();
      }
      await importList(ctx, {
        list: 'un',
        source: createReadStream(new URL('./labelled/list.xml', import.meta.url)),
        actor: 'system',
        origin: 'test',
      });
    });
    after(() => service.close());

    test(`${COUNT} applications at 20,000 a minute or more, resumed after SIGKILL, exactly the planted flagged`, async () => {
      const db = service.ctx.store.db;
      const job = async () =>
        db
          .selectFrom('jobs')
          .select(['status', 'payload', 'attempts'])
          .where('kind', '=', 'screening.rescreen')
          .executeTakeFirstOrThrow();
      const screened = async () =>
        (JSON.parse((await job()).payload ?? '{}') as { screened?: number }).screened ?? 0;

      const first = await spawnWorker(service.target.env);
      after(() => void first.child.kill('SIGKILL'));
      // Counted from the worker's start, its claim included: progress is stored every 2 s, so on a
      // fast store the first report may already be past a third (a rate between two reports of
      // the same moment was 0/0).
      const firstSeen = { at: Date.now(), n: 0 };
      const killAt = await waitFor(
        'a third of the re-screen',
        async () => {
          const n = await screened();
          return n >= COUNT / 3 ? { at: Date.now(), n } : undefined;
        },
        300_000,
      );
      first.child.kill('SIGKILL');
      await first.exited;
      const perMinute = Math.round(((killAt.n - firstSeen.n) / (killAt.at - firstSeen.at)) * 60_000);
      console.log(
        `re-screen on ${storeName}: ${perMinute} applications a minute (${killAt.n} screened when killed)`,
      );
      assert.ok(perMinute >= 20_000, `${perMinute} a minute`);

      // The killed worker's lease runs out (10 s); the next worker resumes from the stored progress.
      const second = await spawnWorker(service.target.env);
      try {
        await waitFor(
          'the re-screen to finish',
          async () => ((await job()).status === 'done' ? true : undefined),
          300_000,
        );
      } finally {
        await stopWorker(second);
      }
      const done = second.output
        .map((line) => JSON.parse(line) as { event?: string; screened?: number })
        .find((l) => l.event === 'screening.rescreen_done');
      assert.ok(done !== undefined, 'the finishing run logs its totals');
      assert.ok(done.screened! >= COUNT, `${done.screened} screened`);
      assert.ok(
        done.screened! < COUNT + killAt.n,
        `resumed, not restarted: ${done.screened} screened in all`,
      );

      const flagged = await db
        .selectFrom('screening_hits')
        .select(['busi_water_no', 'after_delivery'])
        .execute();
      assert.deepEqual(new Set(flagged.map((h) => h.busi_water_no)), planted);
      const delivered = flagged.filter((h) => Number(h.busi_water_no.slice(8)) % 7 === 0);
      assert.ok(
        delivered.every((h) => h.after_delivery === 1),
        'hits after delivery are marked for the alert',
      );
    });
  });
}
