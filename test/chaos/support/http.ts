/**
 * One HTTP exchange, whatever comes back: the suite must see a 5xx, a non-JSON body or a dropped
 * connection as a finding, not as a thrown helper error. Bodies may be raw bytes.
 */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
}

export interface SendOptions {
  method?: string;
  /** A value sent as JSON, or raw bytes / text sent as they are. */
  body?: unknown;
  raw?: string | Uint8Array;
  /** The Content-Type sent with a body; null sends none. Default application/json. */
  contentType?: string | null;
  token?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export async function send(baseUrl: string, path: string, options: SendOptions = {}): Promise<Exchange> {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = {};
  const hasBody = options.raw !== undefined || options.body !== undefined;
  if (hasBody && options.contentType !== null)
    headers['content-type'] = options.contentType ?? 'application/json';
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  Object.assign(headers, options.headers);
  const init: RequestInit = { method, headers, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) };
  if (options.raw !== undefined) init.body = options.raw as NonNullable<RequestInit['body']>;
  else if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { method, path, status: response.status, headers: response.headers, text, json };
}

export interface Envelope {
  code: number;
  data: unknown;
  msg: string;
}

/** Whether a body is the service's envelope `{code, data, msg}` and nothing else. */
export function isEnvelope(json: unknown): json is Envelope {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const keys = Object.keys(json).sort();
  if (keys.join(',') !== 'code,data,msg') return false;
  const e = json as Record<string, unknown>;
  return Number.isInteger(e['code']) && typeof e['msg'] === 'string' && e['data'] !== undefined;
}

/** Headers that name the framework or server software behind the service. */
export const FINGERPRINT_HEADERS = ['x-powered-by', 'server', 'x-aspnet-version', 'x-runtime', 'x-generator'];

export function fingerprints(headers: Headers): string[] {
  return FINGERPRINT_HEADERS.filter((h) => headers.has(h)).map((h) => `${h}: ${headers.get(h)}`);
}
