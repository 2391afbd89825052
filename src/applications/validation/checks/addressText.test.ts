import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkAddress } from './address.ts';
import { readAddressText } from './addressText.ts';
import { canonicalAddress } from '../../../record/canonical.ts';
import { loadDivisions } from './divisions.ts';

/** `ok`, or the refused part and the division named, as `city:深圳市<浙江省`. */
const verdict = (address: string) => {
  const r = readAddressText(canonicalAddress(address));
  return r.ok ? 'ok' : `${r.part}:${r.name}${r.parent === undefined ? '' : `<${r.parent}`}`;
};

describe('readAddressText', () => {
  // prettier-ignore
  const cases: [string, string][] = [
    // as on a parcel label, without dashes (issue 25)
    ['广东省深圳市福田区福华一路1号', 'ok'],
    ['广东深圳福田福华一路1号', 'ok'],
    ['广东省 深圳市 福田区 福华一路1号', 'ok'],
    ['广东省-深圳市-福田区-福华一路1号', 'ok'],
    ['中国广东省深圳市福田区福华一路1号', 'ok'],
    // a wrong division is named, not the dashes
    ['浙江省深圳市南山区科技园路1号', 'city:深圳市<浙江省'],
    ['浙江省-深圳市-南山区-科技园路1号', 'city:深圳市<浙江省'],
    ['广东省深圳市西湖区文三路1号', 'district:西湖区<深圳市'],
    ['广东省深圳市番禺区市桥街1号', 'district:番禺区<深圳市'],
    ['北京市浦东新区世纪大道1号', 'district:浦东新区<北京市'],
    ['浙江省-杭州市-南山区-文三路90号', 'district:南山区<杭州市'],
    // a dashed part that ends like a division but is none
    ['上海市-浦西新区-世纪大道100号', 'district:浦西新区<上海市'],
    ['广东省-火星市-北区-1号', 'city:火星市<广东省'],
    ['火星省-火星市-北区-1号', 'province:火星省'],
    ['火星省深圳市南山区1号', 'ok'], // no dashes, no mainland province: free text
    // autonomous prefectures, leagues, XPCC cities, county-level cities, Hainan autonomous counties
    ['湖北省恩施土家族苗族自治州恩施市航空大道1号', 'ok'],
    ['湖北省恩施州利川市人民路1号', 'ok'],
    ['云南省西双版纳傣族自治州景洪市宣慰大道1号', 'ok'],
    ['四川省凉山州西昌市航天大道1号', 'ok'],
    ['内蒙古自治区锡林郭勒盟锡林浩特市额尔敦路1号', 'ok'],
    ['内蒙古阿拉善盟阿拉善左旗巴彦浩特镇1号', 'ok'],
    ['内蒙古兴安盟乌兰浩特市兴安北大路1号', 'ok'],
    ['新疆维吾尔自治区石河子市北四路1号', 'ok'],
    ['新疆五家渠市人民北路1号', 'ok'],
    ['新疆维吾尔自治区草湖市人民路1号', 'ok'],
    ['浙江省义乌市稠城街道1号', 'ok'], // the city level left out
    ['江苏省苏州市昆山市前进中路1号', 'ok'],
    ['江苏省昆山市前进中路1号', 'ok'],
    ['海南省陵水黎族自治县英州镇1号', 'ok'],
    ['海南省白沙县牙叉镇1号', 'ok'],
    ['海南省琼海市嘉积镇1号', 'ok'],
    ['湖北省仙桃市干河街道仙桃大道1号', 'ok'],
    ['河南省济源市济源大道100号', 'ok'],
    ['广东省东莞市南城街道鸿福路1号', 'ok'],
    // Chongqing districts without dashes; divisions changed in 2024-2026
    ['重庆市渝中区解放碑民族路1号', 'ok'],
    ['重庆渝北区龙溪街道1号', 'ok'],
    ['重庆市两江新区金渝大道1号', 'ok'],
    ['重庆市云阳县人民路1号', 'ok'],
    ['新疆维吾尔自治区和田地区和安县红柳镇1号', 'ok'],
    ['新疆和田地区和康县赛图拉镇1号', 'ok'],
    ['新疆喀什地区岑岭县新华镇1号', 'ok'],
    // historic names
    ['湖北省襄樊市樊城区人民路1号', 'ok'],
    ['安徽省巢湖市居巢区人民路1号', 'ok'],
    ['北京市宣武区广安门内大街1号', 'ok'],
    // municipalities
    ['北京市朝阳区建国路88号', 'ok'],
    ['北京市北京市朝阳区建国路88号', 'ok'],
    ['北京市建国路88号', 'ok'],
    ['上海市南京西路1号', 'ok'],
    ['上海浦东新区世纪大道1号', 'ok'],
    // copied from a label with recipient and phone
    ['张伟 13800138000 广东省深圳市南山区科苑路15号', 'ok'],
    ['收货人：李娜，手机：139-1234-5678，地址：浙江省杭州市西湖区文三路90号', 'ok'],
    ['收件人：李娜 电话：13912345678 地址：中国浙江省深圳市南山区1号', 'city:深圳市<浙江省'],
    ['广东省深圳市南山区科苑路15号 张伟 13800138000', 'ok'],
    // whatever cannot be read that far is detail
    ['广东省深圳市深南大道6008号', 'ok'],
    ['四川省成都市高新区天府大道1号', 'ok'],
    ['四川省-成都市-天府新区-天府大道1号', 'ok'],
    ['江苏省无锡市新区长江路1号', 'ok'], // 新区 is a street-level word here, not a division
    ['广东省内某工业园', 'ok'],
    // not mainland: free text
    ['香港九龙尖沙咀广东道100号', 'ok'],
    ['九龍尖沙咀北京道1號', 'ok'],
    ['台湾省台北市信义区市府路1号', 'ok'],
    ['台北市-信义区-市府路1号', 'ok'],
    ['澳门氹仔海洋花园大马路1号', 'ok'],
    ['Flat 3, 12 Baker Street, London', 'ok'],
    ['10 Anson Road, #12-01, Singapore 079903', 'ok'],
  ];
  for (const [address, expected] of cases)
    test(`${address} -> ${expected}`, () => assert.equal(verdict(address), expected));
});

describe('checkAddress for office and delivery addresses', () => {
  test('the message names the division and the one it does not belong to, not the detail', () => {
    const [p] = checkAddress('office_address', '浙江省深圳市南山区科技园路1号');
    assert.equal(p?.error, 'addressDivisionUnknown');
    assert.equal(p?.params?.detail, '深圳市 is not a city or county of 浙江省');
    assert.equal(p?.params?.detail_zh, '深圳市不是浙江省下的市、州、盟或县');
    assert.ok(!JSON.stringify(p).includes('科技园'));
    assert.ok(!JSON.stringify(p).includes('-'));
  });
  test('address keeps the dashed form; office and delivery addresses do not need it', () => {
    assert.deepEqual(
      checkAddress('address', '广东省深圳市福田区福华一路1号').map((p) => p.error),
      ['addressParts'],
    );
    assert.deepEqual(checkAddress('consignee_address', '广东省深圳市福田区福华一路1号'), []);
  });
  test('a dashed address in a province that does not exist is refused as an unknown province', () => {
    for (const field of ['address', 'office_address', 'consignee_address']) {
      const [p] = checkAddress(field, '火星省-火星市-北区-1号');
      assert.equal(p?.error, 'addressDivisionUnknown', field);
      assert.equal(p?.params?.part, 'province', field);
    }
  });

  test('property: every county-level division reads, written with or without dashes', () => {
    const { counties } = loadDivisions();
    fc.assert(
      fc.property(fc.constantFrom(...counties), fc.constantFrom('', '-', ' '), (c, separator) => {
        const city = ['市辖区', '县'].includes(c.prefecture) ? c.province : c.prefecture;
        const parts = c.prefecture.includes('直辖') ? [c.province, c.county] : [c.province, city, c.county];
        const address = `${parts.join(separator)}${separator}人民路1号`;
        assert.equal(verdict(address), 'ok', address);
      }),
      { numRuns: 500 },
    );
  });

  test('property: a city of another province is named as not in the province', () => {
    const { provinces } = loadDivisions();
    const cities = [...provinces.values()].flatMap((p) =>
      p.municipality
        ? []
        : [...p.prefectures.values()]
            .filter((c) => c.name.length >= 3 && !c.name.includes('直辖'))
            .map((c) => [p.name, c.name] as const),
    );
    const names = [...provinces.keys()].filter((p) => !provinces.get(p)!.municipality);
    fc.assert(
      fc.property(fc.constantFrom(...cities), fc.constantFrom(...names), ([home, city], other) => {
        fc.pre(home !== other && !provinces.get(other)!.prefectures.has(city));
        fc.pre(!textCountyOf(other, city));
        assert.equal(verdict(`${other}${city}人民路1号`), `city:${city}<${other}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('readAddressText on any text', () => {
  const pieces = [
    '广东省',
    '广东',
    '深圳市',
    '南山区',
    '浙江',
    '北京市',
    '火星',
    '省',
    '市',
    '区',
    '-',
    ' ',
    '1号',
    '张伟',
    '138001380',
  ];
  test('property: never throws; text without Chinese characters is free text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string()), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const reading = readAddressText(text);
        if (!/\p{Script=Han}/u.test(text)) assert.equal(reading.ok, true, text);
        // A refusal names a division: Chinese characters only, never digits or the detail.
        if (!reading.ok) assert.match(reading.name, /^\p{Script=Han}+$/u, text);
      }),
      { numRuns: 2000 },
    );
  });
});

/** Whether `name` is also a county-level name in `province` (a city level left out is fine then). */
function textCountyOf(province: string, name: string): boolean {
  const p = loadDivisions().provinces.get(province)!;
  return [...p.prefectures.values()].some((c) => c.counties?.has(name) === true);
}
