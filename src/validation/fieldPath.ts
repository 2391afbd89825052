/**
 * How a key is named in a field path (`other_field[0].name`), shared by the JSON body reader and
 * the schema validator so that both name keys alike: plain keys as they are, anything else (or a
 * very long key) quoted and cut, so that a hostile key never comes back whole.
 */
const SIMPLE_KEY = /^[A-Za-z0-9_$-]+$/;
const MAX_SEGMENT = 64;

export function keySegment(key: string, first: boolean): string {
  if (SIMPLE_KEY.test(key) && key.length <= MAX_SEGMENT) return first ? key : `.${key}`;
  const shown = key.length <= MAX_SEGMENT ? key : `${key.slice(0, MAX_SEGMENT)}...`;
  return `[${JSON.stringify(shown)}]`;
}
