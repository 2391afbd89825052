import { ConfigError } from '../config.ts';
import { cliMessage } from './errors.ts';
import { buildProgram } from './program.ts';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(`configuration error: ${error.message}`);
      process.exit(78);
    }
    if (cliMessage(error) !== undefined) console.error(`error: ${cliMessage(error)}`);
    else console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
