import { buildProgram } from './program.ts';

buildProgram()
  .parseAsync(process.argv)
  .catch(async (error: unknown) => {
    // Loaded on failure only: the catalogue and the configuration are not part of a command's start.
    const [{ ConfigError }, { cliMessage }] = await Promise.all([
      import('../config.ts'),
      import('./errors.ts'),
    ]);
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`);
      process.exit(78);
    }
    if (cliMessage(error) !== undefined) console.error(`error: ${cliMessage(error)}`);
    else console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
