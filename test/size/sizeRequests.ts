import { PATHS } from '../../src/http/paths.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { ADMIN, Applications, call, newOperator, type TestOperator } from '../helpers/operators.ts';
import { newPartner, nowSeconds, post, type TestPartner, type TestService } from '../helpers/service.ts';
import { endpointOf } from './growTables.ts';

/**
 * Every request of the partner and admin APIs whose cost could grow with the tables (issue 28's
 * table, and the flat ones beside them), with what each needs: a partner that owns a twentieth of
 * the applications (app 0 of the fixture), its webhook endpoint, an operator with a year of
 * reveals behind it, and a few applications submitted through the API (real payloads).
 */
export const SIZE_OPERATOR = 'size-reviewer';
/** The fixture's apps: the measured partner is the first. */
export const SIZE_APPS = 20;

export interface SizeRequest {
  name: string;
  /** One call; throws unless it answered 200. */
  send(): Promise<void>;
}

export interface SizeSetup {
  partner: TestPartner;
  operator: TestOperator;
  /** Stand-ins for the fixture's other apps (their rows only, no credentials). */
  otherApps: string[];
}

/** The partner and the operator, before the tables grow (the fixture needs their names). */
export async function prepareSizeSetup(service: TestService): Promise<SizeSetup> {
  const partner = await newPartner(service, 'size partner');
  const operator = await newOperator(service, 'reviewer', SIZE_OPERATOR);
  const otherApps: string[] = [];
  for (let i = 1; i < SIZE_APPS; i++) otherApps.push((await newPartner(service, `size app ${i}`)).appId);
  return { partner, operator, otherApps };
}

export async function sizeRequests(service: TestService, setup: SizeSetup): Promise<SizeRequest[]> {
  const { partner, operator } = setup;
  const applications = new Applications(service, 900_000);
  const mine: string[] = [];
  for (let i = 0; i < 3; i++) mine.push(await applications.submit(partner.appId));
  const duplicate = uniqueApplicant(900_000, partner.appId);
  let fresh = 910_000;
  const db = service.ctx.store.db;
  const deepEvent = await db
    .selectFrom('events')
    .select(['created_at', 'event_id'])
    .where('app_id', '=', partner.appId)
    .orderBy('created_at', 'desc')
    .orderBy('event_id', 'desc')
    .offset(50)
    .limit(1)
    .executeTakeFirst();
  const deepCursor =
    deepEvent === undefined
      ? undefined
      : Buffer.from(`${deepEvent.created_at}.${deepEvent.event_id}`).toString('base64url');
  const oldest = await db
    .selectFrom('applications')
    .select('external_id')
    .where('app_id', '=', partner.appId)
    .where('external_id', 'is not', null)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  const external = oldest?.external_id ?? 'none';
  // The fixture's references of this partner are all final: one an active application holds.
  const heldReference = 'size-held-reference';
  const held = { ...uniqueApplicant(fresh++, partner.appId), external_id: heldReference };
  const heldReply = await post(service.baseUrl, PATHS.apply, held, { token: partner.token });
  if (heldReply.status !== 200) throw new Error(`held reference: ${heldReply.text}`);

  const partnerPost =
    (path: string, body: Record<string, unknown>, expected = 0) =>
    async () => {
      const reply = await post(
        service.baseUrl,
        path,
        { app_id: partner.appId, timestamp: nowSeconds(), ...body },
        { token: partner.token },
      );
      if (reply.status !== 200 && reply.body.code !== expected) throw new Error(`${path}: ${reply.text}`);
    };
  const admin = (method: string, path: string, body?: unknown) => async () => {
    const headers: Record<string, string> = method === 'GET' ? {} : { 'x-csrf-token': operator.csrf };
    const reply = await call(service, method, `${ADMIN}${path}`, { token: operator.token, body, headers });
    if (reply.status !== 200) throw new Error(`${method} ${path}: ${reply.text}`);
  };
  const endpoint = endpointOf(0);
  return [
    {
      name: 'submit',
      send: async () => {
        const reply = await post(service.baseUrl, PATHS.apply, uniqueApplicant(fresh++, partner.appId), {
          token: partner.token,
        });
        if (reply.status !== 200) throw new Error(`submit: ${reply.text}`);
      },
    },
    {
      name: 'submit a duplicate',
      send: async () => {
        // Stamped as it is sent: the small store's requests wait while the large one grows.
        const reply = await post(
          service.baseUrl,
          PATHS.apply,
          { ...duplicate, timestamp: nowSeconds() },
          { token: partner.token },
        );
        if (reply.status !== 409) throw new Error(`duplicate: ${reply.text}`);
      },
    },
    {
      name: 'submit with a reference another holds',
      send: async () => {
        const applicant = { ...uniqueApplicant(fresh++, partner.appId), external_id: heldReference };
        const reply = await post(service.baseUrl, PATHS.apply, applicant, { token: partner.token });
        if (reply.status !== 409) throw new Error(`reference taken: ${reply.text}`);
      },
    },
    { name: 'query', send: partnerPost(PATHS.query, { busi_water_no: mine[0] }) },
    {
      name: 'query by external_id',
      send: partnerPost(PATHS.query, { external_id: external }),
    },
    { name: 'partner list', send: partnerPost(PATHS.list, {}) },
    { name: 'partner list by status', send: partnerPost(PATHS.list, { status: 'IN_REVIEW' }) },
    { name: 'events list', send: partnerPost(PATHS.events, {}) },
    {
      name: 'events list, deep cursor',
      send: partnerPost(PATHS.events, deepCursor === undefined ? {} : { cursor: deepCursor }),
    },
    { name: 'events list, type filter', send: partnerPost(PATHS.events, { type: 'application.in_review' }) },
    {
      name: 'partner deliveries of an endpoint',
      send: partnerPost(PATHS.webhookDeliveries, { endpoint_id: endpoint }),
    },
    { name: 'admin deliveries of an endpoint', send: admin('GET', `/webhooks/${endpoint}/deliveries`) },
    { name: 'admin search', send: admin('GET', '/applications') },
    {
      name: 'admin search by app and status',
      send: admin('GET', `/applications?app_id=${partner.appId}&status=IN_REVIEW`),
    },
    { name: 'admin search by status', send: admin('GET', '/applications?status=IN_REVIEW') },
    {
      name: 'admin search by external_id',
      send: admin('GET', `/applications?external_id=${encodeURIComponent(external)}`),
    },
    // What a support call quotes (q): a partner reference, and the first eight characters of a serial.
    {
      name: 'admin search by a quoted reference',
      send: admin('GET', `/applications?q=${encodeURIComponent(external)}`),
    },
    {
      name: 'admin search by the start of a serial',
      send: admin('GET', `/applications?q=${mine[0]!.slice(0, 8).toLowerCase()}`),
    },
    // The queue by risk tier (migration 0086's indexes): a tier, a status and a tier, by tier.
    { name: 'admin search by risk tier', send: admin('GET', '/applications?risk_tier=high&order=desc') },
    {
      name: 'admin search by status and risk tier',
      send: admin('GET', '/applications?status=IN_REVIEW&risk_tier=high&order=desc'),
    },
    { name: 'admin search by risk', send: admin('GET', '/applications?sort=risk&order=desc') },
    {
      name: 'admin search by status, by risk',
      send: admin('GET', '/applications?status=IN_REVIEW&sort=risk&order=desc'),
    },
    { name: 'admin application', send: admin('GET', `/applications/${mine[0]}`) },
    { name: 'counts per status', send: admin('GET', '/applications/counts') },
    {
      name: 'counts per status of an app',
      send: admin('GET', `/applications/counts?app_id=${partner.appId}`),
    },
    // As the console asks: whole days of China time (UTC+8), the last 30 of them, and the last year.
    { name: 'counts per status, 30 days', send: admin('GET', `/applications/counts?${chinaDays(30)}`) },
    {
      name: 'counts per status of an app, a year',
      send: admin('GET', `/applications/counts?app_id=${partner.appId}&${chinaDays(365)}`),
    },
    { name: 'workload', send: admin('GET', '/workload') },
    {
      name: 'reveal',
      send: admin('POST', `/applications/${mine[1]}/reveal`, {
        field: 'cert_id',
        purpose: 'fraud_investigation',
      }),
    },
    { name: 'audit by target_type', send: admin('GET', '/audit?target_type=application') },
    { name: 'audit of an application', send: admin('GET', `/audit?target_id=${mine[0]}`) },
  ];
}

/** The last `days` days of China time, today included, as the console's filter sends them. */
function chinaDays(days: number): string {
  const day = 86_400;
  const offset = 8 * 3600;
  const today = Math.floor((nowSeconds() + offset) / day) * day - offset;
  return `created_from=${today - (days - 1) * day}&created_to=${today + day - 1}`;
}

/** Median of `times` calls, in milliseconds, after two warm-up calls. */
export async function medianMs(request: SizeRequest, times = 20): Promise<number> {
  const [median] = await interleavedMediansMs([request], times);
  return median!;
}

/**
 * The median of `times` calls of each request, the calls taken in turns (a, b, b, a, a, b...), so
 * that whatever else loads the machine meanwhile weighs on each request alike: a comparison of two
 * stores measured minutes apart would compare the machine's load as much as the stores.
 */
export async function interleavedMediansMs(requests: SizeRequest[], times = 20): Promise<number[]> {
  for (let i = 0; i < 2; i++) for (const request of requests) await request.send();
  const samples = requests.map((): number[] => []);
  for (let i = 0; i < times; i++) {
    const order = i % 2 === 0 ? requests.keys() : [...requests.keys()].reverse();
    for (const at of order) {
      const started = performance.now();
      await requests[at]!.send();
      samples[at]!.push(performance.now() - started);
    }
  }
  return samples.map((taken) => {
    taken.sort((a, b) => a - b);
    return (taken[Math.floor((times - 1) / 2)]! + taken[Math.ceil((times - 1) / 2)]!) / 2;
  });
}
