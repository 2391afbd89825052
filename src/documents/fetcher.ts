import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { releaseBuffer } from '../crypto/releaseBuffer.ts';
import { isMetadataAddress, isMetadataHost, isPrivateAddress, isPrivateHost } from '../network/publicHost.ts';
import { hostOf, type HostOutcome, type Slot } from './fetchSlots.ts';
import { DocumentFailure } from './outcome.ts';

/**
 * Fetches one document from a partner's URL without letting the URL turn the service against the
 * network: https only; the host resolved once, every address it gives checked, and the connection
 * made to that checked address (the request's `lookup` answers it, so there is no second
 * resolution for DNS rebinding to slip into; `servername` keeps SNI and the certificate check on
 * the name); at most 3 redirects, each checked the same way; a connect time-out and a time-out of
 * the whole fetch; and a size cap enforced while the body streams: past it the connection is
 * destroyed, the rest is never read. `allowPrivate` (DOCUMENT_ALLOW_PRIVATE) also allows http and
 * private addresses, for tests and closed networks; never a link-local or cloud metadata address
 * (network/publicHost.ts `isMetadataAddress`), whatever it and `addressAllowed` say: not at the
 * first hop, not after a redirect, not in any DNS answer.
 */

export interface FetchOptions {
  maxBytes: number;
  connectTimeoutMs: number;
  timeoutMs: number;
  allowPrivate: boolean;
  /**
   * Whether an address (resolved, or an IP literal) may be connected to; by default public unicast,
   * or any with `allowPrivate`. Tests give one that stands a loopback address in for a public one.
   */
  addressAllowed?: ((address: string) => boolean) | undefined;
  /** Stops the fetch early (the job runner stopping); what it throws then is no document's fault. */
  signal?: AbortSignal | undefined;
  /**
   * Waits for a fetch slot for the URL's host (fetchSlots.ts) before anything is sent and before
   * the time-outs start; the slot is held until the body is consumed, and told how the host did.
   */
  slot?: ((host: string) => Promise<Slot>) | undefined;
}

export const MAX_REDIRECTS = 3;
export const USER_AGENT = 'cardapply-documents/1.0';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The body as it arrives, counted against the cap; `consume` must read it to the end or throw, and
 * must not keep a piece once it asks for the next (the piece's memory is freed then).
 */
export type Body = AsyncIterable<Buffer>;

/**
 * Fetches `url` and hands its body to `consume`. Throws a `DocumentFailure` (`refused_address`,
 * `unreachable`, `too_large`); whatever `consume` throws passes through.
 */
export async function fetchDocument<T>(
  url: string,
  options: FetchOptions,
  consume: (body: Body, contentLength: number | null) => Promise<T>,
): Promise<T> {
  if (options.slot === undefined) return fetchNow(url, options, consume);
  const slot = await options.slot(hostOf(url));
  let outcome: HostOutcome = 'neither';
  try {
    const result = await fetchNow(url, options, consume);
    outcome = 'ok';
    return result;
  } catch (error) {
    outcome = options.signal?.aborted === true ? 'neither' : hostOutcomeOf(error);
    throw error;
  } finally {
    slot.release(outcome);
  }
}

/** A failure that says the host is down, slow or overloaded, rather than what the URL serves. */
const HOST_FAULT = /^(time-out|connect time-out|DNS.*|HTTP (5\d\d|429)|the body ended early|E[A-Z]+)$/;

/** What a failed fetch says of its host: its fault, an answer (of any kind), or neither. */
function hostOutcomeOf(error: unknown): HostOutcome {
  if (!(error instanceof DocumentFailure)) return 'neither';
  if (error.reason === 'refused_address') return 'neither';
  return error.reason === 'unreachable' && HOST_FAULT.test(error.detail) ? 'failed' : 'ok';
}

async function fetchNow<T>(
  url: string,
  options: FetchOptions,
  consume: (body: Body, contentLength: number | null) => Promise<T>,
): Promise<T> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  let target = url;
  for (let hop = 0; ; hop++) {
    const { request, response } = await open(target, options, signal);
    const status = response.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      const location = response.headers.location;
      request.destroy();
      if (hop >= MAX_REDIRECTS)
        throw new DocumentFailure('unreachable', `more than ${MAX_REDIRECTS} redirects`);
      if (location === undefined)
        throw new DocumentFailure('unreachable', `HTTP ${status} without a location`);
      target = resolveLocation(location, target);
      continue;
    }
    if (status !== 200) {
      request.destroy();
      throw new DocumentFailure('unreachable', `HTTP ${status}`);
    }
    const declared = Number(response.headers['content-length']);
    const contentLength = Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
    if (contentLength !== null && contentLength > options.maxBytes) {
      request.destroy();
      throw new DocumentFailure('too_large', `declared ${contentLength} bytes`);
    }
    return consume(cappedBody(request, response, options.maxBytes, signal), contentLength);
  }
}

function resolveLocation(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new DocumentFailure('unreachable', 'a redirect to an unreadable location');
  }
}

/** The URL's own shape: scheme, credentials, a host that is not special by its text. */
function checkShape(url: URL, allowPrivate: boolean): void {
  const schemeAllowed = url.protocol === 'https:' || (allowPrivate && url.protocol === 'http:');
  if (!schemeAllowed) throw new DocumentFailure('refused_address', `scheme ${url.protocol} refused`);
  if (url.username !== '' || url.password !== '')
    throw new DocumentFailure('refused_address', 'credentials in the URL');
  if (isMetadataHost(url.hostname))
    throw new DocumentFailure('refused_address', 'a link-local or metadata address');
  // An IP literal is judged as an address below; a name here by its text (localhost, *.internal).
  const literal = url.hostname.startsWith('[') || isIP(url.hostname) !== 0;
  if (!allowPrivate && !literal && isPrivateHost(url.hostname))
    throw new DocumentFailure('refused_address', 'a private or special-use host');
}

/** Resolves the host once and answers the one address to connect to, every address checked. */
async function resolveChecked(host: string, allowed: (address: string) => boolean): Promise<LookupAddress> {
  const family = isIP(host);
  const addresses =
    family !== 0
      ? [{ address: host, family }]
      : await new Promise<LookupAddress[]>((resolve, reject) =>
          lookup(host, { all: true }, (error, found) =>
            error
              ? reject(new DocumentFailure('unreachable', `DNS: ${error.code ?? 'failed'}`))
              : resolve(found),
          ),
        );
  const first = addresses[0];
  if (first === undefined) throw new DocumentFailure('unreachable', 'DNS: no address');
  const refused = refusedAnswer(addresses, allowed);
  if (refused !== null) throw new DocumentFailure('refused_address', refused);
  return first;
}

/**
 * Why a DNS answer (or an IP literal) may not be connected to, or null. Any refused address refuses
 * the host: a name that mixes them is not a public party. A metadata address is refused whatever
 * `allowed` says.
 */
export function refusedAnswer(
  addresses: readonly LookupAddress[],
  allowed: (address: string) => boolean,
): string | null {
  if (addresses.some((a) => isMetadataAddress(a.address)))
    return 'the host resolves to a link-local or metadata address';
  if (!addresses.every((a) => allowed(a.address))) return 'the host resolves to a private address';
  return null;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

async function open(
  target: string,
  options: FetchOptions,
  signal: AbortSignal,
): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new DocumentFailure('unreachable', 'an unreadable URL');
  }
  checkShape(url, options.allowPrivate);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const allowed = options.addressAllowed ?? ((a: string) => options.allowPrivate || !isPrivateAddress(a));
  const pinned = await withTimeout(resolveChecked(host, allowed), options.connectTimeoutMs, 'DNS', signal);
  // The connection goes to the address just checked: no second resolution.
  const fixedLookup = (_name: string, lookupOptions: { all?: boolean }, callback: LookupCallback) =>
    lookupOptions.all === true ? callback(null, [pinned]) : callback(null, pinned.address, pinned.family);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send({
      protocol: url.protocol,
      hostname: host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { 'user-agent': USER_AGENT, accept: 'image/*, application/pdf' },
      agent: false,
      lookup: fixedLookup as never,
      ...(isIP(host) === 0 ? { servername: host } : {}),
      signal,
    });
    const connectTimer = setTimeout(
      () => request.destroy(new DocumentFailure('unreachable', 'connect time-out')),
      options.connectTimeoutMs,
    );
    request.on('socket', (socket: Socket) => {
      // Runs after node:http's own listener, which has parsed the read (the body copied out of it).
      socket.on('data', releaseBuffer);
      const event = url.protocol === 'https:' ? 'secureConnect' : 'connect';
      if (!socket.connecting && event === 'connect') clearTimeout(connectTimer);
      socket.once(event, () => clearTimeout(connectTimer));
    });
    request.on('response', (response) => {
      clearTimeout(connectTimer);
      resolve({ request, response });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(connectTimer);
      reject(asFailure(error, signal));
    });
    request.end();
  });
}

/** Counts the body against the cap; past it the connection is destroyed, not drained. */
async function* cappedBody(
  request: ClientRequest,
  response: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
): Body {
  let received = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > maxBytes) {
        request.destroy();
        throw new DocumentFailure('too_large', `more than ${maxBytes} bytes`);
      }
      yield chunk;
      // The consumer asked for the next piece: it is done with this one.
      releaseBuffer(chunk);
    }
  } catch (error) {
    throw error instanceof DocumentFailure ? error : asFailure(error as NodeJS.ErrnoException, signal);
  } finally {
    // A consumer that stops early (a refused type) leaves nothing open.
    if (!response.complete) request.destroy();
  }
  if (!response.complete) throw new DocumentFailure('unreachable', 'the body ended early');
}

function asFailure(error: NodeJS.ErrnoException, signal: AbortSignal): DocumentFailure {
  if (error instanceof DocumentFailure) return error;
  if (signal.aborted) return new DocumentFailure('unreachable', 'time-out');
  return new DocumentFailure('unreachable', error.code ?? error.name);
}

/**
 * `work` within `ms`, and no longer than `signal` allows: a DNS lookup cannot be cancelled (it holds
 * a thread of libuv's pool until the resolver answers), so a stopping runner stops waiting for it.
 */
async function withTimeout<T>(work: Promise<T>, ms: number, what: string, signal: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DocumentFailure('unreachable', `${what} time-out`)), ms);
    onAbort = () => reject(new DocumentFailure('unreachable', `${what} interrupted`));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}
