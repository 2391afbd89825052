import type { DOCUMENT_EVENT_TYPES } from '../record/lifecycle.ts';
import { AMENDED_EVENT, eventTypeFor, type Status } from '../record/lifecycle.ts';
import { defaultCodeTables, TABLE_NAMES, type TableName } from '../codes/tables.ts';
import { EXAMPLE_APPLICANT } from '../applications/rules/exampleApplicant.ts';

/**
 * The examples of the OpenAPI document: a complete request and success response per partner
 * operation (keyed by operationId) and the webhook bodies; those of an applicant's requests are in
 * subjectRequestExamples.ts. They are real: a test sends every request example to the service and
 * expects `code: 0`.
 */

export const APP_ID = 'app_cfebff6333dfa2a4';
export const TIMESTAMP = 1795000000;
export const SERIAL = '01M7Q5CQG03QZV91NCTJX2D43J5KC6E8';
export const EXTERNAL_ID = 'ORD-2026-000123';
const CARD_MASKED = '539966******4242';
export const ok = <T>(data: T) => ({ code: 0, data, msg: 'success' });

/** A complete, valid application (the applicant of the README walk-through). */
export const SUBMIT_EXAMPLE = {
  app_id: APP_ID,
  timestamp: TIMESTAMP,
  ...EXAMPLE_APPLICANT,
  external_id: EXTERNAL_ID,
};

export const SUBMITTED_AT = TIMESTAMP;
export const CANCELLED_AT = TIMESTAMP + 600;

/** What became of the five images a few seconds after the submit. */
const keptJpeg = (size: number, sha256: string) => ({
  state: 'kept' as const,
  type: 'image/jpeg' as const,
  size,
  sha256,
  width: 1600,
  height: 1000,
  fetched_at: SUBMITTED_AT + 2,
});
const DOCUMENTS = {
  id_card_img: keptJpeg(412_331, '5f1c0f8e0d4b7a3c9e2d6b8a1f4c7e0d3b6a9c2e5f8b1d4a7c0e3f6b9d2a5c8e'),
  id_card_back_img: keptJpeg(398_120, '0a3d6c9f2b5e8a1d4c7f0b3e6a9d2c5f8b1e4a7d0c3f6b9e2a5d8c1f4b7e0a3d'),
  passport_img: { state: 'failed' as const, reason: 'unreachable' as const },
  sign_applicant: { state: 'pending' as const },
  pay_voucher: keptJpeg(120_774, 'c4e7a0d3f6b9c2e5a8d1f4b7e0c3a6d9f2b5e8c1a4d7f0b3e6c9a2d5f8b1e4a7'),
};

export const submittedView = {
  busi_water_no: SERIAL,
  external_id: EXTERNAL_ID,
  status: 'SUBMITTED',
  status_reason: null,
  reason_codes: [],
  requested_fields: [],
  card_no_masked: CARD_MASKED,
  created_at: SUBMITTED_AT,
  updated_at: SUBMITTED_AT,
  history: [{ status: 'SUBMITTED', at: SUBMITTED_AT, reason: null, reason_codes: [] }],
  documents: DOCUMENTS,
};

const CANCEL_REASON = 'The customer withdrew the application.';

const cancelledView = {
  ...submittedView,
  status: 'CANCELLED',
  status_reason: CANCEL_REASON,
  updated_at: CANCELLED_AT,
  history: [
    ...submittedView.history,
    { status: 'CANCELLED', at: CANCELLED_AT, reason: CANCEL_REASON, reason_codes: [] },
  ],
};

/** Where each event's application came from, and its place in that application's sequence. */
const PATH_TO: Record<Status, { previous: Status | null; sequence: number }> = {
  SUBMITTED: { previous: null, sequence: 1 },
  IN_REVIEW: { previous: 'SUBMITTED', sequence: 2 },
  APPROVED: { previous: 'IN_REVIEW', sequence: 3 },
  CARD_ISSUED: { previous: 'APPROVED', sequence: 4 },
  SHIPPED: { previous: 'CARD_ISSUED', sequence: 5 },
  DELIVERED: { previous: 'SHIPPED', sequence: 6 },
  REJECTED: { previous: 'IN_REVIEW', sequence: 3 },
  CANCELLED: { previous: 'SUBMITTED', sequence: 2 },
  SUPPLEMENT_REQUIRED: { previous: 'IN_REVIEW', sequence: 3 },
  EXPIRED: { previous: 'SUPPLEMENT_REQUIRED', sequence: 4 },
  RETURNED: { previous: 'SHIPPED', sequence: 6 },
};

const REASONS: Partial<Record<Status, string>> = {
  REJECTED: 'The identity document is illegible.',
  CANCELLED: CANCEL_REASON,
};

/** The body of a webhook, and an item of the events list. */
export function eventExample(status: Status) {
  const { previous, sequence } = PATH_TO[status];
  return {
    id: `evt_4f1d2c3b4a5968778695a4b3c2d1e0${String(sequence).padStart(2, '0')}`,
    type: eventTypeFor(status),
    created_at: SUBMITTED_AT + (sequence - 1) * 60,
    data: {
      busi_water_no: SERIAL,
      sequence,
      status,
      previous_status: previous,
      reason: REASONS[status] ?? null,
      reason_codes: status === 'REJECTED' ? ['document_unreadable'] : [],
      card_no_masked: CARD_MASKED,
      external_id: EXTERNAL_ID,
    },
  };
}

export interface OperationExample {
  request: Record<string, unknown>;
  response: unknown;
}

const ENDPOINT_ID = 'we_5c0ffee5c0ffee5c0ffe';
const endpointExample = {
  endpoint_id: ENDPOINT_ID,
  id: ENDPOINT_ID,
  app_id: APP_ID,
  url: 'https://hooks.partner.example/cardapply',
  events: null,
  status: 'active',
  failing_since: null,
  disabled_reason: null,
  created_at: SUBMITTED_AT,
  updated_at: SUBMITTED_AT,
  secrets: [{ id: 'ws_0a1b2c3d4e5f60718293', created_at: SUBMITTED_AT, expires_at: null }],
};
const createdEndpointExample = { ...endpointExample, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
const webhookRequest = (extra: Record<string, unknown> = {}) => ({
  app_id: APP_ID,
  timestamp: TIMESTAMP,
  ...extra,
});

/** Examples of the partner's webhook self-service, by operationId. */
const WEBHOOK_EXAMPLES: Record<string, OperationExample> = {
  registerWebhook: {
    request: webhookRequest({ url: endpointExample.url }),
    response: ok(createdEndpointExample),
  },
  listWebhooks: { request: webhookRequest(), response: ok({ items: [endpointExample] }) },
  showWebhook: { request: webhookRequest({ endpoint_id: ENDPOINT_ID }), response: ok(endpointExample) },
  rotateWebhookSecret: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID, overlap_seconds: 86_400 }),
    response: ok({
      ...createdEndpointExample,
      secret: 'whsec_2xZq7vYb0cNf4HkD1tR9sLpW3mJe6GaU',
      secrets: [
        { id: 'ws_9f8e7d6c5b4a39281706', created_at: SUBMITTED_AT + 600, expires_at: null },
        { id: 'ws_0a1b2c3d4e5f60718293', created_at: SUBMITTED_AT, expires_at: SUBMITTED_AT + 600 + 86_400 },
      ],
    }),
  },
  disableWebhook: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID }),
    response: ok({ ...endpointExample, status: 'disabled' }),
  },
  enableWebhook: { request: webhookRequest({ endpoint_id: ENDPOINT_ID }), response: ok(endpointExample) },
  deleteWebhook: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID }),
    response: ok({ endpoint_id: ENDPOINT_ID, id: ENDPOINT_ID, deleted: true }),
  },
  testWebhook: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID }),
    response: ok({
      event_id: 'evt_test_6d1f0a9b8c7e6d5f4a3b2c1d',
      delivered: true,
      status_code: 204,
      error: null,
      duration_ms: 87,
    }),
  },
  listWebhookDeliveries: {
    request: webhookRequest({ endpoint_id: ENDPOINT_ID, status: 'failed', limit: 20 }),
    response: ok({
      items: [
        {
          id: 'dl_3e2d1c0b9a8f7e6d5c4b',
          event_id: eventExample('SUBMITTED').id,
          event_type: 'application.submitted',
          endpoint_id: ENDPOINT_ID,
          status: 'failed',
          attempt_count: 12,
          next_attempt_at: null,
          give_up_at: SUBMITTED_AT + 86_400,
          leased_by: null,
          last_status_code: 500,
          last_error: 'HTTP 500',
          delivered_at: null,
          created_at: SUBMITTED_AT,
          attempts: [
            {
              started_at_ms: SUBMITTED_AT * 1000 + 120,
              duration_ms: 45,
              status_code: 500,
              error: 'HTTP 500',
              worker: 'host-1:4242:ab12',
            },
          ],
        },
      ],
    }),
  },
  redeliverWebhookEvent: {
    request: webhookRequest({ event_id: eventExample('SUBMITTED').id, endpoint_id: ENDPOINT_ID }),
    response: ok({ queued: 1, in_flight: 0 }),
  },
};

/** One request and one success response per partner operation, by operationId. */
export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  exchangeToken: {
    request: {
      app_id: APP_ID,
      app_secret: 'sk_K_vZArJZX6zJxU-qln4M4Yan4taA4HavHxqkka0OB9E',
      timestamp: TIMESTAMP,
    },
    response: ok({
      access_token: 'at_Vq3mJ0cX9bq1hY8rW2nT5kLzP4sD7fG6aE1uC0oI9yQ',
      token_type: 'Bearer',
      expires_in: 7200,
    }),
  },
  submitApplication: { request: SUBMIT_EXAMPLE, response: ok({ busi_water_no: SERIAL }) },
  validateApplication: { request: SUBMIT_EXAMPLE, response: ok({ valid: true }) },
  queryApplication: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, busi_water_no: SERIAL },
    response: ok(submittedView),
  },
  listApplications: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, status: 'SUBMITTED', limit: 20 },
    response: ok({ items: [submittedView], next_cursor: null }),
  },
  cancelApplication: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, busi_water_no: SERIAL, reason: CANCEL_REASON },
    response: ok(cancelledView),
  },
  simulateTransition: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, busi_water_no: SERIAL, status: 'IN_REVIEW' },
    response: ok({
      ...submittedView,
      status: 'IN_REVIEW',
      updated_at: SUBMITTED_AT + 60,
      history: [
        ...submittedView.history,
        { status: 'IN_REVIEW', at: SUBMITTED_AT + 60, reason: null, reason_codes: [] },
      ],
    }),
  },
  amendApplication: {
    request: {
      app_id: APP_ID,
      timestamp: TIMESTAMP,
      busi_water_no: SERIAL,
      id_card_img: 'https://img.example.com/a/id-front-retaken.jpg',
    },
    response: ok({
      ...submittedView,
      status: 'IN_REVIEW',
      updated_at: SUBMITTED_AT + 3600,
      history: [
        ...submittedView.history,
        { status: 'IN_REVIEW', at: SUBMITTED_AT + 60, reason: null, reason_codes: [] },
        {
          status: 'SUPPLEMENT_REQUIRED',
          at: SUBMITTED_AT + 120,
          reason: 'The front image is blurred.',
          reason_codes: ['document_unreadable'],
          requested_fields: ['id_card_img'],
        },
        {
          status: 'IN_REVIEW',
          at: SUBMITTED_AT + 3600,
          reason: null,
          reason_codes: [],
          amended_fields: ['id_card_img'],
          changed_fields: ['id_card_img'],
        },
      ],
    }),
  },
  listCodes: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP },
    response: ok(codeTablesExample()),
  },
  listEvents: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, busi_water_no: SERIAL, limit: 20 },
    response: ok({ items: [eventExample('SUBMITTED'), eventExample('CANCELLED')], next_cursor: null }),
  },
  ...WEBHOOK_EXAMPLES,
};

/** The default entries of the codes the submit example uses. */
function codeTablesExample() {
  const tables = defaultCodeTables().tables;
  const used: Record<TableName, string[]> = {
    country: [SUBMIT_EXAMPLE.country],
    position: [SUBMIT_EXAMPLE.position],
    profession: [SUBMIT_EXAMPLE.profession],
    purpose: SUBMIT_EXAMPLE.purpose,
    wealth_source: SUBMIT_EXAMPLE.wealth_source,
    reason: ['document_unreadable', 'other'],
  };
  return Object.fromEntries(
    TABLE_NAMES.map((name) => [name, tables[name].filter((entry) => used[name].includes(entry.code))]),
  );
}

/** The body of an `application.amended` webhook. */
export function amendedExample() {
  const base = eventExample('IN_REVIEW');
  return {
    ...base,
    id: 'evt_4f1d2c3b4a5968778695a4b3c2d1e0a4',
    type: AMENDED_EVENT,
    created_at: SUBMITTED_AT + 3600,
    data: {
      ...base.data,
      sequence: 4,
      previous_status: 'SUPPLEMENT_REQUIRED',
      amended_fields: ['id_card_img'],
      changed_fields: ['id_card_img'],
    },
  };
}

/** application.documents_kept or application.document_failed, after the submission. */
export function documentsExample(type: (typeof DOCUMENT_EVENT_TYPES)[number]) {
  const base = eventExample('SUBMITTED');
  const kept = type === 'application.documents_kept';
  return {
    ...base,
    id: kept ? 'evt_4f1d2c3b4a5968778695a4b3c2d1e0b1' : 'evt_4f1d2c3b4a5968778695a4b3c2d1e0b2',
    type,
    created_at: SUBMITTED_AT + 3,
    data: {
      ...base.data,
      sequence: 2,
      previous_status: 'SUBMITTED',
      documents: kept
        ? {
            ...DOCUMENTS,
            passport_img: keptJpeg(501_002, DOCUMENTS.id_card_img.sha256.replace('5f', 'a7')),
            sign_applicant: keptJpeg(40_310, DOCUMENTS.pay_voucher.sha256.replace('c4', '9b')),
          }
        : { passport_img: { state: 'failed', reason: 'not_a_document' } },
    },
  };
}
