import { randomBytes } from 'node:crypto';
import type { Partner } from '../../src/partners/credentials.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { transitionApplication } from '../../src/applications/commands/transitionApplication.ts';
import { findTransition, TRANSITIONS, INITIAL_STATUS, type Status } from '../../src/record/lifecycle.ts';
import { createOperator } from '../../src/operators/operators.ts';
import type { Role } from '../../src/access/roles.ts';
import { uniqueApplicant } from './applicants.ts';
import type { Reply, TestService } from './service.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { confirmEnrolment, startEnrolment } from '../../src/operators/totp.ts';
import * as OTPAuth from 'otpauth';

/** Operators, admin API calls and applications in a given state, for the lifecycle tests. */

export const ADMIN = '/admin/v1';
export const TEST_PASSWORD = 'correct horse battery staple';

export interface TestOperator {
  username: string;
  role: Role;
  token: string;
  csrf: string;
}

/** Any method, JSON in and out, with an operator's token or raw headers. */
export async function call(
  service: TestService,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  const init: RequestInit = { method, headers };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const response = await fetch(`${service.baseUrl}${path}`, init);
  const text = await response.text();
  let body: Reply['body'];
  try {
    body = JSON.parse(text) as Reply['body'];
  } catch {
    throw new Error(`not JSON (HTTP ${response.status}) from ${method} ${path}: ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body, text };
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/**
 * A new operator with the role, logged in over HTTP. With `mfa: true` it first enrols a TOTP factor
 * (through the domain, as the CLI does) and signs in with a current code of it.
 */
export async function newOperator(
  service: TestService,
  role: Role,
  username = uniqueName(role),
  options: { mfa?: boolean } = {},
) {
  await createOperator(
    service.ctx,
    { username, role, password: TEST_PASSWORD },
    { actor: SYSTEM, source: 'test' },
  );
  if (options.mfa !== true) return loginAs(service, username, role);
  const factor = await enrolFactor(service, username);
  return { ...(await loginAs(service, username, role, { otp: factor.codeAt(Date.now()) })), factor };
}

/** A confirmed TOTP factor for the operator; `codeAt(ms)` makes the code of any moment. */
export async function enrolFactor(service: TestService, username: string) {
  const by = { actor: SYSTEM, source: 'test' };
  const enrolment = await startEnrolment(service.ctx, username, by);
  const totp = OTPAuth.URI.parse(enrolment.otpauth_uri);
  const codeAt = (ms: number) => totp.generate({ timestamp: ms });
  // Confirmed with the previous step's code, so that the current one is still free for a sign-in.
  const { recovery_codes } = await confirmEnrolment(service.ctx, username, codeAt(Date.now() - 30_000), by);
  return { secret: enrolment.secret, uri: enrolment.otpauth_uri, codeAt, recoveryCodes: recovery_codes };
}

export async function loginAs(
  service: TestService,
  username: string,
  role: Role,
  factor: { otp?: string; recovery_code?: string } = {},
): Promise<TestOperator> {
  const reply = await call(service, 'POST', `${ADMIN}/login`, {
    body: { username, password: TEST_PASSWORD, ...factor },
  });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.text}`);
  const data = reply.body.data as { token: string; csrf_token: string };
  return { username, role, token: data.token, csrf: data.csrf_token };
}

/** The partner as the domain sees it, for submitting without HTTP (no rate limit in the way). */
export function partnerOf(appId: string): Partner {
  return { appId, rateLimitPerSecond: null, rateLimitBurst: null, concurrencyLimit: null };
}

/** Applicants numbered per service, so that no two tests of one store submit the same document. */
export class Applications {
  #next = 0;
  readonly service: TestService;
  constructor(service: TestService, start = 0) {
    this.service = service;
    this.#next = start;
  }

  nextApplicant(appId: string) {
    return uniqueApplicant(this.#next++, appId);
  }

  async submit(appId: string): Promise<string> {
    const result = await submitApplication(this.service.ctx, partnerOf(appId), this.nextApplicant(appId));
    return result.busi_water_no;
  }

  /** A new application of `appId` moved to `status` along the shortest path of the table. */
  async inState(appId: string, status: Status): Promise<string> {
    const serial = await this.submit(appId);
    for (const to of pathTo(status)) await move(this.service, serial, to, appId);
    return serial;
  }
}

/** The shortest sequence of moves from the initial state to `status`, found in the table. */
export function pathTo(status: Status): Status[] {
  const paths = new Map<Status, Status[]>([[INITIAL_STATUS, []]]);
  const queue: Status[] = [INITIAL_STATUS];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const rule of TRANSITIONS[from]) {
      if (paths.has(rule.to)) continue;
      paths.set(rule.to, [...paths.get(from)!, rule.to]);
      queue.push(rule.to);
    }
  }
  const path = paths.get(status);
  if (path === undefined) throw new Error(`${status} is not reachable`);
  return path;
}

/** One move as whoever may make it: a reviewer where one may, else the partner, else the system. */
export async function move(service: TestService, serial: string, to: Status, appId: string) {
  const { status: from } = await service.ctx.store.db
    .selectFrom('applications')
    .select('status')
    .where('busi_water_no', '=', serial)
    .executeTakeFirstOrThrow();
  const by = findTransition(from as Status, to)?.by ?? ['operator'];
  const codesRequired = ['REJECTED', 'SUPPLEMENT_REQUIRED', 'RETURNED'].includes(to);
  return transitionApplication(service.ctx, {
    busiWaterNo: serial,
    to,
    actor: by.includes('operator')
      ? { kind: 'operator', id: 'setup', role: 'reviewer' }
      : by.includes('caller')
        ? { kind: 'caller', id: appId }
        : { kind: 'system' },
    reason: to === 'REJECTED' ? 'documents unreadable' : null,
    reasonCodes: codesRequired ? ['document_unreadable'] : null,
    requestedFields: to === 'SUPPLEMENT_REQUIRED' ? ['id_card_img'] : null,
    details: to === 'SHIPPED' ? { carrier: 'SF Express', tracking_no: 'SF1234567890' } : null,
    source: 'test',
  });
}
