import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { validApplicant } from '../helpers/applicantFixture.ts';
import { ApplicationRequest } from '../../src/record/schema.ts';
import { generateCardNumber, isLuhnValid } from '../../src/cards/cardNumber.ts';
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

/** The submit operation over real HTTP, on every store: the contract, field by field. */

const REQUIRED = ApplicationRequest.required as string[];
const OPTIONAL = Object.keys(ApplicationRequest.properties).filter((k) => !REQUIRED.includes(k));

/** A value of the wrong JSON type for each field. */
function wrongType(field: string): unknown {
  if (field === 'timestamp') return '1795000000';
  if (field === 'purpose' || field === 'wealth_source') return '01';
  if (field === 'other_field') return { name: 'a', value: 'b', field: 'c' };
  return 12345;
}

for (const storeName of storeNames()) {
  describe(`submit on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let counter = 0;
    const fresh = (overrides = {}) => uniqueApplicant(counter++, partner.appId, overrides);
    const submit = (body: unknown, options = {}) =>
      post(service.baseUrl, PATHS.apply, body, { token: partner.token, ...options });

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
    });
    after(() => service.close());

    test('a valid application is acknowledged with a serial and reads back as SUBMITTED', async () => {
      const reply = await submit(fresh());
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.code, 0);
      assert.equal(reply.body.msg, 'success');
      const { busi_water_no } = reply.body.data as { busi_water_no: string };
      assert.match(busi_water_no, /^[A-Z0-9]{1,32}$/);

      const query = await post(
        service.baseUrl,
        PATHS.query,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no },
        { token: partner.token },
      );
      assert.equal(query.status, 200, query.text);
      const view = query.body.data as Record<string, unknown>;
      assert.equal(view['status'], 'SUBMITTED');
      assert.match(String(view['card_no_masked']), /^539966\*{6}[0-9]{4}$/);
      assert.deepEqual(Object.keys(view).sort(), [
        'busi_water_no',
        'card_no_masked',
        'created_at',
        'documents',
        'external_id',
        'history',
        'reason_codes',
        'requested_fields',
        'status',
        'status_reason',
        'updated_at',
      ]);
      assert.deepEqual(
        (view['history'] as { status: string }[]).map((h) => h.status),
        ['SUBMITTED'],
      );
    });

    test('the Authorization header is accepted bare as well as Bearer', async () => {
      const reply = await post(service.baseUrl, PATHS.apply, fresh(), {
        headers: { authorization: partner.token },
      });
      assert.equal(reply.status, 200, reply.text);
    });

    for (const field of REQUIRED) {
      test(`missing ${field} is a 422 naming it`, async () => {
        const body: Record<string, unknown> = fresh();
        delete body[field];
        const reply = await submit(body);
        if (field === 'app_id' || field === 'timestamp') {
          // Without them the partner is still known from the token: the field is reported.
          assert.equal(reply.status, 422, reply.text);
        }
        assert.equal(reply.status, 422, reply.text);
        assert.equal(reply.body.code, 42201);
        assert.equal(reply.body.msg, `${field}: is required`);
        const errors = (reply.body.data as { errors: { field: string; code: number }[] }).errors;
        assert.deepEqual(errors, [{ field, code: 42201, message: `${field}: is required` }]);
      });
    }

    for (const field of [...REQUIRED, ...OPTIONAL]) {
      test(`${field} of the wrong type is a 422 naming it`, async () => {
        const body: Record<string, unknown> = { ...fresh(), [field]: wrongType(field) };
        const reply = await submit(body);
        assert.equal(reply.status, 422, reply.text);
        const errors = (reply.body.data as { errors: { field: string; code: number }[] }).errors;
        assert.equal(errors.length, 1, reply.text);
        assert.equal(errors[0]?.field, field);
        // Enumerated fields say which values are allowed; the rest say which type is expected.
        assert.equal(errors[0]?.code, field === 'sex' || field === 'cert_type' ? 42206 : 42202);
        assert.ok(reply.body.msg.startsWith(`${field}: must be`), reply.body.msg);
      });
    }

    test('every problem is listed at once, in field order', async () => {
      const reply = await submit({
        ...fresh(),
        sex: 'X',
        birthday: '1990-02-30',
        extra: 1,
        email: 'not an email',
      });
      assert.equal(reply.status, 422);
      const fields = (reply.body.data as { errors: { field: string }[] }).errors.map((e) => e.field);
      assert.deepEqual(fields, ['birthday', 'sex', 'email', 'extra']);
      assert.match(reply.body.msg, /\(and 3 more\)$/);
    });

    const RULES: [string, Record<string, unknown>, string, number][] = [
      ['unknown field', { nickname: 'x' }, 'nickname', 42207],
      ['empty string', { company_name: '' }, 'company_name', 42204],
      ['too long', { company_name: 'x'.repeat(257) }, 'company_name', 42203],
      ['not a real date', { cert_end_date: '2031-02-29' }, 'cert_end_date', 42210],
      ['date in another form', { cert_end_date: '2031/02/01' }, 'cert_end_date', 42210],
      ['sex outside the enum', { sex: 'm' }, 'sex', 42206],
      ['cert_type outside the enum', { cert_type: '01' }, 'cert_type', 42206],
      ['e-mail malformed', { email: 'a@b' }, 'email', 42228],
      ['image over http', { id_card_img: 'http://img.example.com/a.jpg' }, 'id_card_img', 42231],
      ['image relative', { pay_voucher: '/a.jpg' }, 'pay_voucher', 42231],
      ['pay_pwd not 32 hex digits', { pay_pwd: 'zz'.repeat(16) }, 'pay_pwd', 42205],
      [
        'other_field item with an extra member',
        { other_field: [{ name: 'a', value: 'b', field: 'c', x: 1 }] },
        'other_field[0].x',
        42207,
      ],
      [
        'other_field item missing a member',
        { other_field: [{ name: 'a', value: 'b' }] },
        'other_field[0].field',
        42201,
      ],
      ['card_no not digits', { card_no: '53996612345678AB' }, 'card_no', 42238],
      ['card_no wrong length', { card_no: '5399661234567' }, 'card_no', 42238],
      [
        'card_no outside the BIN',
        { card_no: generateCardNumber({ bin: '411111', length: 16 }) },
        'card_no',
        42239,
      ],
      ['card_no failing Luhn', { card_no: '5399660000000000' }, 'card_no', 42240],
      ['timestamp not whole', { timestamp: 1795000000.5 }, 'timestamp', 42202],
    ];
    for (const [name, overrides, field, code] of RULES) {
      test(`${name} is refused on ${field}`, async () => {
        const reply = await submit({ ...fresh(), ...overrides });
        assert.equal(reply.status, 422, reply.text);
        const errors = (reply.body.data as { errors: { field: string; code: number }[] }).errors;
        assert.deepEqual(
          errors.map((e) => [e.field, e.code]),
          [[field, code]],
          reply.text,
        );
      });
    }

    test('a requested card number is used, and a second request for it is a 409', async () => {
      const cardNo = generateCardNumber(service.ctx.config.card);
      assert.ok(isLuhnValid(cardNo));
      const first = await submit(fresh({ card_no: cardNo }));
      assert.equal(first.status, 200, first.text);
      const serial = (first.body.data as { busi_water_no: string }).busi_water_no;
      const query = await post(
        service.baseUrl,
        PATHS.query,
        { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial },
        { token: partner.token },
      );
      assert.equal(
        (query.body.data as { card_no_masked: string }).card_no_masked,
        `${cardNo.slice(0, 6)}******${cardNo.slice(-4)}`,
      );
      const second = await submit(fresh({ card_no: cardNo }));
      assert.equal(second.status, 409, second.text);
      assert.equal(second.body.code, 40902);
      assert.ok(!second.text.includes(cardNo), 'the card number is not echoed');
    });

    test('a second active application for the same document is a 409 carrying the first serial', async () => {
      const applicant = fresh();
      const first = await submit(applicant);
      assert.equal(first.status, 200, first.text);
      const again = await submit({ ...applicant, timestamp: nowSeconds() });
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.code, 40901);
      assert.deepEqual(again.body.data, first.body.data);
    });

    test('another app learns nothing of an application: its query answers like an unknown serial', async () => {
      const own = await submit(fresh());
      const serial = (own.body.data as { busi_water_no: string }).busi_water_no;
      const other = await newPartner(service, 'other partner');
      const foreign = await post(
        service.baseUrl,
        PATHS.query,
        { app_id: other.appId, timestamp: nowSeconds(), busi_water_no: serial },
        { token: other.token },
      );
      const unknownSerial = serial.slice(0, -4) + (serial.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      const unknown = await post(
        service.baseUrl,
        PATHS.query,
        { app_id: other.appId, timestamp: nowSeconds(), busi_water_no: unknownSerial },
        { token: other.token },
      );
      assert.equal(foreign.status, 404);
      assert.deepEqual(foreign.body, unknown.body);
    });

    describe('authentication', () => {
      test('no token is a 401', async () => {
        const reply = await post(service.baseUrl, PATHS.apply, fresh());
        assert.equal(reply.status, 401);
        assert.equal(reply.body.code, 40101);
      });
      test('an unknown token is a 401', async () => {
        const reply = await post(service.baseUrl, PATHS.apply, fresh(), { token: 'at_forged' });
        assert.equal(reply.status, 401);
        assert.equal(reply.body.code, 40102);
      });
      test('an expired token is a 401 saying so', async () => {
        const expired = await newPartner(service);
        await service.ctx.store.db
          .updateTable('access_tokens')
          .set({ expires_at: Date.now() - 1 })
          .where('app_id', '=', expired.appId)
          .execute();
        const reply = await post(service.baseUrl, PATHS.apply, uniqueApplicant(counter++, expired.appId), {
          token: expired.token,
        });
        assert.equal(reply.status, 401);
        assert.equal(reply.body.code, 40103);
      });
      test("a body app_id that is not the token's app is a 403", async () => {
        const reply = await submit(fresh({ app_id: 'app_someoneelse' }));
        assert.equal(reply.status, 403);
        assert.equal(reply.body.code, 40301);
      });
      test('a stale timestamp is a 401 that says by how much, with the server time', async () => {
        const reply = await submit(fresh({ timestamp: nowSeconds() - 3600 }));
        assert.equal(reply.status, 401);
        assert.equal(reply.body.code, 40105);
        assert.match(reply.body.msg, /^timestamp: is 3[56][0-9]{2} seconds away/);
        assert.equal(typeof (reply.body.data as { server_time: number }).server_time, 'number');
      });
      test('a timestamp in milliseconds is called out as such', async () => {
        const reply = await submit(fresh({ timestamp: Date.now() }));
        assert.equal(reply.status, 401);
        assert.match(reply.body.msg, /looks like milliseconds/);
      });
      test('a wrong app secret is a 401', async () => {
        const reply = await post(service.baseUrl, PATHS.token, {
          app_id: partner.appId,
          app_secret: 'sk_wrong',
          timestamp: nowSeconds(),
        });
        assert.equal(reply.status, 401);
        assert.equal(reply.body.code, 40104);
      });
      test('a disabled app is refused at once', async () => {
        const disabled = await newPartner(service);
        await service.ctx.store.db
          .updateTable('apps')
          .set({ status: 'disabled' })
          .where('app_id', '=', disabled.appId)
          .execute();
        const reply = await post(service.baseUrl, PATHS.apply, uniqueApplicant(counter++, disabled.appId), {
          token: disabled.token,
        });
        assert.equal(reply.status, 403);
        assert.equal(reply.body.code, 40302);
      });
    });

    describe('bodies that are not a JSON object', () => {
      const cases: [string, string | Buffer, Record<string, string>, number, number][] = [
        ['malformed JSON', '{"app_id": ', {}, 400, 40001],
        ['a JSON array', '[1,2]', {}, 400, 40002],
        ['a JSON string', '"hello"', {}, 400, 40002],
        ['a JSON number', '42', {}, 400, 40002],
        ['null', 'null', {}, 400, 40002],
        ['an empty body', '', {}, 400, 40007],
        ['a duplicate key', '{"app_id":"a","app_id":"b"}', {}, 400, 40003],
        ['a __proto__ key', '{"__proto__":{"admin":true}}', {}, 400, 40005],
        ['a constructor key deep inside', '{"other_field":[{"constructor":{}}]}', {}, 400, 40005],
        ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), {}, 400, 40004],
        ['deep nesting', '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}', {}, 400, 40006],
        ['a form body', 'app_id=x', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 41501],
        ['a text body', '{}', { 'content-type': 'text/plain' }, 415, 41501],
        ['an oversized body', JSON.stringify({ company_name: 'x'.repeat(70_000) }), {}, 413, 41301],
      ];
      for (const [name, raw, headers, status, code] of cases) {
        test(`${name} is a ${status}`, async () => {
          const reply = await post(service.baseUrl, PATHS.apply, undefined, {
            token: partner.token,
            raw,
            headers,
          });
          assert.equal(reply.status, status, reply.text);
          assert.equal(reply.body.code, code, reply.text);
          assert.equal(typeof reply.body.msg, 'string');
          assert.ok('data' in reply.body);
        });
      }
    });

    test('validate-only answers like the submit and stores nothing', async () => {
      const before = await service.ctx.store.db
        .selectFrom('applications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const ok = await post(service.baseUrl, PATHS.validate, fresh(), { token: partner.token });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body.data, { valid: true });
      const bad = { ...fresh(), sex: 'X' };
      const validated = await post(service.baseUrl, PATHS.validate, bad, { token: partner.token });
      const submitted = await submit(bad);
      assert.equal(validated.status, 422);
      assert.deepEqual(validated.body, submitted.body);
      const afterCount = await service.ctx.store.db
        .selectFrom('applications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(afterCount.n), Number(before.n));
    });

    test('100 concurrent submissions give 100 distinct serials and card numbers', async () => {
      const replies = await Promise.all(Array.from({ length: 100 }, () => submit(fresh())));
      for (const reply of replies) assert.equal(reply.status, 200, reply.text);
      const serials = replies.map((r) => (r.body.data as { busi_water_no: string }).busi_water_no);
      assert.equal(new Set(serials).size, 100);
      const rows = await service.ctx.store.db
        .selectFrom('applications')
        .select(['card_no_hash', 'payload_enc', 'busi_water_no'])
        .where('busi_water_no', 'in', serials)
        .execute();
      assert.equal(rows.length, 100);
      assert.equal(new Set(rows.map((r) => r.card_no_hash)).size, 100);
      const cardNumbers = rows.map(
        (r) =>
          (JSON.parse(service.ctx.keyRing.decrypt(r.payload_enc, r.busi_water_no)) as { card_no: string })
            .card_no,
      );
      assert.equal(new Set(cardNumbers).size, 100);
      for (const number of cardNumbers)
        assert.ok(isLuhnValid(number) && number.startsWith('539966') && number.length === 16);
    });

    test('messages are in Chinese with Accept-Language: zh', async () => {
      const reply = await submit(
        { ...fresh(), sex: 'X' },
        { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } },
      );
      assert.equal(reply.body.msg, 'sex: 取值必须为 M, F 之一');
    });

    test('a valid applicant of the shared test data passes as is', async () => {
      const reply = await submit(
        validApplicant({
          app_id: partner.appId,
          timestamp: nowSeconds(),
          cert_id: uniqueApplicant(counter++, partner.appId).cert_id,
          birthday: uniqueApplicant(counter - 1, partner.appId).birthday,
        }),
      );
      assert.equal(reply.status, 200, reply.text);
    });
  });
}
