import type { Command } from 'commander';
import type { OperatorView } from '../operators/operators.ts';
import type { ChangedBy } from '../audit/actor.ts';
import { cliChange, operatorCommand, operatorRequired } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';
import { newPassword } from './prompt.ts';

/**
 * Changes to operator accounts from the command line are an admin's, named with `--operator`; an
 * operator may enrol their own second factor. The one exception is the first admin, created from a
 * shell while no enabled admin exists (there is nobody to name yet).
 */

const line = (o: OperatorView) =>
  `${o.username.padEnd(24)}  ${o.role.padEnd(8)}  ${o.disabled ? 'disabled' : 'active'}`;

export function operatorsCommands(program: Command): void {
  const operators = program.command('operators').description('back-office operator accounts and roles');

  operatorCommand(operators.command('create'), 'admin', { firstAdmin: true })
    .description(
      'create an operator; asks for the password unless given (the first admin needs no --operator)',
    )
    .requiredOption('--username <name>', 'lower-case login name')
    .requiredOption('--role <role>', 'viewer, reviewer or admin')
    .option('--password <password>', 'the password (visible in the process list: prefer the prompt)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'print JSON')
    .action(
      async (
        options: {
          username: string;
          role: string;
          password?: string;
          passwordStdin?: boolean;
          json?: boolean;
        },
        command: Command,
      ) => {
        const { createOperator, hasEnabledAdmin } = await import('../operators/operators.ts');
        const created = await withContext(async (ctx) => {
          const by = await cliChange(ctx, command);
          if (by.actor.kind === 'system') {
            if (await hasEnabledAdmin(ctx))
              throw operatorRequired(command, ': only the first admin is created without one');
            if (options.role !== 'admin') {
              throw new Error(
                `operators create: the first operator, created without --operator, must be an admin (--role admin); that admin then creates the others`,
              );
            }
          }
          const password = await newPassword(options);
          return createOperator(ctx, { username: options.username, role: options.role, password }, by);
        });
        print(options.json, created, () => `created ${line(created)}`);
      },
    );

  operators
    .command('list')
    .description('list operators')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { listOperatorViews } = await import('../operators/operators.ts');
      const rows = await withContext((ctx) => listOperatorViews(ctx));
      print(options.json, rows, () => rows.map(line).join('\n'));
    });

  for (const [name, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    operatorCommand(operators.command(name), 'admin')
      .description(disabled ? 'disable an operator and end its sessions' : 'enable an operator')
      .requiredOption('--username <name>', 'the operator')
      .option('--json', 'print JSON')
      .action(async (options: { username: string; json?: boolean }, command: Command) => {
        const { setOperatorDisabled } = await import('../operators/operators.ts');
        const view = await withContext(async (ctx) =>
          setOperatorDisabled(ctx, options.username, disabled, await cliChange(ctx, command)),
        );
        print(options.json, view, () => line(view));
      });
  }

  operatorCommand(operators.command('set-role'), 'admin')
    .description("change an operator's role")
    .requiredOption('--username <name>', 'the operator')
    .requiredOption('--role <role>', 'viewer, reviewer or admin')
    .option('--json', 'print JSON')
    .action(async (options: { username: string; role: string; json?: boolean }, command: Command) => {
      const { setOperatorRole } = await import('../operators/operators.ts');
      const view = await withContext(async (ctx) =>
        setOperatorRole(ctx, options.username, options.role, await cliChange(ctx, command)),
      );
      print(options.json, view, () => line(view));
    });

  operatorCommand(operators.command('set-password'), 'admin')
    .description("set an operator's password and end its sessions; asks for it unless given")
    .requiredOption('--username <name>', 'the operator')
    .option('--password <password>', 'the password (visible in the process list: prefer the prompt)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'print JSON')
    .action(
      async (
        options: { username: string; password?: string; passwordStdin?: boolean; json?: boolean },
        command: Command,
      ) => {
        const { setOperatorPassword } = await import('../operators/operators.ts');
        const view = await withContext(async (ctx) => {
          const by = await cliChange(ctx, command);
          return setOperatorPassword(ctx, options.username, await newPassword(options), by);
        });
        print(options.json, view, () => `password set for ${view.username}`);
      },
    );

  secondFactorCommands(operators);
}

/** The second factor of an operator: enrolment (their own, or an admin's for them) and its reset. */
function secondFactorCommands(operators: Command): void {
  operatorCommand(operators.command('mfa-enrol'), 'viewer')
    .description(
      "start an operator's TOTP enrolment: prints the otpauth:// URI (and the secret) for the authenticator app",
    )
    .requiredOption('--username <name>', 'the operator')
    .option('--json', 'print JSON')
    .action(async (options: { username: string; json?: boolean }, command: Command) => {
      const { startEnrolment } = await import('../operators/totp.ts');
      const enrolment = await withContext(async (ctx) =>
        startEnrolment(ctx, options.username, selfOrAdmin(await cliChange(ctx, command), options.username)),
      );
      print(
        options.json,
        { secret: enrolment.secret, otpauth_uri: enrolment.otpauth_uri },
        () =>
          `${enrolment.otpauth_uri}\nsecret: ${enrolment.secret}\n` +
          `then: cardapply operators mfa-confirm --username ${options.username} --otp <code from the app>`,
      );
    });

  operatorCommand(operators.command('mfa-confirm'), 'viewer')
    .description(
      'confirm the TOTP enrolment with a current code; prints the one-time recovery codes (only now)',
    )
    .requiredOption('--username <name>', 'the operator')
    .requiredOption('--otp <code>', 'the 6-digit code the authenticator app shows')
    .option('--json', 'print JSON')
    .action(async (options: { username: string; otp: string; json?: boolean }, command: Command) => {
      const { confirmEnrolment } = await import('../operators/totp.ts');
      const result = await withContext(async (ctx) =>
        confirmEnrolment(
          ctx,
          options.username,
          options.otp,
          selfOrAdmin(await cliChange(ctx, command), options.username),
        ),
      );
      print(options.json, result, () => result.recovery_codes.join('\n'));
    });

  operatorCommand(operators.command('mfa-reset'), 'admin')
    .description("remove an operator's second factor (a lost authenticator) and end its sessions")
    .requiredOption('--username <name>', 'the operator')
    .option('--json', 'print JSON')
    .action(async (options: { username: string; json?: boolean }, command: Command) => {
      const { resetSecondFactor } = await import('../operators/totp.ts');
      await withContext(async (ctx) =>
        resetSecondFactor(ctx, options.username, await cliChange(ctx, command)),
      );
      print(options.json, { reset: true }, () => `second factor removed for ${options.username}`);
    });
}

/** An operator enrols their own second factor, as in the console; an admin may enrol another's. */
function selfOrAdmin(by: ChangedBy, username: string): ChangedBy {
  if (by.actor.kind === 'operator' && by.actor.id !== username && by.actor.role !== 'admin') {
    throw new Error(
      `--operator ${by.actor.id}: an operator enrols their own second factor; an admin may enrol another's`,
    );
  }
  return by;
}
