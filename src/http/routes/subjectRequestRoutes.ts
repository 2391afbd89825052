import type { TypedApp } from '../typedApp.ts';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { ExternalId, SerialNumber } from '../../record/schema.ts';
import {
  createSubjectRequest,
  listPartnerSubjectRequests,
  querySubjectRequest,
  RequestId,
  SUBJECT_LIST_LIMIT,
  SUBJECT_REQUEST_KINDS,
  SUBJECT_REQUEST_STATUSES,
  SubjectRequestView,
} from '../../subjects/subjectRequests.ts';
import { downloadSubjectExport } from '../../subjects/downloadExport.ts';
import { SubjectExport } from '../../subjects/subjectExport.ts';
import { guardPartnerRoutes, partnerOf } from '../partnerAuth.ts';
import { success } from '../envelope.ts';
import { PATHS } from '../paths.ts';
import { AppId, PARTNER_ERRORS, errorResponses, SuccessEnvelope, Timestamp } from '../schemas.ts';

const Kind = Type.Enum([...SUBJECT_REQUEST_KINDS], {
  description:
    'What the applicant asks (PIPL articles 45 to 47): `access`, `portability`, `correction` or `deletion`.',
});

const CreateRequest = Type.Object(
  {
    app_id: AppId,
    timestamp: Timestamp,
    kind: Kind,
    busi_water_no: Type.Optional(SerialNumber),
    external_id: Type.Optional(ExternalId),
  },
  {
    additionalProperties: false,
    description:
      'Names one application of the person by `busi_water_no` or `external_id` (one of them is required); the request covers every application of theirs at this partner.',
  },
);

const QueryRequest = Type.Object(
  { app_id: AppId, timestamp: Timestamp, request_id: RequestId },
  { additionalProperties: false },
);

const ListRequest = Type.Object(
  {
    app_id: AppId,
    timestamp: Timestamp,
    status: Type.Optional(
      Type.Enum([...SUBJECT_REQUEST_STATUSES], { description: 'Only requests in this state.' }),
    ),
    kind: Type.Optional(Kind),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: '`next_cursor` of the previous page.' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: SUBJECT_LIST_LIMIT, description: 'Page size; 20 by default.' }),
    ),
  },
  { additionalProperties: false },
);

const ListResponse = Type.Object({
  items: Type.Array(SubjectRequestView),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
});

/** The partner's side of an applicant's rights (docs/PRIVACY.md): ask, list, query, download. */
export function subjectRequestRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    guardPartnerRoutes(app, ctx);

    app.post(
      PATHS.subjectRequests,
      {
        config: { operation: 'subject_request.create', idempotent: true },
        schema: {
          operationId: 'createSubjectRequest',
          summary: "Forward an applicant's request: access, a portable copy, correction or deletion",
          description:
            'Received now and due `SUBJECT_REQUEST_DAYS` later (15 by default). It covers every application of that person at this partner, matched by identity document as the duplicate check matches them. One open request of a kind per person: a second is a 409 naming the first. See docs/PRIVACY.md.',
          tags: ['subject_requests'],
          body: CreateRequest,
          response: {
            200: SuccessEnvelope(SubjectRequestView),
            ...errorResponses([
              ...PARTNER_ERRORS,
              'fieldEmpty',
              'fieldTooLong',
              'fieldFormat',
              'fieldNotAllowed',
              'applicationNotFound',
              'subjectRequestOpen',
            ]),
          },
        },
      },
      async (request) => success(request, await createSubjectRequest(ctx, partnerOf(request), request.body)),
    );

    app.post(
      PATHS.subjectRequestQuery,
      {
        config: { operation: 'subject_request.query' },
        schema: {
          operationId: 'querySubjectRequest',
          summary: 'Read one of your subject requests',
          description: "Another app's request id is answered as not found.",
          tags: ['subject_requests'],
          body: QueryRequest,
          response: {
            200: SuccessEnvelope(SubjectRequestView),
            ...errorResponses([...PARTNER_ERRORS, 'fieldEmpty', 'fieldTooLong', 'subjectRequestNotFound']),
          },
        },
      },
      async (request) =>
        success(request, await querySubjectRequest(ctx, partnerOf(request), request.body.request_id)),
    );

    app.post(
      PATHS.subjectRequestList,
      {
        config: { operation: 'subject_request.list' },
        schema: {
          operationId: 'listSubjectRequests',
          summary: 'List your subject requests, newest first',
          description:
            'Filters by state and kind; a page at a time, by cursor. Each item is the view the create and the query answer.',
          tags: ['subject_requests'],
          body: ListRequest,
          response: {
            200: SuccessEnvelope(ListResponse),
            ...errorResponses([
              ...PARTNER_ERRORS,
              'fieldEmpty',
              'fieldTooLong',
              'fieldNotAllowed',
              'fieldFormat',
            ]),
          },
        },
      },
      async (request) =>
        success(request, await listPartnerSubjectRequests(ctx, partnerOf(request), request.body)),
    );

    app.post(
      PATHS.subjectRequestDownload,
      {
        config: { operation: 'subject_request.download' },
        schema: {
          operationId: 'downloadSubjectExport',
          summary: 'Download the export of an access or portability request, once',
          description:
            'The export (docs/PRIVACY.md, "The export") as a file, not in the `{code, data, msg}` envelope: the JSON document itself, `Content-Type: application/json`, `Content-Disposition: attachment`, `Cache-Control: no-store`, `X-Content-Type-Options: nosniff`, and `X-Export-SHA256` (hex SHA-256 of the body). Ready once the request is `completed` (`export.ready`); delivered once: it is erased as it is answered, and a second download is a 410 (`41060`). Not downloaded within `SUBJECT_EXPORT_HOURS` (72 by default) of being ready, it is erased (410, `41061`). Refusals come in the envelope. Every download, and every refused one, is audited.',
          tags: ['subject_requests'],
          body: QueryRequest,
          response: {
            200: {
              description: 'The export: everything the service holds about the person for you.',
              headers: {
                'content-disposition': Type.String({
                  description: '`attachment; filename="subject-export-<request_id>.json"`',
                }),
                'x-export-sha256': Type.String({ description: 'Hex SHA-256 of the body.' }),
              },
              content: {
                // The stored file, sent as it is (never re-serialised): documented by its format.
                'application/json': { schema: Type.Unsafe<Buffer>(SubjectExport) },
              },
            },
            ...errorResponses([
              ...PARTNER_ERRORS,
              'fieldEmpty',
              'fieldTooLong',
              'subjectRequestNotFound',
              'subjectExportNotReady',
              'subjectExportDelivered',
              'subjectExportExpired',
            ]),
          },
        },
      },
      async (request, reply) => {
        const delivered = await downloadSubjectExport(ctx, partnerOf(request), request.body.request_id);
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${delivered.fileName}"`)
          .header('x-export-sha256', delivered.sha256)
          .send(delivered.body);
      },
    );
  };
}
