import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isPrivateAddress, isPrivateHost } from './publicHost.ts';

/**
 * One address from each entry of the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC
 * 6890 and its updates) that is not globally reachable, plus the blocks the hand-kept table of
 * earlier versions let through (Teredo, 2001:2::/48, 3fff::/20, 5f00::/16, 192.88.99.0/24 ...).
 */
const SPECIAL_USE = [
  ['0.0.0.0', '"this network"'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'private'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'TEST-NET-1'],
  ['192.31.196.1', 'AS112-v4'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', 'deprecated 6to4 relay anycast'],
  ['192.168.1.1', 'private'],
  ['192.175.48.1', 'direct delegation AS112'],
  ['198.18.0.1', 'benchmarking'],
  ['198.51.100.1', 'TEST-NET-2'],
  ['203.0.113.1', 'TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:8.8.8.8', 'IPv4-mapped'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
  ['::8.8.8.8', 'IPv4-compatible (deprecated)'],
  ['64:ff9b::8.8.8.8', 'IPv4-IPv6 translation (NAT64)'],
  ['64:ff9b:1::1', 'local-use IPv4/IPv6 translation'],
  ['100::1', 'discard-only'],
  ['2001::1', 'Teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:3::1', 'AMT'],
  ['2001:4:112::1', 'AS112-v6'],
  ['2001:10::1', 'ORCHID (deprecated)'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:db8::1', 'documentation'],
  ['2002:808:808::1', '6to4'],
  ['2620:4f:8000::1', 'direct delegation AS112'],
  ['3fff::1', 'documentation (RFC 9637)'],
  ['5f00::1', 'segment routing SIDs'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['ff02::1', 'multicast'],
] as const;

const PUBLIC = ['8.8.8.8', '1.1.1.1', '203.0.114.1', '2606:4700:4700::1111', '2a00:1450:4001::200e'];

describe('special-use addresses', () => {
  for (const [address, what] of SPECIAL_USE) {
    test(`${address} (${what}) is refused, as an address and as a URL host`, () => {
      assert.equal(isPrivateAddress(address), true);
      assert.equal(isPrivateHost(address.includes(':') ? `[${address}]` : address), true);
    });
  }
  test('global unicast addresses pass', () => {
    for (const address of PUBLIC) {
      assert.equal(isPrivateAddress(address), false, address);
      assert.equal(isPrivateHost(address.includes(':') ? `[${address}]` : address), false, address);
    }
  });
  test('what is not an address at all is refused', () => {
    assert.equal(isPrivateAddress('not-an-address'), true);
    assert.equal(isPrivateHost('[zz::1]'), true);
  });
});

describe('special-use names', () => {
  test('local names are refused, public names pass', () => {
    for (const host of [
      'localhost',
      'a.localhost',
      'printer.local',
      'db.internal',
      'nas.home.arpa',
      'intranet',
    ]) {
      assert.equal(isPrivateHost(host), true, host);
    }
    for (const host of ['img.example.com', 'example.com.', 'xn--fiqs8s.example']) {
      assert.equal(isPrivateHost(host), false, host);
    }
  });
  test('IPv4 literals as the URL parser normalises them count as what they mean', () => {
    for (const url of [
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://[::ffff:7f00:1]/',
    ]) {
      assert.equal(isPrivateHost(new URL(url).hostname), true, url);
    }
  });
});
