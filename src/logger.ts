import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';
import { SECRET_KEYS, SENSITIVE_FIELDS } from './redaction.ts';

const CENSORED_KEYS: ReadonlySet<string> = new Set([...SENSITIVE_FIELDS, ...SECRET_KEYS]);
const CENSOR = '[redacted]';

/**
 * Structured JSON logs. Bodies are never logged; as a second line of defence, any identity field,
 * secret or credential header that reaches a log object is censored wherever it sits (down to
 * CENSOR_DEPTH levels, arrays and errors included), and so is a child logger's binding of one.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    base: { service: 'cardapply' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Log objects are censored by a formatter: pino's wildcard redaction paths (`*.key`, `*.*.key`
    // for every key) cost 4% of the service's CPU under load, one walk with a set lookup per key
    // next to nothing on the flat request line. pino's `redact`, with top-level keys only (cheap: a
    // stringifier per key, called only when the key is there), covers child loggers' bindings,
    // which the formatter never sees.
    redact: { paths: [...CENSORED_KEYS], censor: CENSOR },
    formatters: {
      level: (label: string) => ({ level: label }),
      log: (object: Record<string, unknown>) => censored(object, 0) as Record<string, unknown>,
    },
  };
  // Written asynchronously: a synchronous write per line costs a quarter of the CPU under load. And
  // in blocks: a write per line woke a thread of libuv's pool per request, on the event loop's core
  // when the service is pinned (a CPU profile under load put 9% of the loop's samples in the
  // write); now lines wait for 4 KB or a tenth of a second. pino flushes what is pending when the
  // process exits; a process killed outright loses at most that tenth of a second of lines.
  return pino(
    options,
    destination ??
      pino.destination({ dest: 1, sync: false, minLength: LOG_BLOCK_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
}

/** stdout's lines are written when this many bytes wait, or after LOG_FLUSH_MS. */
export const LOG_BLOCK_BYTES = 4096;
export const LOG_FLUSH_MS = 100;

/** Deeper than any object the service logs; also what stops a cycle. */
const CENSOR_DEPTH = 6;

/**
 * `value` with every censored key's value replaced, copied only where something changes: the
 * object the caller logged is never modified, and a clean one is returned as it is.
 */
function censored(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth >= CENSOR_DEPTH) return value;
  // Bytes have no keys to censor, only indices (a megabyte buffer would be a million lookups).
  if (ArrayBuffer.isView(value)) return value;
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const original = record[key];
    const replaced = CENSORED_KEYS.has(key) ? CENSOR : censored(original, depth + 1);
    if (replaced === original) continue;
    copy ??= copyOf(value);
    copy[key] = replaced;
  }
  return copy ?? value;
}

/** A shallow copy that an error serialiser still takes for the error it was (type, message, stack). */
function copyOf(value: object): Record<string, unknown> {
  if (Array.isArray(value)) return [...(value as unknown[])] as unknown as Record<string, unknown>;
  if (!(value instanceof Error)) return { ...value };
  const copy = Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>;
  Object.defineProperties(copy, {
    message: { value: value.message },
    stack: { value: value.stack },
    cause: { value: value.cause },
  });
  return Object.assign(copy, value);
}
