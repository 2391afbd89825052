import type { Config } from './config.ts';
import type { KeyRing } from './crypto/keyRing.ts';
import type { LoadedCodeTables } from './codes/tables.ts';
import type { Store } from './store/connect.ts';

/**
 * What the domain operations need, built once at start and passed down: the HTTP layer, the CLI,
 * the workers and the tests all call the domain with one of these.
 */
export interface ServiceContext {
  readonly config: Config;
  readonly store: Store;
  readonly keyRing: KeyRing;
  readonly codes: LoadedCodeTables;
  /** Milliseconds since the epoch; replaced in tests that need another time. */
  readonly now: () => number;
}
