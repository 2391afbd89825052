import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/connect.ts';

/**
 * Run as a process of its own: migrates the configured store and prints the versions this process
 * applied, as JSON. Started several times at once by the migration test.
 */
const store = await openStore(loadConfig());
try {
  process.stdout.write(`${JSON.stringify(await store.migrate())}\n`);
} finally {
  await store.close();
}
