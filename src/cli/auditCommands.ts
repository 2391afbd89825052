import { InvalidArgumentError, type Command } from 'commander';
import { formatHead, parseHead } from '../audit/auditChain.ts';
import { MAX_LIMIT } from '../applications/views/listApplications.ts';
import { cliChange, operatorCommand, wholeNumberOption } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

/** `cardapply audit list`: the audit trail, newest first; `audit verify`: its hash chain. */
export function auditCommands(program: Command): void {
  const audit = program.command('audit').description('the audit trail: who did what, when');

  // The console's audit page; the chain's check below is the service's own (CI, a cron job).
  operatorCommand(audit.command('list'), 'viewer')
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
      async (
        options: {
          actor?: string;
          action?: string;
          target?: string;
          cursor?: number;
          limit: number;
          json?: boolean;
        },
        command: Command,
      ) => {
        const { readAuditTrail } = await import('../audit/auditReads.ts');
        const page = await withContext(async (ctx) =>
          readAuditTrail(
            ctx.store.db,
            {
              actor: options.actor,
              action: options.action,
              targetId: options.target,
              beforeId: options.cursor,
              limit: options.limit,
            },
            'host',
            await cliChange(ctx, command),
            ctx.now(),
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

  audit
    .command('verify')
    .description(
      'walk the hash chain of the audit trail and name the first row changed, deleted, inserted or moved',
    )
    .option(
      '--head <hash@id>',
      'a head written to the log earlier (`audit chain head`): the trail must still hold it',
      headOption,
    )
    .option('--json', 'print the report as JSON')
    .action(
      async (options: { head?: { hash: string; row_id: number }; json?: boolean }, command: Command) => {
        const { verifyAuditTrail } = await import('../audit/verifyTrail.ts');
        const { recordAuditRead } = await import('../audit/auditReads.ts');
        const { report, unrecorded } = await withContext(async (ctx) => {
          const by = await cliChange(ctx, command);
          const walked = await verifyAuditTrail(ctx.store.db, options.head);
          // The walk is a read of the whole trail, recorded after it. On a trail broken badly enough
          // (a forged row holding the next place in the chain) the row cannot be written: the
          // report still comes out, and the command fails.
          const filter = { head: options.head === undefined ? undefined : formatHead(options.head) };
          try {
            await recordAuditRead(ctx.store.db, {
              by,
              via: 'verify',
              filter,
              rows: walked.rows,
              at: ctx.now(),
            });
            return { report: walked, unrecorded: null };
          } catch (error) {
            return { report: walked, unrecorded: error instanceof Error ? error.message : String(error) };
          }
        });
        print(options.json, report, () =>
          [
            report.problem === null
              ? `the audit chain holds: ${report.rows} rows, head ${formatHead(report.head)} (seq ${report.head.seq})`
              : `the audit chain is broken (${report.problem.kind}): ${report.problem.message}`,
            ...(report.before_chain > 0
              ? [`${report.before_chain} rows predate the chain and are not covered by it`]
              : []),
          ].join('\n'),
        );
        if (unrecorded !== null)
          process.stderr.write(`the read could not be recorded in the audit trail: ${unrecorded}\n`);
        if (!report.ok || unrecorded !== null) process.exitCode = 1;
      },
    );
}

function headOption(value: string): { hash: string; row_id: number } {
  const head = parseHead(value);
  if (head === undefined)
    throw new InvalidArgumentError('--head: must be <64 hex digits>@<row id>, as the log line writes it');
  return head;
}
