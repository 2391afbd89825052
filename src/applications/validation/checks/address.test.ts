import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkAddress } from './address.ts';
import { canonicalAddress } from '../../../record/canonical.ts';
import { checkMainlandDivisions, isMainlandAddress, loadDivisions, shortNames } from './divisions.ts';
import { HISTORICAL_DIVISIONS } from './divisionsHistory.ts';
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
    // PRODUCT.md: a municipality may leave out the level it does not have (was refused).
    ['北京市-朝阳区-建国路1号', 'ok'],
    ['北京市-朝阳区-建国路88号-3号楼', 'ok'],
    ['上海-浦东-世纪大道1号', 'ok'],
    ['北京市-浦东新区-世纪大道1号', 'district'],
    ['北京市-北京市-建国路1号', 'district'],
    // county-level units directly under a province
    ['湖北省-仙桃市-干河街道-仙桃大道1号', 'ok'],
    ['湖北省-省直辖县级行政区划-仙桃市-仙桃大道1号', 'ok'],
    ['湖北省-省直辖县级行政区划-武昌区-中山路1号', 'district'],
    ['河南省-济源市-沁园街道-济水大街1号', 'ok'],
    ['河南省-济源市-济源大道100号', 'ok'], // the level it does not have left out
    ['广东省-东莞市-鸿福路1号', 'ok'],
    ['广东省-东莞市-火星街道-鸿福路1号', 'district'], // a town of Dongguan that is none
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
    // short names, as people write them (full names were required)
    ['广东-深圳市-南山区-科技园路1号', 'ok'],
    ['广东省-深圳-南山区-科技园路1号', 'ok'],
    ['广东-深圳-南山-科技园路1号', 'ok'],
    ['内蒙古-呼和浩特-新城区-新华大街1号', 'ok'],
    ['内蒙-呼和浩特市-新城区-新华大街1号', 'ok'],
    ['新疆-乌鲁木齐-天山区-人民路1号', 'ok'],
    ['湖北省-恩施州-恩施市-航空大道1号', 'ok'],
    ['湖北-恩施-利川市-人民路1号', 'ok'],
    ['黑龙江-大兴安岭-漠河市-北极村1号', 'ok'],
    // districts abolished since 2000, as long-term identity cards print them
    ['北京市-崇文区-东花市大街1号', 'ok'],
    ['北京市-北京市-宣武区-广安门内大街1号', 'ok'],
    ['上海市-闸北区-天目西路1号', 'ok'],
    ['天津市-塘沽区-解放路1号', 'ok'],
    ['安徽省-巢湖市-居巢区-人民路1号', 'ok'],
    ['湖北省-襄樊市-樊城区-人民路1号', 'ok'],
    ['广东省-广州市-东山区-中山一路1号', 'ok'],
    ['江苏省-南京市-溧水县-永阳镇1号', 'ok'],
    ['火星省-深圳市-南山区-科技园路1号', 'province'],
    ['广东省-杭州市-西湖区-文三路1号', 'city'],
    ['广东省-深圳市-西湖区-科技园路1号', 'district'],
    ['香港特别行政区-香港-中西区-皇后大道1号', 'province'],
    // shape
    ['广东省深圳市南山区科技园路1号', 'parts'],
    ['广东省 深圳市 南山区 科技园路1号', 'parts'],
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

  test('every historical division is accepted by its path', () => {
    for (const [province, byPrefecture] of Object.entries(HISTORICAL_DIVISIONS)) {
      for (const [prefecture, names] of Object.entries(byPrefecture)) {
        for (const county of names.split(' ')) {
          const address =
            prefecture === '' ? `${province}-${county}-1号` : `${province}-${prefecture}-${county}-1号`;
          // A former county-level city that is a prefecture now (随州市) takes its districts.
          const nowPrefecture =
            prefecture === '' &&
            loadDivisions().provinces.get(province)?.prefectures.get(county)?.counties !== undefined;
          if (!nowPrefecture) assert.equal(verdict(address), 'ok', address);
        }
      }
    }
  });

  test('short names', () => {
    const cases: [string, string[]][] = [
      ['广东省', ['广东']],
      ['内蒙古自治区', ['内蒙古']],
      ['广西壮族自治区', ['广西']],
      ['新疆维吾尔自治区', ['新疆']],
      ['恩施土家族苗族自治州', ['恩施', '恩施州']],
      ['巴音郭楞蒙古自治州', ['巴音郭楞', '巴音郭楞州']],
      ['海西蒙古族藏族自治州', ['海西', '海西州']],
      ['长阳土家族自治县', ['长阳', '长阳县']],
      ['莫力达瓦达斡尔族自治旗', ['莫力达瓦', '莫力达瓦旗']],
      ['大兴安岭地区', ['大兴安岭']],
      ['锡林郭勒盟', ['锡林郭勒']],
      ['浦东新区', ['浦东']],
      ['神农架林区', ['神农架']],
      ['南山区', ['南山']],
      ['城区', []],
      ['和县', []],
    ];
    for (const [name, expected] of cases) assert.deepEqual(shortNames(name), expected, name);
  });

  test('isMainlandAddress', () => {
    const cases: [string, boolean][] = [
      ['广东省深圳市', true],
      ['内蒙古自治区-呼和浩特市', true],
      ['广东-深圳', true],
      ['广东 深圳市', true],
      ['广东深圳市南山区', true],
      ['上海浦东新区世纪大道1号', true],
      ['深圳市南山区科技园路1号', true], // a mainland city, its province left out
      ['火星省-深圳市-南山区-1号', true], // the dashed form with a mainland city second
      ['香港九龙', false],
      ['香港特别行政区九龙弥敦道1号', false],
      ['上海街100号', false], // a street in Kowloon
      ['北京道1号', false], // a road in Tsim Sha Tsui
      ['九龙尖沙咀广东道100号', false],
      ['澳门氹仔', false],
      ['台湾省台北市信义区', false],
      ['台北市信义区市府路1号', false],
      ['Flat A, 1 Queen Road', false],
      ['10 Downing Street, London', false],
    ];
    for (const [address, expected] of cases) assert.equal(isMainlandAddress(address), expected, address);
  });
});

describe('checkAddress', () => {
  const cases: [string, string, string[]][] = [
    ['mainland, valid', '广东省-深圳市-南山区-科技园路1号', []],
    ['mainland, no parts', '深圳市南山区科技园路1号', ['addressParts']],
    ['mainland, city first', '深圳市-南山区-科技园路1号', ['addressDivisionUnknown:province']],
    ['mainland, unknown district', '广东省-深圳市-西湖区-科技园路1号', ['addressDivisionUnknown:district']],
    ['mainland, province-first but no dashes', '广东省深圳市南山区科技园路1号', ['addressParts']],
    ['mainland, with the country first', '中国-广东省-深圳市-南山区-科技园路1号', []],
    ['mainland, with the country first, no separator', '中国广东省-深圳市-南山区-科技园路1号', []],
    ['mainland, full-width dashes', '广东省－深圳市－南山区－科技园路1号', []],
    ['mainland, em dashes', '广东省——深圳市——南山区——科技园路1号', []],
    // PRODUCT.md: any other address is free text, whoever's it is (a CN applicant's was refused).
    ['abroad', 'Flat 3, 12 Baker Street, London NW1 6XE', []],
    ['Hong Kong', '香港九龙尖沙咀广东道100号', []],
    ['Hong Kong, in English', 'Flat A, 1 Queen Road, Hong Kong', []],
    ['Macao', '澳门氹仔海洋花园大马路1号', []],
    ['Taiwan', '台湾省台北市信义区市府路1号', []],
  ];
  for (const [name, address, expected] of cases) {
    test(`${name} -> ${expected.join(',') || 'ok'}`, () => {
      assert.deepEqual(
        checkAddress('address', canonicalAddress(address)).map((p) =>
          p.params?.part === undefined ? p.error : `${p.error}:${p.params.part}`,
        ),
        expected,
      );
    });
  }

  test('the message says which part is unknown, in both languages, and never echoes the address', () => {
    const [p] = checkAddress('address', '广东省-杭州市-西湖区-文三路1号');
    assert.equal(p?.params?.part, 'city');
    assert.match(String(p?.params?.detail), /second part/);
    assert.match(String(p?.params?.detail_zh), /第二部分/);
    assert.ok(!JSON.stringify(p).includes('杭州'));
  });
});
