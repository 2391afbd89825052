import type { Command } from 'commander';
import { loadCodeTables, TABLE_NAMES, type TableName } from '../codes/tables.ts';
import { print } from './output.ts';

/**
 * `cardapply codes [table]`: the code tables in force (the defaults, or CODES_FILE), as the codes
 * endpoint serves them; for an operator choosing reason codes, or checking a replacement file.
 */
export function codesCommands(program: Command): void {
  program
    .command('codes')
    .description(`list the code tables in force (${TABLE_NAMES.join(', ')})`)
    .argument('[table]', 'only this table')
    .option('--json', 'print JSON')
    .action(async (table: string | undefined, options: { json?: boolean }) => {
      if (table !== undefined && !(TABLE_NAMES as readonly string[]).includes(table)) {
        throw new Error(`unknown table ${table}; the tables are ${TABLE_NAMES.join(', ')}`);
      }
      const { loadConfig } = await import('../config.ts');
      const tables = loadCodeTables(loadConfig().codesFile).tables;
      const names = table === undefined ? TABLE_NAMES : [table as TableName];
      const shown = Object.fromEntries(names.map((name) => [name, tables[name]]));
      print(options.json, table === undefined ? shown : tables[table as TableName], () =>
        names
          .flatMap((name) => [
            `${name}:`,
            ...tables[name].map(
              (entry) =>
                `  ${entry.code.padEnd(22)} ${entry.name} / ${entry.name_zh}${entry.other ? '  (other)' : ''}`,
            ),
          ])
          .join('\n'),
      );
    });
}
