import type { ErrorName } from '../../src/errors/catalogue.ts';
import type { ApplicationRequest } from '../../src/record/schema.ts';

/**
 * A corpus of realistic applicants and single-field variants, as partners' forms and Chinese input
 * methods write them: people from mainland China, Hong Kong, Macao, Taiwan and abroad. Each case says
 * who the applicant is, the answer the service must give (accepted, or the exact problems), and why:
 * the specification (`spec`), PRODUCT.md's "Validation beyond types" (`PRODUCT`), or a published
 * standard.
 *
 * Built by hand from the populations and public sources, not from the test-data generator:
 * - GB 11643-1999 公民身份号码 (its own examples 11010519491231002X and 440524188001010014; other
 *   check characters computed by hand with its ISO 7064 MOD 11-2 weights 7 9 10 5 8 4 2 1 6 3 7 9
 *   10 5 8 4 2);
 * - the Hong Kong Immigration Department's example A123456(3) and its check-digit rule;
 * - Taiwan's identity card example A123456789 and its check rule;
 * - the residence permits for Hong Kong, Macao and Taiwan residents (State Council, 2018: region
 *   codes 810000, 820000, 830000) and the foreigner's permanent residence card of 2023 (National
 *   Immigration Administration: 9, issuing province, ISO 3166-1 numeric nationality, birth date,
 *   sequence and sex, GB 11643 check character);
 * - the National Bureau of Statistics' division codes and the Ministry of Civil Affairs' yearly change
 *   lists (崇文区 and 宣武区 abolished 2010, 闸北区 2015, 巢湖市 2011, 襄樊市 renamed 襄阳市 2010).
 *
 * `app_id` and `timestamp` are filled in by the test. Dates stay valid for years: documents end in
 * 2036 or later, the under-age applicant was born in 2015.
 */

export type Population = 'mainland' | 'hongkong' | 'macao' | 'taiwan' | 'abroad';

export interface CorpusCase {
  readonly id: string;
  readonly population: Population;
  /** Who the applicant is and how the form wrote the value. */
  readonly who: string;
  readonly application: ApplicationRequest;
  /** `accepted`, or every problem as [field, catalogue rule], in the order the response lists them. */
  readonly expect: 'accepted' | readonly (readonly [string, ErrorName])[];
  readonly why: string;
}

const IMAGES = {
  id_card_img: 'https://img.partner.example/kyc/2f8c/id-front.jpg',
  id_card_back_img: 'https://img.partner.example/kyc/2f8c/id-back.jpg',
  passport_img: 'https://img.partner.example/kyc/2f8c/passport.jpg',
  sign_applicant: 'https://img.partner.example/kyc/2f8c/sign.png',
  pay_voucher: 'https://img.partner.example/kyc/2f8c/voucher.jpg',
};

/** 张伟, a software engineer in Shenzhen, mainland identity card, as a WeChat mini-program form sends it. */
const MAINLAND: ApplicationRequest = {
  app_id: '',
  timestamp: 0,
  address: '广东省-深圳市-南山区-科苑路15号科兴科学园B栋',
  birthday: '1990-03-07',
  sex: 'M',
  cert_type: '00',
  cert_id: '440305199003071236',
  country: 'CN',
  ...IMAGES,
  cert_start_date: '2016-04-12',
  cert_end_date: '2036-04-12',
  email: 'zhangwei1990@qq.com',
  mob_no: '13800138000',
  mob_no_of: '+86',
  name: '张伟',
  name_en: 'ZHANG WEI',
  company_name: '深圳市腾云科技有限公司',
  office_address: '广东省-深圳市-南山区-科技园南区粤海街道1号',
  office_tel_no: '75526000000',
  office_tel_no_of: '+86',
  position: '04',
  pay_pwd: '97b24f7696e25258fabac36171807fe5', // MD5 of 704193
  profession: 'I',
  purpose: ['04', '07'],
  wealth_source: ['01'],
  yearly_income: '360000',
  years_of_service: '6',
  consignee: '张伟',
  consignee_mob_no: '13800138000',
  consignee_mob_no_of: '+86',
  consignee_address: '广东省-深圳市-南山区-科苑路15号科兴科学园B栋',
};

/** 陳大文 (the Immigration Department's specimen name), Hong Kong permanent resident, HKID A123456(3). */
const HONG_KONG: ApplicationRequest = {
  app_id: '',
  timestamp: 0,
  address: '香港九龍旺角彌敦道688號旺角中心12樓A室',
  birthday: '1985-06-15',
  sex: 'M',
  cert_type: '00',
  cert_id: 'A123456(3)',
  country: 'HK',
  ...IMAGES,
  email: 'taiman.chan@netvigator.com',
  mob_no: '91234567',
  mob_no_of: '+852',
  name: '陳大文',
  name_en: 'CHAN TAI MAN',
  company_name: '大文貿易有限公司',
  office_address: '香港中環皇后大道中99號中環中心30樓',
  office_tel_no: '21234567',
  office_tel_no_of: '+852',
  position: '02',
  pay_pwd: 'd9daa18b736292990d2a61288e17bd2c', // MD5 of 481930
  profession: 'F',
  purpose: ['04'],
  wealth_source: ['01', '03'],
  yearly_income: '540000',
  years_of_service: '12',
  consignee: '陳大文',
  consignee_mob_no: '91234567',
  consignee_mob_no_of: '+852',
  consignee_address: '香港九龍旺角彌敦道688號旺角中心12樓A室',
};

/** 黃志明, Macao permanent resident, identity card 5123456(7), living in Taipa. */
const MACAO: ApplicationRequest = {
  app_id: '',
  timestamp: 0,
  address: '澳門氹仔海洋花園大馬路1號海洋花園2座8樓',
  birthday: '1988-11-02',
  sex: 'M',
  cert_type: '00',
  cert_id: '5123456(7)',
  country: 'MO',
  ...IMAGES,
  cert_start_date: '2019-02-20',
  cert_end_date: '2029-02-20',
  email: 'wongchimeng@macau.ctm.net',
  mob_no: '66123456',
  mob_no_of: '+853',
  name: '黃志明',
  name_en: 'WONG CHI MENG',
  company_name: '澳門旅遊娛樂有限公司',
  office_address: '澳門新馬路1號',
  office_tel_no: '28781234',
  office_tel_no_of: '+853',
  position: '05',
  pay_pwd: '63b8e21255124577f16b9fef197b5cb9', // MD5 of 260517
  profession: 'H',
  purpose: ['04', '07'],
  wealth_source: ['01'],
  yearly_income: '300000',
  years_of_service: '8',
  consignee: '黃志明',
  consignee_mob_no: '66123456',
  consignee_mob_no_of: '+853',
  consignee_address: '澳門氹仔海洋花園大馬路1號海洋花園2座8樓',
};

/** 王小明, Taipei, Taiwan identity card A123456789 (the form's printed example), Wade-Giles name. */
const TAIWAN: ApplicationRequest = {
  app_id: '',
  timestamp: 0,
  address: '台北市信義區市府路1號',
  birthday: '1987-09-30',
  sex: 'M',
  cert_type: '00',
  cert_id: 'A123456789',
  country: 'TW',
  ...IMAGES,
  cert_start_date: '2020-07-01',
  cert_end_date: '9999-12-31',
  email: 'hsiaoming.wang@gmail.com',
  mob_no: '912345678',
  mob_no_of: '+886',
  name: '王小明',
  name_en: 'WANG HSIAO-MING',
  company_name: '台灣積體科技股份有限公司',
  office_address: '新竹市東區力行六路8號',
  office_tel_no: '35636688',
  office_tel_no_of: '+886',
  position: '04',
  pay_pwd: 'd9daa18b736292990d2a61288e17bd2c', // MD5 of 481930
  profession: 'C',
  purpose: ['04'],
  wealth_source: ['01'],
  yearly_income: '1500000',
  years_of_service: '7',
  consignee: '王小明',
  consignee_mob_no: '912345678',
  consignee_mob_no_of: '+886',
  consignee_address: '台北市信義區市府路1號',
};

/** John Smith, a US citizen working in Shanghai, on his US passport. */
const ABROAD: ApplicationRequest = {
  app_id: '',
  timestamp: 0,
  address: '上海市-徐汇区-衡山路10号',
  birthday: '1982-04-21',
  sex: 'M',
  cert_type: '02',
  cert_id: '531234567',
  country: 'US',
  ...IMAGES,
  cert_start_date: '2021-05-10',
  cert_end_date: '2031-05-09',
  email: 'john.smith@example.com',
  mob_no: '2015550123',
  mob_no_of: '+1',
  name: 'John Smith',
  name_en: 'JOHN SMITH',
  company_name: 'Acme Trading (Shanghai) Co., Ltd.',
  office_address: '上海市-浦东新区-世纪大道100号环球金融中心50楼',
  office_tel_no: '2168880000',
  office_tel_no_of: '+86',
  position: '01',
  pay_pwd: '63b8e21255124577f16b9fef197b5cb9', // MD5 of 260517
  profession: 'L',
  purpose: ['04', '06'],
  wealth_source: ['01'],
  yearly_income: '900000',
  years_of_service: '3',
  consignee: 'John Smith',
  consignee_mob_no: '2015550123',
  consignee_mob_no_of: '+1',
  consignee_address: '上海市-徐汇区-衡山路10号',
};

const BASES: Record<Population, ApplicationRequest> = {
  mainland: MAINLAND,
  hongkong: HONG_KONG,
  macao: MACAO,
  taiwan: TAIWAN,
  abroad: ABROAD,
};

/** The population's applicant with some fields as a form wrote them (`undefined` leaves a field out). */
export function applicantOf(
  population: Population,
  fields: Partial<ApplicationRequest> & Record<string, unknown>,
): ApplicationRequest {
  const application = { ...BASES[population], ...fields } as ApplicationRequest;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete (application as Record<string, unknown>)[key];
  }
  return application;
}

const cases: CorpusCase[] = [];
const counters: Record<Population, number> = { mainland: 0, hongkong: 0, macao: 0, taiwan: 0, abroad: 0 };

/** One case: the population's applicant with some fields as this form wrote them. */
function add(
  population: Population,
  who: string,
  fields: Partial<ApplicationRequest> & Record<string, unknown>,
  expect: CorpusCase['expect'],
  why: string,
): void {
  const application = applicantOf(population, fields);
  counters[population]++;
  cases.push({
    id: `${population}-${String(counters[population]).padStart(3, '0')}`,
    population,
    who,
    application,
    expect,
    why,
  });
}

const OK = 'accepted' as const;

// ---------------------------------------------------------------- mainland China
const M = 'mainland' as const;
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
add(M, '张伟 as the mini-program sends him', {}, OK, 'spec: every field as specified');
add(M, 'GB 11643 example: a woman born 1949-12-31 in Beijing, X check character', { cert_id: '11010519491231002X', birthday: '1949-12-31', sex: 'F' }, OK, 'GB 11643-1999 example number');
add(M, 'the same example with a lower-case x', { cert_id: '11010519491231002x', birthday: '1949-12-31', sex: 'F' }, OK, 'PRODUCT: document numbers read in upper case');
add(M, 'GB 11643 example born 1880: valid number, but 146 years old', { cert_id: '440524188001010014', birthday: '1880-01-01' }, [['birthday', 'overAge']], 'GB 11643-1999 example; PRODUCT: applicant at most 120');
add(M, 'number spaced in groups as printed (6-8-4)', { cert_id: '440305 19900307 1236' }, OK, 'PRODUCT: spaces removed from document numbers');
add(M, 'number typed in full-width digits by a Chinese IME', { cert_id: '４４０３０５１９９００３０７１２３６' }, OK, 'PRODUCT: full-width forms folded');
add(M, 'number with a trailing space from copy and paste', { cert_id: '440305199003071236 ' }, OK, 'PRODUCT: spaces removed');
add(M, 'number with hyphens between the parts', { cert_id: '440305-19900307-1236' }, [['cert_id', 'certFormat']], 'GB 11643: 18 characters, no separators (only spaces are read past)');
add(M, 'last digit mistyped', { cert_id: '440305199003071235' }, [['cert_id', 'certCheckDigit']], 'GB 11643 MOD 11-2 check character');
add(M, 'two digits swapped', { cert_id: '440305199003071326' }, [['cert_id', 'certCheckDigit'], ['cert_id', 'certSexMismatch']], 'GB 11643 check character; 17th digit even means female');
add(M, 'birthday one day off the number', { birthday: '1990-03-08' }, [['cert_id', 'certBirthMismatch']], 'GB 11643: digits 7-14 are the birth date');
add(M, 'sex entered F for a male number', { sex: 'F' }, [['cert_id', 'certSexMismatch']], 'GB 11643: 17th digit odd for male');
add(M, 'region 99 (no such province)', { cert_id: '990305199003071233' }, [['cert_id', 'certRegionUnknown']], 'GB/T 2260 province codes');
add(M, 'old 15-digit number', { cert_id: '440305900307123' }, [['cert_id', 'certFormat']], 'GB 11643-1999 replaced 15-digit numbers');
add(M, '17 digits only', { cert_id: '44030519900307123' }, [['cert_id', 'certFormat']], 'GB 11643: 18 characters');
add(M, 'a Uyghur woman from Urumqi, middle dot as the IME types it (·)', { name: '阿依古丽·买买提', name_en: 'AYIGULI MAIMAITI', cert_id: '650102198507150020', birthday: '1985-07-15', sex: 'F' }, OK, 'PRODUCT: middle dot between the parts of a transliterated name');
add(M, 'the same name with the bullet look-alike •', { name: '阿依古丽•买买提', name_en: 'AYIGULI MAIMAITI', cert_id: '650102198507150020', birthday: '1985-07-15', sex: 'F' }, OK, 'PRODUCT: look-alikes of · read as one');
add(M, 'the same name with the katakana middle dot ・', { name: '阿依古丽・买买提', name_en: 'AYIGULIMAIMAITI', cert_id: '650102198507150020', birthday: '1985-07-15', sex: 'F' }, OK, 'PRODUCT: look-alikes of · read as one; spacing free');
add(M, 'the same name with a hyphenation point ‧', { name: '阿依古丽‧买买提', name_en: 'AYIGULI MAIMAITI', cert_id: '650102198507150020', birthday: '1985-07-15', sex: 'F' }, OK, 'PRODUCT: look-alikes of · read as one');
add(M, 'the same name with a full stop between the parts', { name: '阿依古丽.买买提', name_en: 'AYIGULI MAIMAITI', cert_id: '650102198507150020', birthday: '1985-07-15', sex: 'F' }, [['name', 'nameNotChinese']], 'PRODUCT: a middle dot, not a full stop (decision in docs/VALIDATION.md)');
add(M, 'surname 曾 read as a surname (ZENG)', { name: '曾小贤', name_en: 'ZENG XIAOXIAN' }, OK, 'PRODUCT: surname readings of polyphonic characters');
add(M, 'surname 单 read SHAN', { name: '单田芳', name_en: 'SHAN TIANFANG' }, OK, 'PRODUCT: surname readings');
add(M, 'compound surname 欧阳', { name: '欧阳娜娜', name_en: 'OUYANG NANA' }, OK, 'PRODUCT: pinyin of name');
add(M, 'compound surname written apart', { name: '欧阳娜娜', name_en: 'OU YANG NA NA' }, OK, 'PRODUCT: spacing free at syllable boundaries');
add(M, 'ü of 吕 written LYU (passport style)', { name: '吕思源', name_en: 'LYU SIYUAN' }, OK, 'PRODUCT: ü as YU');
add(M, 'ü of 吕 written LV (IME style)', { name: '吕思源', name_en: 'LV SIYUAN' }, OK, 'PRODUCT: ü as V');
add(M, 'ü of 吕 written LU', { name: '吕思源', name_en: 'LU SIYUAN' }, OK, 'PRODUCT: ü as U');
add(M, 'given name read in its other reading (乐 YUE)', { name: '李乐', name_en: 'LI YUE' }, OK, 'PRODUCT: any reading of a polyphonic character');
add(M, 'name_en run together', { name_en: 'ZHANGWEI' }, OK, 'PRODUCT: spacing free');
add(M, 'name_en with a double space from the form', { name_en: 'ZHANG  WEI' }, OK, 'PRODUCT: spacing free at syllable boundaries');
add(M, 'name_en typed in full-width capitals', { name_en: 'ＺＨＡＮＧ　ＷＥＩ' }, OK, 'PRODUCT: full-width forms folded');
add(M, 'name_en in title case', { name_en: 'Zhang Wei' }, [['name_en', 'nameEnNotCapitals']], 'spec: for mainland applicants the pinyin name in capital letters');
add(M, 'name_en with a trailing space', { name_en: 'ZHANG WEI ' }, [['name_en', 'nameEnSpaces']], 'PRODUCT: spacing free at syllable boundaries only (decision in docs/VALIDATION.md)');
add(M, 'name_en in Cantonese romanisation', { name_en: 'CHEUNG WAI' }, [['name_en', 'nameEnPinyinMismatch']], 'spec, PRODUCT: the pinyin of name for mainland applicants');
add(M, 'name_en of someone else', { name_en: 'LI LEI' }, [['name_en', 'nameEnPinyinMismatch']], 'PRODUCT: pinyin of name');
add(M, 'a digit typed into the Chinese name', { name: '张伟2' }, [['name', 'nameDigits']], 'PRODUCT: never digits');
add(M, 'name written in pinyin instead of characters', { name: 'Zhang Wei' }, [['name', 'nameNotChinese']], 'spec: name in Chinese; PRODUCT: Chinese characters');
add(M, 'name with a space between surname and given name', { name: '张 伟' }, [['name', 'nameNotChinese']], 'PRODUCT: Chinese characters (decision: no spaces inside)');
add(M, 'rare character of CJK extension B (𠇔)', { name: '李𠇔', name_en: 'LI XI' }, OK, 'PRODUCT: any CJK extension');
add(M, 'mainland passport holder, E + 8 digits', { cert_type: '02', cert_id: 'E12345678' }, OK, 'PRODUCT: Chinese passports E-style');
add(M, 'mainland passport of the EA series', { cert_type: '02', cert_id: 'EA1234567' }, OK, 'PRODUCT: EA-style');
add(M, 'mainland passport typed in lower case with spaces', { cert_type: '02', cert_id: 'e 1234 5678' }, OK, 'PRODUCT: upper case, spaces removed');
add(M, 'mainland passport holder whose name_en is not the pinyin', { cert_type: '02', cert_id: 'E12345678', name_en: 'CHEUNG WAI' }, [['name_en', 'nameEnPinyinMismatch']], 'PRODUCT: pinyin for every mainland applicant, whatever the document');
add(M, "mainland passport number of another country's form", { cert_type: '02', cert_id: 'K12345678' }, [['cert_id', 'passportFormat']], 'PRODUCT: Chinese passport forms');
add(M, 'mobile spaced 3-4-4 as spoken', { mob_no: '138 0013 8000' }, OK, 'PRODUCT: spaces read past');
add(M, 'mobile hyphenated', { mob_no: '138-0013-8000' }, OK, 'PRODUCT: hyphens read past');
add(M, 'mobile with the trunk 0 in front', { mob_no: '013800138000' }, OK, 'ITU-T E.164 national prefix of China');
add(M, 'mobile written with the calling code again', { mob_no: '+86 138 0013 8000' }, [['mob_no', 'phoneCallingCodeRepeated']], 'spec: the number without the area code');
add(M, 'mobile split with dots', { mob_no: '138.0013.8000' }, [['mob_no', 'phoneSeparator']], 'PRODUCT: spaces, hyphens and parentheses only');
add(M, 'a Shenzhen landline given as the mobile', { mob_no: '0755-26000000' }, [['mob_no', 'phoneNotMobile']], 'PRODUCT: mob_no must be a mobile number');
add(M, 'mobile one digit short', { mob_no: '1380013800' }, [['mob_no', 'phoneInvalid']], 'China numbering plan: 11-digit mobiles');
add(M, 'calling code without the plus', { mob_no_of: '86' }, [['mob_no_of', 'areaCodePlusMissing']], 'spec: written with a leading plus sign');
add(M, 'calling code in full-width', { mob_no_of: '＋８６' }, OK, 'PRODUCT: full-width forms folded');
add(M, 'calling code in brackets', { mob_no_of: '(+86)' }, OK, 'PRODUCT: parentheses read past');
add(M, 'office number with trunk 0 and hyphen', { office_tel_no: '0755-26000000' }, OK, 'PRODUCT: hyphens read past');
add(M, 'office area code as the domestic code 0755', { office_tel_no: '26000000', office_tel_no_of: '0755' }, OK, 'PRODUCT: office_tel_no_of a domestic area code');
add(M, 'office area code 755 without the 0', { office_tel_no: '2600 0000', office_tel_no_of: '755' }, OK, 'PRODUCT: 0755 or 755');
add(M, 'office area code given, and the number repeats it', { office_tel_no: '0755-2600 0000', office_tel_no_of: '0755' }, OK, 'PRODUCT: judged as the whole number (decision in docs/VALIDATION.md)');
add(M, 'office extension after 转', { office_tel_no: '0755-26000000转8001' }, OK, 'PRODUCT: an office number may carry an extension');
add(M, 'office extension as a last hyphen group', { office_tel_no: '0755-26000000-8001' }, OK, 'PRODUCT: extension');
add(M, 'office extension written ext.', { office_tel_no: '0755 2600 0000 ext. 8001' }, OK, 'PRODUCT: extension');
add(M, 'office number with the area code in brackets', { office_tel_no: '(0755)26000000' }, OK, 'PRODUCT: parentheses read past');
add(M, 'a Beijing office', { office_tel_no: '010-6552 9988', office_address: '北京市-朝阳区-建国路88号SOHO现代城' }, OK, 'PRODUCT: municipality form; hyphens read past');
add(M, 'office area code that is none', { office_tel_no_of: '0x' }, [['office_tel_no_of', 'officeAreaCodeInvalid']], 'PRODUCT: a calling code or a domestic area code');
add(M, 'office number too short for any plan', { office_tel_no: '123' }, [['office_tel_no', 'phoneInvalid']], 'China numbering plan');
add(M, 'consignee reached on a landline', { consignee_mob_no: '0755-26000000' }, OK, "spec: the recipient's telephone number; PRODUCT: any valid telephone");
add(M, 'consignee number invalid', { consignee_mob_no: '12345' }, [['consignee_mob_no', 'phoneInvalid']], 'PRODUCT: a valid telephone number');
add(M, 'e-mail at a Chinese IDN domain in Unicode', { email: 'zhangwei@例子.中国' }, OK, 'PRODUCT: internationalised domains in Unicode');
add(M, 'e-mail at the same domain in its xn-- form', { email: 'zhangwei@xn--fsqu00a.xn--fiqs8s' }, OK, 'PRODUCT: or in their xn-- form');
add(M, 'e-mail domain with the IME full stop 。', { email: 'zhangwei@例子。中国' }, OK, 'IDNA (UTS #46) maps 。 to .');
add(M, 'e-mail missing its top-level domain', { email: 'zhangwei@qq' }, [['email', 'emailInvalid']], 'PRODUCT: well formed');
add(M, 'e-mail with a Chinese local part', { email: '张伟@qq.com' }, [['email', 'emailInvalid']], 'PRODUCT: only domains may be internationalised (decision in docs/VALIDATION.md)');
add(M, 'address with short names 广东-深圳', { address: '广东-深圳-南山区-科苑路15号' }, OK, 'PRODUCT: short names');
add(M, 'address with short district name too', { address: '广东-深圳-南山-科苑路15号' }, OK, 'PRODUCT: city and district names short or full');
add(M, 'address with full-width dashes', { address: '广东省－深圳市－南山区－科苑路15号' }, OK, 'PRODUCT: － counts as -');
add(M, "address with the IME's double dash ——", { address: '广东省——深圳市——南山区——科苑路15号' }, OK, 'PRODUCT first rule: the way an input method writes a value (decision in docs/VALIDATION.md)');
add(M, 'address starting with the country', { address: '中国-广东省-深圳市-南山区-科苑路15号' }, OK, 'PRODUCT first rule (decision in docs/VALIDATION.md)');
add(M, 'address with spaces around the dashes', { address: '广东省 - 深圳市 - 南山区 - 科苑路15号' }, OK, 'PRODUCT: the parts as named');
add(M, 'Beijing address without the city level', { address: '北京市-朝阳区-建国路88号' }, OK, 'PRODUCT: a municipality may leave out the level it does not have');
add(M, 'Beijing address with the city level repeated', { address: '北京市-北京市-朝阳区-建国路88号' }, OK, 'NBS codes: 北京市 is province and city');
add(M, 'Shanghai, Pudong, short names', { address: '上海-浦东新区-世纪大道100号' }, OK, 'PRODUCT: municipality; short names');
add(M, 'Chongqing, 渝北区 (retired 2025, still on cards)', { address: '重庆市-渝北区-龙溪街道金龙路1号' }, OK, 'PRODUCT: districts abolished still accepted');
add(M, 'Jiyuan, a province-administered city', { address: '河南省-济源市-济源大道100号' }, OK, 'PRODUCT: a province-administered city may leave out the level it does not have');
add(M, 'Xiantao with its street', { address: '湖北省-仙桃市-干河街道-仙桃大道1号' }, OK, 'NBS codes: 429004 under the province');
add(M, 'Dongguan, a city without districts', { address: '广东省-东莞市-南城街道-鸿福路1号' }, OK, 'NBS codes: 东莞市 has towns, no districts');
add(M, 'Inner Mongolia written short', { address: '内蒙古-呼和浩特市-赛罕区-大学西街1号' }, OK, 'PRODUCT: 内蒙古');
add(M, 'Xinjiang written short', { address: '新疆-乌鲁木齐市-天山区-人民路1号' }, OK, 'PRODUCT: 新疆');
add(M, 'Enshi prefecture written 恩施州', { address: '湖北省-恩施州-恩施市-航空大道1号' }, OK, 'PRODUCT: short names of autonomous prefectures');
add(M, 'Beijing 宣武区 from a long-term card (abolished 2010)', { address: '北京市-宣武区-广安门内大街1号' }, OK, 'MCA change list 2010; PRODUCT: abolished since 2000 accepted');
add(M, 'Beijing 崇文区 with the city level (abolished 2010)', { address: '北京市-北京市-崇文区-东花市大街1号' }, OK, 'MCA change list 2010');
add(M, 'Shanghai 闸北区 (merged into 静安区 2015)', { address: '上海市-闸北区-天目西路1号' }, OK, 'MCA change list 2015');
add(M, 'Anhui 巢湖市-居巢区 (prefecture abolished 2011)', { address: '安徽省-巢湖市-居巢区-人民路1号' }, OK, 'MCA change list 2011');
add(M, 'Hubei 襄樊市 (renamed 襄阳市 2010)', { address: '湖北省-襄樊市-樊城区-人民路1号' }, OK, 'MCA change list 2010');
add(M, 'Tianjin 塘沽区 (abolished 2009)', { address: '天津市-塘沽区-解放路1号' }, OK, 'MCA change list 2009');
add(M, 'a district of another city', { address: '广东省-深圳市-西湖区-科苑路15号' }, [['address', 'addressDivisionUnknown']], 'NBS codes: 西湖区 is in Hangzhou');
add(M, 'a city of another province', { address: '广东省-杭州市-西湖区-文三路1号' }, [['address', 'addressDivisionUnknown']], 'NBS codes: 杭州市 is in Zhejiang');
add(M, 'a province that does not exist', { address: '火星省-深圳市-南山区-科苑路15号' }, [['address', 'addressDivisionUnknown']], 'GB/T 2260');
add(M, 'address without dashes', { address: '广东省深圳市南山区科苑路15号' }, [['address', 'addressParts']], 'spec, PRODUCT: parts joined by -');
add(M, 'address joined by spaces (a cascader picker)', { address: '广东省 深圳市 南山区 科苑路15号' }, [['address', 'addressParts']], 'spec: joined by - (decision in docs/VALIDATION.md)');
add(M, 'address without the detail', { address: '广东省-深圳市-南山区' }, [['address', 'addressParts']], 'spec: province-city-district-detailed address');
add(M, 'a mainland citizen living in London', { address: 'Flat 3, 12 Baker Street, London NW1 6XE, United Kingdom' }, OK, 'PRODUCT: any other address is free text');
add(M, 'a mainland citizen living in Hong Kong (广东道 is a Kowloon street)', { address: '香港九龍尖沙咀廣東道30號海港城' }, OK, 'PRODUCT: Hong Kong addresses free text');
add(M, 'office address in Hangzhou, full names', { office_address: '浙江省-杭州市-西湖区-文三路90号' }, OK, 'PRODUCT: office_address alike');
add(M, 'office address with an unknown district', { office_address: '浙江省-杭州市-南山区-文三路90号' }, [['office_address', 'addressDivisionUnknown']], 'PRODUCT: office_address alike');
add(M, 'consignee address without dashes', { consignee_address: '广东省深圳市福田区福华路8号' }, OK, 'PRODUCT Addresses (revised, issue 25): consignee_address is written as people write it, dashes or not');
add(M, 'delivery to a relative in Singapore', { consignee: '张芳', consignee_address: '10 Anson Road, #12-01, Singapore 079903', consignee_mob_no: '8123 4567', consignee_mob_no_of: '+65' }, OK, 'PRODUCT: free text abroad; any valid telephone');
add(M, 'document started the day before the birthday', { cert_start_date: '1990-03-06' }, [['cert_start_date', 'documentStartBeforeBirth']], 'PRODUCT: cert_start_date not before birthday');
add(M, 'long-term card (no expiry)', { cert_start_date: '2010-05-01', cert_end_date: '9999-12-31' }, OK, 'spec: 9999-12-31 for no expiry');
add(M, 'card expired in 2020', { cert_start_date: '2000-01-01', cert_end_date: '2020-01-01' }, [['cert_end_date', 'documentExpired']], 'PRODUCT: cert_end_date not passed');
add(M, 'a child born 2015', { birthday: '2015-06-01', cert_id: '440305201506010013' }, [['birthday', 'underAge']], 'PRODUCT: of age (18)');
add(M, 'start date missing on a mainland card', { cert_start_date: undefined }, [['cert_start_date', 'documentStartRequired']], 'spec: may be omitted for a Hong Kong identity card (only)');
add(M, '"other" purpose without its text', { purpose: ['04', '99'] }, OK, 'spec: purpose_other optional; PRODUCT: a risk flag');
add(M, '"other" source of funds without its text', { wealth_source: ['99'] }, OK, 'spec: wealth_source_other optional');
add(M, '"other" profession without its text', { profession: 'Z' }, [['profession_other', 'otherTextRequired']], 'spec: required when the occupation is "other"');
add(M, 'payment password 123456', { pay_pwd: 'e10adc3949ba59abbe56e057f20f883e' }, [['pay_pwd', 'payPwdWeak']], 'PRODUCT: trivially weak passwords refused');
add(M, 'a Shanghai woman, card 310104...', { cert_id: '310104198808080040', birthday: '1988-08-08', sex: 'F', name: '王芳', name_en: 'WANG FANG', address: '上海市-徐汇区-漕溪北路1号' }, OK, 'GB 11643; PRODUCT: municipality form');
add(M, 'a Chengdu man born 1995', { cert_id: '510107199511200030', birthday: '1995-11-20', sex: 'M', name: '刘洋', name_en: 'LIU YANG', address: '四川省-成都市-武侯区-人民南路四段1号' }, OK, 'GB 11643');
add(M, 'a Beijing man born 1976, Chaoyang', { cert_id: '110105197602140057', birthday: '1976-02-14', name: '赵磊', name_en: 'ZHAO LEI', address: '北京-朝阳-建国路88号' }, OK, 'GB 11643; PRODUCT: short names');
}

// ---------------------------------------------------------------- Hong Kong
const H = 'hongkong' as const;
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
add(H, '陳大文, HKID A123456(3), no start date', {}, OK, 'HKID example; spec: start date may be omitted for a Hong Kong identity card');
add(H, 'HKID without the brackets', { cert_id: 'A1234563' }, OK, 'PRODUCT: A1234563 is A123456(3)');
add(H, 'HKID in lower case with a space before the bracket', { cert_id: 'a123456 (3)' }, OK, 'PRODUCT: a123456 (3) is A123456(3)');
add(H, 'HKID typed in full width', { cert_id: 'Ａ１２３４５６（３）' }, OK, 'PRODUCT: full-width forms folded');
add(H, 'HKID with a wrong check digit', { cert_id: 'A123456(4)' }, [['cert_id', 'certCheckDigit']], 'HKID check digit (Immigration Department)');
add(H, 'HKID without its check digit', { cert_id: 'C668668' }, [['cert_id', 'certFormat']], 'HKID: letters, six digits and a check character');
add(H, 'HKID with a hyphen before the check digit', { cert_id: 'A123456-3' }, [['cert_id', 'certFormat']], 'PRODUCT: only spaces and brackets are read past');
add(H, "HKID C668668(9) (the issue's case)", { cert_id: 'C668668(9)' }, OK, 'HKID check digit');
add(H, 'the same HKID written C6686689', { cert_id: 'C6686689' }, OK, 'PRODUCT: one number');
add(H, 'HKID with a two-letter prefix', { cert_id: 'AB987654(3)' }, OK, 'HKID: two-letter prefixes weigh 9 and 8');
add(H, 'HKID whose check character is A', { cert_id: 'G123456(A)' }, OK, 'HKID: 10 is written A');
add(H, 'name_en in title case, Cantonese', { name_en: 'Chan Tai Man' }, OK, 'PRODUCT: Latin letters in any case for everyone but mainland applicants');
add(H, 'name_en surname first with a comma', { name_en: 'CHAN, Tai Man' }, OK, 'PRODUCT: commas allowed');
add(H, 'name_en with an English first name', { name_en: 'Peter CHAN Tai-man' }, OK, 'PRODUCT: hyphens allowed');
add(H, 'Chinese name with a digit typed in', { name: '陳大文2' }, [['name', 'nameDigits']], 'PRODUCT: never digits');
add(H, 'name given in English only', { name: 'Chan Tai Man' }, OK, 'PRODUCT: the Chinese-characters rule is a mainland one (decision in docs/VALIDATION.md)');
add(H, 'name_en with digits', { name_en: 'CHAN TAI MAN 2' }, [['name_en', 'nameDigits']], 'PRODUCT: a name in Latin letters');
add(H, "Hong Kong residents' residence permit 810000...", { cert_id: '810000198808081235', birthday: '1988-08-08', cert_start_date: '2019-01-10', cert_end_date: '2029-01-10' }, OK, 'PRODUCT: residence permits (810000) under GB 11643');
add(H, 'permit with a wrong check character', { cert_id: '810000198808081234', birthday: '1988-08-08', cert_start_date: '2019-01-10', cert_end_date: '2029-01-10' }, [['cert_id', 'certCheckDigit']], 'GB 11643 check character');
add(H, "a Macao residents' permit given by a Hong Kong resident", { cert_id: '820000199205050022', birthday: '1992-05-05', sex: 'F', cert_start_date: '2019-01-10', cert_end_date: '2029-01-10' }, [['cert_id', 'certFormat']], "PRODUCT: the permit of the holder's place (810000 for Hong Kong)");
add(H, 'mobile hyphenated 4-4', { mob_no: '9123-4567' }, OK, 'PRODUCT: hyphens read past');
add(H, 'a Hong Kong landline given as the mobile', { mob_no: '2123 4567' }, [['mob_no', 'phoneNotMobile']], 'HK numbering plan: 2 and 3 are fixed lines');
add(H, 'consignee reached at the office landline', { consignee_mob_no: '2123 4567' }, OK, 'PRODUCT: any valid telephone for the consignee');
add(H, 'working in Shenzhen: mainland office, domestic area code', { office_address: '广东-深圳-福田区-福华三路1号', office_tel_no: '8888 6666', office_tel_no_of: '0755' }, OK, 'PRODUCT: short names; domestic area code');
add(H, 'living in Shenzhen', { address: '广东省-深圳市-福田区-福华路8号' }, OK, 'PRODUCT: a mainland address, checked as such');
add(H, 'living on Peking Road (北京道), Tsim Sha Tsui', { address: '九龍尖沙咀北京道1號' }, OK, 'PRODUCT: free text (北京道 names no province)');
add(H, 'address in English', { address: "Flat A, 12/F, 1 Queen's Road Central, Hong Kong" }, OK, 'PRODUCT: free text');
add(H, 'Hong Kong SAR passport holder', { cert_type: '02', cert_id: 'K12345678', cert_start_date: '2018-03-01', cert_end_date: '2028-03-01' }, OK, 'PRODUCT: passports of a plausible form');
add(H, 'Hong Kong passport without a start date', { cert_type: '02', cert_id: 'K12345678' }, [['cert_start_date', 'documentStartRequired']], 'spec: only the Hong Kong identity card may omit it');
add(H, 'mainland identity number given by a Hong Kong resident', { cert_id: '440305199003071236' }, [['cert_id', 'certFormat']], 'PRODUCT: a Hong Kong identity card or the 810000 permit');
}

// ---------------------------------------------------------------- Macao
const O = 'macao' as const;
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
add(O, '黃志明, Macao identity card 5123456(7)', {}, OK, 'Macao identity card: 1, 5 or 7 and seven digits');
add(O, 'Macao card without brackets', { cert_id: '51234567' }, OK, 'PRODUCT: brackets around the check character removed');
add(O, 'Macao card with a space before the bracket', { cert_id: '5123456 (7)' }, OK, 'PRODUCT: spaces removed');
add(O, 'Macao card number of a 1-series holder', { cert_id: '1234567(8)' }, OK, 'Macao identity card form');
add(O, 'Macao card starting with 2', { cert_id: '2123456(7)' }, [['cert_id', 'certFormat']], 'Macao identity card: first digit 1, 5 or 7');
add(O, 'Macao card in the old printed form 5/123456/7', { cert_id: '5/123456/7' }, [['cert_id', 'certFormat']], 'PRODUCT: only spaces and brackets read past (decision in docs/VALIDATION.md)');
add(O, "Macao residents' residence permit 820000...", { cert_id: '820000199205050022', birthday: '1992-05-05', sex: 'F' }, OK, 'PRODUCT: residence permits (820000) under GB 11643');
add(O, 'a Hong Kong permit given by a Macao resident', { cert_id: '810000198808081235', birthday: '1988-08-08' }, [['cert_id', 'certFormat']], "PRODUCT: the permit of the holder's place");
add(O, 'name_en in Portuguese-style romanisation, title case', { name_en: 'Wong Chi Meng' }, OK, 'PRODUCT: Latin letters in any case');
add(O, 'name_en with a Portuguese first name and accent', { name_en: 'João WONG Chi Meng' }, OK, 'PRODUCT: a name in Latin letters');
add(O, 'mobile spaced', { mob_no: '6612 3456' }, OK, 'PRODUCT: spaces read past');
add(O, 'consignee on a Macao landline', { consignee_mob_no: '2878 1234' }, OK, 'PRODUCT: any valid telephone');
add(O, 'Chinese name with the bullet look-alike (a Macanese name)', { name: '若瑟•高美士', name_en: 'JOSE COSTA' }, OK, 'PRODUCT: look-alikes of ·');
add(O, 'Macao card without a start date', { cert_start_date: undefined }, [['cert_start_date', 'documentStartRequired']], 'spec: only a Hong Kong identity card may omit it');
}

// ---------------------------------------------------------------- Taiwan
const T = 'taiwan' as const;
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
add(T, '王小明, Taiwan identity card A123456789', {}, OK, 'Taiwan identity card example and check rule');
add(T, 'Taiwan card in lower case', { cert_id: 'a123456789' }, OK, 'PRODUCT: upper case');
add(T, 'Taiwan card with a wrong check digit', { cert_id: 'A123456788' }, [['cert_id', 'certCheckDigit']], 'Taiwan identity card check rule');
add(T, 'Taiwan card whose second digit is not 1 or 2', { cert_id: 'A323456789' }, [['cert_id', 'certFormat']], 'Taiwan identity card form');
add(T, 'a woman from Taichung (B2...)', { cert_id: 'B223456782', sex: 'F', name: '林美玲', name_en: 'LIN MEI-LING' }, OK, 'Taiwan identity card check rule');
add(T, "Taiwan residents' residence permit 830000...", { cert_id: '830000198811110037', birthday: '1988-11-11' }, OK, 'PRODUCT: residence permits (830000) under GB 11643');
add(T, 'Taiwan permit whose birth date disagrees', { cert_id: '830000198811110037', birthday: '1988-11-12' }, [['cert_id', 'certBirthMismatch']], 'GB 11643: digits 7-14');
add(T, 'name_en surname first with comma (passport style)', { name_en: 'WANG, HSIAO-MING' }, OK, 'PRODUCT: commas and hyphens');
add(T, 'name_en in Wade-Giles title case', { name_en: 'Wang Hsiao-ming' }, OK, 'PRODUCT: Wade-Giles is not pinyin');
add(T, 'mobile with the trunk 0 and hyphens', { mob_no: '0912-345-678' }, OK, 'PRODUCT: hyphens read past; national prefix 0');
add(T, 'address with 台灣省 first', { address: '台灣省台北市信義區市府路1號' }, OK, 'PRODUCT: Taiwan addresses free text');
add(T, 'Taiwan passport (9 digits)', { cert_type: '02', cert_id: '312345678' }, OK, 'PRODUCT: a passport of plausible form');
add(T, 'living in Xiamen', { address: '福建省-厦门市-思明区-鹭江道8号' }, OK, 'PRODUCT: mainland address checked as such');
add(T, 'living in Xiamen, city misspelt', { address: '福建省-厦们市-思明区-鹭江道8号' }, [['address', 'addressDivisionUnknown']], 'NBS codes');
}

// ---------------------------------------------------------------- abroad
const A = 'abroad' as const;
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
add(A, 'John Smith, US passport', {}, OK, 'spec');
add(A, 'US passport typed in lower case', { cert_type: '02', cert_id: 'a12345678' }, OK, 'PRODUCT: upper case; US Department of State: a letter and 8 digits since 2021');
add(A, 'passport number with a hyphen', { cert_id: 'AB-12345' }, [['cert_id', 'passportFormat']], 'PRODUCT: a passport of plausible form');
add(A, 'name_en in title case with an apostrophe and a suffix', { name_en: "John O'Neil-Smith Jr." }, OK, 'PRODUCT: apostrophes, hyphens, periods');
add(A, 'name_en with a typographic apostrophe', { name_en: 'John O’Neil' }, OK, 'PRODUCT: apostrophes (decision: ’ too)');
add(A, 'name_en starting with a hyphen', { name_en: '-JOHN SMITH' }, [['name_en', 'nameEnNotLatin']], 'PRODUCT: a name in Latin letters');
add(A, 'name_en in Chinese characters', { name_en: '约翰·史密斯' }, [['name_en', 'nameEnNotLatin']], 'spec: name in English');
add(A, 'name with a digit', { name: 'John Smith 3' }, [['name', 'nameDigits']], 'PRODUCT: never digits');
add(A, 'a Vietnamese name with diacritics', { name: 'Nguyễn Văn An', name_en: 'Nguyễn Văn An', cert_id: 'C1234567', country: 'VN' }, OK, 'PRODUCT: Latin letters (accents are Latin letters)');
add(A, 'a Japanese applicant', { name: '山田太郎', name_en: 'YAMADA TARO', cert_id: 'TK1234567', country: 'JP' }, OK, 'PRODUCT: not pinyin for everyone else');
add(A, 'a Korean applicant with a Hangul name', { name: '김민준', name_en: 'KIM MIN-JUN', cert_id: 'M12345678', country: 'KR' }, OK, 'PRODUCT: name rule for mainland applicants only');
add(A, 'a British applicant, mobile with trunk 0', { country: 'GB', cert_id: '123456789', mob_no: '07911 123456', mob_no_of: '+44', consignee_mob_no: '07911 123456', consignee_mob_no_of: '+44' }, OK, 'PRODUCT: spaces read past; national prefix');
add(A, 'US mobile in the (201) 555-0123 style', { mob_no: '(201) 555-0123' }, OK, 'PRODUCT: parentheses, spaces and hyphens read past');
add(A, 'living in London', { address: '10 Downing Street, London SW1A 2AA' }, OK, 'PRODUCT: free text');
add(A, 'a Singaporean with an NRIC', { country: 'SG', cert_type: '00', cert_id: 'S1234567D', mob_no: '8123 4567', mob_no_of: '+65', consignee_mob_no: '8123 4567', consignee_mob_no_of: '+65' }, OK, 'PRODUCT: national identity cards of other countries');
add(A, 'a Malaysian with a MyKad number', { country: 'MY', cert_type: '00', cert_id: '900307-14-5678', mob_no: '12-345 6789', mob_no_of: '+60', consignee_mob_no: '12-345 6789', consignee_mob_no_of: '+60' }, OK, 'PRODUCT: national identity cards; hyphens allowed there');
add(A, 'permanent residence card (2023), US national', { cert_type: '00', cert_id: '911840198506150118', birthday: '1985-06-15' }, OK, "PRODUCT: the foreigner's permanent residence card under GB 11643");
add(A, "permanent residence card with a British applicant's country", { cert_type: '00', country: 'GB', cert_id: '911840198506150118', birthday: '1985-06-15' }, [['cert_id', 'certNationalityMismatch']], 'NIA 2023: digits 4-6 are the nationality (ISO 3166-1 numeric 840 is US)');
add(A, 'permanent residence card with a wrong check character', { cert_type: '00', cert_id: '911840198506150117', birthday: '1985-06-15' }, [['cert_id', 'certCheckDigit']], 'GB 11643 check character');
add(A, 'permanent residence card whose birth date disagrees', { cert_type: '00', cert_id: '911840198506150118', birthday: '1985-06-16' }, [['cert_id', 'certBirthMismatch']], 'NIA 2023: digits 7-14 are the birth date');
add(A, 'e-mail at an IDN domain', { email: 'john@bücher.example' }, OK, 'PRODUCT: internationalised domains');
add(A, 'e-mail with an accented local part', { email: 'josé@example.com' }, [['email', 'emailInvalid']], 'PRODUCT: only domains internationalised (decision in docs/VALIDATION.md)');
add(A, 'office landline in Shanghai with the domestic code 021', { office_tel_no: '6888 0000', office_tel_no_of: '021' }, OK, 'PRODUCT: domestic area code');
add(A, 'office in Shanghai, district unknown', { office_address: '上海市-浦西新区-世纪大道100号' }, [['office_address', 'addressDivisionUnknown']], 'NBS codes: no 浦西新区');
add(A, "a German applicant's name with ß and ü", { country: 'DE', cert_id: 'C01X00T47', name: 'Jürgen Weiß', name_en: 'Jürgen Weiß' }, OK, 'PRODUCT: Latin letters');
add(A, 'a French applicant, hyphenated given name', { country: 'FR', cert_id: '18AB12345', name: 'Jean-Luc Picard', name_en: 'PICARD, Jean-Luc' }, OK, 'PRODUCT: commas, hyphens');
}

export const CORPUS: readonly CorpusCase[] = cases;
