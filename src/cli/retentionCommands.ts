import type { Command } from 'commander';
import { cliChange, cliSource, wholeNumberOption } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';
import { startProgress } from './progress.ts';

/** `cardapply retention run`: the retention job once, now (or what it would erase, with --dry-run). */
export function retentionCommands(program: Command): void {
  const retention = program
    .command('retention')
    .description('erasure of identity data after the retention period');
  retention
    .command('run')
    .description('erase the identity data of applications final for longer than RETENTION_DAYS')
    .option('--dry-run', 'list what would be erased; change nothing')
    .option(
      '--days <n>',
      'retention period in days (default RETENTION_DAYS)',
      wholeNumberOption('--days', 1, 36_500),
    )
    .option('--json', 'print JSON')
    .action(async (options: { dryRun?: boolean; days?: number; json?: boolean }, command: Command) => {
      const [{ runRetention }, { audited }] = await Promise.all([
        import('../retention/retention.ts'),
        import('../audit/audited.ts'),
      ]);
      const report = await withContext(async (ctx) => {
        const days = options.days ?? ctx.config.operations.retentionDays;
        if (days === undefined) throw new Error('no retention period: set RETENTION_DAYS or give --days');
        const progress = startProgress(options.dryRun === true ? 'finding' : 'erasing', {
          unit: 'applications',
        });
        const run = (inner: typeof ctx) =>
          runRetention(inner, {
            days,
            dryRun: options.dryRun === true,
            source: cliSource(),
            onBatch: (count) => progress.advance(count),
          });
        // One entry for a run that may erase (each erasure also has its own, in its transaction).
        const result =
          options.dryRun === true
            ? await run(ctx)
            : await audited(ctx, await cliChange(ctx, command), run, {
                action: 'retention.run',
                targetType: 'retention',
                targetId: 'applications',
                atomic: false,
                details: (report) => ({
                  retention_days: report.retention_days,
                  final_before: report.final_before,
                  erased: report.count,
                }),
              });
        progress.finish();
        return result;
      });
      print(options.json, report, () => {
        const when = new Date(report.final_before * 1000).toISOString();
        const head = report.dry_run
          ? `${report.count} application(s) final before ${when} would be erased`
          : `${report.count} application(s) final before ${when} erased`;
        const more =
          report.count > report.serials.length ? [`(${report.count - report.serials.length} more)`] : [];
        const compacted =
          report.store_compacted === false
            ? ['warning: the store could not be compacted; retried next run']
            : [];
        return [head, ...report.serials, ...more, ...compacted].join('\n');
      });
    });
}
