import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { PATHS } from '../../src/http/paths.ts';
import { pngImage } from '../helpers/documentImages.ts';
import {
  startDocumentServer,
  type DocumentServer,
  type Route,
  type Served,
} from '../helpers/documentServer.ts';
import {
  queryStatus,
  settledDocuments,
  startDocumentService,
  type DocumentService,
} from '../helpers/documentService.ts';
import { parseMetrics, sample } from '../helpers/metrics.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Issue 54's fair fetching, over HTTP against real loopback image servers: one partner's slow
 * hosts (servers that take the connection and do not answer) hold at most its share of the fetch
 * slots, so another partner's images are kept within seconds; a host gets at most its share; a
 * failing host backs off without holding a slot; and nothing is lost meanwhile: every document
 * still ends kept or failed by the usual rules (DOCUMENT_FETCH_HOURS=0 here: one real try each).
 */

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;
/** The fetch time-out: long against the 5 s asked of partner B, short enough for the test. */
const TIMEOUT_MS = 8_000;
let n = 300_000;

async function submit(service: DocumentService, partner: TestPartner, urls: Record<string, string>) {
  const body = { ...uniqueApplicant(n++, partner.appId), ...urls, timestamp: nowSeconds() };
  const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
  assert.equal(reply.status, 200, reply.text);
  return (reply.body.data as { busi_water_no: string }).busi_water_no;
}

/** The five fields, each a route of `server` under `prefix`. */
function fiveOn(server: DocumentServer, prefix: string, route: (field: string) => Route) {
  return Object.fromEntries(FIELDS.map((field) => [field, server.route(`${prefix}/${field}`, route(field))]));
}

const image = (): Route => ({ kind: 'bytes', body: pngImage(400, 400), contentType: 'image/png' });

async function waitFor(what: string, check: () => boolean, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

/** Requests of `server` whose connection is still open. */
const openRequests = (server: DocumentServer) =>
  server.requests.filter((r) => r.endedAt === undefined).length;

async function fetchGauge(service: DocumentService, state: string): Promise<number> {
  return sample(parseMetrics(await service.ctx.metrics.registry.metrics()), 'cardapply_document_fetches', {
    state,
  });
}

for (const storeName of storeNames()) {
  describe(`fair document fetching (${storeName})`, () => {
    test("partner A's twenty slow URLs leave partner B's five images kept within 5 s; A's still settle", async () => {
      const service = await startDocumentService(storeName, { DOCUMENT_TIMEOUT_MS: String(TIMEOUT_MS) });
      const release = Promise.withResolvers<Route>();
      // Four slow hosts of A: two never answer (their fetches time out, failed: one try, FETCH_HOURS
      // 0), two answer after 6 s (kept).
      const slow = await Promise.all([0, 1, 2, 3].map(() => startDocumentServer()));
      const fast = await startDocumentServer();
      try {
        const a = await newPartner(service, 'partner A');
        const b = await newPartner(service, 'partner B');
        const late = delay(6_000).then(image);
        const aSerials: string[] = [];
        for (const [i, server] of slow.entries())
          aSerials.push(
            await submit(
              service,
              a,
              fiveOn(server, `/a${i}`, () => ({ kind: 'held', until: i < 2 ? release.promise : late })),
            ),
          );
        // A's fetches hold their share of the slots (10) and the rest of A's wait in line.
        const asked = () => slow.reduce((sum, server) => sum + server.requests.length, 0);
        await waitFor("A's fetches in flight", () => asked() >= 10);
        await delay(200);
        assert.equal(asked(), 10, "A holds its partner's share of the slots, no more");
        assert.equal(await fetchGauge(service, 'partner_limit'), 10, "the gauge shows A's ten waiting");
        assert.equal(await fetchGauge(service, 'running'), 10);

        const startedAt = Date.now();
        const bSerial = await submit(
          service,
          b,
          fiveOn(fast, '/b', () => image()),
        );
        const bDocuments = await settledDocuments(service, b, bSerial, 5_000);
        const tookMs = Date.now() - startedAt;
        assert.deepEqual(
          Object.values(bDocuments).map((d) => d.state),
          FIELDS.map(() => 'kept'),
        );
        assert.ok(tookMs < 5_000, `B's images kept in ${tookMs} ms`);
        // Meanwhile none of A's slow fetches had ended.
        for (const serial of aSerials)
          assert.ok(
            Object.values((await queryStatus(service, a, serial)).documents).every(
              (d) => d.state === 'pending',
            ),
          );

        // Nothing lost: A's documents all end, the late ones kept, the silent ones failed after
        // their time-out (and their hosts' backoff), each once tried.
        const outcomes = await Promise.all(
          aSerials.map((serial) => settledDocuments(service, a, serial, 6 * TIMEOUT_MS)),
        );
        assert.deepEqual(
          outcomes.map((documents) => Object.values(documents).map((d) => d.state)),
          [0, 1, 2, 3].map((i) => FIELDS.map(() => (i < 2 ? 'failed' : 'kept'))),
        );
        assert.deepEqual(
          slow.map((server) => server.requests.length),
          [5, 5, 5, 5],
          'each URL asked for once',
        );
        assert.equal(await fetchGauge(service, 'running'), 0);
      } finally {
        release.resolve({ kind: 'status', status: 503 });
        await service.close();
        await Promise.all([...slow, fast].map((server) => server.close()));
      }
    });

    test('a host gets at most DOCUMENT_SLOTS_PER_HOST fetches; its waiters leave the partner its other hosts', async () => {
      const service = await startDocumentService(storeName, {
        DOCUMENT_TIMEOUT_MS: String(TIMEOUT_MS),
        DOCUMENT_SLOTS_PER_HOST: '2',
      });
      const held = await startDocumentServer();
      const other = await startDocumentServer();
      const release = Promise.withResolvers<Route>();
      try {
        const partner = await newPartner(service);
        const heldSerial = await submit(
          service,
          partner,
          fiveOn(held, '/held', () => ({ kind: 'held', until: release.promise })),
        );
        await waitFor('two fetches to the held host', () => held.requests.length >= 2);
        const startedAt = Date.now();
        const otherSerial = await submit(
          service,
          partner,
          fiveOn(other, '/other', () => image()),
        );
        const otherDocuments = await settledDocuments(service, partner, otherSerial, 5_000);
        assert.ok(Object.values(otherDocuments).every((d) => d.state === 'kept'));
        assert.ok(Date.now() - startedAt < 5_000);
        assert.equal(held.requests.length, 2, 'never more than two to the held host');
        assert.equal(openRequests(held), 2);
        // The other three wait for the host (between two runs of the job, a moment in neither).
        let waiting = 0;
        for (let i = 0; waiting !== 3 && i < 100; i++) {
          waiting = await fetchGauge(service, 'host_limit');
          if (waiting !== 3) await delay(50);
        }
        assert.equal(waiting, 3, 'three waiting for the host');

        release.resolve(image());
        const heldDocuments = await settledDocuments(service, partner, heldSerial, 3 * TIMEOUT_MS);
        assert.ok(
          Object.values(heldDocuments).every((d) => d.state === 'kept'),
          'all five kept in the end',
        );
        assert.equal(held.requests.length, 5, 'each asked for once');
        // Two at a time: no request arrived while two others were open.
        const overlaps = held.requests.map(
          (r) => held.requests.filter((o) => o !== r && o.at <= r.at && !endedBy(o, r.at)).length,
        );
        assert.ok(Math.max(...overlaps) <= 1, `at most two at once (${overlaps.join(',')})`);
      } finally {
        release.resolve({ kind: 'status', status: 503 });
        await service.close();
        await Promise.all([held.close(), other.close()]);
      }
    });

    test('a failing host backs off: its next fetches wait without a slot, its other documents are still kept', async () => {
      const service = await startDocumentService(storeName, {
        // A run's fetches wait for their slots 5 s (a quarter of the time-out): longer than the backoff.
        DOCUMENT_TIMEOUT_MS: '20000',
        DOCUMENT_SLOTS_PER_HOST: '1',
        DOCUMENT_HOST_BACKOFF_MS: '3000',
        DOCUMENT_FETCH_HOURS: '1',
      });
      const failing = await startDocumentServer();
      const other = await startDocumentServer();
      try {
        const partner = await newPartner(service);
        // The first asked for answers 503: the host backs off 3 s before its next.
        const urls = fiveOn(failing, '/flaky', (field) =>
          field === 'id_card_img' ? { kind: 'status', status: 503 } : image(),
        );
        const serial = await submit(service, partner, urls);
        await waitFor('the 503', () => failing.requests.length >= 1);
        const failedAt = failing.requests[0]!.at;
        assert.equal(failing.requests[0]!.path, '/flaky/id_card_img');
        await delay(300);
        assert.equal(failing.requests.length, 1, 'nothing more asked of the host while it backs off');
        assert.equal(await fetchGauge(service, 'host_backoff'), 4, 'four waiting for its backoff');
        assert.equal(await fetchGauge(service, 'running'), 0, 'holding no slot');

        // Another partner's host is not held up meanwhile.
        const otherPartner = await newPartner(service, 'other partner');
        const otherSerial = await submit(
          service,
          otherPartner,
          fiveOn(other, '/other', () => image()),
        );
        await settledDocuments(service, otherPartner, otherSerial, 5_000);
        assert.equal(failing.requests.length, 1, "kept while the failing host's backoff runs");

        // After the backoff the host's other four are kept; the 503 waits for the job's retry.
        await waitFor('the host asked again', () => failing.requests.length >= 5, 10_000);
        assert.ok(failing.requests[1]!.at - failedAt >= 2_900, 'not before the backoff ended');
        await waitFor(
          'the four kept',
          () => failing.requests.slice(1).every((r) => r.cutOff === false && r.bytesWritten > 0),
          10_000,
        );
        const deadline = Date.now() + 10_000;
        for (;;) {
          const { documents } = await queryStatus(service, partner, serial);
          const kept = FIELDS.filter((field) => documents[field]?.state === 'kept');
          if (kept.length === 4) {
            assert.equal(documents['id_card_img']?.state, 'pending', 'the 503 is tried again later');
            break;
          }
          if (Date.now() > deadline) throw new Error(`not kept: ${JSON.stringify(documents)}`);
          await delay(50);
        }
        const jobOf = () =>
          service.ctx.store.db
            .selectFrom('jobs')
            .select(['status', 'run_at', 'payload'])
            .where('kind', '=', 'documents.fetch')
            .where('busi_water_no', '=', serial)
            .executeTakeFirstOrThrow();
        let job = await jobOf();
        for (let i = 0; job.status === 'running' && i < 100; i++) {
          await delay(50);
          job = await jobOf();
        }
        assert.equal(job.status, 'pending', 'the run ended, to be run again');
        assert.ok(job.run_at - Date.now() > 10_000, "the 503's retry comes by the job's backoff");
        assert.deepEqual(
          (JSON.parse(job.payload!) as { applications: { fields: string[] }[] }).applications.map(
            (e) => e.fields,
          ),
          [['id_card_img']],
        );
      } finally {
        await service.close();
        await Promise.all([failing.close(), other.close()]);
      }
    });
  });
}

/** Whether request `r` had ended by `at` (its connection closed). */
function endedBy(r: Served, at: number): boolean {
  return r.endedAt !== undefined && r.endedAt <= at;
}
