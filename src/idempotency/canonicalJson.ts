import { hash } from 'node:crypto';

/**
 * JSON text with the keys of every object sorted: two bodies that differ only in key order or
 * whitespace have the same canonical form. Values are those of a parsed JSON body.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}

/**
 * What makes two requests "the same" for an idempotency key: the operation and the canonical body,
 * without `timestamp`. The timestamp only proves freshness (a retry must send a fresh one to pass
 * the replay window) and is not part of what is asked for.
 */
export function requestHash(operation: string, body: Readonly<Record<string, unknown>>): string {
  const { timestamp: _timestamp, ...content } = body;
  return hash('sha256', `${operation}\n${canonicalJson(content)}`, 'hex');
}
