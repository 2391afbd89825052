import { startJobRunner, type JobRunner } from '../../src/worker/jobRunner.ts';
import { createLogger } from '../../src/logger.ts';
import { startDispatcher } from '../../src/webhooks/dispatcher.ts';
import type { DocumentOutcomes } from '../../src/events/documentOutcomes.ts';
import { PATHS } from '../../src/http/paths.ts';
import { nowSeconds, post, startService, type TestPartner, type TestService } from './service.ts';

/**
 * A service that fetches documents as production does: the outbox relay (the webhook dispatcher)
 * queues `documents.fetch` jobs and a job runner runs them, both in process and polling often.
 * DOCUMENT_ALLOW_PRIVATE lets it fetch from the test's own loopback servers.
 */
export interface DocumentService extends TestService {
  readonly runner: JobRunner;
}

export async function startDocumentService(
  storeName: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
): Promise<DocumentService> {
  const service = await startService(storeName, {
    DOCUMENT_ALLOW_PRIVATE: 'true',
    DOCUMENT_FETCH_HOURS: '0',
    DOCUMENT_CONNECT_TIMEOUT_MS: '1000',
    DOCUMENT_TIMEOUT_MS: '10000',
    WEBHOOK_POLL_INTERVAL_MS: '20',
    ...env,
  });
  const silent = createLogger({ logLevel: 'silent' });
  const dispatcher = startDispatcher(service.ctx, silent, { pollIntervalMs: 20 });
  const runner = startJobRunner(service.ctx, silent, { pollIntervalMs: 20 });
  return {
    ...service,
    runner,
    close: async () => {
      await runner.stop();
      await dispatcher.stop();
      await service.close();
    },
  };
}

/** The partner's status view of the application, over HTTP. */
export async function queryStatus(service: TestService, partner: TestPartner, serial: string) {
  const reply = await post(
    service.baseUrl,
    PATHS.query,
    { app_id: partner.appId, timestamp: nowSeconds(), busi_water_no: serial },
    { token: partner.token },
  );
  if (reply.status !== 200) throw new Error(`query failed: ${reply.text}`);
  return reply.body.data as { status: string; documents: DocumentOutcomes };
}

/** Polls the status view until no document is pending; the outcomes then. */
export async function settledDocuments(
  service: TestService,
  partner: TestPartner,
  serial: string,
  withinMs = 20_000,
): Promise<DocumentOutcomes> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const { documents } = await queryStatus(service, partner, serial);
    const states = Object.values(documents).map((d) => d.state);
    if (states.length > 0 && !states.includes('pending')) return documents;
    if (Date.now() > deadline) throw new Error(`documents still pending: ${JSON.stringify(documents)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
