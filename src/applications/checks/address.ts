import { problem, type FieldProblem } from '../../errors/problems.ts';
import { checkMainlandDivisions, isMainlandAddress, withoutCountry, type DivisionPart } from './divisions.ts';

/**
 * Addresses (`address`, `office_address`, `consignee_address`, all alike), in their canonical
 * reading (`canonicalAddress`: every dash an input method types read as `-`).
 *
 * An address is a mainland address when it names a mainland province (or a mainland city without
 * its province, or is written in the dashed form with a mainland city second): see
 * `isMainlandAddress`. A leading country name (中国, 中华人民共和国) is read past. A mainland address
 * is province-city-district-detail joined by `-`, with real divisions (see `divisions.ts` for what
 * each part may be). Any other address (Hong Kong, Macao, Taiwan, abroad) is free text,
 * length-limited by the schema. Whose address it is (the applicant's `country`, the consignee's
 * phone) does not decide: a mainland citizen may live in London, and a Hong Kong resident in
 * Shenzhen.
 */

const PART_RULES: Record<DivisionPart, { part_zh: string; detail: string; detail_zh: string }> = {
  province: {
    part_zh: '省份',
    detail: 'the first part is not a mainland province (a mainland address begins with its province)',
    detail_zh: '第一部分不是大陆的省级行政区（大陆地址须以省份开头）',
  },
  city: {
    part_zh: '城市',
    detail: 'the second part is not a city of the province named first',
    detail_zh: '第二部分不是所填省份下的地级行政区',
  },
  district: {
    part_zh: '区县',
    detail: 'the third part is not a district or county of the city named before it',
    detail_zh: '第三部分不是所填城市下的区县',
  },
};

const PARTS_HINTS = {
  separator: { hint: ': its parts are not joined by -', hint_zh: '：各部分未用 - 连接' },
  missing: {
    hint: ': a part, or the detail after the district, is missing',
    hint_zh: '：缺少某一部分或区县后的详细地址',
  },
} as const;

export function checkAddress(field: string, address: string): FieldProblem[] {
  const text = withoutCountry(address);
  if (!isMainlandAddress(text)) return [];
  const verdict = checkMainlandDivisions(text);
  if (verdict.ok) return [];
  return verdict.error === 'addressParts'
    ? [problem(field, 'addressParts', PARTS_HINTS[verdict.reason])]
    : [problem(field, 'addressDivisionUnknown', { part: verdict.part, ...PART_RULES[verdict.part] })];
}
