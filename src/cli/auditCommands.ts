import type { Command } from 'commander';
import { MAX_LIMIT } from '../applications/views/listApplications.ts';
import { wholeNumberOption } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

/** `cardapply audit list`: the audit trail, newest first. */
export function auditCommands(program: Command): void {
  const audit = program.command('audit').description('the audit trail: who did what, when');

  audit
    .command('list')
    .description('list audit entries, newest first')
    .option('--actor <actor>', 'e.g. operator:alice, caller:app_..., system')
    .option('--action <action>', 'e.g. application.transition, application.reveal, operator.login')
    .option('--target <id>', 'a serial number, app id or operator name')
    .option(
      '--cursor <id>',
      'next_cursor of the previous page',
      wholeNumberOption('--cursor', 1, Number.MAX_SAFE_INTEGER),
    )
    .option('--limit <n>', `page size, 1 to ${MAX_LIMIT}`, wholeNumberOption('--limit', 1, MAX_LIMIT), 50)
    .option('--json', 'print {items, next_cursor} as JSON')
    .action(
      async (options: {
        actor?: string;
        action?: string;
        target?: string;
        cursor?: number;
        limit: number;
        json?: boolean;
      }) => {
        const { listAudit } = await import('../audit/auditTrail.ts');
        const page = await withContext((ctx) =>
          listAudit(
            ctx.store.db,
            {
              actor: options.actor,
              action: options.action,
              targetId: options.target,
              beforeId: options.cursor,
              limit: options.limit,
            },
            'host',
          ),
        );
        print(options.json, page, () =>
          [
            ...page.items.map(
              (e) =>
                `${new Date(e.at * 1000).toISOString()}  ${e.actor.padEnd(28)}  ${e.action.padEnd(24)}  ` +
                `${e.target_type ?? '-'}:${e.target_id ?? '-'}  ${e.details === null ? '' : JSON.stringify(e.details)}  [${e.source}]`,
            ),
            page.next_cursor === null ? '(end)' : `next: --cursor ${page.next_cursor}`,
          ].join('\n'),
        );
      },
    );
}
