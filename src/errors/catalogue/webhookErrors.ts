import { entry, type CatalogueEntry } from './entry.ts';

/** Webhooks: the endpoints an operator manages and the events delivered to them. */
export const WEBHOOK_ERRORS = {
  webhookEndpointNotFound: entry(
    40410,
    'webhook_endpoint_not_found',
    'id: no such webhook endpoint',
    'id: Webhook 端点不存在',
  ),
  eventNotFound: entry(40411, 'event_not_found', 'event_id: no such event', 'event_id: 事件不存在'),
  webhookEndpointDisabled: entry(
    40930,
    'webhook_endpoint_disabled',
    'id: the webhook endpoint is disabled; enable it first',
    'id: Webhook 端点已停用，请先启用',
  ),
  webhookUrlUnresolvable: entry(
    42280,
    'webhook_url_unresolvable',
    '{field}: the host name does not resolve',
    '{field}: 主机名无法解析',
  ),
} as const satisfies Record<string, CatalogueEntry>;
