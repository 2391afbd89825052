import { OK, population } from './population.ts';

/**
 * Addresses as people write them (issue 25). PRODUCT.md, "Addresses": `office_address` and
 * `consignee_address` have no form in the spec and are written as people write them, dashes or not;
 * when one names a mainland province, its province, city and district are read from the text and
 * only a division that does not exist or does not belong to the one before it is refused. `address`
 * keeps the spec's dashed form, and a dashed first part that reads as a province but is none is an
 * unknown province. Divisions: the National Bureau of Statistics' codes (2023, `@pansy/china-division`),
 * the Ministry of Civil Affairs' change lists since 2000, and the notices of 2024-2026 in
 * `divisionsSupplement.ts` (和田地区 和安县 and 和康县, 重庆 两江新区, 喀什地区 岑岭县, 草湖市).
 */
const office = population('office-address');
// One case a line: the table reads better than prettier's layout.
// prettier-ignore
{
const { add } = office;
add('mainland', 'an office in Futian, written as on a business card', { office_address: '广东省深圳市福田区福华一路1号' }, OK, 'PRODUCT Addresses: no dashes needed');
add('mainland', 'the same with short names', { office_address: '广东深圳福田福华一路1号' }, OK, 'PRODUCT Addresses: short names');
add('mainland', 'an office in 恩施 (autonomous prefecture)', { office_address: '湖北省恩施土家族苗族自治州恩施市航空大道1号' }, OK, 'NBS codes: 422800 恩施州');
add('mainland', 'an office in 凉山州 written short', { office_address: '四川省凉山州西昌市航天大道1号' }, OK, 'NBS codes: 513400; PRODUCT: short names');
add('mainland', 'an office in 锡林郭勒盟 (a league)', { office_address: '内蒙古自治区锡林郭勒盟锡林浩特市额尔敦路1号' }, OK, 'NBS codes: 152500 锡林郭勒盟');
add('mainland', 'an office in 石河子市 (XPCC, 8th Division)', { office_address: '新疆维吾尔自治区石河子市北四路1号' }, OK, 'NBS codes: 659001 under the autonomous region');
add('mainland', 'an office in 五家渠市 (XPCC, 6th Division)', { office_address: '新疆五家渠市人民北路1号' }, OK, 'NBS codes: 659004');
add('mainland', 'an office in 义乌 (county-level city, city level left out)', { office_address: '浙江省义乌市稠城街道工人北路1号' }, OK, 'NBS codes: 330782 under 金华市');
add('mainland', 'an office in 昆山 with its prefecture', { office_address: '江苏省苏州市昆山市前进中路1号' }, OK, 'NBS codes: 320583');
add('mainland', 'an office in 陵水 (Hainan autonomous county)', { office_address: '海南省陵水黎族自治县英州镇清水湾1号' }, OK, 'NBS codes: 469028 under the province');
add('mainland', 'an office in 琼海 (province-administered city)', { office_address: '海南省琼海市嘉积镇人民路1号' }, OK, 'NBS codes: 469002');
add('mainland', 'an office in 渝中区, Chongqing, no dashes', { office_address: '重庆市渝中区解放碑民族路1号' }, OK, 'NBS codes: 500103');
add('mainland', 'an office in 两江新区 (a district since December 2025)', { office_address: '重庆市两江新区金渝大道1号' }, OK, 'Chongqing civil affairs bureau, 2025-12-05: 500157');
add('mainland', 'an office in 和安县 (set up December 2024)', { office_address: '新疆维吾尔自治区和田地区和安县红柳镇1号' }, OK, 'Xinjiang government notice 2024-12-27: 653229');
add('mainland', 'an office in 成都高新区 (a development zone where the district goes)', { office_address: '四川省成都市高新区天府大道北段1号' }, OK, 'PRODUCT Addresses: what cannot be read as a division is detail');
add('mainland', 'an office in Beijing, no district written', { office_address: '北京市建国路88号SOHO现代城' }, OK, 'PRODUCT Addresses: free text');
add('mainland', 'a Shenzhen office given in Zhejiang', { office_address: '浙江省深圳市南山区科技园路1号' }, [['office_address', 'addressDivisionUnknown']], 'NBS codes: 深圳市 (4403) is in 广东省; issue 25: the message names 深圳市');
add('mainland', 'a Guangzhou district given in Shenzhen', { office_address: '广东省深圳市番禺区市桥街1号' }, [['office_address', 'addressDivisionUnknown']], 'NBS codes: 番禺区 (440113) is in 广州市');
add('mainland', 'a Pudong office given in Beijing', { office_address: '北京市浦东新区世纪大道1号' }, [['office_address', 'addressDivisionUnknown']], 'NBS codes: 浦东新区 (310115) is in 上海市');
add('mainland', 'a dashed city that does not exist', { office_address: '广东省-火星市-北区-1号' }, [['office_address', 'addressDivisionUnknown']], 'GB/T 2260: no such city in 广东省');
add('mainland', 'a dashed province that does not exist', { office_address: '火星省-火星市-北区-1号' }, [['office_address', 'addressDivisionUnknown']], 'GB/T 2260: no such province');
add('hongkong', 'a Hong Kong office (广东道 is a Kowloon street)', { office_address: '九龍尖沙咀廣東道30號海港城' }, OK, 'PRODUCT Addresses: free text');
}

const delivery = population('delivery-address');
// prettier-ignore
{
const { add } = delivery;
add('mainland', 'delivery written as on a parcel label', { consignee_address: '广东省深圳市南山区科苑路15号科兴科学园B栋' }, OK, 'PRODUCT Addresses: as on a parcel label');
add('mainland', 'a label copied with recipient and phone', { consignee_address: '张伟 13800138000 广东省深圳市南山区科苑路15号' }, OK, 'PRODUCT Addresses: free text; issue 25');
add('mainland', 'a label copied from a shop order', { consignee_address: '收货人：张伟，手机：138-0013-8000，所在地区：广东省 深圳市 南山区，详细地址：科苑路15号' }, OK, 'PRODUCT Addresses: free text; issue 25');
add('mainland', 'recipient and phone after the address', { consignee_address: '广东省深圳市南山区科苑路15号 张伟 13800138000' }, OK, 'PRODUCT Addresses: free text');
add('mainland', 'delivery to 兴安盟 (a league)', { consignee_address: '内蒙古兴安盟乌兰浩特市兴安北大路1号' }, OK, 'NBS codes: 152200');
add('mainland', 'delivery to 西双版纳州', { consignee_address: '云南省西双版纳傣族自治州景洪市宣慰大道1号' }, OK, 'NBS codes: 532800');
add('mainland', 'delivery to 仙桃 (province-administered)', { consignee_address: '湖北省仙桃市干河街道仙桃大道1号' }, OK, 'NBS codes: 429004');
add('mainland', 'delivery to 东莞 (no districts)', { consignee_address: '广东省东莞市南城街道鸿福路1号' }, OK, 'NBS codes: 4419 has towns only');
add('mainland', 'delivery to Chongqing 渝北区 written short', { consignee_address: '重庆渝北区龙溪街道金龙路1号' }, OK, 'NBS codes: 500112 (retired 2025, still written)');
add('mainland', 'delivery to 和康县 (2024)', { consignee_address: '新疆和田地区和康县赛图拉镇1号' }, OK, 'Xinjiang government notice 2024-12-27: 653228');
add('mainland', 'delivery to 襄樊市 from an old card (renamed 2010)', { consignee_address: '湖北省襄樊市樊城区人民路1号' }, OK, 'MCA change list 2010');
add('mainland', 'delivery with dashes still accepted', { consignee_address: '广东省-深圳市-南山区-科苑路15号' }, OK, 'PRODUCT Addresses: dashes or not');
add('mainland', 'a label naming a Shenzhen address in Zhejiang', { consignee_address: '收件人：李娜 电话：13912345678 地址：浙江省深圳市南山区1号' }, [['consignee_address', 'addressDivisionUnknown']], 'NBS codes: 深圳市 is in 广东省');
add('mainland', 'a Hangzhou district given in Shenzhen', { consignee_address: '广东省深圳市西湖区文三路1号' }, [['consignee_address', 'addressDivisionUnknown']], 'NBS codes: 西湖区 (330106) is in 杭州市');
add('mainland', 'a league given in Guangxi', { consignee_address: '广西壮族自治区兴安盟人民路1号' }, [['consignee_address', 'addressDivisionUnknown']], 'NBS codes: 兴安盟 is in 内蒙古 (longest match: not 广西 兴安县)');
add('mainland', 'a dashed district that does not exist', { consignee_address: '上海市-浦西新区-世纪大道100号' }, [['consignee_address', 'addressDivisionUnknown']], 'NBS codes: no 浦西新区');
add('macao', 'delivery in Taipa', { consignee_address: '澳門氹仔海洋花園大馬路1號' }, OK, 'PRODUCT Addresses: free text');
}

const home = population('home-address-dashed');
// prettier-ignore
{
const { add } = home;
add('mainland', 'a home in a province that does not exist, dashed', { address: '火星省-火星市-北区-1号' }, [['address', 'addressDivisionUnknown']], 'PRODUCT Addresses: 火星省-... is an unknown province, not free text');
add('mainland', 'a made-up autonomous region, dashed', { address: '东海自治区-东海市-北区-1号' }, [['address', 'addressDivisionUnknown']], 'PRODUCT Addresses: a first part ending in 自治区 reads as a province');
add('mainland', 'a made-up municipality, dashed', { address: '火星市-北区-1号' }, [['address', 'addressDivisionUnknown']], 'PRODUCT Addresses: a first part ending in 市 reads as a province');
add('mainland', 'the same home without dashes is refused for its form', { address: '广东省深圳市福田区福华一路1号' }, [['address', 'addressParts']], 'spec, PRODUCT: address keeps the dashed form');
add('mainland', 'a home in 锡林郭勒盟, dashed', { address: '内蒙古-锡林郭勒盟-锡林浩特市-额尔敦路1号' }, OK, 'NBS codes: 152502');
add('mainland', 'a home in 五家渠市, dashed', { address: '新疆维吾尔自治区-五家渠市-人民北路1号' }, OK, 'NBS codes: 659004; PRODUCT: a level it does not have left out');
add('mainland', 'a home in 两江新区, dashed', { address: '重庆市-两江新区-金渝大道1号' }, OK, 'Chongqing civil affairs bureau, 2025-12-05');
add('taiwan', 'a Taipei home written with dashes', { address: '台北市-信義區-市府路1號' }, OK, 'PRODUCT Addresses: Taiwan addresses are free text');
add('hongkong', 'a Hong Kong home written with dashes', { address: '香港-九龍-彌敦道688號' }, OK, 'PRODUCT Addresses: free text');
add('abroad', 'a London home with hyphens', { address: 'Flat 3-4, 12 Baker Street, London NW1 6XE' }, OK, 'PRODUCT Addresses: free text');
}

export const ADDRESS_CASES = [...office.cases, ...delivery.cases, ...home.cases];
