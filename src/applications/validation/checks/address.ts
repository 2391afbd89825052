import { problem, type FieldProblem } from '../../../errors/problems.ts';
import { dashedProvincePart, readAddressText } from './addressText.ts';
import { checkMainlandDivisions, isMainlandAddress, withoutCountry, type DivisionPart } from './divisions.ts';

/**
 * Addresses, in their canonical reading (`canonicalAddress`: every dash an input method types read
 * as `-`). Whose address it is (the applicant's `country`, the consignee's phone) does not decide: a
 * mainland citizen may live in London, and a Hong Kong resident in Shenzhen.
 *
 * `address` has the spec's form: when it names a mainland province (or a mainland city without its
 * province, or is written in the dashed form with a mainland city second: `isMainlandAddress`), or
 * is dashed with a first part that reads as a province (`火星省-...`), it is
 * province-city-district-detail joined by `-`, with real divisions (see `divisions.ts`). Any other
 * `address` (Hong Kong, Macao, Taiwan, abroad) is free text, length-limited by the schema.
 *
 * `office_address` and `consignee_address` have no form in the spec: free text as people write it,
 * dashes or not, whose divisions are read from the text when it names a mainland province
 * (`addressText.ts`); only a division that does not exist or does not belong is refused, named.
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
  if (field !== 'address') return checkAddressText(field, address);
  const text = withoutCountry(address);
  if (!isMainlandAddress(text) && dashedProvincePart(text) === undefined) return [];
  const verdict = checkMainlandDivisions(text);
  if (verdict.ok) return [];
  return verdict.error === 'addressParts'
    ? [problem(field, 'addressParts', PARTS_HINTS[verdict.reason])]
    : [problem(field, 'addressDivisionUnknown', { part: verdict.part, ...PART_RULES[verdict.part] })];
}

const LEVELS: Record<DivisionPart, { level: string; level_zh: string }> = {
  province: { level: 'mainland province', level_zh: '大陆的省级行政区' },
  // The city level may be left out (浙江省义乌市): what follows the province may be a county too.
  city: { level: 'city or county', level_zh: '市、州、盟或县' },
  district: { level: 'district or county', level_zh: '区县' },
};

/** An office or delivery address: free text whose divisions, when it names them, must belong together. */
function checkAddressText(field: string, address: string): FieldProblem[] {
  const reading = readAddressText(address);
  if (reading.ok) return [];
  const { level, level_zh } = LEVELS[reading.part];
  const { name, parent } = reading;
  const [detail, detail_zh] =
    parent === undefined
      ? [`${name} is not a ${level}`, `${name}不是${level_zh}`]
      : [`${name} is not a ${level} of ${parent}`, `${name}不是${parent}下的${level_zh}`];
  return [
    problem(field, 'addressDivisionUnknown', {
      part: reading.part,
      part_zh: PART_RULES[reading.part].part_zh,
      detail,
      detail_zh,
    }),
  ];
}
