import { createReadStream } from 'node:fs';
import { Option, type Command } from 'commander';
import { LIST_NAMES, type ListName } from '../screening/listEntry.ts';
import type { EntryChanges } from '../screening/importChanges.ts';
import { actorName } from '../audit/actor.ts';
import { cliChange, operatorCommand } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

/** `cardapply screening import|status`: the sanctions lists the service screens against. */
export function screeningCommands(program: Command): void {
  const screening = program
    .command('screening')
    .description('sanctions and PEP lists and screening (docs/SCREENING.md)');
  operatorCommand(screening.command('import'), 'admin')
    .description('import a list file as a new version of its list; every application is screened again')
    .addOption(
      new Option('--list <list>', 'which list the file is').choices([...LIST_NAMES]).makeOptionMandatory(),
    )
    .requiredOption(
      '--file <path>',
      'the file as published (UN consolidated.xml, OFAC SDN.XML, EU FSF XML, UK_Sanctions_List.xml, OpenSanctions entities.ftm.json)',
    )
    .option('--json', 'print JSON')
    .action(async (options: { list: ListName; file: string; json?: boolean }, command: Command) => {
      const { importList } = await import('../screening/importList.ts');
      const version = await withContext(async (ctx) => {
        const change = await cliChange(ctx, command);
        return importList(ctx, {
          list: options.list,
          source: createReadStream(options.file),
          actor: actorName(change.actor),
          origin: change.source,
        });
      });
      print(options.json, version, () =>
        [
          `imported ${version.list} as ${version.version_id}: ${version.entries} individuals, ${version.names} names, ${version.documents} documents`,
          `sha256 ${version.sha256}${version.published_at === null ? '' : `, published ${version.published_at}`}`,
          ...changeLines({ ...version, rescreen: null }),
          'every application not yet erased will be screened again (job screening.rescreen)',
        ].join('\n'),
      );
    });
  screening
    .command('status')
    .description('the lists in force, recent imports, open hits and re-screens')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { screeningStatus } = await import('../screening/screeningStatus.ts');
      const status = await withContext((ctx) => screeningStatus(ctx));
      print(options.json, status, () =>
        [
          ...status.readiness.problems.map(
            (p) =>
              `${p.reason === 'no_list' ? 'no list imported: nothing is screened' : `${p.list} is stale: imported ${p.age_days} days ago, over SCREENING_MAX_AGE_DAYS ${status.readiness.max_age_days}`}${status.readiness.required ? ' (not ready)' : ' (SCREENING_REQUIRED=false)'}`,
          ),
          ...status.in_force.flatMap((v) => [
            `${v.list.padEnd(9)} ${v.version_id}  ${v.entries} individuals, ${v.names} names, imported ${new Date(v.imported_at * 1000).toISOString()} by ${v.imported_by}`,
            ...changeLines(v),
          ]),
          `open hits: ${status.open_hits} (after delivery: ${status.delivered_alerts})`,
          ...status.rescreens.map(
            (r) => `re-screen ${r.version_id}: ${r.status}, ${r.screened} screened, ${r.hits} hits`,
          ),
        ].join('\n'),
      );
    });
}

/** What an import changed, and what its re-screen found: indented lines under the version's. */
function changeLines(version: {
  changes: EntryChanges | null;
  rescreen: {
    newly_hit: number;
    no_longer_hit: number;
    newly_hit_applications: string[];
    no_longer_hit_applications: string[];
  } | null;
}): string[] {
  const { changes, rescreen } = version;
  const lines: string[] = [];
  const named = (label: string, count: number, shown: string[]) =>
    count === 0
      ? []
      : [
          `    ${label}: ${shown.join(' ')}${count > shown.length ? ` (and ${count - shown.length} more)` : ''}`,
        ];
  if (changes !== null) {
    lines.push(
      `  changes ${changes.previous_version_id === null ? 'as the first import' : `against ${changes.previous_version_id}`}: ${changes.added} added, ${changes.removed} removed, ${changes.changed} changed`,
      ...named('added', changes.added, changes.added_references),
      ...named('removed', changes.removed, changes.removed_references),
      ...named('changed', changes.changed, changes.changed_references),
    );
  }
  if (rescreen !== null) {
    lines.push(
      `  re-screen: ${rescreen.newly_hit} applications newly hit, ${rescreen.no_longer_hit} no longer hit`,
      ...named('newly hit', rescreen.newly_hit, rescreen.newly_hit_applications),
      ...named('no longer hit', rescreen.no_longer_hit, rescreen.no_longer_hit_applications),
    );
  }
  return lines;
}
