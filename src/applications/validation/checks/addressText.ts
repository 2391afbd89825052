import { HISTORICAL_DIVISIONS } from './divisionsHistory.ts';
import { loadDivisions, withoutCountry, type DivisionPart, type Province } from './divisions.ts';

/**
 * Office and delivery addresses as people write them (`office_address`, `consignee_address`): the
 * spec gives them no form, so they are free text, with or without `-` (`广东省深圳市福田区福华一路1号`,
 * as on a parcel label). When one names a mainland province, its province, city and district are
 * read from the text (longest match on full and short names, historic names included), and only a
 * division that does not exist or does not belong to the one before it is refused, naming it:
 * - a full name (`深圳市`, `南山区`; three characters or more, so that `城区` or `新区` in a
 *   street name never counts) of a division that is not under the one read before it;
 * - a part between dashes that ends like a division (`-火星市-`, `-浦西新区-`) but is none there.
 * Whatever cannot be read that far is accepted: the rest is the detail. A label copied with the
 * recipient and phone in front (`张伟 13800138000 广东省...`, `收货人：...地址：...`) is read from
 * its province on.
 */

export type TextReading =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly part: DivisionPart;
      /** The division as written (a division name, never the detail). */
      readonly name: string;
      /** The division it does not belong to; absent for a province. */
      readonly parent?: string;
    };

const OK: TextReading = { ok: true };
/** What separates the levels of an address: dashes, spaces, commas. */
const SEPARATORS = /^[\s\-,，、]*/u;
/** A part between dashes that ends like a division, by the level it would be. */
const LOOKS_LIKE = {
  province: /^\p{Script=Han}{1,8}(?:省|自治区|市)$/u,
  city: /^\p{Script=Han}{1,10}(?:市|州|盟|地区)$/u,
  district: /^\p{Script=Han}{1,10}(?:区|县|旗|市)$/u,
} as const;
/**
 * Places a dashed first part may name that are not mainland provinces though they end like one:
 * Taiwan, Hong Kong and Macao (their addresses are free text).
 */
const NOT_MAINLAND =
  /^(?:台湾|臺灣|台灣|臺湾|香港|澳门|澳門|台北|臺北|新北|桃园|桃園|台中|臺中|台南|臺南|高雄|基隆|新竹|嘉义|嘉義)/u;
/**
 * State-level new areas and development zones that are not divisions (the divisions among them,
 * 浦东新区, 滨海新区, 两江新区, are in the data): people write them where the district goes.
 */
const ZONES =
  /(?:开发区|高新区|园区|工业区|保税区|试验区|示范区|实验区|合作区|管理区|度假区|风景区|港区|雄安新区|天府新区|西咸新区|贵安新区|南沙新区|西海岸新区|金普新区|哈尔滨新区|长春新区|赣江新区|湘江新区|江北新区|福州新区|滇中新区|舟山群岛新区)$/u;
/** Words a copied label puts before the address: recipient, phone, "address". */
const LABEL_WORDS = /收件人|收货人|联系人|姓名|电话|手机|地址|所在地区/u;
const MAX_NAME = 16;

interface TextIndex {
  /** Full names of three characters or more of every prefecture- and county-level division. */
  readonly fullNames: ReadonlySet<string>;
  /** County-level names (full, short, historic) of each province, for a city level left out. */
  readonly countiesOf: ReadonlyMap<Province, ReadonlySet<string>>;
}
let index: TextIndex | undefined;

function textIndex(): TextIndex {
  if (index === undefined) {
    const divisions = loadDivisions();
    const historic = Object.values(HISTORICAL_DIVISIONS).flatMap((byPrefecture) =>
      Object.values(byPrefecture).flatMap((names) => names.split(' ')),
    );
    const fullNames = new Set(
      [...divisions.prefectureNames, ...divisions.counties.map((c) => c.county), ...historic].filter(
        (name) => name.length >= 3,
      ),
    );
    const countiesOf = new Map<Province, Set<string>>();
    for (const province of divisions.provinces.values()) {
      const names = new Set(province.districts);
      for (const prefecture of province.prefectures.values())
        for (const county of prefecture.counties ?? []) names.add(county);
      countiesOf.set(province, names);
    }
    index = { fullNames, countiesOf };
  }
  return index;
}

/** The longest name of `names` that `text` has at `at`. */
function longest(text: string, at: number, has: (name: string) => boolean): string | undefined {
  for (let length = Math.min(MAX_NAME, text.length - at); length >= 2; length--) {
    const name = text.slice(at, at + length);
    if (has(name)) return name;
  }
  return undefined;
}

/** A mainland province named at `at`: its full name, or a short name followed by a separator or one of its divisions. */
function provinceAt(text: string, at: number): { province: Province; end: number } | undefined {
  const { provinceNames } = loadDivisions();
  for (let length = Math.min(8, text.length - at); length >= 2; length--) {
    const province = provinceNames.get(text.slice(at, at + length));
    if (province === undefined) continue;
    const end = at + length;
    if (province.name === text.slice(at, end)) return { province, end };
    const next = text.slice(end);
    if (/^[\s\-,，、]/u.test(next)) return { province, end };
    const child = longest(
      next,
      0,
      (name) => province.prefectures.has(name) || textIndex().countiesOf.get(province)!.has(name),
    );
    if (child !== undefined) return { province, end };
  }
  return undefined;
}

/** The text from its province on, past a copied label's recipient and phone; undefined when it names none. */
function fromProvince(text: string): { province: Province; end: number; text: string } | undefined {
  const atStart = provinceAt(text, 0);
  if (atStart !== undefined) return { ...atStart, text };
  for (let at = 1; at < Math.min(text.length, 80); at++) {
    const found = provinceAt(text, at);
    if (found === undefined) continue;
    const label = text.slice(0, at);
    const digits = label.replace(/[\s\-()（）]/gu, '');
    if (!/\d{7,}/u.test(digits) && !LABEL_WORDS.test(label)) return undefined;
    const rest = withoutCountry(text.slice(at));
    const again = provinceAt(rest, 0);
    return again === undefined ? undefined : { ...again, text: rest };
  }
  return undefined;
}

/** Past the separators at `at`: where the next name starts, and whether a dash came before it. */
function skip(text: string, at: number): { at: number; dashed: boolean } {
  const gap = SEPARATORS.exec(text.slice(at))![0];
  return { at: at + gap.length, dashed: gap.includes('-') };
}

/** The part up to the next dash, when the text is dashed there. */
function dashedPart(text: string, at: number): string {
  const end = text.indexOf('-', at);
  return text.slice(at, end < 0 ? text.length : end).trim();
}

/**
 * The division written at `at` under `parent`, by longest match: one of the parent's (`isOwn`), or
 * the problem when the longest name there is a division elsewhere (`深圳市` after 浙江省; `兴安盟`,
 * not 广西's 兴安县, after 广西), or a dashed part that ends like a division but is none. Undefined
 * when nothing there reads as a division: the rest is the detail.
 */
function readLevel(
  text: string,
  next: { at: number; dashed: boolean },
  part: 'city' | 'district',
  parent: string,
  isOwn: (name: string) => boolean,
): string | TextReading | undefined {
  const own = longest(text, next.at, isOwn);
  const elsewhere = longest(text, next.at, (name) => textIndex().fullNames.has(name) && !ZONES.test(name));
  if (elsewhere !== undefined && elsewhere.length > (own?.length ?? 0) && !isOwn(elsewhere))
    return { ok: false, part, name: elsewhere, parent };
  if (own !== undefined) return own;
  if (next.dashed) {
    const written = dashedPart(text, next.at);
    if (LOOKS_LIKE[part].test(written) && !ZONES.test(written))
      return { ok: false, part, name: written, parent };
  }
  return undefined;
}

/**
 * The dashed form's first part, when it reads as a province (ends in 省, 自治区 or 市) and is not
 * Taiwan, Hong Kong or Macao: such an address is a mainland one, so its province must exist.
 */
export function dashedProvincePart(text: string): string | undefined {
  if (!text.includes('-')) return undefined;
  const first = text.split('-')[0]!.trim();
  return LOOKS_LIKE.province.test(first) && !NOT_MAINLAND.test(first) ? first : undefined;
}

/** Read the divisions of a free-text address (dashes canonical) and judge them. */
export function readAddressText(address: string): TextReading {
  const text = withoutCountry(address).trim();
  // The dashed form with a first part that reads as a province: it must be one.
  const first = dashedProvincePart(text);
  if (first !== undefined && !loadDivisions().provinceNames.has(first))
    return { ok: false, part: 'province', name: first };
  const found = fromProvince(text);
  if (found === undefined) return OK;
  const { province } = found;
  const body = found.text;
  let next = skip(body, found.end);
  if (province.municipality) {
    // 北京市朝阳区, 北京市北京市朝阳区, 北京市市辖区朝阳区.
    const repeated = longest(
      body,
      next.at,
      (name) => province.prefectures.has(name) && !province.districts.has(name),
    );
    if (repeated !== undefined) next = skip(body, next.at + repeated.length);
    const district = readLevel(body, next, 'district', province.name, (name) => province.districts.has(name));
    return typeof district === 'object' ? district : OK;
  }
  const counties = textIndex().countiesOf.get(province)!;
  const cityName = readLevel(
    body,
    next,
    'city',
    province.name,
    (name) => province.prefectures.has(name) || counties.has(name),
  );
  if (typeof cityName !== 'string') return cityName ?? OK;
  const city = province.prefectures.get(cityName);
  // A county-level city with the city level left out (浙江省义乌市), or towns next (东莞市, 仙桃市).
  if (city?.counties === undefined) return OK;
  next = skip(body, next.at + cityName.length);
  const district = readLevel(body, next, 'district', city.name, (name) => city.counties!.has(name));
  return typeof district === 'object' ? district : OK;
}
