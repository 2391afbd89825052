import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { RetireResult, RotateResult } from '../keys/keyManagement.ts';
import { cliChange, wholeNumberOption } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';
import { startProgress } from './progress.ts';

/**
 * `cardapply keys`: generate, rotate, status, reencrypt, retire. See docs/DEPLOYMENT.md for the
 * rotation procedure of each store.
 */
export function keysCommands(program: Command): void {
  const keys = program.command('keys').description('encryption keys: rotation, re-encryption, retirement');

  keys
    .command('generate')
    .description('print a new ENCRYPTION_KEYS entry (id:base64 of 32 random bytes)')
    .option('--id <id>', 'key id', 'k1')
    .action((options: { id: string }) => {
      process.stdout.write(`${options.id}:${randomBytes(32).toString('base64')}\n`);
    });

  keys
    .command('rotate')
    .description(
      "add a key and make it current: in DATA_DIR's key file (running services follow), or print the ENCRYPTION_KEYS to deploy",
    )
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { rotateKey } = await import('../keys/keyManagement.ts');
      const result = await withContext(async (ctx) => rotateKey(ctx, await cliChange(ctx, command)));
      print(options.json, result, () => rotateText(result));
    });

  keys
    .command('status')
    .description('rows per key id and how many still wait for re-encryption')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { keyStatus } = await import('../keys/keyManagement.ts');
      const status = await withContext((ctx) => keyStatus(ctx));
      print(options.json, status, () => {
        const lines = [
          `current key: ${status.current_key_id}   keys: ${status.key_ids.join(', ')}`,
          ...Object.entries(status.tables).map(
            ([table, counts]) =>
              `${table.padEnd(16)} ${
                Object.entries(counts)
                  .map(([id, n]) => `${id}: ${n}`)
                  .join('  ') || '(empty)'
              }`,
          ),
          status.pending === 0
            ? 'every row is under the current key (or a newer one)'
            : `${status.pending} row(s) under older keys wait for re-encryption`,
        ];
        if (status.unknown_key_ids.length > 0)
          lines.push(
            `rows under keys missing from the ring (unreadable): ${status.unknown_key_ids.join(', ')}`,
          );
        return lines.join('\n');
      });
      if (status.unknown_key_ids.length > 0) process.exitCode = 2;
    });

  keys
    .command('reencrypt')
    .description(
      'move every row under an older key to the current key now (the service also does it in the background)',
    )
    .option('--batch-size <n>', 'rows per transaction', wholeNumberOption('--batch-size', 1, 10_000), 200)
    .option('--json', 'print JSON')
    .action(async (options: { batchSize: number; json?: boolean }, command: Command) => {
      const [{ keyStatus }, { reencryptAll }, { audited }] = await Promise.all([
        import('../keys/keyManagement.ts'),
        import('../keys/reencrypt.ts'),
        import('../audit/audited.ts'),
      ]);
      // Many short transactions: the entry follows the run (atomic: false).
      const report = await withContext(async (ctx) => {
        const progress = startProgress('re-encrypting', { total: (await keyStatus(ctx)).pending });
        const result = await audited(
          ctx,
          await cliChange(ctx, command),
          (inner) =>
            reencryptAll(inner, {
              batchSize: options.batchSize,
              onBatch: (_table, batch) => progress.advance(batch.moved + batch.skipped + batch.failed.length),
            }),
          {
            action: 'key.reencrypt',
            targetType: 'key',
            targetId: ctx.keyRing.currentKeyId,
            atomic: false,
            details: (done) => ({ moved: done.moved, skipped: done.skipped, failed: done.failed.length }),
          },
        );
        progress.finish();
        return result;
      });
      print(options.json, report, () =>
        [
          ...Object.entries(report.moved).map(([table, n]) => `${table}: ${n} row(s) re-encrypted`),
          report.failed.length > 0 ? `could not decrypt: ${report.failed.join(', ')}` : '',
        ]
          .filter((l) => l !== '')
          .join('\n'),
      );
      if (report.failed.length > 0) process.exitCode = 2;
    });

  keys
    .command('retire')
    .description('remove an older key once no row uses it')
    .argument('<key-id>', 'the key to retire')
    .option('--json', 'print JSON')
    .action(async (keyId: string, options: { json?: boolean }, command: Command) => {
      const { retireKey } = await import('../keys/keyManagement.ts');
      const result = await withContext(async (ctx) => retireKey(ctx, keyId, await cliChange(ctx, command)));
      print(options.json, result, () => retireText(result));
    });
}

function stepsText(steps: { env: Record<string, string | null>; then: string }[]): string[] {
  return steps.flatMap((step, i) => [
    `${i + 1}. set on every instance:`,
    ...Object.entries(step.env).map(([name, value]) =>
      value === null ? `     unset ${name}` : `     ${name}=${value}`,
    ),
    `   then ${step.then}`,
  ]);
}

function rotateText(result: RotateResult): string {
  if (result.mode === 'file') {
    return [
      `key ${result.key_id} added to the key file and made current.`,
      'Running services follow within seconds and re-encrypt older rows in the background;',
      'follow with: npx cardapply keys status',
    ].join('\n');
  }
  return [
    `new key ${result.key_id}; ENCRYPTION_KEYS is the environment's, so deploy it in two steps:`,
    ...stepsText(result.steps ?? []),
    'Keep ENCRYPTION_KEYS as safe as the database backups: without it they cannot be read.',
  ].join('\n');
}

function retireText(result: RetireResult): string {
  if (result.mode === 'file') {
    return [
      `key ${result.key_id} removed from the key file.`,
      result.index_key_kept
        ? 'Its blind-index key is kept in encryption-index-key (duplicate checks need it).'
        : '',
    ]
      .filter((l) => l !== '')
      .join('\n');
  }
  return [`no row uses key ${result.key_id}; deploy:`, ...stepsText(result.steps ?? [])].join('\n');
}
