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

/**
 * Link-local and cloud metadata services (AWS, GCP, Azure, OpenStack: 169.254.169.254 and the rest
 * of 169.254.0.0/16; Alibaba: 100.100.100.200; AWS over IPv6: fd00:ec2::254; fe80::/10): refused
 * whatever DOCUMENT_ALLOW_PRIVATE and WEBHOOK_ALLOW_PRIVATE say. Those switches are for closed
 * networks, and in a closed network in a cloud these addresses hand out the instance's credentials.
 * An IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-compatible, NAT64, 6to4) counts as it.
 */
const METADATA_RANGES = [
  ipaddr.parseCIDR('169.254.0.0/16'),
  ipaddr.parseCIDR('100.100.100.200/32'),
  ipaddr.parseCIDR('fe80::/10'),
  ipaddr.parseCIDR('fd00:ec2::254/128'),
];
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

/** Whether an address (as `dns.lookup` returns it, or an IP literal) is a metadata or link-local one. */
export function isMetadataAddress(address: string): boolean {
  const bare = address.startsWith('[') ? address.slice(1, -1) : address;
  // A zone index (fe80::1%eth0) is link-local by definition.
  if (bare.includes('%')) return true;
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.parse(bare);
  const candidates: (ipaddr.IPv4 | ipaddr.IPv6)[] = [parsed];
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const bytes = v6.toByteArray();
    if (v6.isIPv4MappedAddress()) candidates.push(v6.toIPv4Address());
    if (v6.match(IPV4_COMPATIBLE) || v6.match(NAT64))
      candidates.push(ipaddr.fromByteArray(bytes.slice(12, 16)));
    if (v6.match(SIX_TO_FOUR)) candidates.push(ipaddr.fromByteArray(bytes.slice(2, 6)));
  }
  return candidates.some((candidate) =>
    METADATA_RANGES.some(
      ([range, bits]) => candidate.kind() === range.kind() && candidate.match(range, bits),
    ),
  );
}

/** Whether the URL parser's `hostname` is a metadata or link-local address literal. */
export function isMetadataHost(hostname: string): boolean {
  if (hostname.startsWith('[')) return isMetadataAddress(hostname.slice(1, -1));
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return DIGITS_AND_DOTS.test(host) && ipaddr.IPv4.isValidFourPartDecimal(host) && isMetadataAddress(host);
}

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
