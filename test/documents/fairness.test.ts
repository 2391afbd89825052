import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { DocumentFailure } from '../../src/documents/outcome.ts';
import { FetchSlots } from '../../src/documents/fetchSlots.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { encode } from '../helpers/encodedDocuments.ts';
import { startDocumentServer, type DocumentServer } from '../helpers/documentServer.ts';
import { settledDocuments, startDocumentService, type DocumentService } from '../helpers/documentService.ts';
import { newPartner, nowSeconds, post, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Fair fetching (issue 54, finding 4): one partner's slow hosts took every fetch slot for the full
 * time-out, and another partner's five images were kept only after 59.7 s. Here partner A's twenty
 * documents dribble from four hosts (real HTTP servers on loopback addresses, 16 KiB every two
 * seconds: each would take about a minute) while partner B's five images, submitted after them,
 * are kept within 5 seconds, on each store.
 */

const FIELDS = ['id_card_img', 'id_card_back_img', 'passport_img', 'sign_applicant', 'pay_voucher'] as const;

for (const storeName of storeNames()) {
  describe(`fair document fetching (${storeName})`, () => {
    let service: DocumentService;
    let slowHosts: DocumentServer[];
    let fastHost: DocumentServer;
    let partnerA: TestPartner;
    let partnerB: TestPartner;
    let n = 0;

    before(async () => {
      // Four of A's hosts and B's own, each a loopback address of its own (all of 127/8 is loopback).
      slowHosts = await Promise.all(
        ['127.0.0.1', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map(startDocumentServer),
      );
      fastHost = await startDocumentServer('127.0.0.2');
      service = await startDocumentService(storeName, {
        DOCUMENT_TIMEOUT_MS: '60000',
        DOCUMENT_HOST_BACKOFF_MS: '5000',
      });
      partnerA = await newPartner(service, 'partner A');
      partnerB = await newPartner(service, 'partner B');
    });
    after(async () => {
      await service.close();
      for (const host of [...slowHosts, fastHost]) await host.close();
    });

    async function submit(partner: TestPartner, urls: Record<string, string>): Promise<string> {
      const body = { ...uniqueApplicant(n++, partner.appId), ...urls, timestamp: nowSeconds() };
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    }

    test("partner B's five images are kept within 5 s while partner A's twenty slow ones are fetched", async () => {
      const slow = encode('jpeg', 800, 600, 7);
      for (let a = 0; a < 4; a++) {
        const urls = Object.fromEntries(
          FIELDS.map((field, i) => [
            field,
            slowHosts[(a + i) % 4]!.route(`/${storeName}/a${a}/${field}.jpg`, {
              kind: 'bytes',
              body: slow,
              paceMs: 2_000,
            }),
          ]),
        );
        await submit(partnerA, urls);
      }
      // A's twenty are under way before B submits.
      const deadline = Date.now() + 10_000;
      while (slowHosts.reduce((sum, host) => sum + host.requests.length, 0) < 10) {
        assert.ok(Date.now() < deadline, "partner A's fetches never started");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const urls = Object.fromEntries(
        FIELDS.map((field, i) => [
          field,
          fastHost.route(`/${storeName}/b/${field}.jpg`, {
            kind: 'bytes',
            body: encode('jpeg', 640, 480, 20 + i),
          }),
        ]),
      );
      const submittedAt = Date.now();
      const serial = await submit(partnerB, urls);
      const documents = await settledDocuments(service, partnerB, serial, 5_000);
      const took = Date.now() - submittedAt;
      console.log(`${storeName}: partner B's five images kept ${took} ms after its submit`);
      for (const field of FIELDS) assert.equal(documents[field]?.state, 'kept', field);
      assert.ok(took < 5_000, `kept after ${took} ms`);
      const inFlight = slowHosts.reduce(
        (sum, host) => sum + host.requests.filter((r) => !r.cutOff && r.bytesWritten > 0).length,
        0,
      );
      assert.ok(inFlight <= 10, `partner A had ${inFlight} fetches at once, over its limit of 10`);
    });
  });
}

describe('the fetch slots', () => {
  const limits = { atOnce: 4, perPartner: 2, perHost: 2, hostBackoffMs: 1_000 };

  test('a partner at its limit and a host at its limit are deferred at once, others granted', async () => {
    const slots = new FetchSlots(limits);
    const until = Date.now() + 1_000;
    const a1 = await slots.take('A', 'h1', until);
    const a2 = await slots.take('A', 'h2', until);
    const a3 = await slots.take('A', 'h3', until);
    assert.ok(a1.granted && a2.granted);
    assert.equal(a3.granted, false);
    assert.match(!a3.granted ? a3.why : '', /partner/);
    assert.ok(!a3.granted && a3.at > Date.now(), 'deferred a second or two');
    const b1 = await slots.take('B', 'h1', until);
    const c1 = await slots.take('C', 'h1', until);
    assert.ok(b1.granted, "another partner's document is not held up by A's");
    assert.equal(c1.granted, false, "h1 has two fetches, its limit: C's waits for a later run");
    assert.match(!c1.granted ? c1.why : '', /host/);
  });

  test('when every slot is taken a fetch waits in turn, and is deferred at its time if none comes free', async () => {
    const slots = new FetchSlots({ ...limits, perHost: 4 });
    const held = await Promise.all(['A', 'A', 'B', 'B'].map((p, i) => slots.take(p, `h${i}`, Date.now())));
    assert.ok(held.every((slot) => slot.granted));
    const waiting = slots.take('C', 'h9', Date.now() + 5_000);
    const late = slots.take('D', 'h9', Date.now() + 50);
    assert.equal((await late).granted, false, 'none free within its time');
    if (held[0]!.granted) held[0]!.release();
    assert.equal((await waiting).granted, true, 'the first waiting gets the freed slot');
  });

  test("a host's time-out backs it off, doubling in a row; its success ends the backoff", async () => {
    const slots = new FetchSlots({ ...limits, hostBackoffMs: 200 });
    const until = Date.now() + 1_000;
    const first = await slots.take('A', 'slow', until);
    assert.ok(first.granted);
    first.release(new DocumentFailure('unreachable', 'time-out'));
    const backedOff = await slots.take('B', 'slow', until);
    assert.equal(backedOff.granted, false, "another partner's document on that host waits too");
    assert.ok(!backedOff.granted && backedOff.at - Date.now() > 100 && backedOff.at - Date.now() <= 200);
    await new Promise((resolve) => setTimeout(resolve, 220));
    const second = await slots.take('A', 'slow', until);
    assert.ok(second.granted);
    second.release(new DocumentFailure('unreachable', 'HTTP 503'));
    const doubled = await slots.take('A', 'slow', until);
    assert.ok(!doubled.granted && doubled.at - Date.now() > 300, 'twice as long after a second failure');
    // A 404 is the URL's answer, not the host's failure.
    const other = await slots.take('A', 'fine', until);
    assert.ok(other.granted);
    other.release(new DocumentFailure('unreachable', 'HTTP 404'));
    assert.ok((await slots.take('A', 'fine', until)).granted);
  });
});
