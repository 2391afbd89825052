import type { Logger } from 'pino';
import type { ServiceContext } from '../context.ts';
import { describe } from '../errors/describe.ts';
import { startPeriodicJob } from './periodicJob.ts';
import { formatHead } from '../audit/auditChain.ts';
import { readChainHead } from '../audit/auditRepository.ts';

/**
 * Writes the audit chain's head to the log every AUDIT_HEAD_LOG_SECONDS and once more at shutdown:
 * the log leaves the database's reach, so whoever rewrites the trail's tail with its hashes (and
 * the head row) is caught by `cardapply audit verify --head <audit_head>` with the last line logged
 * before. One line: `{"audit_head":"<hash>@<id>","audit_seq":n,"msg":"audit chain head"}`.
 */
export function startAuditHeadJob(ctx: ServiceContext, logger: Logger): { stop(): Promise<void> } {
  const log = logger.child({ component: 'audit' });
  const write = async () => {
    const head = await readChainHead(ctx.store.db);
    log.info({ audit_head: formatHead(head), audit_seq: head.seq }, 'audit chain head');
  };
  const job = startPeriodicJob(ctx, logger, {
    name: 'audit-head',
    intervalMs: ctx.config.operations.auditHeadLogIntervalMs,
    run: write,
  });
  return {
    stop: async () => {
      await job.stop();
      await write().catch((error: unknown) =>
        log.warn({ err: describe(error) }, 'audit chain head not logged at shutdown'),
      );
    },
  };
}
