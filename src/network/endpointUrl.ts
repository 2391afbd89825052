import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isMetadataAddress, isMetadataHost, isPrivateAddress, isPrivateHost } from './publicHost.ts';
import { problem, type FieldProblem } from '../errors/problems.ts';

/**
 * Where webhooks may go: an absolute https URL without credentials whose host is, and resolves
 * to, public addresses only. The host is resolved at registration and again at every connection
 * (see `checkedLookup`), so a name that later resolves to an internal address (DNS rebinding)
 * reaches nothing. `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) lifts both rules and also allows http,
 * for tests and closed networks; link-local and cloud metadata addresses (`isMetadataAddress`)
 * stay refused with it, as a literal, as a DNS answer and at every connection.
 */
export const MAX_URL_LENGTH = 2048;

/** Problems with the shape of the URL; no DNS. */
export function checkUrlShape(field: string, value: string, allowPrivate: boolean): FieldProblem[] {
  if (value.length > MAX_URL_LENGTH) return [problem(field, 'fieldTooLong', { max: MAX_URL_LENGTH })];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [problem(field, 'urlNotHttps')];
  }
  const schemeAllowed = url.protocol === 'https:' || (allowPrivate && url.protocol === 'http:');
  if (!schemeAllowed || url.hostname === '' || /\s/.test(value)) return [problem(field, 'urlNotHttps')];
  if (url.username !== '' || url.password !== '') return [problem(field, 'urlCredentials')];
  if (isMetadataHost(url.hostname)) return [problem(field, 'urlPrivateHost')];
  if (!allowPrivate && isPrivateHost(url.hostname)) return [problem(field, 'urlPrivateHost')];
  return [];
}

/** Whether a DNS answer may be connected to: never a metadata address, private ones only when allowed. */
export function addressesAllowed(addresses: readonly LookupAddress[], allowPrivate: boolean): boolean {
  return addresses.every(
    (a) => !isMetadataAddress(a.address) && (allowPrivate || !isPrivateAddress(a.address)),
  );
}

/** The URL's shape, then what its host resolves to now. */
export async function checkEndpointUrl(
  field: string,
  value: string,
  allowPrivate: boolean,
): Promise<FieldProblem[]> {
  const shape = checkUrlShape(field, value, allowPrivate);
  if (shape.length > 0) return shape;
  const host = hostOf(new URL(value));
  if (isIP(host) !== 0) return [];
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host);
  } catch {
    return [problem(field, 'webhookUrlUnresolvable')];
  }
  if (addresses.length === 0) return [problem(field, 'webhookUrlUnresolvable')];
  if (!addressesAllowed(addresses, allowPrivate)) return [problem(field, 'urlPrivateHost')];
  return [];
}

/** The host as `net.connect` wants it: IPv6 literals without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    lookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

export class PrivateAddressError extends Error {
  override readonly name = 'PrivateAddressError';
  readonly code = 'EPRIVATEADDRESS';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that refuses private addresses: the address checked is the
 * address connected to, with no second resolution in between.
 */
export function checkedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupAllOptions | object, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!addressesAllowed(addresses, allowPrivate)) {
        return callback(new PrivateAddressError(`${hostname} resolves to a private address`), []);
      }
      if ((options as { all?: boolean }).all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(new PrivateAddressError(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
  };
}
