import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkAddress } from './address.ts';
import { checkMainlandDivisions, loadDivisions, startsWithMainlandProvince } from './divisions.ts';
import { DIVISIONS_SUPPLEMENT } from './divisionsSupplement.ts';

const verdict = (address: string) => {
  const v = checkMainlandDivisions(address);
  return v.ok ? 'ok' : v.error === 'addressParts' ? 'parts' : v.part;
};

describe('checkMainlandDivisions', () => {
  const cases: [string, string][] = [
    ['广东省-深圳市-南山区-科技园路1号', 'ok'],
    ['广东省-深圳市-南山区-科技园路1号-3栋-201', 'ok'], // the detail may hold hyphens
    [' 广东省 - 深圳市 - 南山区 - 科技园路1号', 'ok'], // spaces around the parts
    ['湖北省-恩施土家族苗族自治州-恩施市-航空大道1号', 'ok'],
    // municipalities: the municipality's name, or the data set's 市辖区 (县 for 重庆)
    ['北京市-北京市-朝阳区-建国路1号', 'ok'],
    ['北京市-市辖区-朝阳区-建国路1号', 'ok'],
    ['上海市-上海市-浦东新区-世纪大道1号', 'ok'],
    ['重庆市-重庆市-云阳县-人民路1号', 'ok'],
    ['重庆市-县-云阳县-人民路1号', 'ok'],
    ['北京市-北京市-浦东新区-世纪大道1号', 'district'],
    ['北京市-朝阳区-建国路1号', 'parts'],
    // county-level units directly under a province
    ['湖北省-仙桃市-干河街道-仙桃大道1号', 'ok'],
    ['湖北省-省直辖县级行政区划-仙桃市-仙桃大道1号', 'ok'],
    ['湖北省-省直辖县级行政区划-武昌区-中山路1号', 'district'],
    ['河南省-济源市-沁园街道-济水大街1号', 'ok'],
    ['海南省-琼海市-嘉积镇-人民路1号', 'ok'],
    ['新疆维吾尔自治区-石河子市-新城街道-北四路1号', 'ok'],
    // prefecture-level cities without districts: a town or street follows
    ['广东省-东莞市-南城街道-鸿福路1号', 'ok'],
    ['海南省-儋州市-那大镇-中兴大街1号', 'ok'],
    ['甘肃省-嘉峪关市-雄关街道-新华路1号', 'ok'],
    // divisions newer than the base data set (the supplement)
    ['新疆维吾尔自治区-和田地区-和安县-红柳镇1号', 'ok'],
    ['新疆维吾尔自治区-和田地区-和康县-赛图拉镇1号', 'ok'],
    ['重庆市-重庆市-两江新区-金渝大道1号', 'ok'],
    ['重庆市-市辖区-两江新区-金渝大道1号', 'ok'],
    ['重庆市-重庆市-渝北区-金渝大道1号', 'ok'], // a retired name stays accepted
    ['海南省-三沙市-西沙区-永兴岛1号', 'ok'],
    ['新疆维吾尔自治区-草湖市-草湖镇-人民路1号', 'ok'],
    ['新疆维吾尔自治区-自治区直辖县级行政区划-草湖市-人民路1号', 'ok'],
    // unknown parts
    ['火星省-深圳市-南山区-科技园路1号', 'province'],
    ['广东-深圳市-南山区-科技园路1号', 'province'], // full names required
    ['广东省-深圳-南山区-科技园路1号', 'city'],
    ['广东省-杭州市-西湖区-文三路1号', 'city'],
    ['广东省-深圳市-西湖区-科技园路1号', 'district'],
    ['香港特别行政区-香港-中西区-皇后大道1号', 'province'],
    // shape
    ['广东省深圳市南山区科技园路1号', 'parts'],
    ['广东省-深圳市-南山区', 'parts'],
    ['广东省-深圳市-南山区-', 'parts'],
    ['广东省-深圳市-南山区-  ', 'parts'],
    ['广东省--南山区-科技园路1号', 'parts'],
  ];
  for (const [address, expected] of cases)
    test(`${address} -> ${expected}`, () => assert.equal(verdict(address), expected));
});

describe('divisions data', () => {
  test('all 31 mainland province-level divisions', () => {
    assert.equal(loadDivisions().provinces.size, 31);
  });

  test('every supplement entry is reachable by its path', () => {
    for (const add of DIVISIONS_SUPPLEMENT) {
      assert.equal(verdict(`${add.province}-${add.city}-${add.name}-1号`), 'ok', add.name);
    }
  });

  test('every county-level division of the data set is accepted by its path', () => {
    const { counties } = loadDivisions();
    assert.ok(counties.length > 2900);
    for (const c of counties)
      assert.equal(verdict(`${c.province}-${c.prefecture}-${c.county}-1号`), 'ok', c.county);
  });

  test('startsWithMainlandProvince', () => {
    assert.equal(startsWithMainlandProvince('广东省深圳市'), true);
    assert.equal(startsWithMainlandProvince('内蒙古自治区-呼和浩特市'), true);
    assert.equal(startsWithMainlandProvince('香港九龙'), false);
    assert.equal(startsWithMainlandProvince('Flat A, 1 Queen Road'), false);
  });
});

describe('checkAddress', () => {
  const cases: [string, string, boolean, string[]][] = [
    ['mainland, valid', '广东省-深圳市-南山区-科技园路1号', true, []],
    ['mainland, no parts', '深圳市南山区科技园路1号', true, ['addressParts']],
    [
      'mainland, unknown district',
      '广东省-深圳市-西湖区-科技园路1号',
      true,
      ['addressDivisionUnknown:district'],
    ],
    ['not mainland, free text', 'Flat A, 1 Queen Road, Hong Kong', false, []],
    ['not mainland, but names a mainland province', '广东省深圳市南山区科技园路1号', false, ['addressParts']],
    ['not mainland, mainland form', '广东省-深圳市-南山区-科技园路1号', false, []],
  ];
  for (const [name, address, mainland, expected] of cases) {
    test(`${name} -> ${expected.join(',') || 'ok'}`, () => {
      assert.deepEqual(
        checkAddress('address', address, mainland).map((p) =>
          p.params?.part === undefined ? p.error : `${p.error}:${p.params.part}`,
        ),
        expected,
      );
    });
  }
});
