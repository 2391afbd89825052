import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { openContext } from '../src/start.ts';

/** The OpenAPI document as the service serves it with default settings, built on a throwaway store. */
export async function openapiDocument(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const logger = createLogger(config);
    const ctx = await openContext(config, logger);
    const app = await build(ctx, { logger });
    await app.ready();
    const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
    await app.close();
    await ctx.store.close();
    return document;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
