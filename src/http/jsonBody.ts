/**
 * The strict JSON body reader used on every request. `JSON.parse` does the parsing; a linear scan
 * of the body finds what `JSON.parse` silently accepts: duplicate keys (it keeps the last), the
 * keys `__proto__`, `constructor` and `prototype` (harmless to `JSON.parse`, dangerous to code that
 * later merges the object into another), nesting without limit, and `\u` escapes that leave a lone
 * surrogate (a string that is not Unicode text).
 *
 * Decisions:
 * - A UTF-8 byte order mark at the start is skipped (RFC 8259 lets a parser ignore it, and some
 *   Windows clients send one); anywhere else it is the character U+FEFF, which `JSON.parse` refuses
 *   outside strings.
 * - A lone surrogate written as a `\u` escape is refused as `bodyBadEncoding`, like the raw bytes of
 *   one (which the UTF-8 decoder refuses): neither can be stored or passed on as UTF-8 text.
 * - A key containing a control character, `"` or `\` is refused as `bodyForbiddenKey`. No field
 *   name has one, and V8 (Node 24 and later, https://github.com/nodejs/node/issues/63785) can
 *   misread an escaped key once any earlier parse in the process has seen a key with a backslash:
 *   `{"\\":0}` then `{"\u0061":1}` yields the key `\`. So a text with escaped keys is checked on
 *   our own decoding of its keys and parsed again with those keys written plainly.
 * - Depth counts containers: the top-level object is level 1, so `maxDepth` 32 allows 31 levels of
 *   objects and arrays inside it.
 * - Problems are looked for in this order: empty, encoding, JSON syntax, top-level type; then the
 *   first in document order of a duplicate key, a forbidden key, too deep a nesting and a lone
 *   surrogate.
 *
 * The common body (no escaped keys, no surrogate escapes) takes a quick path: count the keys
 * written in the text, and compare with the keys of the parsed value, which has fewer exactly when
 * some object repeats a key. Anything else takes the full scan.
 */
import { keySegment } from '../validation/fieldPath.ts';

export type JsonBodyError =
  | 'bodyEmpty'
  | 'bodyBadEncoding'
  | 'bodyNotJson'
  | 'bodyNotObject'
  | 'bodyDuplicateKey'
  | 'bodyForbiddenKey'
  | 'bodyTooDeep';

export type JsonBodyResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: JsonBodyError; field?: string; max?: number };

export interface JsonBodyOptions {
  /** The deepest nesting of objects and arrays allowed, the top-level object being 1. Default 32. */
  maxDepth?: number;
}

export const DEFAULT_MAX_DEPTH = 32;

// One decoder for all calls: a non-streaming decode keeps no state. With `fatal` it throws on
// invalid UTF-8 (overlong forms, surrogates, truncated sequences); it drops a leading BOM.
const decoder = new TextDecoder('utf-8', { fatal: true });

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

type Failure = Extract<JsonBodyResult, { ok: false }>;

export function readJsonObject(body: Buffer, options?: JsonBodyOptions): JsonBodyResult {
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new Error('readJsonObject: maxDepth must be >= 1');
  if (body.length === 0) return { ok: false, error: 'bodyEmpty' };

  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    return { ok: false, error: 'bodyBadEncoding' };
  }

  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: /^[ \t\n\r]*$/.test(text) ? 'bodyEmpty' : 'bodyNotJson' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'bodyNotObject' };
  }

  const writtenKeys = countWrittenKeys(body);
  if (writtenKeys < 0 || countKeys(value, 1, maxDepth) !== writtenKeys) {
    const scanned = scan(text, maxDepth);
    if (typeof scanned !== 'string') return scanned;
    // Clean after all (say, a surrogate pair written as escapes); re-parse if keys were escaped.
    if (scanned !== text) value = JSON.parse(scanned);
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The number of keys written in the body (strings followed by a colon), or -1 when a key has an
 * escape or any string has a `\u` escape of a surrogate (`\uD800` to `\uDFFF`, paired or not):
 * the full scan decides those. It reads the UTF-8 bytes, already validated, rather than the string:
 * every character that matters here is ASCII, and ASCII bytes never occur inside a multi-byte
 * sequence. Indexing bytes is about twice as fast as charCodeAt on a freshly decoded string.
 */
function countWrittenKeys(b: Uint8Array): number {
  const n = b.length;
  let keys = 0;
  for (let i = 0; i < n; i++) {
    if (b[i] !== QUOTE) continue;
    let escaped = false;
    let j = i + 1;
    // The text is valid JSON, so the string ends; `j < n` only keeps a bug from looping forever.
    for (; j < n;) {
      const d = b[j];
      if (d === QUOTE) break;
      if (d === BACKSLASH) {
        escaped = true;
        if (b[j + 1] === 0x75 && (b[j + 2]! | 0x20) === 0x64) {
          const h = b[j + 3]! | 0x20;
          if (h === 0x38 || h === 0x39 || (h >= 0x61 && h <= 0x66)) return -1;
        }
        j += 2;
      } else j++;
    }
    let c = b[++j];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++j];
    if (c === COLON) {
      if (escaped) return -1;
      keys++;
    }
    i = j - 1;
  }
  return keys;
}

/**
 * The number of keys in a parsed value, or -1 when a key is forbidden or containers nest deeper
 * than `maxDepth` (the recursion stops there, so a deep body cannot exhaust the stack).
 */
function countKeys(v: unknown, depth: number, maxDepth: number): number {
  if (typeof v !== 'object' || v === null) return 0;
  if (depth > maxDepth) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) {
      const m = countKeys(x, depth + 1, maxDepth);
      if (m < 0) return -1;
      n += m;
    }
    return n;
  }
  for (const k in v) {
    if (FORBIDDEN_KEYS.has(k)) return -1;
    const m = countKeys((v as Record<string, unknown>)[k], depth + 1, maxDepth);
    if (m < 0) return -1;
    n += m + 1;
  }
  return n;
}

/** Whether a key has a character that must be escaped in JSON (`"`, `\\`, U+0000 to U+001F). */
function needsEscape(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === QUOTE || c === BACKSLASH) return true;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open`. */
function stringEnd(s: string, open: number): number {
  let j = open + 1;
  for (; j < s.length;) {
    const d = s.charCodeAt(j);
    if (d === QUOTE) return j;
    j += d === BACKSLASH ? 2 : 1;
  }
  return s.length; // not reached for valid JSON
}

/**
 * The full check, on text that `JSON.parse` accepted (so the grammar need not be checked: only
 * strings and the six structural characters matter). Returns the first problem in document order,
 * or else the text with every escaped key written plainly (the same text when there is none).
 */
function scan(s: string, maxDepth: number): Failure | string {
  const n = s.length;
  // The open containers, outermost first: for an object the keys seen and the key being read, for
  // an array the index of the element being read.
  const isObject: boolean[] = [];
  const keySets: (Set<string> | undefined)[] = [];
  const currentKey: string[] = [];
  const index: number[] = [];
  let depth = 0;
  let expectKey = false;
  // The text with escaped keys written plainly, built only once the first one is met.
  let plain = '';
  let copiedUpTo = 0;

  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(s, i);
      let decoded = s.slice(i + 1, end);
      const escaped = decoded.includes('\\');
      if (escaped) {
        decoded = JSON.parse(s.slice(i, end + 1)) as string; // a lone string: not affected by the V8 bug
        if (!decoded.isWellFormed()) return { ok: false, error: 'bodyBadEncoding' };
      }
      if (expectKey) {
        const d = depth - 1;
        const key = decoded;
        if (FORBIDDEN_KEYS.has(key) || (escaped && needsEscape(key))) {
          return { ok: false, error: 'bodyForbiddenKey', field: pathTo(d, key, isObject, currentKey, index) };
        }
        let keys = keySets[d];
        if (keys === undefined) {
          keys = new Set();
          keySets[d] = keys;
        } else if (keys.has(key)) {
          return { ok: false, error: 'bodyDuplicateKey', field: pathTo(d, key, isObject, currentKey, index) };
        }
        keys.add(key);
        currentKey[d] = key;
        expectKey = false;
        if (escaped) {
          plain += s.slice(copiedUpTo, i + 1) + key;
          copiedUpTo = end;
        }
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === maxDepth) return { ok: false, error: 'bodyTooDeep', max: maxDepth };
      const object = c === OPEN_OBJECT;
      isObject[depth] = object;
      keySets[depth] = undefined;
      index[depth] = 0;
      depth++;
      expectKey = object;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      expectKey = false;
    } else if (c === COMMA) {
      const d = depth - 1;
      if (isObject[d]) expectKey = true;
      else index[d]!++;
    }
  }
  return copiedUpTo === 0 ? s : plain + s.slice(copiedUpTo);
}

/** `name`, `other_field[0].value`; a key that is not a plain word is shown as `["a.b"]`, shortened. */
function pathTo(
  level: number,
  key: string,
  isObject: boolean[],
  currentKey: string[],
  index: number[],
): string {
  let path = '';
  for (let d = 0; d < level; d++) {
    path += isObject[d] ? keySegment(currentKey[d]!, d === 0) : `[${index[d]}]`;
  }
  return path + keySegment(key, level === 0);
}
