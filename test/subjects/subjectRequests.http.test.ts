import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * An applicant's requests through the partner (issue 56, docs/PRIVACY.md), over HTTP: a request
 * covers every application of that person at that partner and nobody else's, is due
 * SUBJECT_REQUEST_DAYS later, is one at a time per kind, and is the partner's alone to read.
 */

interface View {
  request_id: string;
  kind: string;
  status: string;
  busi_water_no: string;
  applications: string[];
  due_at: number;
  created_at: number;
  ended_at: number | null;
  restricted_until: number | null;
}

for (const storeName of storeNames()) {
  describe(`subject requests on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let other: TestPartner;
    /** The person's two applications at `partner` (the first cancelled), and someone else's. */
    let first: string;
    let second: string;
    let stranger: string;
    let elsewhere: string;

    const call = (who: TestPartner, path: string, body: Record<string, unknown>) =>
      post(
        service.baseUrl,
        path,
        { app_id: who.appId, timestamp: nowSeconds(), ...body },
        { token: who.token },
      );
    const submit = async (who: TestPartner, n: number, externalId?: string) => {
      const body = uniqueApplicant(n, who.appId, externalId === undefined ? {} : { external_id: externalId });
      const reply = await post(service.baseUrl, PATHS.apply, body, { token: who.token });
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    };

    before(async () => {
      service = await startService(storeName, { SUBJECT_REQUEST_DAYS: '10' });
      partner = await newPartner(service);
      other = await newPartner(service, 'another partner');
      first = await submit(partner, 1);
      const cancelled = await call(partner, PATHS.cancel, { busi_water_no: first });
      assert.equal(cancelled.status, 200, cancelled.text);
      // The same person at another partner: one active application per document, whoever's.
      elsewhere = await submit(other, 1);
      const withdrawn = await call(other, PATHS.cancel, { busi_water_no: elsewhere });
      assert.equal(withdrawn.status, 200, withdrawn.text);
      second = await submit(partner, 1, 'ORDER-2');
      stranger = await submit(partner, 2);
    });
    after(() => service.close());

    test('a request by external_id covers every application of that person at that partner, due in SUBJECT_REQUEST_DAYS', async () => {
      const reply = await call(partner, PATHS.subjectRequests, { kind: 'access', external_id: 'ORDER-2' });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.code, 0);
      const view = reply.body.data as View;
      assert.match(view.request_id, /^sr_[0-9a-f]{32}$/);
      assert.deepEqual(
        [view.kind, view.status, view.busi_water_no, view.applications, view.ended_at, view.restricted_until],
        ['access', 'received', second, [first, second], null, null],
      );
      assert.ok(!view.applications.includes(stranger) && !view.applications.includes(elsewhere));
      assert.equal(view.due_at - view.created_at, 10 * 86_400);
      // The partner reads it back, alone.
      const query = await call(partner, PATHS.subjectRequestQuery, { request_id: view.request_id });
      assert.equal(query.status, 200, query.text);
      assert.deepEqual(query.body.data, view);
      const foreign = await call(other, PATHS.subjectRequestQuery, { request_id: view.request_id });
      assert.deepEqual([foreign.status, foreign.body.code], [404, 40460]);
    });

    test('one open request of a kind per person: a second is a 409 naming the first; another kind is fine', async () => {
      const made = await call(partner, PATHS.subjectRequests, { kind: 'deletion', busi_water_no: first });
      assert.equal(made.status, 200, made.text);
      const again = await call(partner, PATHS.subjectRequests, { kind: 'deletion', busi_water_no: second });
      assert.deepEqual([again.status, again.body.code], [409, 40990], again.text);
      assert.deepEqual(again.body.data, { request_id: (made.body.data as View).request_id });
      assert.match(again.body.msg, /^kind: a deletion request for this person is still open/);
      const portability = await call(partner, PATHS.subjectRequests, {
        kind: 'portability',
        busi_water_no: stranger,
      });
      assert.equal(portability.status, 200, portability.text);
      assert.deepEqual((portability.body.data as View).applications, [stranger]);
    });

    test('refused: an unknown kind, no reference, another app’s application', async () => {
      const kind = await call(partner, PATHS.subjectRequests, { kind: 'erase', busi_water_no: first });
      assert.equal(kind.status, 422, kind.text);
      const none = await call(partner, PATHS.subjectRequests, { kind: 'access' });
      assert.equal(none.status, 422, none.text);
      const foreign = await call(partner, PATHS.subjectRequests, {
        kind: 'access',
        busi_water_no: elsewhere,
      });
      assert.deepEqual([foreign.status, foreign.body.code], [404, 40401]);
    });

    test("the list is the partner's own, newest first, filtered and paged", async () => {
      const seen: View[] = [];
      let cursor: string | null = null;
      do {
        const reply = await call(partner, PATHS.subjectRequestList, {
          limit: 1,
          ...(cursor === null ? {} : { cursor }),
        });
        assert.equal(reply.status, 200, reply.text);
        const page = reply.body.data as { items: View[]; next_cursor: string | null };
        seen.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(
        seen.map((v) => v.kind),
        ['portability', 'deletion', 'access'],
      );
      const deletions = await call(partner, PATHS.subjectRequestList, {
        kind: 'deletion',
        status: 'received',
      });
      assert.deepEqual(
        (deletions.body.data as { items: View[] }).items.map((v) => v.kind),
        ['deletion'],
      );
      const theirs = await call(other, PATHS.subjectRequestList, {});
      assert.deepEqual((theirs.body.data as { items: View[] }).items, []);
    });
  });
}
