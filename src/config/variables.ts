import { ENVIRONMENT, type VariableName } from '../environment.ts';

/*
 * Reading one variable against its declaration in ENVIRONMENT: the default when it is unset or
 * empty, else the value checked against the declared bounds or pattern. A bad value throws a
 * ConfigError that names the variable and the rule.
 */

/** A bad configuration value: the start stops with this message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The declaration of a variable in ENVIRONMENT: its default, bounds and pattern. */
function declared(name: VariableName): {
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  rule?: string;
} {
  return ENVIRONMENT.properties[name] as ReturnType<typeof declared>;
}

export function raw(env: Env, name: VariableName): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function wholeNumber(name: VariableName, value: string): number {
  const { minimum = 0, maximum = Number.MAX_SAFE_INTEGER } = declared(name);
  if (!/^[0-9]+$/.test(value)) throw new ConfigError(`${name}: must be a whole number, got "${value}"`);
  const number = Number(value);
  if (number < minimum || number > maximum)
    throw new ConfigError(`${name}: must be between ${minimum} and ${maximum}, got ${number}`);
  return number;
}

export function integer(env: Env, name: VariableName): number {
  const value = raw(env, name);
  return value === undefined ? (declared(name).default as number) : wholeNumber(name, value);
}

export function optionalInteger(env: Env, name: VariableName): number | undefined {
  const value = raw(env, name);
  return value === undefined ? undefined : wholeNumber(name, value);
}

export function boolean(env: Env, name: VariableName): boolean {
  const value = raw(env, name);
  if (value === undefined) return declared(name).default as boolean;
  if (['true', '1', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['false', '0', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new ConfigError(`${name}: must be true or false, got "${value}"`);
}

function matching(name: VariableName, value: string): string {
  const { pattern, rule } = declared(name);
  if (pattern !== undefined && !new RegExp(pattern).test(value))
    throw new ConfigError(`${name}: ${rule ?? `must match ${pattern}`}`);
  return value;
}

export function text(env: Env, name: VariableName): string {
  const value = raw(env, name);
  return value === undefined ? (declared(name).default as string) : matching(name, value);
}

/** An IANA time zone name the runtime knows (Intl refuses any other). */
export function timeZone(env: Env, name: VariableName): string {
  const value = text(env, name);
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw new ConfigError(`${name}: must be an IANA time zone such as Asia/Shanghai, got "${value}"`);
  }
  return value;
}

export function optional(env: Env, name: VariableName): string | undefined {
  const value = raw(env, name);
  return value === undefined ? undefined : matching(name, value);
}
