import { boolean, ConfigError, integer, type Env } from './variables.ts';

/** The five image fields' documents: how they are fetched and how long they are tried. */
export interface DocumentConfig {
  /** Largest document kept; a bigger body is cut off while it streams. */
  maxBytes: number;
  /** Largest image kept, in pixels as its header declares them (read before anything is decoded). */
  maxPixels: number;
  /** How long an unreachable document is tried again (ms); 0 means one attempt. */
  fetchForMs: number;
  /** DNS, connection and TLS handshake of one fetch. */
  connectTimeoutMs: number;
  /** One whole fetch, redirects and body included. */
  timeoutMs: number;
  /** Allows http and private, loopback and link-local hosts: for tests and closed networks only. */
  allowPrivate: boolean;
  /** Fetches in flight at once in a process, all partners' together (fetchSlots.ts). */
  fetchSlots: number;
  /** Of them, at most this many for one partner's documents. */
  fetchSlotsPerPartner: number;
  /** Of them, at most this many to one host. */
  fetchSlotsPerHost: number;
  /** A failing host's first backoff (ms), doubled with each failure in a row; 0: none. */
  hostBackoffMs: number;
  /**
   * Not from the environment: tests set it to stand a loopback address in for a public one, so that
   * a redirect to another loopback address can be refused as it would be on the internet.
   */
  addressAllowed?: ((address: string) => boolean) | undefined;
}

export function documentConfig(env: Env): DocumentConfig {
  const connectTimeoutMs = integer(env, 'DOCUMENT_CONNECT_TIMEOUT_MS');
  const timeoutMs = integer(env, 'DOCUMENT_TIMEOUT_MS');
  if (timeoutMs < connectTimeoutMs)
    throw new ConfigError('DOCUMENT_TIMEOUT_MS: must not be less than DOCUMENT_CONNECT_TIMEOUT_MS');
  const fetchSlots = integer(env, 'DOCUMENT_FETCH_SLOTS');
  return {
    maxBytes: integer(env, 'DOCUMENT_MAX_BYTES'),
    maxPixels: integer(env, 'DOCUMENT_MAX_PIXELS'),
    fetchForMs: integer(env, 'DOCUMENT_FETCH_HOURS') * 3_600_000,
    connectTimeoutMs,
    timeoutMs,
    allowPrivate: boolean(env, 'DOCUMENT_ALLOW_PRIVATE'),
    fetchSlots,
    fetchSlotsPerPartner: Math.min(integer(env, 'DOCUMENT_SLOTS_PER_PARTNER'), fetchSlots),
    fetchSlotsPerHost: Math.min(integer(env, 'DOCUMENT_SLOTS_PER_HOST'), fetchSlots),
    hostBackoffMs: integer(env, 'DOCUMENT_HOST_BACKOFF_MS'),
  };
}
