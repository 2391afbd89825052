import { problem, type FieldProblem } from '../../errors/problems.ts';

/**
 * Image URLs (`id_card_img`, `id_card_back_img`, `passport_img`, `sign_applicant`, `pay_voucher`).
 *
 * - `urlNotHttps`: not an absolute `https://` URL as the WHATWG URL standard parses it. The text must
 *   begin with `https://` itself and hold no whitespace or control characters: the URL parser would
 *   silently strip or repair those (`https:example.com`, ` https://x`, tabs inside), and the value is
 *   taken as sent.
 * - `urlCredentials`: a user name or password in the URL.
 * - `urlPrivateHost`: a host that is not a public internet name or address: `localhost` and
 *   `*.localhost`, the special-use names `*.local`, `*.internal`, `*.home.arpa`, a single-label name
 *   (resolved through search domains, so internal by nature), or an IP literal that is not globally
 *   reachable. IPv4 literals are judged after the parser's normalisation, so decimal (`2130706433`),
 *   hex (`0x7f.1`) and octal (`0177.0.0.1`) forms count as what they mean. No DNS lookup is made: a
 *   public name that resolves to a private address is for the image fetcher to refuse.
 */

const HTTPS_PREFIX = /^https:\/\//i;
const WHITESPACE = /\s/;

/** Whether the text begins with `https://` and holds no whitespace or control character. */
function hasCleanShape(value: string): boolean {
  if (!HTTPS_PREFIX.test(value) || WHITESPACE.test(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false;
  }
  return true;
}
const SPECIAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];

/** IPv4 ranges that are not globally reachable (RFC 6890 and friends), as [network, prefix length]. */
const IPV4_BLOCKED: readonly (readonly [number, number])[] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network", incl. the unspecified address
  [0x0a000000, 8], // 10.0.0.0/8 private
  [0x64400000, 10], // 100.64.0.0/10 carrier-grade NAT
  [0x7f000000, 8], // 127.0.0.0/8 loopback
  [0xa9fe0000, 16], // 169.254.0.0/16 link-local
  [0xac100000, 12], // 172.16.0.0/12 private
  [0xc0000000, 24], // 192.0.0.0/24 IETF protocol assignments
  [0xc0000200, 24], // 192.0.2.0/24 documentation
  [0xc0a80000, 16], // 192.168.0.0/16 private
  [0xc6120000, 15], // 198.18.0.0/15 benchmarking
  [0xc6336400, 24], // 198.51.100.0/24 documentation
  [0xcb007100, 24], // 203.0.113.0/24 documentation
  [0xe0000000, 4], // 224.0.0.0/4 multicast
  [0xf0000000, 4], // 240.0.0.0/4 reserved, incl. 255.255.255.255
];

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4ToNumber(host: string): number | undefined {
  const m = IPV4.exec(host);
  if (m === null) return undefined;
  let value = 0;
  for (let i = 1; i <= 4; i++) {
    const octet = Number(m[i]);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

function isBlockedIpv4(value: number): boolean {
  return IPV4_BLOCKED.some(
    ([network, bits]) => Math.floor(value / 2 ** (32 - bits)) === network / 2 ** (32 - bits),
  );
}

/** The eight 16-bit groups of an IPv6 address as the URL parser serialises it (hex groups, `::`). */
function ipv6Groups(host: string): number[] | undefined {
  const halves = host.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function isBlockedIpv6(g: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g6 = 0, h = 0] = g;
  const embedded = g6 * 65536 + h;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0) {
    // ::, ::1, IPv4-compatible ::a.b.c.d and IPv4-mapped ::ffff:a.b.c.d: none is a public address.
    if (f === 0 || f === 0xffff) return true;
  }
  if ((a & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((a & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((a & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((a & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  if (a === 0x2001 && b === 0x0db8) return true; // 2001:db8::/32 documentation
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return true; // 100::/64 discard
  if (a === 0x0064 && b === 0xff9b) return isBlockedIpv4(embedded); // 64:ff9b::/96 NAT64
  if (a === 0x2002) return isBlockedIpv4(b * 65536 + c); // 2002::/16 6to4
  return false;
}

/** Whether the URL parser's `hostname` names a private, loopback, link-local or special host. */
export function isPrivateHost(hostname: string): boolean {
  if (hostname.startsWith('[')) {
    const groups = ipv6Groups(hostname.slice(1, -1));
    return groups === undefined || isBlockedIpv6(groups);
  }
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const v4 = ipv4ToNumber(host);
  if (v4 !== undefined) return isBlockedIpv4(v4);
  if (host === 'localhost' || !host.includes('.')) return true;
  return SPECIAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

export function checkImageUrl(field: string, value: string): FieldProblem[] {
  if (!hasCleanShape(value)) return [problem(field, 'urlNotHttps')];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [problem(field, 'urlNotHttps')];
  }
  if (url.protocol !== 'https:' || url.hostname === '') return [problem(field, 'urlNotHttps')];
  if (url.username !== '' || url.password !== '') return [problem(field, 'urlCredentials')];
  if (isPrivateHost(url.hostname)) return [problem(field, 'urlPrivateHost')];
  return [];
}
