import type { Command } from 'commander';
import { cliChange } from './cliSource.ts';
import { appCredentialsCommands } from './appCredentialsCommands.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

export function appsCommands(program: Command): void {
  const apps = program.command('apps').description("manage apps (partners' registrations) and their secrets");
  appCredentialsCommands(apps);

  apps
    .command('create')
    .description('create an app; its secret is shown this once')
    .requiredOption('--name <name>', 'display name of the partner platform')
    .option('--json', 'print {"app_id", "app_secret"} as JSON')
    .action(async (options: { name: string; json?: boolean }) => {
      const { createAppAudited } = await import('../partners/appAdministration.ts');
      const created = await withContext((ctx) => createAppAudited(ctx, options.name, cliChange()));
      print(
        options.json,
        created,
        () =>
          `app_id:     ${created.app_id}\napp_secret: ${created.app_secret}\n(the secret is not shown again)`,
      );
    });

  apps
    .command('list')
    .description('list apps')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { listApps } = await import('../partners/appRepository.ts');
      const rows = await withContext((ctx) => listApps(ctx.store.db));
      const view = rows.map((row) => ({
        app_id: row.app_id,
        name: row.name,
        status: row.status,
        created_at: Math.floor(row.created_at / 1000),
      }));
      print(options.json, view, () =>
        view.map((a) => `${a.app_id}  ${a.status.padEnd(8)}  ${a.name}`).join('\n'),
      );
    });
}
