import ipaddr from 'ipaddr.js';

/**
 * Whether a host may be reached from the service as a public party: image URLs of an application
 * and webhook receivers are judged alike. An IP address passes only when `ipaddr.js` puts it in the
 * `unicast` range (global unicast): loopback, private, link-local, carrier-grade NAT, documentation,
 * benchmarking, multicast, reserved, Teredo, 6to4, NAT64, IPv4-mapped and every other special-use
 * range of the IANA registries are refused, and new registrations reach us with the library rather
 * than with a table kept here by hand. Names: `localhost` and `*.localhost`, the special-use
 * `*.local`, `*.internal`, `*.home.arpa`, and single-label names (resolved through search domains,
 * so internal by nature) are refused; other names are public as far as their text goes (a name
 * that resolves to a private address is for whoever connects to refuse, see endpointUrl.ts).
 */

const SPECIAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa'];
const DIGITS_AND_DOTS = /^[0-9.]+$/;

/** Whether a resolved address (as `dns.lookup` returns it, or an IP literal) is not global unicast. */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  // The deprecated IPv4-compatible form (::a.b.c.d, RFC 4291) counts as unicast to the library.
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return true;
  return parsed.range() !== 'unicast';
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Whether the URL parser's `hostname` names a private, loopback, link-local or special host. IPv4
 * literals arrive normalised by the URL parser, so decimal (`2130706433`), hex (`0x7f.1`) and octal
 * (`0177.0.0.1`) forms count as what they mean; IPv6 literals arrive in brackets.
 */
export function isPrivateHost(hostname: string): boolean {
  if (hostname.startsWith('[')) {
    const literal = hostname.slice(1, -1);
    return !ipaddr.IPv6.isValid(literal) || isPrivateAddress(literal);
  }
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  // Asked only of digits and dots: the library answers a name by throwing and catching an error,
  // which cost a tenth of the service's CPU per submission (three image URLs each).
  if (DIGITS_AND_DOTS.test(host) && ipaddr.IPv4.isValidFourPartDecimal(host)) return isPrivateAddress(host);
  if (host === 'localhost' || !host.includes('.')) return true;
  return SPECIAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}
