import type { WEBHOOK_ERRORS } from '../catalogue/webhookErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** Webhooks: endpoints and events. */
export const WEBHOOK_GUIDANCE: { readonly [K in keyof typeof WEBHOOK_ERRORS]: Guidance } = {
  webhookEndpointNotFound: {
    cause: 'No webhook endpoint has that id, or it belongs to another app.',
    remedy: 'List your endpoints (`webhooks/list`) and use one of their ids.',
  },
  eventNotFound: {
    cause: 'No event has that id, or it belongs to another app.',
    remedy: 'Take event ids from the events list or from the `webhook-id` header of a delivery.',
  },
  webhookEndpointDisabled: {
    cause:
      'A redelivery was asked of a disabled endpoint (disabled by hand, or by the service after five days of failures).',
    remedy: 'Enable the endpoint once its receiver works, then redeliver.',
  },
  webhookUrlUnresolvable: {
    cause: 'The webhook URL’s host name does not resolve in DNS.',
    remedy: 'Check the host name, or wait for its DNS record to be published.',
  },
};
