import type { Command } from 'commander';
import { cliChange, operatorCommand } from './cliSource.ts';
import { appCredentialsCommands } from './appCredentialsCommands.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

export function appsCommands(program: Command): void {
  const apps = program.command('apps').description("manage apps (partners' registrations) and their secrets");
  appCredentialsCommands(apps);

  operatorCommand(apps.command('create'), 'admin')
    .description('create an app; its secret is shown this once')
    .requiredOption('--name <name>', 'display name of the partner platform')
    .option('--json', 'print {"app_id", "app_secret"} as JSON')
    .action(async (options: { name: string; json?: boolean }, command: Command) => {
      const { createAppAudited } = await import('../partners/appAdministration.ts');
      const created = await withContext(async (ctx) =>
        createAppAudited(ctx, options.name, await cliChange(ctx, command)),
      );
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

  operatorCommand(apps.command('risk-level'), 'admin')
    .description("set a partner's risk level (audited); its applications not yet final are assessed again")
    .requiredOption('--app <app_id>', 'the app')
    .requiredOption('--level <level>', 'low, medium or high')
    .requiredOption('--reason <text>', 'why (kept in the audit trail)')
    .option('--json', 'print JSON')
    .action(
      async (options: { app: string; level: string; reason: string; json?: boolean }, command: Command) => {
        const { setPartnerRiskLevel } = await import('../risk/partnerRiskLevel.ts');
        const changed = await withContext(async (ctx) =>
          setPartnerRiskLevel(
            ctx,
            options.app,
            { level: options.level, reason: options.reason },
            await cliChange(ctx, command),
          ),
        );
        print(
          options.json,
          changed,
          () =>
            `${changed.app_id}  risk level ${changed.previous_risk_level} -> ${changed.risk_level}` +
            `  (${changed.reassessing} applications to assess again)`,
        );
      },
    );
}
