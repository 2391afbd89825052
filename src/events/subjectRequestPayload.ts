import { Type, type Static } from 'typebox';

/**
 * What the events say of an applicant's request through the partner (subjects/, docs/PRIVACY.md):
 * the partner's view of the request, which a `subject_request.*` event carries when the request
 * ends. Its shape is the events' own, as the documents' outcomes are (documentOutcomes.ts): the
 * subjects' folder fills it in and the event view shows it. Never an identity value: serials and
 * codes only.
 */

export const SUBJECT_REQUEST_KINDS = ['access', 'portability', 'correction', 'deletion'] as const;
export const SUBJECT_REQUEST_STATUSES = [
  'received',
  'in_progress',
  'completed',
  'restricted',
  'refused',
] as const;
export type SubjectRequestKind = (typeof SUBJECT_REQUEST_KINDS)[number];
export type SubjectRequestStatus = (typeof SUBJECT_REQUEST_STATUSES)[number];
/** The states a request ends in. */
export type SubjectRequestEnd = Extract<SubjectRequestStatus, 'completed' | 'restricted' | 'refused'>;

/** The event of a request's end, one per way it ends: `subject_request.completed`, ... */
export const SUBJECT_REQUEST_EVENT_TYPES = [
  'subject_request.completed',
  'subject_request.restricted',
  'subject_request.refused',
] as const;
export type SubjectRequestEventType = (typeof SUBJECT_REQUEST_EVENT_TYPES)[number];

export function subjectRequestEventType(status: SubjectRequestEnd): SubjectRequestEventType {
  return `subject_request.${status}`;
}

export function isSubjectRequestEventType(type: string): type is SubjectRequestEventType {
  return (SUBJECT_REQUEST_EVENT_TYPES as readonly string[]).includes(type);
}

export const RequestId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'The subject request id the create answered (`sr_` and 32 hexadecimal digits).',
  examples: ['sr_019ae1f3c2a07d3b5e61c0f4a9b28e7d'],
});

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

/** A request as its partner sees it. Never an identity value: serials and codes only. */
export const SubjectRequestView = Type.Object({
  request_id: RequestId,
  kind: Type.Enum([...SUBJECT_REQUEST_KINDS], {
    description:
      '`access` (a copy to read, PIPL art. 45), `portability` (a machine-readable copy for another processor, art. 45), `correction` (art. 46), `deletion` (art. 47).',
  }),
  status: Type.Enum([...SUBJECT_REQUEST_STATUSES], {
    description:
      '`received`, `in_progress`; ended: `completed`, `restricted` (a deletion the issuer’s anti-money-laundering record keeping forbids until `restricted_until`), `refused` (with `reason_code` and `reason`).',
  }),
  busi_water_no: Type.String({ description: 'The application the partner named.' }),
  applications: Type.Array(Type.String(), {
    description:
      'Every application of that person at this partner the request covers (their serials, oldest first), matched by identity document.',
  }),
  reason_code: nullable(Type.String(), 'Why it was refused or restricted; null otherwise.'),
  reason: nullable(Type.String(), 'The reason in words; null when none.'),
  restricted_until: nullable(
    Type.Integer(),
    '`restricted`: until when (Unix seconds) the data is kept under record keeping; it is erased then.',
  ),
  due_at: Type.Integer({ description: 'When the issuer must have answered (Unix seconds).' }),
  created_at: Type.Integer({ description: 'Unix seconds.' }),
  updated_at: Type.Integer({ description: 'Unix seconds.' }),
  ended_at: nullable(Type.Integer(), 'When it ended (Unix seconds); null while open.'),
  export: Type.Union(
    [
      Type.Object({
        ready: Type.Boolean({
          description:
            'True while the export waits for its one download (`.../subject-requests/download`): built, not yet downloaded, not expired.',
        }),
        expires_at: nullable(
          Type.Integer(),
          'Until when (Unix seconds) it can be downloaded (`SUBJECT_EXPORT_HOURS` after it was ready); null until it is built.',
        ),
        fetched_at: nullable(Type.Integer(), 'When it was downloaded (Unix seconds); null until then.'),
      }),
      Type.Null(),
    ],
    {
      description:
        '`access` and `portability`: the export that answers the request (docs/PRIVACY.md); null for `correction` and `deletion`.',
    },
  ),
});
export type SubjectRequestView = Static<typeof SubjectRequestView>;

/** The payload of a `subject_request.*` event: the application the partner named, and the request. */
export interface SubjectRequestEventPayload {
  busi_water_no: string;
  subject_request: SubjectRequestView;
}
