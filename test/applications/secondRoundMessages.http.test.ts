import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { applicantOf } from '../corpus/applicants.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';

/**
 * Issue 25: a refusal says what is wrong with the value, in English and in Chinese, over HTTP: the
 * division that does not belong (not the dashes), the passport's length, the pinyin's stray mark,
 * both readings of an office area code. Rendering does not depend on the store: SQLite only.
 */
describe('second-round messages over HTTP', () => {
  let service: TestService;
  let partner: TestPartner;
  before(async () => {
    service = await startService('sqlite');
    partner = await newPartner(service);
  });
  after(() => service.close());

  const messages = async (fields: Record<string, unknown>, language: 'en' | 'zh') => {
    const body = { ...applicantOf('mainland', fields), app_id: partner.appId, timestamp: nowSeconds() };
    const reply = await post(service.baseUrl, PATHS.validate, body, {
      token: partner.token,
      headers: { 'accept-language': language },
    });
    assert.equal(reply.status, 422, reply.text);
    return (reply.body.data as { errors: { message: string }[] }).errors.map((e) => e.message);
  };

  // prettier-ignore
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['a city of another province', { office_address: '浙江省深圳市南山区科技园路1号' },
      'office_address: unknown city: 深圳市 is not a city or county of 浙江省',
      'office_address: 未知的城市：深圳市不是浙江省下的市、州、盟或县'],
    ['a province that does not exist', { address: '火星省-火星市-北区-1号' },
      'address: unknown province: the first part is not a mainland province (a mainland address begins with its province)',
      'address: 未知的省份：第一部分不是大陆的省级行政区（大陆地址须以省份开头）'],
    ['a Korean passport one digit short', { country: 'KR', cert_type: '02', cert_id: 'M1234567', name: 'Kim Minjun', name_en: 'KIM MINJUN' },
      'cert_id: is not a plausible passport number: it has 8 characters where a Korean passport number is M, S, R, G or D followed by 8 digits, or (since December 2021) by 3 digits, a letter and 4 digits (9 characters)',
      'cert_id: 不是有效的护照号码：长度为8位，而韩国护照号码为M、S、R、G 或 D 加8位数字，或（2021年12月起）加3位数字、1个字母和4位数字（共9位）'],
    ['a hyphen in a pinyin name', { name_en: 'ZHANG-WEI' },
      'name_en: "-" is not written in a pinyin name; must be the pinyin of name: capital letters (Ü included), with spaces or an apostrophe between syllables',
      "name_en: 拼音姓名中不能有“-”；须为 name 的拼音：大写字母（可含 Ü），音节之间可用空格或隔音符号 '"],
    ['an office number valid under neither reading of 852', { office_tel_no: '123 45', office_tel_no_of: '852' },
      'office_tel_no: makes no valid telephone number with office_tel_no_of, read either as the calling code +852 or as the mainland area code 0852',
      'office_tel_no: 与 office_tel_no_of 组合不是有效的电话号码：office_tel_no_of 按国际区号 +852 或大陆长途区号 0852 解读均不成立'],
  ];
  for (const [name, fields, en, zh] of cases) {
    test(`${name}: said as it is, in English and Chinese`, async () => {
      assert.deepEqual(await messages(fields, 'en'), [en]);
      assert.deepEqual(await messages(fields, 'zh'), [zh]);
    });
  }
});
