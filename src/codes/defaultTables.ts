import type { CodeEntry, CodeTables } from './codeEntries.ts';

/**
 * The default code tables the service ships. An operator may replace any table with `CODES_FILE`
 * (see `loadCodeTables`); the codes endpoint lists the tables in force (docs/CODES.md the defaults).
 *
 * - `country`: ISO 3166-1 alpha-2, the supported subset. No "other" code: the identity checks depend
 *   on the country, and an unnamed country could not be checked.
 * - `position`: the applicant's position, two digits; `99` is "other".
 * - `profession`: the 20 sections A-T of China's national industry classification GB/T 4754-2017
 *   (国民经济行业分类); `Z` is "other" and requires `profession_other`.
 * - `purpose`: purposes of opening the account, two digits; `99` is "other" (`purpose_other` is
 *   optional: without it, reviewers see a risk flag).
 * - `wealth_source`: sources of funds, two digits; `99` is "other" (`wealth_source_other` likewise).
 * - `reason`: why an operator rejected an application, asked for more information or had a
 *   shipment come back; words, so that a partner's statistics read without a lookup. `other` is
 *   "other" (the operator's text says more).
 */

const code = (codeValue: string, name: string, nameZh: string, other = false): CodeEntry => ({
  code: codeValue,
  name,
  name_zh: nameZh,
  other,
});

export const DEFAULT_COUNTRIES: readonly CodeEntry[] = [
  code('CN', 'China (mainland)', '中国（大陆）'),
  code('HK', 'Hong Kong SAR, China', '中国香港'),
  code('MO', 'Macao SAR, China', '中国澳门'),
  code('TW', 'Taiwan, China', '中国台湾'),
  code('SG', 'Singapore', '新加坡'),
  code('MY', 'Malaysia', '马来西亚'),
  code('TH', 'Thailand', '泰国'),
  code('ID', 'Indonesia', '印度尼西亚'),
  code('PH', 'Philippines', '菲律宾'),
  code('VN', 'Viet Nam', '越南'),
  code('KH', 'Cambodia', '柬埔寨'),
  code('LA', 'Laos', '老挝'),
  code('MM', 'Myanmar', '缅甸'),
  code('JP', 'Japan', '日本'),
  code('KR', 'Korea, Republic of', '韩国'),
  code('MN', 'Mongolia', '蒙古'),
  code('KZ', 'Kazakhstan', '哈萨克斯坦'),
  code('IN', 'India', '印度'),
  code('PK', 'Pakistan', '巴基斯坦'),
  code('BD', 'Bangladesh', '孟加拉国'),
  code('AE', 'United Arab Emirates', '阿拉伯联合酋长国'),
  code('SA', 'Saudi Arabia', '沙特阿拉伯'),
  code('IL', 'Israel', '以色列'),
  code('TR', 'Türkiye', '土耳其'),
  code('RU', 'Russian Federation', '俄罗斯'),
  code('GB', 'United Kingdom', '英国'),
  code('IE', 'Ireland', '爱尔兰'),
  code('FR', 'France', '法国'),
  code('DE', 'Germany', '德国'),
  code('NL', 'Netherlands', '荷兰'),
  code('BE', 'Belgium', '比利时'),
  code('LU', 'Luxembourg', '卢森堡'),
  code('CH', 'Switzerland', '瑞士'),
  code('AT', 'Austria', '奥地利'),
  code('IT', 'Italy', '意大利'),
  code('ES', 'Spain', '西班牙'),
  code('PT', 'Portugal', '葡萄牙'),
  code('SE', 'Sweden', '瑞典'),
  code('NO', 'Norway', '挪威'),
  code('DK', 'Denmark', '丹麦'),
  code('FI', 'Finland', '芬兰'),
  code('PL', 'Poland', '波兰'),
  code('US', 'United States', '美国'),
  code('CA', 'Canada', '加拿大'),
  code('MX', 'Mexico', '墨西哥'),
  code('BR', 'Brazil', '巴西'),
  code('AR', 'Argentina', '阿根廷'),
  code('AU', 'Australia', '澳大利亚'),
  code('NZ', 'New Zealand', '新西兰'),
  code('ZA', 'South Africa', '南非'),
  code('EG', 'Egypt', '埃及'),
  code('NG', 'Nigeria', '尼日利亚'),
];

export const DEFAULT_POSITIONS: readonly CodeEntry[] = [
  code('01', 'Senior management (director, general manager)', '高级管理人员（董事、总经理等）'),
  code('02', 'Middle management (department head)', '中层管理人员（部门负责人等）'),
  code('03', 'Junior management (team leader, supervisor)', '基层管理人员（主管、组长等）'),
  code('04', 'Professional or technical staff', '专业技术人员'),
  code('05', 'Clerical or administrative staff', '办事人员和有关人员'),
  code('06', 'Sales or service staff', '商业、服务业人员'),
  code('07', 'Production, transport or equipment operator', '生产、运输设备操作人员'),
  code('08', 'Business owner or self-employed', '企业主或个体经营者'),
  code('09', 'Civil servant', '公务员'),
  code('10', 'Military', '军人'),
  code('11', 'Freelancer', '自由职业者'),
  code('12', 'Student', '学生'),
  code('13', 'Retired', '退休人员'),
  code('14', 'Not employed', '无业'),
  code('99', 'Other', '其他', true),
];

/** GB/T 4754-2017, 国民经济行业分类: the 20 sections (门类) A-T. */
export const DEFAULT_PROFESSIONS: readonly CodeEntry[] = [
  code('A', 'Agriculture, forestry, animal husbandry and fishery', '农、林、牧、渔业'),
  code('B', 'Mining', '采矿业'),
  code('C', 'Manufacturing', '制造业'),
  code('D', 'Production and supply of electricity, heat, gas and water', '电力、热力、燃气及水生产和供应业'),
  code('E', 'Construction', '建筑业'),
  code('F', 'Wholesale and retail trade', '批发和零售业'),
  code('G', 'Transport, storage and postal services', '交通运输、仓储和邮政业'),
  code('H', 'Accommodation and catering', '住宿和餐饮业'),
  code(
    'I',
    'Information transmission, software and information technology services',
    '信息传输、软件和信息技术服务业',
  ),
  code('J', 'Finance', '金融业'),
  code('K', 'Real estate', '房地产业'),
  code('L', 'Leasing and business services', '租赁和商务服务业'),
  code('M', 'Scientific research and technical services', '科学研究和技术服务业'),
  code('N', 'Water conservancy, environment and public facilities management', '水利、环境和公共设施管理业'),
  code('O', 'Resident services, repair and other services', '居民服务、修理和其他服务业'),
  code('P', 'Education', '教育'),
  code('Q', 'Health and social work', '卫生和社会工作'),
  code('R', 'Culture, sports and entertainment', '文化、体育和娱乐业'),
  code(
    'S',
    'Public administration, social security and social organisations',
    '公共管理、社会保障和社会组织',
  ),
  code('T', 'International organisations', '国际组织'),
  code('Z', 'Other (describe in profession_other)', '其他（在 profession_other 中说明）', true),
];

export const DEFAULT_PURPOSES: readonly CodeEntry[] = [
  code('01', 'Receiving salary', '工资收入'),
  code('02', 'Savings', '储蓄'),
  code('03', 'Investment', '投资理财'),
  code('04', 'Travel spending', '旅游消费'),
  code('05', 'Education and tuition payments', '教育缴费、留学'),
  code('06', 'Business and trade payments', '商务、贸易结算'),
  code('07', 'Online shopping', '网络购物'),
  code('08', 'Family remittances', '家庭汇款'),
  code('99', 'Other (describe in purpose_other)', '其他（在 purpose_other 中说明）', true),
];

export const DEFAULT_WEALTH_SOURCES: readonly CodeEntry[] = [
  code('01', 'Salary', '工资薪金'),
  code('02', 'Business income', '经营所得'),
  code('03', 'Investment income', '投资收益'),
  code('04', 'Inheritance', '继承'),
  code('05', 'Savings', '储蓄'),
  code('06', 'Gift from family', '家庭赠与'),
  code('07', 'Sale or rent of property', '房产出售或租金'),
  code('08', 'Pension', '退休金、养老金'),
  code('09', 'Scholarship or grant', '奖学金、助学金'),
  code('99', 'Other (describe in wealth_source_other)', '其他（在 wealth_source_other 中说明）', true),
];

export const DEFAULT_REASONS: readonly CodeEntry[] = [
  code(
    'document_unreadable',
    'Document image unreadable (blurred, cut off, glare)',
    '证件影像无法辨认（模糊、缺角、反光）',
  ),
  code('document_expired', 'Identity document expired', '证件已过期'),
  code('document_mismatch', 'Document does not match the stated type or number', '证件与所填类型或号码不符'),
  code('image_missing', 'A required image is missing or empty', '缺少必需的影像'),
  code('name_mismatch', 'Name differs from the document', '姓名与证件不一致'),
  code('birthday_mismatch', 'Date of birth differs from the document', '出生日期与证件不一致'),
  code('address_incomplete', 'Address incomplete or not deliverable', '地址不完整或无法投递'),
  code('contact_invalid', 'Phone or e-mail cannot be reached', '电话或邮箱无法联系'),
  code('signature_invalid', 'Signature missing or does not match', '签名缺失或不一致'),
  code('payment_unverified', 'Payment proof cannot be verified', '付款凭证无法核实'),
  code('occupation_unclear', 'Occupation or employer unclear', '职业或工作单位不清楚'),
  code('income_unverified', 'Income or source of funds not plausible', '收入或资金来源存疑'),
  code('duplicate_person', 'The applicant already holds or applied for a card', '申请人已持有或已申请卡片'),
  code('underage', 'Applicant not of age', '申请人未达年龄要求'),
  code('sanctions_hit', 'Applicant matches a sanctions or watch list', '申请人命中制裁或观察名单'),
  code('risk_policy', 'Declined under the risk policy', '依据风险政策拒绝'),
  code('country_unsupported', 'Country or region not served', '不支持的国家或地区'),
  code('address_undeliverable', 'Shipment returned: address not found', '退件：地址无法找到'),
  code('recipient_unreachable', 'Shipment returned: recipient unreachable', '退件：收件人无法联系'),
  code('delivery_refused', 'Shipment returned: delivery refused', '退件：拒收'),
  code('other', 'Other (see the text)', '其他（见说明）', true),
];

export const DEFAULT_CODE_TABLES: CodeTables = {
  country: DEFAULT_COUNTRIES,
  position: DEFAULT_POSITIONS,
  profession: DEFAULT_PROFESSIONS,
  purpose: DEFAULT_PURPOSES,
  wealth_source: DEFAULT_WEALTH_SOURCES,
  reason: DEFAULT_REASONS,
};
