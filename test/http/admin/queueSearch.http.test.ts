import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PATHS } from '../../../src/http/paths.ts';
import { uniqueApplicant } from '../../helpers/applicants.ts';
import { adminBench } from '../../helpers/adminService.ts';
import { newPartner, post, type TestPartner } from '../../helpers/service.ts';
import { storeNames } from '../../helpers/stores.ts';

/**
 * The queue finds what a support call quotes (issue 55), over HTTP on every store: `q` takes the
 * partner's reference exactly as it was sent, or the first six or more characters of a serial in
 * any case, of any app; it composes with the other filters and pages like every search.
 */

let next = 910_000;

for (const storeName of storeNames()) {
  describe(`the queue's search for a quoted reference on ${storeName}`, () => {
    const bench = adminBench(storeName);

    const submit = async (partner: TestPartner, externalId?: string) => {
      const body = {
        ...uniqueApplicant(next++, partner.appId),
        ...(externalId === undefined ? {} : { external_id: externalId }),
      };
      const reply = await post(bench.service.baseUrl, PATHS.apply, body, { token: partner.token });
      assert.equal(reply.status, 200, reply.text);
      return (reply.body.data as { busi_water_no: string }).busi_water_no;
    };
    const search = async (query: string) => {
      const reply = await bench.as(bench.operators.viewer, 'GET', `/applications?${query}`);
      assert.equal(reply.status, 200, reply.text);
      return reply.body.data as { items: { busi_water_no: string }[]; next_cursor: string | null };
    };
    const serialsOf = async (query: string) => (await search(query)).items.map((i) => i.busi_water_no).sort();

    test("a partner's reference, exactly as sent, of every app that used it", async () => {
      const shop = await newPartner(bench.service, 'shop');
      const market = await newPartner(bench.service, 'market');
      const mine = await submit(shop, 'ORDER-4711');
      const theirs = await submit(market, 'ORDER-4711');
      await submit(shop, 'ORDER-47110');
      await submit(shop, 'order-4711-b');

      assert.deepEqual(await serialsOf('q=ORDER-4711'), [mine, theirs].sort());
      assert.deepEqual(await serialsOf(`q=${encodeURIComponent(' ORDER-4711 ')}`), [mine, theirs].sort());
      assert.deepEqual(await serialsOf(`q=ORDER-4711&app_id=${market.appId}`), [theirs]);
      assert.deepEqual(await serialsOf('q=ORDER-4711&status=APPROVED'), []);
      // Exact: neither a part of a reference nor another case of it.
      for (const partial of ['ORDER-471', 'ORDER', 'order-4711', '4711']) {
        assert.deepEqual(await serialsOf(`q=${partial}`), [], partial);
      }
    });

    test('the first characters of a serial, in any case, from six of them', async () => {
      const partner = await newPartner(bench.service, 'serials');
      const serial = await submit(partner);
      for (const length of [6, 8, 12, 20, 32]) {
        for (const written of [serial.slice(0, length), serial.slice(0, length).toLowerCase()]) {
          const found = await serialsOf(`q=${written}&limit=100`);
          assert.ok(found.includes(serial), `${written} finds ${serial}`);
          assert.ok(
            found.every((s) => s.startsWith(serial.slice(0, length))),
            `${written}: only serials that start so`,
          );
        }
      }
      // Too short to be a prefix, not of the serial's alphabet, or not its start: nothing.
      for (const written of [serial.slice(0, 5), serial.slice(1, 12), `${serial.slice(0, 8)}I`, 'zzzzzzzz']) {
        assert.ok(!(await serialsOf(`q=${written}&limit=100`)).includes(serial), written);
      }
      // A whole serial and one character more is no serial's start.
      assert.deepEqual(await serialsOf(`q=${serial}0`), []);
    });

    test('pages through the matches with the cursor, neither skipping nor repeating', async () => {
      // One reference is one active application per app: five apps that each use it once.
      const serials = [];
      for (let i = 0; i < 5; i++)
        serials.push(await submit(await newPartner(bench.service, `pages ${i}`), 'PAGE-REF'));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: { busi_water_no: string }[]; next_cursor: string | null } = await search(
          `q=PAGE-REF&limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        );
        seen.push(...page.items.map((i) => i.busi_water_no));
        cursor = page.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(seen, serials);
    });

    test('a q the schema refuses names the field', async () => {
      const reply = await bench.as(bench.operators.viewer, 'GET', `/applications?q=${'x'.repeat(65)}`);
      assert.equal(reply.status, 422, reply.text);
      assert.match(reply.body.msg, /^q: /);
    });
  });
}
