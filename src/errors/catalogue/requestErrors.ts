import { entry, type CatalogueEntry } from './entry.ts';

/**
 * Reading the request and the service itself: a body that is not one JSON object, a bad header, no
 * such route, the size and type of the body, the `Idempotency-Key`, the partner's rate and
 * concurrency, and the 5xx (never internals).
 */
export const REQUEST_ERRORS = {
  // 400: the body could not be read as a JSON object.
  bodyNotJson: entry(40001, 'body_not_json', 'body: is not valid JSON', 'body: 不是合法的 JSON'),
  bodyNotObject: entry(40002, 'body_not_object', 'body: must be a JSON object', 'body: 必须是 JSON 对象'),
  bodyDuplicateKey: entry(
    40003,
    'body_duplicate_key',
    '{field}: appears more than once in the body',
    '{field}: 在请求体中重复出现',
  ),
  bodyBadEncoding: entry(
    40004,
    'body_bad_encoding',
    'body: is not valid UTF-8',
    'body: 不是合法的 UTF-8 编码',
  ),
  bodyForbiddenKey: entry(
    40005,
    'body_forbidden_key',
    '{field}: this key name is not allowed',
    '{field}: 不允许使用该键名',
  ),
  bodyTooDeep: entry(
    40006,
    'body_too_deep',
    'body: is nested deeper than {max} levels',
    'body: 嵌套层级超过 {max} 层',
  ),
  bodyEmpty: entry(
    40007,
    'body_empty',
    'body: is empty; a JSON object is required',
    'body: 为空，需要 JSON 对象',
  ),
  headerInvalid: entry(40008, 'header_invalid', '{field}: {reason}', '{field}: {reason_zh}'),
  requestMalformed: entry(40009, 'request_malformed', 'request: is malformed', 'request: 请求格式错误'),
  // 408, 431: refused by the HTTP parser before any route (a slow client, oversized headers).
  requestTimeout: entry(
    40801,
    'request_timeout',
    'request: did not arrive in time',
    'request: 未能在时限内送达',
  ),
  headersTooLarge: entry(
    43101,
    'headers_too_large',
    'headers: are larger than the server accepts',
    'headers: 超过服务器允许的大小',
  ),
  // 404
  routeNotFound: entry(40402, 'route_not_found', 'path: no such route', 'path: 接口不存在'),
  // 409: the key was used before, or is in use.
  idempotencyKeyReused: entry(
    40903,
    'idempotency_key_reused',
    'Idempotency-Key: was used before with a different body',
    'Idempotency-Key: 已用于不同的请求体',
  ),
  idempotencyInProgress: entry(
    40904,
    'idempotency_in_progress',
    'Idempotency-Key: a request with this key is still in progress',
    'Idempotency-Key: 使用该键的请求仍在处理中',
  ),
  // 413, 415
  bodyTooLarge: entry(
    41301,
    'body_too_large',
    'body: is larger than {max} bytes',
    'body: 超过 {max} 字节的上限',
  ),
  unsupportedContentType: entry(
    41501,
    'unsupported_content_type',
    'Content-Type: must be application/json',
    'Content-Type: 必须为 application/json',
  ),
  xmlContentTypeRequired: entry(
    41502,
    'xml_content_type_required',
    'Content-Type: must be application/xml or text/xml, or application/x-ndjson for OpenSanctions (the list file as published)',
    'Content-Type: 必须为 application/xml 或 text/xml，OpenSanctions 为 application/x-ndjson（按原样上传名单文件）',
  ),
  // 429
  rateLimited: entry(
    42901,
    'rate_limited',
    'app_id: rate limit exceeded; retry after {retry_after} seconds',
    'app_id: 超出调用频率限制，请在 {retry_after} 秒后重试',
  ),
  concurrencyLimited: entry(
    42904,
    'concurrency_limited',
    'app_id: {app_id} already has {limit} requests in progress, the most allowed at once; retry after {retry_after} seconds',
    'app_id: {app_id} 已有 {limit} 个请求正在处理，已达同时处理上限，请在 {retry_after} 秒后重试',
  ),
  // 5xx: never internals.
  internal: entry(50001, 'internal', 'internal error; the request was not completed', '内部错误，请求未完成'),
  storeUnavailable: entry(
    50301,
    'store_unavailable',
    'service temporarily unavailable; retry later',
    '服务暂不可用，请稍后重试',
  ),
  notReady: entry(50302, 'not_ready', 'instance not ready: {reasons}', '实例未就绪：{reasons}'),
} as const satisfies Record<string, CatalogueEntry>;
