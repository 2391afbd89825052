import type { Command } from 'commander';
import type { TokenSelector } from '../partners/manageCredentials.ts';
import { cliChange, operatorCommand } from './cliSource.ts';
import { withContext } from './context.ts';
import { print } from './output.ts';

export function tokensCommands(program: Command): void {
  const tokens = program.command('tokens').description('access tokens of partners');

  // A partner's credentials are an admin's, as rotating the app's secret is in the console.
  operatorCommand(tokens.command('revoke'), 'admin')
    .description('revoke one access token, or every token of an app; refused on their next request')
    .option('--token <token>', 'the access token itself')
    .option('--token-hash <sha256>', 'the SHA-256 (hex) of the token, as stored')
    .option('--app <app_id>', 'every live token of this app')
    .option('--json', 'print {"revoked": n} as JSON')
    .action(
      async (
        options: { token?: string; tokenHash?: string; app?: string; json?: boolean },
        command: Command,
      ) => {
        const given = [options.token, options.tokenHash, options.app].filter((v) => v !== undefined);
        if (given.length !== 1) throw new Error('give exactly one of --token, --token-hash, --app');
        if (options.tokenHash !== undefined && !/^[0-9a-fA-F]{64}$/.test(options.tokenHash))
          throw new Error('--token-hash: must be 64 hexadecimal digits');
        const selector: TokenSelector =
          options.app !== undefined
            ? { appId: options.app }
            : options.token !== undefined
              ? { token: options.token }
              : { tokenHash: options.tokenHash! };
        const { revokeTokens } = await import('../partners/manageCredentials.ts');
        const result = await withContext(async (ctx) =>
          revokeTokens(ctx, selector, await cliChange(ctx, command)),
        );
        print(options.json, result, () =>
          result.revoked === 0 ? 'no live token matched' : `revoked ${result.revoked} token(s)`,
        );
      },
    );
}
