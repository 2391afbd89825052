export {
  CardApplyClient,
  payPasswordDigest,
  reasonCodeNames,
  type ApplicationReference,
  type CancelOptions,
  type CardApplyClientOptions,
  type RetryEvent,
  type SubmitOptions,
} from './client.ts';
export { CardApplyError, CardApplyNetworkError, ERROR_CODES } from './errors.ts';
export { isRetryable, retryDelayMs, type RetryPolicy } from './retry.ts';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyOptions,
  type WebhookFailure,
  type WebhookHeaders,
} from './webhooks.ts';
export type * from './types.ts';
export type { components, operations, paths, webhooks } from './schema.ts';
