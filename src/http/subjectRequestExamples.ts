import { createHash } from 'node:crypto';
import { EXAMPLE_APPLICANT } from '../applications/rules/exampleApplicant.ts';
import {
  SUBJECT_REQUEST_EVENT_TYPES,
  type SubjectRequestEnd,
  type SubjectRequestEventType,
} from '../events/subjectRequestPayload.ts';
import {
  APP_ID,
  CANCELLED_AT,
  eventExample,
  EXTERNAL_ID,
  ok,
  SERIAL,
  SUBMITTED_AT,
  submittedView,
  TIMESTAMP,
  type OperationExample,
} from './openapiExamples.ts';

/**
 * The OpenAPI document's examples of an applicant's requests through the partner (docs/PRIVACY.md):
 * the request, its export and the webhook that says it ended, with the values of the other
 * examples (openapiExamples.ts), so that the document tells one applicant's story throughout.
 */

const REQUEST_ID = 'sr_019a5c8e9b4f2d7c1e3a5b7d9f0e2c4a';
const SUBJECT_REQUEST = {
  request_id: REQUEST_ID,
  kind: 'access',
  status: 'received',
  busi_water_no: SERIAL,
  applications: [SERIAL],
  reason_code: null,
  reason: null,
  restricted_until: null,
  due_at: CANCELLED_AT + 15 * 86_400,
  created_at: CANCELLED_AT,
  updated_at: CANCELLED_AT,
  ended_at: null,
  export: { ready: false, expires_at: null, fetched_at: null },
};

/** A 1×1 PNG, as a kept document's bytes appear in an export. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The export of an access request (docs/PRIVACY.md): one application, one image kept, the rest not yet. */
function subjectExportExample() {
  const { pay_pwd: _password, card_no: _card, ...submitted } = EXAMPLE_APPLICANT as Record<string, unknown>;
  const bytes = Buffer.from(PIXEL_PNG, 'base64');
  return {
    format: 'cardapply.subject_export',
    version: 1,
    request_id: REQUEST_ID,
    kind: 'access',
    app_id: APP_ID,
    generated_at: CANCELLED_AT + 60,
    applications: [
      {
        busi_water_no: SERIAL,
        submitted: { ...submitted, external_id: EXTERNAL_ID },
        status: submittedView,
        events: [eventExample('SUBMITTED')],
        documents: [
          {
            field: 'id_card_img',
            state: 'kept',
            reason: null,
            content_type: 'image/png',
            byte_size: bytes.length,
            sha256: createHash('sha256').update(bytes).digest('hex'),
            content_base64: PIXEL_PNG,
          },
          {
            field: 'pay_voucher',
            state: 'failed',
            reason: 'unreachable',
            content_type: null,
            byte_size: null,
            sha256: null,
            content_base64: null,
          },
        ],
      },
    ],
  };
}

/** An applicant's request through the partner (docs/PRIVACY.md). */
export const SUBJECT_REQUEST_EXAMPLES: Record<string, OperationExample> = {
  createSubjectRequest: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, kind: 'access', busi_water_no: SERIAL },
    response: ok(SUBJECT_REQUEST),
  },
  querySubjectRequest: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, request_id: REQUEST_ID },
    response: ok(SUBJECT_REQUEST),
  },
  listSubjectRequests: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, status: 'received', limit: 20 },
    response: ok({ items: [SUBJECT_REQUEST], next_cursor: null }),
  },
  downloadSubjectExport: {
    request: { app_id: APP_ID, timestamp: TIMESTAMP, request_id: REQUEST_ID },
    response: subjectExportExample(),
  },
};

/** subject_request.completed, .restricted or .refused: an applicant's request through the partner ended. */
export function subjectRequestExample(type: SubjectRequestEventType) {
  const status = type.slice('subject_request.'.length) as SubjectRequestEnd;
  const created = SUBMITTED_AT + 10 * 86_400;
  const ended = created + 3 * 86_400;
  const refusal = status === 'refused';
  const restricted = status === 'restricted';
  return {
    id: `evt_4f1d2c3b4a5968778695a4b3c2d1e0c${SUBJECT_REQUEST_EVENT_TYPES.indexOf(type) + 1}`,
    type,
    created_at: ended,
    data: {
      busi_water_no: SERIAL,
      sequence: 7,
      subject_request: {
        request_id: 'sr_019ae1f3c2a07d3b5e61c0f4a9b28e7d',
        kind: refusal ? 'correction' : 'deletion',
        status,
        busi_water_no: SERIAL,
        applications: [SERIAL],
        reason_code: refusal ? 'data_accurate' : restricted ? 'aml_record_keeping' : null,
        reason: refusal
          ? 'The name matches the identity document as submitted.'
          : restricted
            ? 'kept under anti-money-laundering record keeping until 2031-12-10, then erased'
            : null,
        restricted_until: restricted ? ended + 5 * 365 * 86_400 + 86_400 : null,
        due_at: created + 15 * 86_400,
        created_at: created,
        updated_at: ended,
        ended_at: ended,
        // A correction or a deletion has no export.
        export: null,
      },
    },
  };
}
