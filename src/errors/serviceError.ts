import type { ErrorName, Params } from './catalogue.ts';
import type { FieldProblem } from './problems.ts';

/**
 * A failure that is rendered (as the envelope, or the CLI's message), never traced: it carries no
 * stack. Capturing one under Fastify's hooks cost 6 to 13 us an error, 8% of the event loop while
 * a flood of one app was being refused (429 and 409).
 */
abstract class ExpectedFailure extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/**
 * An expected failure of an operation, named by its catalogue entry. The domain throws these; the
 * HTTP layer renders them as the envelope, the CLI as a message. Anything else is a fault (500).
 */
export class ServiceError extends ExpectedFailure {
  override readonly name = 'ServiceError';
  readonly error: ErrorName;
  readonly params: Params | undefined;
  /** Goes to the envelope's `data` as is: never put identity data here. */
  readonly data: Record<string, unknown> | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    error: ErrorName,
    options: { params?: Params; data?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(error);
    this.error = error;
    this.params = options.params;
    this.data = options.data;
    this.headers = options.headers;
  }
}

/** Field validation failed: every problem found, in field order. */
export class ValidationError extends ExpectedFailure {
  override readonly name = 'ValidationError';
  readonly problems: readonly FieldProblem[];

  constructor(problems: readonly FieldProblem[]) {
    super('validation failed');
    this.problems = problems;
  }
}
