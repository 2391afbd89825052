import type { REQUEST_ERRORS } from '../catalogue/requestErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

const RETRY_LATER = 'Retry with the same `Idempotency-Key` after a pause; the request was not done.';

/**
 * The request and the service: what to do when the body, a header, the route, the key or the rate
 * is refused, or the service could not answer.
 */
export const REQUEST_GUIDANCE: { readonly [K in keyof typeof REQUEST_ERRORS]: Guidance } = {
  bodyNotJson: {
    cause: 'The body could not be parsed as JSON (a trailing comma, single quotes, a truncated body).',
    remedy: 'Serialise the body with a JSON library; do not build it by string concatenation.',
  },
  bodyNotObject: {
    cause: 'The body is JSON, but an array, a string, a number or null.',
    remedy: 'Send one JSON object with the fields of the operation.',
  },
  bodyDuplicateKey: {
    cause:
      'The same member name appears twice in one object; parsers disagree on which wins, so it is refused.',
    remedy: 'Send each field once.',
  },
  bodyBadEncoding: {
    cause: 'The body bytes are not valid UTF-8 (often GBK or Latin-1 text sent as is).',
    remedy: 'Encode the body as UTF-8, and declare `charset=utf-8` if you name a charset.',
  },
  bodyForbiddenKey: {
    cause: 'A member is named `__proto__`, `constructor` or `prototype`, names used to attack JSON parsers.',
    remedy: 'Remove that member; no operation takes it.',
  },
  bodyTooDeep: {
    cause: 'Objects or arrays are nested deeper than any operation needs.',
    remedy: 'Send the documented, flat shape of the operation.',
  },
  bodyEmpty: {
    cause: 'A POST arrived without a body.',
    remedy: 'Send a JSON object, at least `{app_id, timestamp}` (`{}` for admin routes that need nothing).',
  },
  headerInvalid: {
    cause: 'A header the service reads has an unusable value; the message names the header and the rule.',
    remedy: 'Correct that header (for example an `Idempotency-Key` of 1-255 visible characters).',
  },
  requestMalformed: {
    cause: 'The HTTP request itself could not be read (a broken request line or framing).',
    remedy: 'Use a standard HTTP client; check any proxy in between.',
  },
  requestTimeout: {
    cause: 'The request (or its headers) did not arrive completely within the time-outs.',
    remedy: 'Send the whole request without pauses (headers within `HEADERS_TIMEOUT_MS`), then retry.',
  },
  headersTooLarge: {
    cause: 'The request headers are larger than the server accepts (16 KiB in all).',
    remedy: 'Send fewer or shorter headers (cookies and tracing headers are the usual cause), then retry.',
  },
  routeNotFound: {
    cause: 'No operation has this method and path.',
    remedy: 'Check the path against the API reference (`/docs`); partner operations are all POST.',
  },
  idempotencyKeyReused: {
    cause: 'This `Idempotency-Key` was used within the last day with a different body.',
    remedy: 'A key is for retrying one request: send a different body with a new `Idempotency-Key`.',
  },
  idempotencyInProgress: {
    cause: 'The first request with this key has not finished yet.',
    remedy: 'Wait `Retry-After` seconds and retry with the same key: you will get its answer.',
  },
  bodyTooLarge: {
    cause: 'The body is larger than the limit (64 KiB by default); images are URLs, not content.',
    remedy: 'Send image URLs rather than image data, and no unused fields.',
  },
  unsupportedContentType: {
    cause: 'The `Content-Type` is not `application/json`.',
    remedy: 'Send `Content-Type: application/json` (with `charset=utf-8` if any).',
  },
  xmlContentTypeRequired: {
    cause: 'A list upload was sent as something other than XML or JSON lines (JSON, or no body).',
    remedy:
      'Send the list file as published with `Content-Type: application/xml` (or `text/xml`); OpenSanctions entities with `application/x-ndjson`.',
  },
  rateLimited: {
    cause: 'The app sent more requests than its limit (50 per second, burst 100, by default).',
    remedy: 'Wait `Retry-After` seconds, then retry; spread bulk work over time.',
  },
  concurrencyLimited: {
    cause:
      'The app already had as many requests in progress at once as allowed (16 per service process by default, APP_CONCURRENCY_LIMIT); the request was refused before any work.',
    remedy:
      'Wait `Retry-After` seconds, then retry; send fewer requests at once (fewer connections or a smaller pool).',
  },
  internal: {
    cause: 'An unexpected fault in the service; nothing of the request was committed.',
    remedy: 'Retry later with the same `Idempotency-Key`; report persistent 500s with the `x-request-id`.',
  },
  storeUnavailable: {
    cause: 'The database is unreachable or overloaded; nothing of the request was committed.',
    remedy: RETRY_LATER,
  },
  notReady: {
    cause: 'This instance is starting, stopping or missing a dependency (`/readyz` lists why).',
    remedy: 'Send traffic to another instance; a load balancer does this by itself.',
  },
};
