import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkImageUrl } from './urls.ts';

const verdict = (url: string) => checkImageUrl('id_card_img', url)[0]?.error ?? 'ok';

describe('checkImageUrl', () => {
  const cases: [string, string][] = [
    ['https://img.example.com/a/1.jpg', 'ok'],
    ['HTTPS://IMG.EXAMPLE.COM/A/1.JPG', 'ok'],
    ['https://img.example.com:8443/a/1.jpg?sig=abc#x', 'ok'],
    ['https://8.8.8.8/a.jpg', 'ok'],
    ['https://[2001:4860:4860::8888]/a.jpg', 'ok'],
    ['https://例子.中国/a.jpg', 'ok'],
    // not https, not absolute, not clean
    ['http://img.example.com/a.jpg', 'urlNotHttps'],
    ['ftp://img.example.com/a.jpg', 'urlNotHttps'],
    ['//img.example.com/a.jpg', 'urlNotHttps'],
    ['/a/1.jpg', 'urlNotHttps'],
    ['img.example.com/a.jpg', 'urlNotHttps'],
    ['https:img.example.com/a.jpg', 'urlNotHttps'],
    ['https:/img.example.com/a.jpg', 'urlNotHttps'],
    [' https://img.example.com/a.jpg', 'urlNotHttps'],
    ['https://img.example.com/a b.jpg', 'urlNotHttps'],
    ['https://img.example.com/a\t.jpg', 'urlNotHttps'],
    ['https://', 'urlNotHttps'],
    ['https://exa mple.com/', 'urlNotHttps'],
    ['https://[::1/a.jpg', 'urlNotHttps'],
    // credentials
    ['https://user@img.example.com/a.jpg', 'urlCredentials'],
    ['https://user:pw@img.example.com/a.jpg', 'urlCredentials'],
    ['https://:pw@img.example.com/a.jpg', 'urlCredentials'],
    // special names
    ['https://localhost/a.jpg', 'urlPrivateHost'],
    ['https://LOCALHOST./a.jpg', 'urlPrivateHost'],
    ['https://img.localhost/a.jpg', 'urlPrivateHost'],
    ['https://printer.local/a.jpg', 'urlPrivateHost'],
    ['https://files.internal/a.jpg', 'urlPrivateHost'],
    ['https://nas.home.arpa/a.jpg', 'urlPrivateHost'],
    ['https://intranet/a.jpg', 'urlPrivateHost'],
    // IPv4 in every form the URL parser understands
    ['https://127.0.0.1/a.jpg', 'urlPrivateHost'],
    ['https://127.1/a.jpg', 'urlPrivateHost'],
    ['https://2130706433/a.jpg', 'urlPrivateHost'],
    ['https://0x7f000001/a.jpg', 'urlPrivateHost'],
    ['https://0x7f.1/a.jpg', 'urlPrivateHost'],
    ['https://0177.0.0.1/a.jpg', 'urlPrivateHost'],
    ['https://0/a.jpg', 'urlPrivateHost'],
    ['https://0.0.0.0/a.jpg', 'urlPrivateHost'],
    ['https://10.1.2.3/a.jpg', 'urlPrivateHost'],
    ['https://172.16.0.1/a.jpg', 'urlPrivateHost'],
    ['https://172.31.255.255/a.jpg', 'urlPrivateHost'],
    ['https://172.32.0.1/a.jpg', 'ok'],
    ['https://192.168.1.1/a.jpg', 'urlPrivateHost'],
    ['https://169.254.169.254/latest/meta-data', 'urlPrivateHost'],
    ['https://100.64.0.1/a.jpg', 'urlPrivateHost'],
    ['https://100.127.255.255/a.jpg', 'urlPrivateHost'],
    ['https://100.128.0.1/a.jpg', 'ok'],
    ['https://224.0.0.1/a.jpg', 'urlPrivateHost'],
    ['https://255.255.255.255/a.jpg', 'urlPrivateHost'],
    ['https://198.18.0.1/a.jpg', 'urlPrivateHost'],
    // IPv6
    ['https://[::1]/a.jpg', 'urlPrivateHost'],
    ['https://[::]/a.jpg', 'urlPrivateHost'],
    ['https://[0:0:0:0:0:0:0:1]/a.jpg', 'urlPrivateHost'],
    ['https://[fc00::1]/a.jpg', 'urlPrivateHost'],
    ['https://[fd12:3456::1]/a.jpg', 'urlPrivateHost'],
    ['https://[fe80::1]/a.jpg', 'urlPrivateHost'],
    ['https://[ff02::1]/a.jpg', 'urlPrivateHost'],
    ['https://[::ffff:127.0.0.1]/a.jpg', 'urlPrivateHost'],
    ['https://[::ffff:8.8.8.8]/a.jpg', 'urlPrivateHost'],
    ['https://[::127.0.0.1]/a.jpg', 'urlPrivateHost'],
    ['https://[64:ff9b::10.0.0.1]/a.jpg', 'urlPrivateHost'],
    // Only global unicast passes: a NAT64 form, even of a public address, is a special-use range.
    ['https://[64:ff9b::8.8.8.8]/a.jpg', 'urlPrivateHost'],
    ['https://[2002:c0a8:0101::1]/a.jpg', 'urlPrivateHost'],
    ['https://[2001:db8::1]/a.jpg', 'urlPrivateHost'],
  ];
  for (const [url, expected] of cases)
    test(`${JSON.stringify(url)} -> ${expected}`, () => assert.equal(verdict(url), expected));

  test('the problem names the field', () => {
    assert.deepEqual(checkImageUrl('pay_voucher', 'http://x.example/a.jpg'), [
      { field: 'pay_voucher', error: 'urlNotHttps' },
    ]);
  });
});
