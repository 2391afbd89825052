import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { defaultCodeTables } from '../../../codes/tables.ts';
import type { ApplicationRequest } from '../../../record/schema.ts';
import { checkApplication, type CheckContext } from './index.ts';
import { md5Hex } from './payPassword.ts';
import { arbValidApplication, arbValidApplications } from '../../../../test/helpers/applicantFixture.ts';

const now = new Date('2026-11-22T08:00:00Z');
const ctx: CheckContext = { now, timeZone: 'Asia/Shanghai', minAge: 18, codes: defaultCodeTables() };
const NUM_RUNS = 300;
const check = (app: ApplicationRequest) => checkApplication(app, ctx, new Set());

const DAY_MS = 86_400_000;
const shiftDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** A corruption of one field and the fields a problem may name for it. */
interface Corruption {
  readonly name: string;
  readonly fields: readonly string[];
  readonly corrupt: (app: ApplicationRequest, pick: number) => Partial<ApplicationRequest>;
}

const corruptions: readonly Corruption[] = [
  {
    name: 'cert_id check digit',
    fields: ['cert_id'],
    corrupt: (app, pick) => {
      const check = app.cert_id[17]!.toUpperCase();
      const others = '0123456789X'.replace(check, '');
      return { cert_id: app.cert_id.slice(0, 17) + others[pick % others.length]! };
    },
  },
  {
    name: 'birthday vs cert_id',
    // pay_pwd: in the rare case where the new birthday makes the payment password a weak one.
    fields: ['cert_id', 'birthday', 'pay_pwd'],
    corrupt: (app, pick) => ({ birthday: shiftDays(app.birthday, -(1 + (pick % 400))) }),
  },
  {
    name: 'sex vs cert_id',
    fields: ['cert_id', 'sex'],
    corrupt: (app) => ({ sex: app.sex === 'M' ? 'F' : 'M' }),
  },
  {
    name: 'name_en not the pinyin',
    fields: ['name_en'],
    corrupt: (app) => ({ name_en: `${app.name_en}Q` }),
  },
  {
    name: 'name_en in small letters',
    fields: ['name_en'],
    corrupt: (app) => ({ name_en: app.name_en.toLowerCase() }),
  },
  {
    name: 'mob_no too short',
    fields: ['mob_no'],
    corrupt: (app) => ({ mob_no: app.mob_no.slice(0, 7) }),
  },
  {
    name: 'email without @',
    fields: ['email'],
    corrupt: (app) => ({ email: app.email.replace('@', '.') }),
  },
  {
    name: 'address province',
    fields: ['address'],
    corrupt: (app) => ({ address: app.address.replace(/^[^-]+/, '火星省') }),
  },
  {
    name: 'image URL to http',
    fields: ['passport_img'],
    corrupt: (app) => ({ passport_img: app.passport_img.replace('https:', 'http:') }),
  },
  {
    name: 'image URL to loopback',
    fields: ['sign_applicant'],
    corrupt: (app) => ({
      sign_applicant: app.sign_applicant.replace(/^https:\/\/[^/]+/, 'https://127.0.0.1'),
    }),
  },
  {
    name: "pay_pwd md5('123456')",
    fields: ['pay_pwd'],
    corrupt: () => ({ pay_pwd: md5Hex('123456') }),
  },
  {
    name: 'profession code unknown',
    fields: ['profession'],
    corrupt: () => ({ profession: 'QQ' }),
  },
  {
    name: 'cert_end_date in the past',
    fields: ['cert_end_date'],
    corrupt: (_app, pick) => ({
      cert_end_date: shiftDays(now.toISOString().slice(0, 10), -(1 + (pick % 3000))),
    }),
  },
];

describe('generated valid applicants', () => {
  test('pass every check', () => {
    fc.assert(
      fc.property(arbValidApplication(now), (app) => {
        assert.deepEqual(check(app), []);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  test('have distinct cert_ids when generated together', () => {
    fc.assert(
      fc.property(arbValidApplications(now, { minLength: 2, maxLength: 20 }), (apps) => {
        assert.equal(new Set(apps.map((a) => a.cert_id)).size, apps.length);
      }),
      { numRuns: 50 },
    );
  });
});

describe('a single corrupted field is refused with a problem naming it', () => {
  for (const corruption of corruptions) {
    test(corruption.name, () => {
      fc.assert(
        fc.property(arbValidApplication(now), fc.nat(), (app, pick) => {
          const problems = check({ ...app, ...corruption.corrupt(app, pick) });
          assert.ok(problems.length > 0, 'no problem reported');
          for (const p of problems)
            assert.ok(corruption.fields.includes(p.field), `unexpected problem on ${p.field}`);
        }),
        { numRuns: 100 },
      );
    });
  }
});
