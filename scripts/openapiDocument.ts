import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { openContext } from '../src/start.ts';

/**
 * The OpenAPI documents as the service serves them with default settings, built on a throwaway
 * store: the partner API (`/openapi.json`) and the admin API (`/admin/openapi.json`).
 */
export async function openapiDocuments(): Promise<{ partner: string; admin: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cardapply-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const logger = createLogger(config);
    const ctx = await openContext(config, logger);
    const app = await build(ctx, { logger });
    await app.ready();
    const served = async (url: string) =>
      `${JSON.stringify(JSON.parse((await app.inject({ method: 'GET', url })).body), null, 2)}\n`;
    const documents = { partner: await served('/openapi.json'), admin: await served('/admin/openapi.json') };
    await app.close();
    await ctx.store.close();
    return documents;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The partner API's document (what `openapi.json` holds and the client is generated from). */
export async function openapiDocument(): Promise<string> {
  return (await openapiDocuments()).partner;
}
