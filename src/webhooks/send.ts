import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkedLookup, checkUrlShape, hostOf } from '../network/endpointUrl.ts';

/**
 * One HTTP attempt: POST the body with the given headers and report the status code, or the error.
 * The signal bounds the whole attempt (DNS, connect, TLS, response headers). The address is checked
 * when the connection is made (`checkedLookup`), so that a host which now resolves to a private
 * address is refused: the check at registration alone would not stop DNS rebinding. Redirects are
 * not followed (a 3xx is not a 2xx). The response body is not read.
 */
export interface SendResult {
  statusCode: number | null;
  /** A short description of what went wrong, never the receiver's body. */
  error: string | null;
}

export const USER_AGENT = 'cardapply-webhooks/1.0';

export function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { signal: AbortSignal; allowPrivate: boolean },
): Promise<SendResult> {
  const problems = checkUrlShape('url', url, options.allowPrivate);
  if (problems.length > 0)
    return Promise.resolve({ statusCode: null, error: `refused: ${problems[0]!.error}` });
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = request(
      {
        protocol: target.protocol,
        hostname: hostOf(target),
        port: target.port === '' ? undefined : Number(target.port),
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': USER_AGENT,
        },
        // A new connection per attempt: the address check runs every time.
        agent: false,
        lookup: checkedLookup(options.allowPrivate),
        signal: options.signal,
      },
      (response) => {
        // The status decides; the body is drained and dropped (the signal still bounds it).
        response.on('error', () => undefined);
        response.resume();
        const statusCode = response.statusCode ?? 0;
        const ok = statusCode >= 200 && statusCode < 300;
        finish({ statusCode, error: ok ? null : `HTTP ${statusCode}` });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: describe(error, options.signal) }),
    );
    req.end(body);
  });
}

function describe(error: NodeJS.ErrnoException, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason = signal.reason as { name?: string } | undefined;
    return reason?.name === 'TimeoutError' ? 'timeout' : 'aborted';
  }
  if (error.code === 'EPRIVATEADDRESS') return 'refused: the host resolves to a private address';
  return error.code ?? error.name;
}
