import type { Command } from 'commander';
import type { OperatorView } from '../operators/operators.ts';
import { cliChange } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';
import { newPassword } from './prompt.ts';

/** Changes from the command line are made by the service on behalf of the shell user. */

const line = (o: OperatorView) =>
  `${o.username.padEnd(24)}  ${o.role.padEnd(8)}  ${o.disabled ? 'disabled' : 'active'}`;

export function operatorsCommands(program: Command): void {
  const operators = program.command('operators').description('back-office operator accounts and roles');

  operators
    .command('create')
    .description('create an operator; asks for the password unless given')
    .requiredOption('--username <name>', 'lower-case login name')
    .requiredOption('--role <role>', 'viewer, reviewer or admin')
    .option('--password <password>', 'the password (visible in the process list: prefer the prompt)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'print JSON')
    .action(
      async (options: {
        username: string;
        role: string;
        password?: string;
        passwordStdin?: boolean;
        json?: boolean;
      }) => {
        const password = await newPassword(options);
        const { createOperator } = await import('../operators/operators.ts');
        const created = await withContext((ctx) =>
          createOperator(ctx, { username: options.username, role: options.role, password }, cliChange()),
        );
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
    operators
      .command(name)
      .description(disabled ? 'disable an operator and end its sessions' : 'enable an operator')
      .requiredOption('--username <name>', 'the operator')
      .option('--json', 'print JSON')
      .action(async (options: { username: string; json?: boolean }) => {
        const { setOperatorDisabled } = await import('../operators/operators.ts');
        const view = await withContext((ctx) =>
          setOperatorDisabled(ctx, options.username, disabled, cliChange()),
        );
        print(options.json, view, () => line(view));
      });
  }

  operators
    .command('set-role')
    .description("change an operator's role")
    .requiredOption('--username <name>', 'the operator')
    .requiredOption('--role <role>', 'viewer, reviewer or admin')
    .option('--json', 'print JSON')
    .action(async (options: { username: string; role: string; json?: boolean }) => {
      const { setOperatorRole } = await import('../operators/operators.ts');
      const view = await withContext((ctx) =>
        setOperatorRole(ctx, options.username, options.role, cliChange()),
      );
      print(options.json, view, () => line(view));
    });

  operators
    .command('set-password')
    .description("set an operator's password and end its sessions; asks for it unless given")
    .requiredOption('--username <name>', 'the operator')
    .option('--password <password>', 'the password (visible in the process list: prefer the prompt)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--json', 'print JSON')
    .action(
      async (options: { username: string; password?: string; passwordStdin?: boolean; json?: boolean }) => {
        const password = await newPassword(options);
        const { setOperatorPassword } = await import('../operators/operators.ts');
        const view = await withContext((ctx) =>
          setOperatorPassword(ctx, options.username, password, cliChange()),
        );
        print(options.json, view, () => `password set for ${view.username}`);
      },
    );

  operators
    .command('mfa-enrol')
    .description(
      "start an operator's TOTP enrolment: prints the otpauth:// URI (and the secret) for the authenticator app",
    )
    .requiredOption('--username <name>', 'the operator')
    .option('--json', 'print JSON')
    .action(async (options: { username: string; json?: boolean }) => {
      const { startEnrolment } = await import('../operators/totp.ts');
      const enrolment = await withContext((ctx) => startEnrolment(ctx, options.username, cliChange()));
      print(
        options.json,
        { secret: enrolment.secret, otpauth_uri: enrolment.otpauth_uri },
        () =>
          `${enrolment.otpauth_uri}\nsecret: ${enrolment.secret}\n` +
          `then: cardapply operators mfa-confirm --username ${options.username} --otp <code from the app>`,
      );
    });

  operators
    .command('mfa-confirm')
    .description(
      'confirm the TOTP enrolment with a current code; prints the one-time recovery codes (only now)',
    )
    .requiredOption('--username <name>', 'the operator')
    .requiredOption('--otp <code>', 'the 6-digit code the authenticator app shows')
    .option('--json', 'print JSON')
    .action(async (options: { username: string; otp: string; json?: boolean }) => {
      const { confirmEnrolment } = await import('../operators/totp.ts');
      const result = await withContext((ctx) =>
        confirmEnrolment(ctx, options.username, options.otp, cliChange()),
      );
      print(options.json, result, () => result.recovery_codes.join('\n'));
    });

  operators
    .command('mfa-reset')
    .description("remove an operator's second factor (a lost authenticator) and end its sessions")
    .requiredOption('--username <name>', 'the operator')
    .option('--json', 'print JSON')
    .action(async (options: { username: string; json?: boolean }) => {
      const { resetSecondFactor } = await import('../operators/totp.ts');
      await withContext((ctx) => resetSecondFactor(ctx, options.username, cliChange()));
      print(options.json, { reset: true }, () => `second factor removed for ${options.username}`);
    });
}
