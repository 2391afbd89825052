import { Applications, move } from './operators.ts';
import { newPartner, type TestService } from './service.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * A known history under a controlled clock (the service's `ctx.now`), for the workload tests: five
 * applications submitted a few seconds apart in one hour (`firstHour`), then in the next hour three
 * of them approved, two taken into review (at +20 and +40 minutes) and one more submitted (+1
 * minute). The clock is left at `readAt`, 2 h 30 min after the first hour began.
 */
export interface KnownWorkload {
  firstHour: number;
  readAt: number;
}

export async function makeKnownWorkload(service: TestService): Promise<KnownWorkload> {
  const appId = (await newPartner(service)).appId;
  const applications = new Applications(service);
  const firstHour = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
  let clock = firstHour;
  Object.assign(service.ctx, { now: () => clock });

  const serials: string[] = [];
  for (let i = 0; i < 5; i++) {
    clock = firstHour + 10 * MINUTE + i * 37_000 + i;
    serials.push(await applications.submit(appId));
  }
  for (const [i, serial] of serials.slice(0, 3).entries()) {
    clock = firstHour + HOUR + 5 * MINUTE + i * 41_000 + i;
    await move(service, serial, 'IN_REVIEW', appId);
    await move(service, serial, 'APPROVED', appId);
  }
  clock = firstHour + HOUR + MINUTE;
  await applications.submit(appId);
  for (const [i, serial] of serials.slice(3).entries()) {
    clock = firstHour + HOUR + (20 + 20 * i) * MINUTE;
    await move(service, serial, 'IN_REVIEW', appId);
  }
  const readAt = firstHour + 2 * HOUR + 30 * MINUTE;
  clock = readAt;
  return { firstHour, readAt };
}

/**
 * What the workload must read at `readAt` with `REVIEW_SLA_SECONDS=SUBMITTED:14400,IN_REVIEW:3600`:
 * every figure exact, derived from the history above by hand.
 */
export function expectedWorkload(known: KnownWorkload) {
  const hour = (ms: number) => ms / 1000;
  return {
    statuses: {
      SUBMITTED: { count: 1, oldest_seconds: 89 * 60, median_seconds: 89 * 60, past_sla: 0 },
      IN_REVIEW: { count: 2, oldest_seconds: 70 * 60, median_seconds: 60 * 60, past_sla: 1 },
      // Approved at +5 min, +5 min 41.001 s and +6 min 22.002 s of the second hour.
      APPROVED: { count: 3, oldest_seconds: 85 * 60, median_seconds: 85 * 60 - 42, past_sla: 0 },
    },
    backlog: [
      { hour: hour(known.firstHour), arrivals: 5, decisions: 0 },
      { hour: hour(known.firstHour + HOUR), arrivals: 1, decisions: 3 },
    ],
  };
}
