import assert from 'node:assert/strict';
import { pino } from 'pino';
import { PATHS } from '../../src/http/paths.ts';
import { startJobRunner, type JobRunner } from '../../src/worker/jobRunner.ts';
import { issuerAlertJob } from '../../src/screening/issuerAlertJob.ts';
import { clearHit } from '../../src/applications/commands/resolveHit.ts';
import { rescreenJobKind } from '../../src/screening/rescreenJob.ts';
import { screeningJob } from '../../src/screening/screeningJob.ts';
import { insertHits } from '../../src/screening/hitRepository.ts';
import { fanOutEvents } from '../../src/webhooks/deliveryQueue.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { ADMIN } from '../helpers/operators.ts';
import { post, type TestPartner, type TestService } from '../helpers/service.ts';

/** What the screening tests over HTTP share: a list upload, a submission, screening run to the end. */

/** A test-made individual of a UN Consolidated List (nobody here is a listed person). */
export interface TestEntry {
  dataId: number;
  first: string;
  second: string;
  reference: string;
  original: string;
  /** Aliases of good quality. */
  aliases?: readonly string[];
}

/** A UN Consolidated List of test-made individuals. */
export function unListOf(entries: readonly TestEntry[]) {
  const individual = (entry: TestEntry) => {
    const aliases = (entry.aliases ?? [])
      .map(
        (alias) =>
          `\n<INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>${alias}</ALIAS_NAME></INDIVIDUAL_ALIAS>`,
      )
      .join('');
    return `
<INDIVIDUAL><DATAID>${entry.dataId}</DATAID><FIRST_NAME>${entry.first}</FIRST_NAME><SECOND_NAME>${entry.second}</SECOND_NAME>
<REFERENCE_NUMBER>${entry.reference}</REFERENCE_NUMBER><NAME_ORIGINAL_SCRIPT>${entry.original}</NAME_ORIGINAL_SCRIPT>
<NATIONALITY><VALUE>China</VALUE></NATIONALITY>${aliases}
</INDIVIDUAL>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Test-made entries; nobody here is a listed person. -->
<CONSOLIDATED_LIST dateGenerated="2026-11-24T00:00:00.000Z"><INDIVIDUALS>${entries.map(individual).join('')}
</INDIVIDUALS><ENTITIES/></CONSOLIDATED_LIST>`;
}

/** A UN Consolidated List of one test-made individual. */
export function unList(entry: TestEntry) {
  return unListOf([entry]);
}

/** Uploads a UN list over the admin API; the version as the import answered it. */
export async function uploadList(
  service: TestService,
  adminToken: string,
  xml: string,
): Promise<Record<string, unknown>> {
  const reply = await post(service.baseUrl, `${ADMIN}/screening/lists/un`, undefined, {
    token: adminToken,
    headers: { 'content-type': 'application/xml' },
    raw: xml,
  });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.data as Record<string, unknown>;
}

export async function submitOver(
  service: TestService,
  partner: TestPartner,
  n: number,
  overrides: Record<string, string> = {},
): Promise<string> {
  const reply = await post(service.baseUrl, PATHS.apply, uniqueApplicant(n, partner.appId, overrides), {
    token: partner.token,
  });
  assert.equal(reply.status, 200, reply.text);
  return (reply.body.data as { busi_water_no: string }).busi_water_no;
}

/** The screening job kinds' runner, as the service's background process runs it. */
export function screeningRunner(service: TestService): JobRunner {
  return startJobRunner(service.ctx, pino({ level: 'silent' }), {
    kinds: [screeningJob, rescreenJobKind, issuerAlertJob],
    pollIntervalMs: 10,
  });
}

/**
 * Fans the outbox out (queueing the submissions' screening jobs) and waits until no screening job
 * is pending; a runner must be running.
 */
export async function screeningSettled(service: TestService, what: string): Promise<void> {
  const ctx = service.ctx;
  await fanOutEvents(ctx.store, { now: ctx.now(), limit: 1000, maxAgeMs: 86_400_000 });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const left = await ctx.store.db
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ['pending', 'running'])
      .where('kind', 'like', 'screening.%')
      .executeTakeFirst();
    if (left === undefined) return;
    if (Date.now() > deadline) assert.fail(`screening jobs did not finish: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs screening's job kinds until none is pending, as the service's background process would, then stops. */
export async function screenPending(service: TestService, what = 'screening'): Promise<void> {
  const runner = screeningRunner(service);
  try {
    await screeningSettled(service, what);
  } finally {
    await runner.stop();
  }
}

/**
 * A hit planted on an application, as a screening job records one (the tables that try every
 * admin route need one without running a list import); `clearedBy` leaves it cleared by that
 * operator, awaiting a second's confirmation.
 */
export async function plantHit(
  service: TestService,
  busiWaterNo: string,
  options: { clearedBy?: string } = {},
): Promise<string> {
  const [hit] = await insertHits(
    service.ctx.store.db,
    [
      {
        busi_water_no: busiWaterNo,
        match: {
          list: 'un',
          version_id: 'planted',
          reference: `TSi.PLANTED.${busiWaterNo}`,
          matched_name: 'PLANTED ENTRY',
          matched_kind: 'primary',
          score: 0.95,
          fields: ['name_en'],
        },
        afterDelivery: false,
      },
    ],
    service.ctx.now(),
  );
  if (options.clearedBy !== undefined) {
    await clearHit(service.ctx, {
      busiWaterNo,
      hitId: hit!.id,
      operator: { username: options.clearedBy, role: 'reviewer' },
      note: 'planted and cleared by the first operator',
      source: 'test',
    });
  }
  return hit!.id;
}
