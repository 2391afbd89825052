import { SYSTEM, type ChangedBy } from '../audit/actor.ts';
import { userInfo } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { isRealDate } from '../record/dates.ts';

/** Where a CLI change came from, for the audit trail: `cli <shell user>`. */
export function cliSource(): string {
  try {
    return `cli ${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

/** A change made with the CLI: by the service itself, from the shell user's command line. */
export function cliChange(): ChangedBy {
  return { actor: SYSTEM, source: cliSource() };
}

/** A whole number option, checked. */
export function wholeNumberOption(option: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^[0-9]{1,15}$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`${option}: must be a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}

/** A calendar date option, `YYYY-MM-DD`, checked to be a real date. */
export function dayOption(option: string) {
  return (value: string): string => {
    if (!isRealDate(value))
      throw new InvalidArgumentError(`${option}: must be a real date written YYYY-MM-DD`);
    return value;
  };
}
