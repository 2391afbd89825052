import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import { ConfigError } from '../config.ts';
import { appsCommands } from './appsCommands.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

/** `cardapply`: the operators' and engineers' command line. One file per command group. */
const program = new Command('cardapply').description('card application service').showHelpAfterError();

program
  .command('serve')
  .description('run the HTTP service (the same as npm start)')
  .action(async () => {
    await import('../main.ts');
  });

program
  .command('migrate')
  .description('apply pending migrations (they also run on start)')
  .option('--status', 'show which migrations are applied instead')
  .option('--json', 'print JSON')
  .action(async (options: { status?: boolean; json?: boolean }) => {
    await withContext(async (ctx) => {
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
        // withContext has already migrated: report what is in force.
        const status = await ctx.store.migrationStatus();
        print(
          options.json,
          { applied: status.filter((m) => m.appliedAt !== null).length },
          () => 'migrations up to date',
        );
      }
    });
  });

const keys = program.command('keys').description('encryption keys');
keys
  .command('generate')
  .description('print a new ENCRYPTION_KEYS entry (id:base64 of 32 random bytes)')
  .option('--id <id>', 'key id', 'k1')
  .action((options: { id: string }) => {
    process.stdout.write(`${options.id}:${randomBytes(32).toString('base64')}\n`);
  });

appsCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
  else console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
