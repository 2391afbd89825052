import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Status } from '../../src/record/lifecycle.ts';
import { SYSTEM } from '../../src/audit/actor.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { PATHS } from '../../src/http/paths.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { createOperator } from '../../src/operators/operators.ts';
import { SENSITIVE_FIELDS } from '../../src/redaction.ts';
import { createLogger } from '../../src/logger.ts';
import { SUBJECT_JOB_KINDS } from '../../src/subjects/subjectExportJob.ts';
import { startJobRunner, type JobRunner } from '../../src/worker/jobRunner.ts';
import {
  proxyViolations,
  servedDocuments,
  startPrism,
  type PrismProxy,
  type ServedDocument,
} from '../chaos/support/contract.ts';
import { send, type Exchange } from '../chaos/support/http.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import * as OTPAuth from 'otpauth';
import {
  ADMIN,
  Applications,
  call,
  newOperator,
  TEST_PASSWORD,
  uniqueName,
  type TestOperator,
} from '../helpers/operators.ts';
import { budgetMs } from '../helpers/budget.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import {
  arbitraryOf,
  bodyVariations,
  documentedCodes,
  operationsOf,
  parameterVariations,
  urlOf,
  validOf,
  type Json,
  type Operation,
  type RequestParts,
  type Variation,
} from './cases.ts';

/**
 * The contract, checked by tools nobody here wrote: every operation of the served documents (the
 * partner API's and the admin API's, reads and writes) is driven through Stoplight Prism's
 * validating proxy with requests generated from the documents themselves: the example or a value
 * built from the schema, requests generated from the schemas (fast-check), and one variation per
 * constraint, each breaking that constraint alone. It fails on a 5xx, on a status or a `code` its
 * operation does not document, on a response Prism finds in breach of the document, and on a
 * request that breaks the schema yet succeeds, and on an identity value of the request coming back
 * in its answer. A canary first proves that Prism reports an
 * undocumented code. `CONTRACT_SEED` replays a run with other generated values.
 */

const SEED = Number(process.env['CONTRACT_SEED'] ?? 26);
const GENERATED_PER_OPERATION = 2;
const VARIATIONS_PER_OPERATION = 24;

/** The state an operation's application must be in for its success to be possible. */
const STATE_FOR: Record<string, Status> = {
  amendApplication: 'SUPPLEMENT_REQUIRED',
  adminApplicationApprove: 'IN_REVIEW',
  adminApplicationReject: 'IN_REVIEW',
  adminApplicationSupplement: 'IN_REVIEW',
  adminApplicationIssue: 'APPROVED',
  adminApplicationShip: 'CARD_ISSUED',
  adminApplicationReturn: 'SHIPPED',
  adminApplicationDeliver: 'SHIPPED',
  adminClaimApplication: 'IN_REVIEW',
  adminOpenForReview: 'IN_REVIEW',
  adminReleaseClaim: 'IN_REVIEW',
  adminReassignClaim: 'IN_REVIEW',
};
/** Operations on a claim the operator must already hold. */
const CLAIMED_FIRST = new Set(['adminReleaseClaim', 'adminOpenForReview']);
/** Operations that end or change the session they are called with: each gets one of its own. */
const OWN_SESSION = new Set(['adminLogout', 'adminMfaEnrol', 'adminMfaConfirm']);

describe('contract: generated requests through a validating proxy (Stoplight Prism)', () => {
  let service: TestService;
  let prism: PrismProxy;
  let receiver: Receiver;
  let partner: TestPartner;
  let otherPartner: TestPartner;
  let admin: TestOperator;
  let reviewer: TestOperator;
  let applications: Applications;
  let document: ServedDocument;
  let eventId: string;
  /** Builds the exports of access requests, so that the download answers its file through Prism. */
  let exportRunner: JobRunner;

  before(async () => {
    service = await startService('sqlite', {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_WORKER: 'false',
      WEBHOOK_TIMEOUT_MS: '2000',
      AUTH_FAILURE_BURST: '100000',
      AUTH_FAILURES_PER_MINUTE: '100000',
      OPERATOR_REVEALS_PER_HOUR: '100000',
    });
    receiver = await startReceiver();
    exportRunner = startJobRunner(service.ctx, createLogger({ logLevel: 'silent' }), {
      kinds: SUBJECT_JOB_KINDS,
      pollIntervalMs: 20,
    });
    partner = await newPartner(service, 'contract partner');
    otherPartner = await newPartner(service, 'another contract partner');
    admin = await newOperator(service, 'admin');
    reviewer = await newOperator(service, 'reviewer');
    applications = new Applications(service, 40_000);
    document = await servedDocuments(service.baseUrl);
    await applications.submit(partner.appId);
    const events = await post(
      service.baseUrl,
      PATHS.events,
      { app_id: partner.appId, timestamp: nowSeconds() },
      { token: partner.token },
    );
    eventId = (events.body.data as { items: { id: string }[] }).items[0]!.id;
  });
  after(async () => {
    await prism?.stop();
    await exportRunner?.stop();
    await receiver?.close();
    await service?.close();
  });

  /** What must be real in a request: serials in the right state, ids that exist, the partner's app. */
  async function fixturesFor(operation: Operation): Promise<{
    path: Record<string, string>;
    fields: Json;
    token: string | undefined;
  }> {
    const names = new Set([
      ...operation.parameters.map((p) => p.name),
      ...Object.keys((operation.body?.['properties'] as Json | undefined) ?? {}),
    ]);
    const values: Json = {};
    const isAdmin = operation.path.startsWith(`${ADMIN}/`);
    if (names.has('app_id')) values['app_id'] = partner.appId;
    if (names.has('timestamp')) values['timestamp'] = nowSeconds();
    if (names.has('busi_water_no')) {
      values['busi_water_no'] = await applications.inState(
        partner.appId,
        STATE_FOR[operation.id] ?? 'SUBMITTED',
      );
    }
    if (names.has('endpoint_id') || (names.has('id') && isAdmin)) {
      const endpoint = await registerEndpoint();
      values['endpoint_id'] = endpoint;
      values['id'] = endpoint;
    }
    if (names.has('event_id')) values['event_id'] = eventId;
    if (names.has('request_id'))
      values['request_id'] = await subjectRequestId(operation.id === 'downloadSubjectExport');
    if (names.has('url')) values['url'] = `${receiver.url}/hook`;
    if (names.has('app_secret')) values['app_secret'] = partner.secret;
    const path: Record<string, string> = {};
    for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
      if (parameter.name === 'app_id')
        path['app_id'] = (await createApp(service.ctx.store.db, 'fixture', Date.now())).app_id;
      else if (parameter.name === 'username') path['username'] = await newOperatorName();
      else if (parameter.name in values) path[parameter.name] = String(values[parameter.name]);
      else path[parameter.name] = String(validOf(parameter.schema, SEED));
    }
    if (operation.id === 'adminReassignClaim') values['username'] = reviewer.username;
    if (CLAIMED_FIRST.has(operation.id))
      await adminCall(`applications/${path['busi_water_no']}/claim`, admin.token);
    if (operation.id === 'adminCreateOperator') {
      values['username'] = uniqueName('made');
      values['password'] = 'a much longer pass phrase 26';
    }
    if (operation.id === 'adminSetOperatorPassword') values['password'] = 'a different long pass phrase 26';
    if (operation.id === 'adminLogin') {
      values['username'] = reviewer.username;
      values['password'] = TEST_PASSWORD;
    }
    const token = !isAdmin
      ? partner.token
      : operation.id === 'adminLogin'
        ? undefined
        : OWN_SESSION.has(operation.id)
          ? (await newOperator(service, 'viewer')).token
          : admin.token;
    if (operation.id === 'adminMfaConfirm') {
      // A current code of an enrolment this session started.
      const enrolled = await adminCall('mfa/enrol', token!);
      const uri = (enrolled.body.data as { otpauth_uri: string }).otpauth_uri;
      values['otp'] = OTPAuth.URI.parse(uri).generate();
    }
    return { path, fields: values, token };
  }

  /**
   * The refusals of the caller's credentials that any caller operation can answer, whatever its
   * own fields: a timestamp outside the skew (401 40105) and, where a token is sent, the body's
   * `app_id` not the token's (403 40301).
   */
  function callerRefusals(operation: Operation, body: unknown) {
    const properties = (operation.body?.['properties'] as Json | undefined) ?? {};
    if (!('app_id' in properties && 'timestamp' in properties) || typeof body !== 'object' || body === null)
      return [];
    const refusals: { what: string; body: Json; status: number; code: number }[] = [
      {
        what: 'a timestamp outside the skew',
        body: { ...(body as Json), timestamp: nowSeconds() - 3_600 },
        status: 401,
        code: ERRORS.timestampSkew.code,
      },
    ];
    if (operation.id !== 'exchangeToken')
      refusals.push({
        what: "another app's app_id",
        body: { ...(body as Json), app_id: otherPartner.appId },
        status: 403,
        code: ERRORS.appMismatch.code,
      });
    return refusals;
  }

  const adminCall = (path: string, token: string) =>
    call(service, 'POST', `${ADMIN}/${path}`, { token, body: {} });

  /** A subject request of the partner's, on an application of its own. */
  /** An access request of a new applicant; `ready`: once its export is built (the download's 200). */
  async function subjectRequestId(ready = false): Promise<string> {
    const reply = await post(
      service.baseUrl,
      PATHS.subjectRequests,
      {
        app_id: partner.appId,
        timestamp: nowSeconds(),
        kind: 'access',
        busi_water_no: await applications.submit(partner.appId),
      },
      { token: partner.token },
    );
    const requestId = (reply.body.data as { request_id: string }).request_id;
    const deadline = Date.now() + 30_000;
    while (ready) {
      const query = await post(
        service.baseUrl,
        PATHS.subjectRequestQuery,
        { app_id: partner.appId, timestamp: nowSeconds(), request_id: requestId },
        { token: partner.token },
      );
      if ((query.body.data as { status: string }).status === 'completed') break;
      assert.ok(Date.now() < deadline, `the export of ${requestId} was not built`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return requestId;
  }

  async function registerEndpoint(): Promise<string> {
    const reply = await post(
      service.baseUrl,
      PATHS.webhookRegister,
      { app_id: partner.appId, timestamp: nowSeconds(), url: `${receiver.url}/hook` },
      { token: partner.token },
    );
    assert.equal(reply.status, 200, reply.text);
    return (reply.body.data as { endpoint_id: string }).endpoint_id;
  }

  async function newOperatorName(): Promise<string> {
    const username = uniqueName('fixture');
    await createOperator(
      service.ctx,
      { username, role: 'viewer', password: TEST_PASSWORD },
      { actor: SYSTEM, source: 'test' },
    );
    return username;
  }

  /** A request with the fixtures filled in: every field of the body schema that must be real. */
  function withFixtures(
    operation: Operation,
    parts: RequestParts,
    fixtures: { path: Record<string, string>; fields: Json },
  ): RequestParts {
    const properties = (operation.body?.['properties'] as Json | undefined) ?? {};
    const fields = Object.entries(fixtures.fields).filter(([key]) => key in properties);
    const body =
      parts.body === undefined || typeof parts.body !== 'object'
        ? parts.body
        : { ...(parts.body as Json), ...Object.fromEntries(fields) };
    return { body, query: parts.query, path: { ...parts.path, ...fixtures.path } };
  }

  test('every caller operation documents 40105 under its 401 and, with a token, 40301 under its 403', () => {
    const missing: string[] = [];
    const callers = operationsOf(document).filter((o) => {
      const properties = (o.body?.['properties'] as Json | undefined) ?? {};
      return 'app_id' in properties && 'timestamp' in properties;
    });
    assert.ok(callers.length >= 15, `caller operations: ${callers.map((o) => o.id).join(', ')}`);
    for (const operation of callers) {
      const expected: [string, number][] = [['401', ERRORS.timestampSkew.code]];
      if (operation.id !== 'exchangeToken') expected.push(['403', ERRORS.appMismatch.code]);
      for (const [status, code] of expected) {
        if (!(documentedCodes(operation.responses[status]) ?? []).includes(code))
          missing.push(`${operation.id}: ${code} under ${status}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('every operation of both documents answers as documented, to valid and to broken requests', async (t) => {
    // The canary: a copy of the document whose codes operation lists no 401 code but 1 must be flagged.
    const wrong = structuredClone(document);
    const codes401 = (wrong.paths[PATHS.codes] as { post: { responses: Record<string, Json> } }).post
      .responses['401']!;
    (
      (codes401['content'] as Record<string, Json>)['application/json']!['schema'] as { allOf: Json[] }
    ).allOf[1] = {
      type: 'object',
      properties: { code: { enum: [1] } },
    };
    const canaryProxy = await startPrism(wrong, service.baseUrl);
    try {
      const canary = await send(canaryProxy.url, PATHS.codes, {
        body: { app_id: partner.appId, timestamp: nowSeconds() },
        token: 'not-a-token',
      });
      assert.ok(proxyViolations(canary).length > 0, `Prism flags an undocumented code: ${canary.text}`);
    } finally {
      await canaryProxy.stop();
    }

    prism = await startPrism(document, service.baseUrl);
    const operations = operationsOf(document);
    const failures: string[] = [];
    const tally = { requests: 0, operations: operations.length, succeeded: new Set<string>(), variations: 0 };
    const answers = new Map<string, string>();

    // The identity values a request sent (of the example and its variations): none may come back.
    const sentIdentity = new WeakMap<Exchange, [string, string][]>();
    const identityOf = (body: unknown): [string, string][] =>
      typeof body !== 'object' || body === null
        ? []
        : SENSITIVE_FIELDS.flatMap((field) => {
            const value = (body as Json)[field];
            return typeof value === 'string' && value.length >= 8 ? [[field, value] as [string, string]] : [];
          });
    const exchange = async (operation: Operation, parts: RequestParts, token: string | undefined) => {
      tally.requests++;
      const reply = await send(prism.url, urlOf(operation, parts), {
        method: operation.method,
        ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { body: parts.body ?? {} }),
        ...(token === undefined ? {} : { token }),
        timeoutMs: budgetMs(10_000),
      });
      sentIdentity.set(reply, identityOf(parts.body));
      return reply;
    };
    /** The first thing wrong with an exchange, if any. */
    const findingOf = (operation: Operation, reply: Exchange, broken: boolean): string | undefined => {
      const body = reply.text.slice(0, 300);
      const violations = proxyViolations(reply).filter((v) => !v.message.startsWith('prism: '));
      if (violations.length > 0)
        return `Prism: ${violations.map((v) => `${v.where} ${v.message}`).join('; ')}`;
      if (reply.status >= 500) return `a server error: ${body}`;
      const echoed = (sentIdentity.get(reply) ?? []).find(([, value]) => reply.text.includes(value));
      if (echoed !== undefined) return `the ${echoed[0]} sent comes back in the answer`;
      const response = operation.responses[String(reply.status)];
      if (response === undefined) return `status not documented: ${body}`;
      if (reply.status < 300) {
        tally.succeeded.add(operation.id);
        return broken ? `a request that breaks the schema was accepted: ${body}` : undefined;
      }
      const code = (reply.json as { code?: unknown } | undefined)?.code;
      const listed = documentedCodes(response);
      if (listed !== undefined && !listed.includes(code as number)) {
        return `code ${String(code)} not documented (${listed.join(', ')}): ${body}`;
      }
      return undefined;
    };
    const judge = (operation: Operation, what: string, reply: Exchange, broken: boolean) => {
      if (!broken) answers.set(operation.id, `${reply.status} ${reply.text.slice(0, 160)}`);
      const finding = findingOf(operation, reply, broken);
      if (finding !== undefined)
        failures.push(`${operation.method} ${operation.path} (${what}): ${reply.status}: ${finding}`);
    };

    for (const [index, operation] of operations.entries()) {
      const seed = SEED + index;
      const querySchema: Json = {
        type: 'object',
        properties: Object.fromEntries(
          operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
        ),
        required: operation.parameters
          .filter((p) => p.in === 'query' && p.required === true)
          .map((p) => p.name),
      };
      const baseBody =
        operation.body === undefined
          ? undefined
          : operation.id === 'submitApplication' || operation.id === 'validateApplication'
            ? uniqueApplicant(50_000 + index, partner.appId)
            : (operation.example ?? validOf(operation.body, seed));
      const base: RequestParts = { body: baseBody, query: {}, path: {} };

      // Valid requests: the example (or built from the schema), then generated ones.
      const positives: [string, RequestParts][] = [['example', base]];
      const generated = fc.sample(
        fc.record({
          body: operation.body === undefined ? fc.constant(undefined) : arbitraryOf(operation.body),
          query: arbitraryOf(querySchema),
        }),
        { numRuns: GENERATED_PER_OPERATION, seed },
      );
      for (const [n, g] of generated.entries()) {
        const query = Object.fromEntries(Object.entries(g.query as Json).map(([k, v]) => [k, String(v)]));
        positives.push([`generated ${n + 1}`, { body: g.body, query, path: {} }]);
      }
      for (const [what, parts] of positives) {
        const fixtures = await fixturesFor(operation);
        const reply = await exchange(operation, withFixtures(operation, parts, fixtures), fixtures.token);
        // Generated values may be short or common text: only the example's are looked for.
        if (what !== 'example') sentIdentity.delete(reply);
        judge(operation, what, reply, false);
      }

      // Broken requests: one constraint each, from the valid base; a sample when there are many.
      const shared = await fixturesFor(operation);
      const valid = withFixtures(operation, base, shared);
      let variations: Variation[] = [
        ...(operation.body === undefined ? [] : bodyVariations(operation.body, valid.body)),
        ...parameterVariations(operation.parameters),
      ];
      if (variations.length > VARIATIONS_PER_OPERATION) {
        variations = fc.sample(
          fc.shuffledSubarray(variations, {
            minLength: VARIATIONS_PER_OPERATION,
            maxLength: VARIATIONS_PER_OPERATION,
          }),
          {
            numRuns: 1,
            seed,
          },
        )[0]!;
      }
      for (const variation of variations) {
        tally.variations++;
        const token = OWN_SESSION.has(operation.id) ? (await fixturesFor(operation)).token : shared.token;
        judge(operation, variation.what, await exchange(operation, variation.apply(valid), token), true);
      }
      // What every caller operation can answer to a well-formed request: each exact, and documented.
      for (const { what, body, status, code } of callerRefusals(operation, valid.body)) {
        tally.variations++;
        const reply = await exchange(operation, { ...valid, body }, shared.token);
        judge(operation, what, reply, true);
        const answered = (reply.json as { code?: unknown } | undefined)?.code;
        if (reply.status !== status || answered !== code)
          failures.push(
            `${operation.method} ${operation.path} (${what}): ${reply.status} ${String(answered)}, not ${status} ${code}`,
          );
      }
    }

    const never = operations
      .filter((o) => !tally.succeeded.has(o.id))
      .map((o) => `${o.id} (${answers.get(o.id) ?? 'none'})`);
    t.diagnostic(
      `seed ${SEED}: ${tally.requests} requests over ${tally.operations} operations (${tally.variations} broken ones); ` +
        `${tally.succeeded.size} operations answered 2xx at least once; never: ${never.join(', ') || 'none'}`,
    );
    assert.deepEqual(failures.slice(0, 25), [], `${failures.length} findings (CONTRACT_SEED=${SEED})`);
  });
});
