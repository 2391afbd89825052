import { createHash, randomUUID } from 'node:crypto';
import { CardApplyError, CardApplyNetworkError, ERROR_CODES } from './errors.ts';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry.ts';
import type {
  AccessToken,
  AmendFields,
  ApplicationInput,
  ApplicationPage,
  ApplicationStatus,
  CodeTables,
  EventFilter,
  EventPage,
  InputOf,
  ListFilter,
  Operation,
  PathOf,
  ResultOf,
  Submitted,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
} from './types.ts';

export interface CardApplyClientOptions {
  /** Where the service answers, e.g. `https://cards.example.com` (a path prefix is kept). */
  baseUrl: string;
  appId: string;
  /** The app's secret: exchanged for access tokens, never sent anywhere else. */
  appSecret: string;
  /** Retries after the first attempt on 429, 5xx and network errors; 4 by default. */
  maxRetries?: number;
  /** The first backoff, doubled on each retry; 250 ms by default. */
  baseDelayMs?: number;
  /** The longest wait between attempts; a longer `Retry-After` is not waited for. 30 s by default. */
  maxDelayMs?: number;
  /** Time limit of one attempt; 30 s by default. */
  timeoutMs?: number;
  /** The token is renewed this long before it expires (at most half its lifetime); 300 s by default. */
  renewBeforeSeconds?: number;
  /** `zh` for Chinese messages. */
  language?: 'en' | 'zh';
  /** A fetch to use instead of the global one (a proxy agent; tests). */
  fetch?: typeof globalThis.fetch;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (retry: RetryEvent) => void;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

export interface RetryEvent {
  path: string;
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  reason: CardApplyError | CardApplyNetworkError;
}

export interface SubmitOptions {
  /**
   * The Idempotency-Key of this submission: one is generated per call and sent again on every
   * retry of it. Pass your own (stored with your order) to be able to retry across restarts: the
   * same key and body within 24 hours answer the first response again instead of a second
   * application.
   */
  idempotencyKey?: string;
}

export interface CancelOptions extends SubmitOptions {
  /** Why; shown in the application's history. Must not contain identity or card numbers. */
  reason?: string;
}

/** The partner paths, checked against the generated document: a renamed path does not compile. */
const PATHS = {
  exchangeToken: '/mc-platformapi/v1/open/auth/token',
  submitApplication: '/mc-platformapi/v1/open/et/vs/card/apply',
  validateApplication: '/mc-platformapi/v1/open/et/vs/card/apply/validate',
  queryApplication: '/mc-platformapi/v1/open/et/vs/card/apply/query',
  listApplications: '/mc-platformapi/v1/open/et/vs/card/apply/list',
  cancelApplication: '/mc-platformapi/v1/open/et/vs/card/apply/cancel',
  listCodes: '/mc-platformapi/v1/open/et/vs/card/codes',
  listEvents: '/mc-platformapi/v1/open/et/vs/card/events/list',
  amendApplication: '/mc-platformapi/v1/open/et/vs/card/apply/amend',
  registerWebhook: '/mc-platformapi/v1/open/et/vs/card/webhooks/register',
  listWebhooks: '/mc-platformapi/v1/open/et/vs/card/webhooks/list',
  showWebhook: '/mc-platformapi/v1/open/et/vs/card/webhooks/show',
  rotateWebhookSecret: '/mc-platformapi/v1/open/et/vs/card/webhooks/rotate-secret',
  disableWebhook: '/mc-platformapi/v1/open/et/vs/card/webhooks/disable',
  enableWebhook: '/mc-platformapi/v1/open/et/vs/card/webhooks/enable',
  deleteWebhook: '/mc-platformapi/v1/open/et/vs/card/webhooks/delete',
  testWebhook: '/mc-platformapi/v1/open/et/vs/card/webhooks/test',
  listWebhookDeliveries: '/mc-platformapi/v1/open/et/vs/card/webhooks/deliveries',
  redeliverWebhookEvent: '/mc-platformapi/v1/open/et/vs/card/webhooks/redeliver',
} as const satisfies { [O in Operation]?: PathOf<O> };
type PartnerOperation = keyof typeof PATHS;

interface HeldToken {
  value: string;
  /** Client time (ms) from which the token is renewed before use. */
  renewAt: number;
}

/** The MD5 digest (32 lower-case hex digits) of a plain payment password, as `pay_pwd` takes it. */
export function payPasswordDigest(password: string): string {
  return createHash('md5').update(password, 'utf8').digest('hex');
}

/**
 * A typed client of the card application service. It exchanges the app secret for an access token
 * and renews it before it expires (and once more if the service answers `token_expired`), fills in
 * `app_id` and `timestamp`, sends each submission and cancellation with an Idempotency-Key that its
 * retries reuse, retries on 429, 5xx and network errors with exponential backoff (honouring
 * `Retry-After`), and throws `CardApplyError` (code, msg, field errors, request id) or
 * `CardApplyNetworkError`.
 */
export class CardApplyClient {
  readonly #baseUrl: string;
  readonly #appId: string;
  readonly #appSecret: string;
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #renewBeforeMs: number;
  readonly #language: 'en' | 'zh' | undefined;
  readonly #fetch: typeof globalThis.fetch;
  readonly #onRetry: ((retry: RetryEvent) => void) | undefined;
  readonly #now: () => number;
  #token: HeldToken | undefined;
  #exchanging: Promise<HeldToken> | undefined;
  /** The code tables, asked for once (they change only when the service restarts with others). */
  #codes: Promise<CodeTables> | undefined;

  constructor(options: CardApplyClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#appId = options.appId;
    this.#appSecret = options.appSecret;
    this.#retry = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries,
      baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    };
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#renewBeforeMs = (options.renewBeforeSeconds ?? 300) * 1000;
    this.#language = options.language;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#onRetry = options.onRetry;
    this.#now = options.now ?? Date.now;
  }

  /** Submits an application; answers its serial number once the service has stored it. */
  submit(application: ApplicationInput, options: SubmitOptions = {}): Promise<Submitted> {
    return this.#call('submitApplication', withDigest(application), {
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
    });
  }

  /** Runs every check of the submit without storing anything. */
  validate(application: ApplicationInput): Promise<ResultOf<'validateApplication'>> {
    return this.#call('validateApplication', withDigest(application));
  }

  /** The status of one of the app's applications, by its serial or by your own `external_id`. */
  query(reference: ApplicationReference): Promise<ApplicationStatus> {
    return this.#call('queryApplication', referenceOf(reference));
  }

  /** One page of the app's applications, oldest first; pass `next_cursor` as `cursor` for the next. */
  list(filter: ListFilter = {}): Promise<ApplicationPage> {
    return this.#call('listApplications', filter);
  }

  /** Every application matching the filter, page after page. */
  listAll(filter: Omit<ListFilter, 'cursor'> = {}): AsyncGenerator<ApplicationStatus> {
    return this.#pages((cursor) => this.list({ ...filter, ...cursor }));
  }

  /** Cancels an application (while SUBMITTED, IN_REVIEW or SUPPLEMENT_REQUIRED); answers its new status. */
  cancel(reference: ApplicationReference, options: CancelOptions = {}): Promise<ApplicationStatus> {
    const body = {
      ...referenceOf(reference),
      ...(options.reason === undefined ? {} : { reason: options.reason }),
    };
    return this.#call('cancelApplication', body, { idempotencyKey: options.idempotencyKey ?? randomUUID() });
  }

  /**
   * Sends the information an operator asked for (the application is SUPPLEMENT_REQUIRED): exactly
   * the fields of its `requested_fields`. Answers the status, back in IN_REVIEW.
   */
  amend(
    reference: ApplicationReference,
    fields: AmendFields,
    options: SubmitOptions = {},
  ): Promise<ApplicationStatus> {
    return this.#call(
      'amendApplication',
      { ...withDigest(fields as ApplicationInput), ...referenceOf(reference) },
      { idempotencyKey: options.idempotencyKey ?? randomUUID() },
    );
  }

  /** The code tables in force (country, position, profession, purpose, wealth_source, reason). */
  codes(): Promise<CodeTables> {
    return this.#call('listCodes', {});
  }

  /**
   * The names of reason codes (of a status, a history entry or an event) in the tables in force,
   * asked for once per client (they change only when the service restarts with others).
   */
  async reasonNames(codes: readonly string[], language: 'en' | 'zh' = 'en'): Promise<string[]> {
    this.#codes ??= this.codes().catch((error: unknown) => {
      this.#codes = undefined;
      throw error;
    });
    return reasonCodeNames(await this.#codes, codes, language);
  }

  /** Registers a webhook endpoint of the app; the answer's `secret` is shown this once. */
  registerWebhook(endpoint: InputOf<'registerWebhook'>): Promise<ResultOf<'registerWebhook'>> {
    return this.#call('registerWebhook', endpoint);
  }

  /** The app's webhook endpoints (never their secrets). */
  async listWebhooks(): Promise<WebhookEndpoint[]> {
    return (await this.#call('listWebhooks', {})).items;
  }

  showWebhook(endpointId: string): Promise<WebhookEndpoint> {
    return this.#call('showWebhook', { endpoint_id: endpointId });
  }

  /** A new signing secret (shown once); the old ones keep signing for `overlapSeconds` (a day by default). */
  rotateWebhookSecret(endpointId: string, overlapSeconds?: number): Promise<ResultOf<'rotateWebhookSecret'>> {
    return this.#call('rotateWebhookSecret', {
      endpoint_id: endpointId,
      ...(overlapSeconds === undefined ? {} : { overlap_seconds: overlapSeconds }),
    });
  }

  disableWebhook(endpointId: string): Promise<WebhookEndpoint> {
    return this.#call('disableWebhook', { endpoint_id: endpointId });
  }

  enableWebhook(endpointId: string): Promise<WebhookEndpoint> {
    return this.#call('enableWebhook', { endpoint_id: endpointId });
  }

  deleteWebhook(endpointId: string): Promise<ResultOf<'deleteWebhook'>> {
    return this.#call('deleteWebhook', { endpoint_id: endpointId });
  }

  /** Sends a signed `webhook.test` message to the endpoint now and says how it answered. */
  testWebhook(endpointId: string): Promise<ResultOf<'testWebhook'>> {
    return this.#call('testWebhook', { endpoint_id: endpointId });
  }

  /** Deliveries of an endpoint or of an event, each with its attempts, newest first. */
  async webhookDeliveries(filter: InputOf<'listWebhookDeliveries'>): Promise<WebhookDelivery[]> {
    return (await this.#call('listWebhookDeliveries', filter)).items;
  }

  /** Sends an event again, to one endpoint or to every endpoint that takes it. */
  redeliverWebhookEvent(eventId: string, endpointId?: string): Promise<ResultOf<'redeliverWebhookEvent'>> {
    return this.#call('redeliverWebhookEvent', {
      event_id: eventId,
      ...(endpointId === undefined ? {} : { endpoint_id: endpointId }),
    });
  }

  /** One page of the app's events, oldest first: the same objects as the webhook bodies. */
  listEvents(filter: EventFilter = {}): Promise<EventPage> {
    return this.#call('listEvents', filter);
  }

  /** Every event matching the filter, page after page. */
  listAllEvents(filter: Omit<EventFilter, 'cursor'> = {}): AsyncGenerator<WebhookEvent> {
    return this.#pages((cursor) => this.listEvents({ ...filter, ...cursor }));
  }

  async *#pages<T>(
    page: (cursor: { cursor?: string }) => Promise<{ items: T[]; next_cursor: string | null }>,
  ): AsyncGenerator<T> {
    let cursor: string | null = null;
    do {
      const result: { items: T[]; next_cursor: string | null } = await page(
        cursor === null ? {} : { cursor },
      );
      yield* result.items;
      cursor = result.next_cursor;
    } while (cursor !== null);
  }

  /** A valid access token: the one held, or a new one when it is close to expiring. */
  async #accessToken(): Promise<string> {
    if (this.#token !== undefined && this.#now() < this.#token.renewAt) return this.#token.value;
    // One exchange at a time: concurrent calls wait for the same one.
    this.#exchanging ??= this.#exchange().finally(() => {
      this.#exchanging = undefined;
    });
    return (await this.#exchanging).value;
  }

  async #exchange(): Promise<HeldToken> {
    const obtainedAt = this.#now();
    const token: AccessToken = await this.#call(
      'exchangeToken',
      { app_secret: this.#appSecret },
      { authenticated: false },
    );
    const lifetimeMs = token.expires_in * 1000;
    const held = {
      value: token.access_token,
      renewAt: obtainedAt + lifetimeMs - Math.min(this.#renewBeforeMs, lifetimeMs / 2),
    };
    this.#token = held;
    return held;
  }

  async #call<O extends PartnerOperation>(
    operation: O,
    input: object,
    options: { idempotencyKey?: string; authenticated?: boolean } = {},
  ): Promise<ResultOf<O>> {
    const path = PATHS[operation];
    const authenticated = options.authenticated ?? true;
    let retries = 0;
    let renewed = false;
    for (;;) {
      const token = authenticated ? await this.#accessToken() : undefined;
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json',
      };
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
      if (this.#language !== undefined) headers['accept-language'] = this.#language;
      // A fresh timestamp per attempt: the service compares repeated keys without it.
      const body = JSON.stringify({
        ...input,
        app_id: this.#appId,
        timestamp: Math.floor(this.#now() / 1000),
      });

      let failure: CardApplyError | CardApplyNetworkError;
      try {
        const response = await this.#fetch(`${this.#baseUrl}${path}`, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
        const text = await response.text();
        const envelope = parseEnvelope(text);
        if (response.ok && envelope?.code === 0) return envelope.data as ResultOf<O>;
        failure = new CardApplyError({
          status: response.status,
          code: envelope?.code ?? response.status * 100,
          msg: envelope?.msg ?? (text.slice(0, 200) || response.statusText),
          data: envelope?.data ?? null,
          requestId: response.headers.get('x-request-id') ?? undefined,
          retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after'), this.#now()),
          path,
        });
      } catch (error) {
        failure = new CardApplyNetworkError(path, retries + 1, error);
      }

      if (
        failure instanceof CardApplyError &&
        failure.code === ERROR_CODES.tokenExpired &&
        token !== undefined &&
        !renewed
      ) {
        // The service's clock ran ahead of ours: exchange again, once.
        renewed = true;
        if (this.#token?.value === token) this.#token = undefined;
        continue;
      }
      const retryable = failure instanceof CardApplyNetworkError || isRetryable(failure);
      const delayMs =
        retryable && retries < this.#retry.maxRetries
          ? retryDelayMs(
              this.#retry,
              retries,
              failure instanceof CardApplyError ? failure.retryAfterSeconds : undefined,
            )
          : undefined;
      if (delayMs === undefined) throw failure;
      retries += 1;
      this.#onRetry?.({ path, retry: retries, delayMs, reason: failure });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

/** A serial number, or your own reference given at the submit. */
export type ApplicationReference = string | { external_id: string };

function referenceOf(reference: ApplicationReference): { busi_water_no: string } | { external_id: string } {
  return typeof reference === 'string'
    ? { busi_water_no: reference }
    : { external_id: reference.external_id };
}

/**
 * The names of reason codes in the given code tables (from `codes()`), in English or Chinese; a
 * code the tables do not know is given as it is.
 */
export function reasonCodeNames(
  tables: CodeTables,
  codes: readonly string[],
  language: 'en' | 'zh' = 'en',
): string[] {
  const byCode = new Map(tables.reason.map((entry) => [entry.code, entry]));
  return codes.map((code) => {
    const entry = byCode.get(code);
    return entry === undefined ? code : language === 'zh' ? entry.name_zh : entry.name;
  });
}

function withDigest(application: ApplicationInput): Record<string, unknown> {
  const { payPassword, ...rest } = application;
  return payPassword === undefined ? rest : { ...rest, pay_pwd: payPasswordDigest(payPassword) };
}

function parseEnvelope(text: string): { code: number; data: unknown; msg: string } | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as { code?: unknown }).code === 'number'
    ) {
      return parsed as { code: number; data: unknown; msg: string };
    }
  } catch {
    // not JSON: a proxy's error page
  }
  return undefined;
}
