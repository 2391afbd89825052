import type { FieldError } from './types.ts';

/**
 * Catalogue codes the client acts on itself. Every code, its cause and what to do:
 * docs/ERRORS.md in the service's repository.
 */
export const ERROR_CODES = {
  tokenExpired: 40103,
  idempotencyKeyReused: 40903,
  idempotencyInProgress: 40904,
  duplicateApplication: 40901,
  rateLimited: 42901,
  internal: 50001,
  storeUnavailable: 50301,
} as const;

/** The service answered with an error envelope `{code, data, msg}` (after any retries). */
export class CardApplyError extends Error {
  override readonly name = 'CardApplyError';
  /** HTTP status. */
  readonly status: number;
  /** Catalogue code: HTTP status × 100 + detail (`42206`). */
  readonly code: number;
  /** The service's message, naming the field and the rule. */
  readonly msg: string;
  /** Every problem of a rejected request (422); empty otherwise. */
  readonly fieldErrors: readonly FieldError[];
  /** `data` of the envelope: for a duplicate, the serial of the partner's own application. */
  readonly data: unknown;
  /** The `x-request-id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (`Retry-After`), if it did. */
  readonly retryAfterSeconds: number | undefined;
  /** The path that was called. */
  readonly path: string;

  constructor(details: {
    status: number;
    code: number;
    msg: string;
    data: unknown;
    requestId: string | undefined;
    retryAfterSeconds: number | undefined;
    path: string;
  }) {
    super(`${details.path}: HTTP ${details.status}, code ${details.code}: ${details.msg}`);
    this.status = details.status;
    this.code = details.code;
    this.msg = details.msg;
    this.data = details.data;
    this.fieldErrors = fieldErrorsOf(details.data);
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.path = details.path;
  }
}

/** No answer came back (connection refused or reset, time-out), even after the retries. */
export class CardApplyNetworkError extends Error {
  override readonly name = 'CardApplyNetworkError';
  readonly path: string;
  readonly attempts: number;

  constructor(path: string, attempts: number, cause: unknown) {
    super(`${path}: no answer after ${attempts} attempt(s): ${describe(cause)}`, { cause });
    this.path = path;
    this.attempts = attempts;
  }
}

function fieldErrorsOf(data: unknown): FieldError[] {
  if (typeof data !== 'object' || data === null) return [];
  const errors = (data as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : [];
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? error.message;
}
