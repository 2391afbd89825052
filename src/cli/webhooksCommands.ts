import type { Command } from 'commander';
import type { ServiceContext } from '../context.ts';
import type { DeliveryView } from '../webhooks/deliveries.ts';
import type { DeliveryStatus } from '../store/tables.ts';
import type { EndpointView } from '../webhooks/endpoints.ts';
import { cliChange, operatorCommand } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

/** Expected failures (ServiceError, ValidationError) are printed from the catalogue by main.ts. */
const run = withContext;

function endpointLine(e: EndpointView): string {
  const events = e.events === null ? 'all events' : e.events.join(',');
  return `${e.id}  ${e.app_id}  ${e.status.padEnd(8)}  ${e.url}  (${events}; ${e.secrets.length} secret(s))`;
}

function deliveryLines(d: DeliveryView): string {
  const head = `${d.id}  ${d.event_id}  ${d.event_type}  -> ${d.endpoint_id}  ${d.status}  attempts: ${d.attempt_count}`;
  const attempts = d.attempts.map(
    (a) =>
      `    ${new Date(a.started_at_ms).toISOString()}  ${a.status_code ?? '-'}  ${a.error ?? 'ok'}  ${a.duration_ms ?? '?'} ms  ${a.worker}`,
  );
  return [head, ...attempts].join('\n');
}

function overlap(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new Error('--overlap-seconds: must be a whole number');
  return Number(value);
}

export function webhooksCommands(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('webhook endpoints per app, their secrets, deliveries and redelivery');

  endpointCommands(webhooks);
  deliveryCommands(webhooks);
}

/** add, list, rotate-secret, delete: a partner's endpoints and their signing secrets. */
function endpointCommands(webhooks: Command): void {
  operatorCommand(webhooks.command('add'), 'admin')
    .description('register an endpoint; its signing secret (whsec_...) is shown this once')
    .requiredOption('--app <app_id>', 'the app whose events it receives')
    .requiredOption('--url <url>', 'https URL (http and private addresses only with WEBHOOK_ALLOW_PRIVATE)')
    .option('--events <types>', 'comma-separated event types (default: all)')
    .option('--json', 'print JSON')
    .action(
      async (options: { app: string; url: string; events?: string; json?: boolean }, command: Command) => {
        const { addEndpointAudited } = await import('../webhooks/auditedEndpoints.ts');
        const created = await run(async (ctx) =>
          addEndpointAudited(
            ctx,
            {
              appId: options.app,
              url: options.url,
              ...(options.events === undefined
                ? {}
                : { events: options.events.split(',').map((t) => t.trim()) }),
            },
            await cliChange(ctx, command),
          ),
        );
        print(
          options.json,
          created,
          () => `${endpointLine(created)}\nsecret: ${created.secret}\n(the secret is not shown again)`,
        );
      },
    );

  webhooks
    .command('list')
    .description('list endpoints (never their secrets)')
    .option('--app <app_id>', 'only this app')
    .option('--json', 'print JSON')
    .action(async (options: { app?: string; json?: boolean }) => {
      const { listEndpoints } = await import('../webhooks/endpoints.ts');
      const endpoints = await run((ctx) =>
        listEndpoints(ctx, options.app === undefined ? {} : { appId: options.app }),
      );
      print(options.json, endpoints, () => endpoints.map(endpointLine).join('\n') || '(no endpoints)');
    });

  operatorCommand(webhooks.command('rotate-secret'), 'admin')
    .description('issue a new secret (shown once); the old one keeps signing during the overlap')
    .requiredOption('--id <endpoint_id>', 'the endpoint')
    .option('--overlap-seconds <n>', 'how long the old secret keeps signing', '86400')
    .option('--json', 'print JSON')
    .action(async (options: { id: string; overlapSeconds: string; json?: boolean }, command: Command) => {
      const { rotateEndpointSecretAudited } = await import('../webhooks/auditedEndpoints.ts');
      const rotated = await run(async (ctx) =>
        rotateEndpointSecretAudited(
          ctx,
          options.id,
          overlap(options.overlapSeconds),
          await cliChange(ctx, command),
        ),
      );
      print(
        options.json,
        rotated,
        () => `${endpointLine(rotated)}\nsecret: ${rotated.secret}\n(the secret is not shown again)`,
      );
    });

  for (const [name, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    operatorCommand(webhooks.command(name), 'admin')
      .description(
        name === 'disable'
          ? 'stop sending to an endpoint (queued deliveries wait; new events are not queued)'
          : 'resume sending to an endpoint',
      )
      .requiredOption('--id <endpoint_id>', 'the endpoint')
      .option('--json', 'print JSON')
      .action(async (options: { id: string; json?: boolean }, command: Command) => {
        const { setEndpointStatusAudited } = await import('../webhooks/auditedEndpoints.ts');
        const endpoint = await run(async (ctx) =>
          setEndpointStatusAudited(ctx, options.id, status, await cliChange(ctx, command)),
        );
        print(options.json, endpoint, () => endpointLine(endpoint));
      });
  }

  operatorCommand(webhooks.command('delete'), 'admin')
    .description('delete an endpoint with its secrets, deliveries and attempt log')
    .requiredOption('--id <endpoint_id>', 'the endpoint')
    .option('--json', 'print JSON')
    .action(async (options: { id: string; json?: boolean }, command: Command) => {
      const { deleteEndpointAudited } = await import('../webhooks/auditedEndpoints.ts');
      const deleted = await run(async (ctx) =>
        deleteEndpointAudited(ctx, options.id, await cliChange(ctx, command)),
      );
      print(options.json, deleted, () => `deleted ${deleted.id}`);
    });
}

/** deliveries, redeliver: what was sent, and sending it again. */
function deliveryCommands(webhooks: Command): void {
  webhooks
    .command('deliveries')
    .description('deliveries of an endpoint or of an event, newest first, with every attempt')
    .option('--id <endpoint_id>', 'the endpoint')
    .option('--event <event_id>', 'the event')
    .option('--status <status>', 'only pending, delivering, delivered or failed')
    .option('--limit <n>', 'at most this many (up to 200)', '50')
    .option('--json', 'print JSON')
    .action(
      async (options: { id?: string; event?: string; status?: string; limit: string; json?: boolean }) => {
        if (options.id === undefined && options.event === undefined)
          throw new Error('give --id <endpoint_id> or --event <event_id>');
        const status = options.status;
        if (status !== undefined && !['pending', 'delivering', 'delivered', 'failed'].includes(status))
          throw new Error('--status: must be pending, delivering, delivered or failed');
        const { listDeliveries } = await import('../webhooks/deliveries.ts');
        const deliveries = await run((ctx) =>
          listDeliveries(ctx, {
            ...(options.id === undefined ? {} : { endpointId: options.id }),
            ...(options.event === undefined ? {} : { eventId: options.event }),
            ...(status === undefined ? {} : { status: status as DeliveryStatus }),
            limit: Number(options.limit) || 50,
          }),
        );
        print(options.json, deliveries, () => deliveries.map(deliveryLines).join('\n') || '(no deliveries)');
      },
    );

  operatorCommand(webhooks.command('redeliver'), 'admin')
    .description('send an event again (--event [--endpoint]), or every failed delivery (--endpoint --failed)')
    .option('--event <event_id>', 'the event')
    .option('--endpoint <endpoint_id>', 'the endpoint')
    .option('--failed', 'every failed delivery of --endpoint')
    .option('--json', 'print JSON')
    .action(
      async (
        options: { event?: string; endpoint?: string; failed?: boolean; json?: boolean },
        command: Command,
      ) => {
        const { event, endpoint } = options;
        const { redeliverEventAudited, redeliverFailedAudited } =
          await import('../webhooks/auditedEndpoints.ts');
        let work: (ctx: ServiceContext) => ReturnType<typeof redeliverFailedAudited>;
        if (options.failed === true) {
          if (endpoint === undefined || event !== undefined)
            throw new Error('--failed goes with --endpoint <endpoint_id> alone');
          work = async (ctx) => redeliverFailedAudited(ctx, endpoint, await cliChange(ctx, command));
        } else {
          if (event === undefined)
            throw new Error('give --event <event_id> [--endpoint <id>], or --endpoint <id> --failed');
          work = async (ctx) => redeliverEventAudited(ctx, event, endpoint, await cliChange(ctx, command));
        }
        const result = await run(work);
        print(
          options.json,
          result,
          () =>
            `queued ${result.queued} deliveries` +
            (result.in_flight > 0 ? ` (${result.in_flight} in flight left alone)` : ''),
        );
      },
    );
}
