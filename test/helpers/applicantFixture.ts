import fc from 'fast-check';
import { defaultCodeTables } from '../../src/codes/tables.ts';
import { EXAMPLE_APPLICANT } from '../../src/applications/rules/exampleApplicant.ts';
import type { ApplicationRequest } from '../../src/record/schema.ts';
import { loadDivisions } from '../../src/applications/validation/checks/divisions.ts';
import { gb11643CheckDigit } from '../../src/applications/validation/checks/identity.ts';
import {
  md5Hex,
  personalPasswords,
  weakSixDigitPasswords,
  type PayPasswordInput,
} from '../../src/applications/validation/checks/payPassword.ts';

/**
 * Test data: the example applicant and a fast-check arbitrary of valid applicants, for the unit
 * tests of the checks and the tests of the layers above them (HTTP, storage).
 */

/** Builds a mainland identity card number (GB 11643) from its parts. */
export function mainlandId(region6: string, birthday: string, sequence3: string): string {
  const body = `${region6}${birthday.replaceAll('-', '')}${sequence3}`;
  return body + gb11643CheckDigit(body);
}

/**
 * A complete, valid application: the example applicant of the OpenAPI document and the README (a
 * mainland identity card holder born 1990-03-07, documents valid to 2045-06-01). `app_id` and
 * `timestamp` are placeholders the caller overrides.
 */
export function validApplicant(overrides: Partial<ApplicationRequest> = {}): ApplicationRequest {
  return {
    app_id: 'app_test',
    timestamp: 0,
    ...EXAMPLE_APPLICANT,
    ...overrides,
  };
}

/** Surnames with their pinyin, polyphonic surnames read as surnames. */
export const SURNAMES: readonly (readonly [string, string])[] = [
  ['李', 'LI'], ['王', 'WANG'], ['张', 'ZHANG'], ['刘', 'LIU'], ['陈', 'CHEN'], ['杨', 'YANG'],
  ['黄', 'HUANG'], ['赵', 'ZHAO'], ['吴', 'WU'], ['周', 'ZHOU'], ['徐', 'XU'], ['孙', 'SUN'],
  ['马', 'MA'], ['朱', 'ZHU'], ['胡', 'HU'], ['郭', 'GUO'], ['何', 'HE'], ['林', 'LIN'],
  ['罗', 'LUO'], ['高', 'GAO'], ['郑', 'ZHENG'], ['梁', 'LIANG'], ['谢', 'XIE'], ['宋', 'SONG'],
  ['吕', 'LYU'], ['吕', 'LV'], ['单', 'SHAN'], ['曾', 'ZENG'], ['解', 'XIE'], ['仇', 'QIU'],
  ['区', 'OU'], ['朴', 'PIAO'], ['查', 'ZHA'], ['盖', 'GE'], ['覃', 'QIN'], ['尉迟', 'YUCHI'],
  ['万俟', 'MOQI'], ['欧阳', 'OUYANG'], ['司马', 'SIMA'], ['诸葛', 'ZHUGE'], ['上官', 'SHANGGUAN'],
]; // prettier-ignore

/** Given-name characters with their (only) reading. */
export const GIVEN_CHARACTERS: readonly (readonly [string, string])[] = [
  ['伟', 'WEI'], ['芳', 'FANG'], ['娜', 'NA'], ['敏', 'MIN'], ['静', 'JING'], ['丽', 'LI'],
  ['强', 'QIANG'], ['磊', 'LEI'], ['军', 'JUN'], ['洋', 'YANG'], ['勇', 'YONG'], ['艳', 'YAN'],
  ['杰', 'JIE'], ['娟', 'JUAN'], ['涛', 'TAO'], ['明', 'MING'], ['超', 'CHAO'], ['秀', 'XIU'],
  ['霞', 'XIA'], ['平', 'PING'], ['刚', 'GANG'], ['桂', 'GUI'], ['英', 'YING'], ['华', 'HUA'],
  ['建', 'JIAN'], ['国', 'GUO'], ['文', 'WEN'], ['红', 'HONG'], ['玲', 'LING'], ['欣', 'XIN'],
  ['宇', 'YU'], ['浩', 'HAO'], ['晨', 'CHEN'], ['悦', 'YUE'], ['婷', 'TING'], ['雷', 'LEI'],
  ['梅', 'MEI'], ['鹏', 'PENG'], ['琳', 'LIN'], ['旭', 'XU'], ['绿', 'LYU'], ['女', 'NYU'],
]; // prettier-ignore

const EMAIL_DOMAINS = ['example.com', 'example.cn', 'mail.example.org', 'xn--fiqs8s.example'];
/** Mainland mobile prefixes libphonenumber knows as MOBILE. */
const MOBILE_PREFIXES = [
  '130',
  '131',
  '132',
  '135',
  '136',
  '137',
  '138',
  '139',
  '150',
  '151',
  '158',
  '186',
  '188',
];

const DAY_MS = 86_400_000;
const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const digits = (length: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((d) => d.join(''));

const WEAK_STATIC = weakSixDigitPasswords();

/** Six-digit passwords that are not on the static weak list (the applicant's own are avoided later). */
const payPasswordText = fc.tuple(
  digits(6).filter((p) => !WEAK_STATIC.has(p)),
  fc.boolean(),
);

/** The digest of `password`, or of a neighbour when `password` is weak for this applicant. */
function strongDigest(password: string, upper: boolean, person: Omit<PayPasswordInput, 'pay_pwd'>): string {
  const personal = new Set(personalPasswords({ pay_pwd: '', ...person }));
  let p = password;
  while (personal.has(p) || WEAK_STATIC.has(p)) p = String((Number(p) + 7) % 1_000_000).padStart(6, '0');
  return upper ? md5Hex(p).toUpperCase() : md5Hex(p);
}

const imageUrl = fc
  .tuple(
    fc.constantFrom('img.example.com', 'cdn.example.cn', 'files.partner.example'),
    fc.stringMatching(/^[a-z0-9]{4,12}$/),
  )
  .map(([host, path]) => `https://${host}/u/${path}.jpg`);

const pick = <T>(list: readonly T[]) => fc.constantFrom(...list);

/**
 * Valid mainland applicants: a GB 11643 number whose region is a real county and whose birth date
 * and sex agree with `birthday` and `sex`; a name from common surnames (polyphonic ones with their
 * surname reading) and given-name characters, with its pinyin (spacing varied); a real division as
 * address; valid mobile numbers; https image URLs; a strong `pay_pwd` digest; codes from the default
 * tables, with the "other" texts when needed; documents valid on `now`; aged 19 to 80 on `now`.
 */
export function arbValidApplication(now: Date): fc.Arbitrary<ApplicationRequest> {
  const divisions = loadDivisions().counties;
  const tables = defaultCodeTables();
  const today = Date.parse(`${dayString(now.getTime())}T00:00:00Z`);
  const codesOf = (name: 'position' | 'profession' | 'purpose' | 'wealth_source') =>
    tables[name].entries.map((e) => e.code);

  const identity = fc
    .record({
      county: pick(divisions),
      ageDays: fc.integer({ min: 19 * 366, max: 80 * 365 }),
      sex: fc.constantFrom('M' as const, 'F' as const),
      seq: fc.integer({ min: 0, max: 499 }),
      lowerX: fc.boolean(),
    })
    .map(({ county, ageDays, sex, seq, lowerX }) => {
      const birthday = dayString(today - ageDays * DAY_MS);
      const sequence = String(seq * 2 + (sex === 'M' ? 1 : 0)).padStart(3, '0');
      const id = mainlandId(county.code, birthday, sequence);
      return { county, birthday, sex, cert_id: lowerX ? id.replace('X', 'x') : id };
    });

  const name = fc
    .record({
      surname: pick(SURNAMES),
      given: fc.array(pick(GIVEN_CHARACTERS), { minLength: 1, maxLength: 2 }),
      joined: fc.boolean(),
      spacedGiven: fc.boolean(),
    })
    .map(({ surname, given, joined, spacedGiven }) => ({
      name: surname[0] + given.map((g) => g[0]).join(''),
      name_en: surname[1] + (joined ? '' : ' ') + given.map((g) => g[1]).join(spacedGiven ? ' ' : ''),
    }));

  const mobile = fc.tuple(pick(MOBILE_PREFIXES), digits(8)).map(([p, d]) => p + d);
  const documentDates = fc
    .record({ ageDays: fc.integer({ min: 1, max: 9 * 365 }), longTerm: fc.boolean() })
    .map(({ ageDays, longTerm }) => {
      const start = today - ageDays * DAY_MS;
      return {
        cert_start_date: dayString(start),
        cert_end_date: longTerm ? '9999-12-31' : dayString(start + 20 * 365 * DAY_MS),
      };
    });

  const codeList = (name: 'purpose' | 'wealth_source') =>
    fc.uniqueArray(pick(codesOf(name)), { minLength: 1, maxLength: 4 });

  return fc
    .record({
      identity,
      name,
      mob: mobile,
      consigneeMob: mobile,
      office: fc.tuple(fc.constantFrom('755', '10', '21', '20'), fc.integer({ min: 2, max: 6 }), digits(7)),
      email: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9_]{1,6}(?:\.[a-z0-9_]{1,6})?$/), pick(EMAIL_DOMAINS)),
      documentDates,
      images: fc.array(imageUrl, { minLength: 5, maxLength: 5 }),
      withBackImage: fc.boolean(),
      pay_pwd: payPasswordText,
      position: pick(codesOf('position')),
      profession: pick(codesOf('profession')),
      purpose: codeList('purpose'),
      wealth_source: codeList('wealth_source'),
      detail: fc.constantFrom('科技园路1号', '人民路100号3栋-201', '中山大道8号'),
      consigneeCounty: pick(divisions),
    })
    .map((g): ApplicationRequest => {
      const { county } = g.identity;
      const [idFront, idBack, passport, sign, voucher] = g.images as [string, string, string, string, string];
      const app: ApplicationRequest = {
        app_id: 'app_test',
        timestamp: 0,
        address: `${county.province}-${county.prefecture}-${county.county}-${g.detail}`,
        birthday: g.identity.birthday,
        sex: g.identity.sex,
        cert_type: '00',
        cert_id: g.identity.cert_id,
        country: 'CN',
        id_card_img: idFront,
        ...g.documentDates,
        passport_img: passport,
        email: `${g.email[0]}@${g.email[1]}`,
        mob_no: g.mob,
        mob_no_of: '+86',
        name: g.name.name,
        name_en: g.name.name_en,
        company_name: '示例有限公司',
        office_address: `${county.province}-${county.prefecture}-${county.county}-写字楼1号`,
        office_tel_no: g.office[0] + String(g.office[1]) + g.office[2],
        office_tel_no_of: '+86',
        position: g.position,
        pay_pwd: strongDigest(g.pay_pwd[0], g.pay_pwd[1], {
          birthday: g.identity.birthday,
          cert_id: g.identity.cert_id,
          mob_no: g.mob,
        }),
        profession: g.profession,
        purpose: g.purpose,
        sign_applicant: sign,
        wealth_source: g.wealth_source,
        yearly_income: '200000',
        years_of_service: '5',
        consignee: g.name.name,
        consignee_mob_no: g.consigneeMob,
        consignee_mob_no_of: '+86',
        consignee_address: `${g.consigneeCounty.province}-${g.consigneeCounty.prefecture}-${g.consigneeCounty.county}-${g.detail}`,
        pay_voucher: voucher,
      };
      if (g.withBackImage) app.id_card_back_img = idBack;
      if (g.profession === tables.profession.otherCode) app.profession_other = '自由撰稿';
      if (g.purpose.includes(tables.purpose.otherCode ?? '')) app.purpose_other = '其他用途';
      if (g.wealth_source.includes(tables.wealth_source.otherCode ?? ''))
        app.wealth_source_other = '其他来源';
      return app;
    });
}

/** Several valid applicants with pairwise distinct `cert_id`s (for tests that store them). */
export function arbValidApplications(
  now: Date,
  constraints: { minLength?: number; maxLength?: number } = {},
): fc.Arbitrary<ApplicationRequest[]> {
  return fc.uniqueArray(arbValidApplication(now), { ...constraints, selector: (a) => a.cert_id });
}
