import { Command } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { applicationsCommands } from './applicationsCommands.ts';
import { appsCommands } from './appsCommands.ts';
import { auditCommands } from './auditCommands.ts';
import { riskCommands } from './riskCommands.ts';
import { codesCommands } from './codesCommands.ts';
import { checkOperatorNamed, operatorOption } from './cliSource.ts';
import { withContext } from './context.ts';
import { operatorsCommands } from './operatorsCommands.ts';
import { keysCommands } from './keysCommands.ts';
import { print } from './output.ts';
import { startProgress } from './progress.ts';
import { retentionCommands } from './retentionCommands.ts';
import { screeningCommands } from './screeningCommands.ts';
import { tokensCommands } from './tokensCommands.ts';
import { webhooksCommands } from './webhooksCommands.ts';
import { workerCommand } from './workerCommand.ts';

/**
 * `cardapply`: the operators' and engineers' command line. One file per command group. Built by a
 * function, so that tests can walk the command tree (the audit completeness test does). The tree
 * is declarations only: each action imports the domain code it runs (and `withContext` the
 * configuration and the store), so a command loads what it uses and `--help` reads no configuration.
 */
export function buildProgram(): Command {
  const program = new Command('cardapply')
    .description('card application service')
    .version(packageJson.version)
    .addOption(operatorOption())
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError()
    // An operator's command without its operator stops before it prompts or opens the store.
    .hook('preAction', (_program, command) => checkOperatorNamed(command));

  program
    .command('serve')
    .description('run the HTTP service (the same as npm start)')
    .action(async () => {
      await import('../server.ts');
    });

  program
    .command('migrate')
    .description('apply pending migrations (they also run on start)')
    .option('--status', 'show which migrations are applied instead')
    .option('--json', 'print JSON')
    .action(async (options: { status?: boolean; json?: boolean }) => {
      await withContext(
        async (ctx) => {
          if (options.status === true) {
            const status = await ctx.store.migrationStatus();
            print(options.json, status, () =>
              status
                .map(
                  (m) =>
                    `${String(m.version).padStart(4, '0')} ${m.name}  ${m.appliedAt ? 'applied' : 'pending'}`,
                )
                .join('\n'),
            );
          } else {
            // Nothing is read before migrating: on a new PostgreSQL schema there is nothing to read yet.
            const progress = startProgress('migrating', { unit: 'migrations' });
            const applied = await ctx.store.migrate(() => progress.advance(1));
            progress.finish();
            const status = await ctx.store.migrationStatus();
            print(options.json, { applied: status.filter((m) => m.appliedAt !== null).length }, () =>
              applied.length === 0 ? 'migrations up to date' : `${applied.length} migration(s) applied`,
            );
          }
        },
        { migrate: options.status === true },
      );
    });

  keysCommands(program);
  retentionCommands(program);
  screeningCommands(program);
  appsCommands(program);
  operatorsCommands(program);
  applicationsCommands(program);
  auditCommands(program);
  codesCommands(program);
  riskCommands(program);
  tokensCommands(program);
  webhooksCommands(program);
  workerCommand(program);
  return program;
}
