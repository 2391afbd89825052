import type { Command } from 'commander';
import { cliChange, operatorCommand, wholeNumberOption } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

/**
 * `apps rotate-secret`, `apps disable`, `apps enable`, `apps set-limit`, `apps set-concurrency`:
 * added to the apps group.
 */
export function appCredentialsCommands(apps: Command): void {
  operatorCommand(apps.command('rotate-secret'), 'admin')
    .description('give an app a new secret (shown this once); the old one works until the overlap ends')
    .requiredOption('--app <app_id>', 'the app')
    .option(
      '--overlap-seconds <n>',
      'how long the previous secrets keep working (0: stop now)',
      wholeNumberOption('--overlap-seconds', 0, 30 * 86_400),
      86_400,
    )
    .option('--json', 'print {"app_id", "app_secret", "previous_secrets_expire_at"} as JSON')
    .action(async (options: { app: string; overlapSeconds: number; json?: boolean }, command: Command) => {
      const { rotateSecret } = await import('../partners/manageCredentials.ts');
      const rotated = await withContext(async (ctx) =>
        rotateSecret(ctx, options.app, options.overlapSeconds, await cliChange(ctx, command)),
      );
      print(
        options.json,
        rotated,
        () =>
          `app_id:     ${rotated.app_id}\napp_secret: ${rotated.app_secret}\n(the secret is not shown again; ` +
          `previous secrets stop working at ${new Date(rotated.previous_secrets_expire_at * 1000).toISOString()})`,
      );
    });

  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    operatorCommand(apps.command(action), 'admin')
      .description(
        action === 'disable'
          ? 'disable an app: its tokens are refused at once and it cannot get new ones'
          : 'enable a disabled app again',
      )
      .requiredOption('--app <app_id>', 'the app')
      .option('--json', 'print the app as JSON')
      .action(async (options: { app: string; json?: boolean }, command: Command) => {
        const { setAppStatus } = await import('../partners/appAdministration.ts');
        const view = await withContext(async (ctx) =>
          setAppStatus(ctx, options.app, status, await cliChange(ctx, command)),
        );
        print(options.json, view, () => `${view.app_id}  ${view.status}`);
      });
  }

  operatorCommand(apps.command('set-limit'), 'admin')
    .description("set an app's rate limit (token bucket), or go back to the configured default")
    .requiredOption('--app <app_id>', 'the app')
    .option(
      '--per-second <n>',
      'requests per second, sustained',
      wholeNumberOption('--per-second', 1, 1_000_000),
    )
    .option('--burst <n>', 'requests at once (the bucket size)', wholeNumberOption('--burst', 1, 1_000_000))
    .option('--default', 'use RATE_LIMIT_PER_SECOND and RATE_LIMIT_BURST again')
    .option('--json', 'print the limit as JSON')
    .action(
      async (
        options: {
          app: string;
          perSecond?: number;
          burst?: number;
          default?: boolean;
          json?: boolean;
        },
        command: Command,
      ) => {
        const both = options.perSecond !== undefined && options.burst !== undefined;
        const neither = options.perSecond === undefined && options.burst === undefined;
        if (options.default === true ? !neither : !both)
          throw new Error('give --per-second and --burst, or --default alone');
        const limit = both ? { perSecond: options.perSecond!, burst: options.burst! } : null;
        const { setRateLimit } = await import('../partners/manageCredentials.ts');
        const view = await withContext(async (ctx) =>
          setRateLimit(ctx, options.app, limit, await cliChange(ctx, command)),
        );
        print(options.json, view, () =>
          view.rate_limit_per_second === null
            ? `${view.app_id}  default limit`
            : `${view.app_id}  ${view.rate_limit_per_second}/s, burst ${view.rate_limit_burst}`,
        );
      },
    );

  operatorCommand(apps.command('set-concurrency'), 'admin')
    .description(
      "set how many of an app's requests each service process takes at once (more are refused, 429), or go back to APP_CONCURRENCY_LIMIT",
    )
    .requiredOption('--app <app_id>', 'the app')
    .option('--limit <n>', 'requests in progress at once', wholeNumberOption('--limit', 1, 1_000_000))
    .option('--default', 'use APP_CONCURRENCY_LIMIT again')
    .option('--json', 'print the limit as JSON')
    .action(
      async (
        options: { app: string; limit?: number; default?: boolean; json?: boolean },
        command: Command,
      ) => {
        if ((options.limit === undefined) === (options.default !== true))
          throw new Error('give --limit or --default');
        const { setConcurrencyLimit } = await import('../partners/manageCredentials.ts');
        const view = await withContext(async (ctx) =>
          setConcurrencyLimit(ctx, options.app, options.limit ?? null, await cliChange(ctx, command)),
        );
        print(options.json, view, () =>
          view.concurrency_limit === null
            ? `${view.app_id}  default concurrency`
            : `${view.app_id}  ${view.concurrency_limit} at once per process`,
        );
      },
    );
}
