import { SYSTEM, type ChangedBy } from '../audit/actor.ts';
import { userInfo } from 'node:os';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Role } from '../access/roles.ts';
import type { ServiceContext } from '../context.ts';
import { isRealDate } from '../record/dates.ts';

/** Where a CLI change came from, for the audit trail: `cli <shell user>`. */
export function cliSource(): string {
  try {
    return `cli ${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

/**
 * The program's `--operator`: the operator who runs a command, recorded as the actor of what it
 * changes. It may follow the command (`apps create --name X --operator ada`), or come from the
 * environment for a whole shell session.
 */
export const OPERATOR_ENV = 'CARDAPPLY_OPERATOR';

export function operatorOption(): Option {
  return new Option(
    '--operator <username>',
    'the operator who runs the command, recorded in the audit trail; required by the commands that change what the console changes',
  ).env(OPERATOR_ENV);
}

/** What an operator's command requires of the operator named: the role the admin API's route requires. */
interface OperatorNeed {
  role: Role;
  /** `operators create`: the first admin is created without one (nobody could be named yet). */
  firstAdmin?: true;
}
const NEEDS = new WeakMap<Command, OperatorNeed>();

/**
 * Marks an operator's command: what the console does only in a session with a second factor is
 * refused at the command line unless an operator of at least `role` is named. The commands not
 * marked (migrate, serve, worker, the keys, retention, the audit chain's check, reads of
 * configuration) are the service's own: they run without an operator, as the system, and record
 * the operator when one is named.
 */
export function operatorCommand(command: Command, role: Role, need: { firstAdmin?: true } = {}): Command {
  NEEDS.set(command, { role, ...need });
  return command;
}

/** The operator named for this run of `command`: `--operator`, else CARDAPPLY_OPERATOR. */
export function namedOperator(command: Command): string | undefined {
  const name = (command.optsWithGlobals() as { operator?: unknown }).operator;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

/** The command as typed, for a message: `apps create`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** The refusal of an operator's command run without an operator named. */
export function operatorRequired(command: Command, why = ''): Error {
  return new Error(
    `${commandPath(command)} is an operator's command: name the operator who runs it with --operator <username> (or ${OPERATOR_ENV})${why}`,
  );
}

/** Before any command runs (a prompt, the store): an operator's command names its operator. */
export function checkOperatorNamed(command: Command): void {
  const need = NEEDS.get(command);
  if (need !== undefined && need.firstAdmin !== true && namedOperator(command) === undefined)
    throw operatorRequired(command);
}

/**
 * Who makes a change from the command line, for the audit trail: the operator named, who must
 * exist, be enabled and have the command's role; else (a command the service may run by itself,
 * or the first admin's creation) the system. Either way from the shell user's command line.
 */
export async function cliChange(ctx: ServiceContext, command: Command): Promise<ChangedBy> {
  const name = namedOperator(command);
  const need = NEEDS.get(command);
  if (name === undefined) {
    if (need !== undefined && need.firstAdmin !== true) throw operatorRequired(command);
    return { actor: SYSTEM, source: cliSource() };
  }
  const [{ actingOperator }, { cliMessage }] = await Promise.all([
    import('../operators/operators.ts'),
    import('./errors.ts'),
  ]);
  try {
    return { actor: await actingOperator(ctx, name, need?.role ?? 'viewer'), source: cliSource() };
  } catch (error) {
    // "username: no such operator" names the API's field; here the option is what was mistyped.
    const message = cliMessage(error);
    if (message === undefined) throw error;
    throw new Error(`--operator ${name}: ${message.replace(/^(username|role): /, '')}`, { cause: error });
  }
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
