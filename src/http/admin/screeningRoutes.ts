import { Readable } from 'node:stream';
import { Type, type Static, type TObject } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { ServiceError } from '../../errors/serviceError.ts';
import { ACTING_ROLE } from '../../access/roles.ts';
import { importList } from '../../screening/importList.ts';
import { isListName, LIST_NAMES } from '../../screening/listEntry.ts';
import { ALERT_TYPE, issuerAlertFeed } from '../../screening/issuerAlerts.ts';
import { clearHit, confirmClear, rejectOnHit } from '../../applications/commands/resolveHit.ts';
import { TransitionResult } from '../../applications/commands/transitionApplication.ts';
import { screeningStatus, versionView } from '../../screening/screeningStatus.ts';
import { screeningReadiness } from '../../screening/screeningReadiness.ts';
import { success } from '../envelope.ts';
import type { TypedApp } from '../typedApp.ts';
import { BODY_ERRORS } from '../routeErrors.ts';
import { adminRoute } from './adminRoute.ts';
import { adminSource, operatorActor, operatorOf } from './operatorAuth.ts';
import { ok } from './schemas.ts';
import { actorName } from '../../audit/actor.ts';

/** The largest list file accepted (OFAC's SDN.XML is about 20 MB); larger ones through the CLI. */
export const LIST_FILE_LIMIT = 64 * 1024 * 1024;

const ListVersion = Type.Object({
  version_id: Type.String(),
  list: Type.String({ enum: [...LIST_NAMES] }),
  entries: Type.Integer({ description: 'Individuals read from the file.' }),
  names: Type.Integer({ description: 'Names and aliases screened against.' }),
  documents: Type.Integer(),
  sha256: Type.String({ description: 'SHA-256 of the file as uploaded.' }),
  published_at: Type.Union([Type.String(), Type.Null()], { description: 'As the file says.' }),
  imported_at: Type.Integer({ description: 'Unix seconds.' }),
  imported_by: Type.String(),
  changes: Type.Union(
    [
      Type.Object({
        previous_version_id: Type.Union([Type.String(), Type.Null()], {
          description: "The version of the same list in force before; null on the list's first import.",
        }),
        added: Type.Integer(),
        removed: Type.Integer(),
        changed: Type.Integer({
          description:
            'Entries in both whose names, dates of birth, nationalities, documents or PEP data differ.',
        }),
        added_references: Type.Array(Type.String(), { description: "The list's references, the first 50." }),
        removed_references: Type.Array(Type.String()),
        changed_references: Type.Array(Type.String()),
      }),
      Type.Null(),
    ],
    {
      description: 'What this import changed against the version before; null on imports before it was kept.',
    },
  ),
  rescreen: Type.Union(
    [
      Type.Object({
        finished_at: Type.Integer({ description: 'Unix seconds.' }),
        screened: Type.Integer(),
        newly_hit: Type.Integer({
          description:
            "Applications with a hit raised on this version's entries: new matches, and cleared hits raised again because the entry or the applicant changed.",
        }),
        newly_hit_applications: Type.Array(Type.String(), { description: 'Their serials, the first 50.' }),
        no_longer_hit: Type.Integer({
          description:
            'Applications an open hit holds on an entry the re-screen no longer matched (removed or changed): a reviewer may clear them.',
        }),
        no_longer_hit_applications: Type.Array(Type.String(), {
          description: 'Their serials, the first 50.',
        }),
      }),
      Type.Null(),
    ],
    { description: "What the import's re-screen found, once it ended; null until then." },
  ),
});

const ScreeningReadiness = Type.Object({
  required: Type.Boolean({
    description: '`SCREENING_REQUIRED`: whether a problem makes the instance not ready.',
  }),
  max_age_days: Type.Integer({ description: '`SCREENING_MAX_AGE_DAYS`.' }),
  lists: Type.Array(
    Type.Object({
      list: Type.String(),
      version_id: Type.String(),
      entries: Type.Integer(),
      imported_at: Type.Integer({ description: 'Unix seconds: the newest import.' }),
      age_seconds: Type.Integer(),
      stale: Type.Boolean({ description: 'Older than `SCREENING_MAX_AGE_DAYS`.' }),
    }),
    { description: 'Each list in force.' },
  ),
  problems: Type.Array(
    Type.Union([
      Type.Object({ reason: Type.Literal('no_list') }),
      Type.Object({ reason: Type.Literal('stale'), list: Type.String(), age_days: Type.Integer() }),
    ]),
    { description: 'Empty while screening is in force and fresh; the console shows a banner otherwise.' },
  ),
});

const ScreeningStatus = Type.Object({
  readiness: ScreeningReadiness,
  in_force: Type.Array(ListVersion, { description: 'The newest version of each list.' }),
  imports: Type.Array(ListVersion, { description: 'The last 20 imports, newest first.' }),
  open_hits: Type.Integer({ description: 'Hits that hold an application (unresolved or cleared by one).' }),
  delivered_alerts: Type.Integer({ description: 'Open hits found after the card was delivered.' }),
  rescreens: Type.Array(
    Type.Object({
      version_id: Type.String(),
      status: Type.String(),
      screened: Type.Integer(),
      hits: Type.Integer(),
    }),
  ),
});

/** What the issuer's endpoint receives, and what the admin feed lists. */
export const IssuerAlertSchema = Type.Object({
  id: Type.String({
    description: "The hit's id; the `webhook-id` of every delivery attempt (dedupe on it).",
  }),
  type: Type.Literal(ALERT_TYPE),
  created_at: Type.Integer({ description: 'Unix seconds: when the hit was found.' }),
  data: Type.Object({
    hit_id: Type.String(),
    busi_water_no: Type.String(),
    app_id: Type.String({ description: 'The partner the application came from.' }),
    external_id: Type.Union([Type.String(), Type.Null()]),
    list: Type.String({ enum: [...LIST_NAMES] }),
    version_id: Type.String({ description: 'The list version whose import found it.' }),
    reference: Type.String({ description: "The list's own reference of the entry." }),
    matched_kind: Type.String({ description: '`primary`, `alias`, `original_script` or `document`.' }),
    fields: Type.Array(Type.String(), { description: "The application's fields that matched (names only)." }),
    score: Type.Number(),
    state: Type.String({
      enum: ['unresolved', 'clearing', 'cleared', 'confirmed'],
      description: '`unresolved` when pushed; in the feed, as the review has left it.',
    }),
  }),
});

const AlertFeedQuery = Type.Object(
  {
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'The `next_cursor` of the last poll.' }),
    ),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: '1 to 100; 50 by default.' })),
  },
  { additionalProperties: false },
);

const AlertFeed = Type.Object({
  items: Type.Array(IssuerAlertSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Where the next poll resumes; the one given when nothing new was found.',
  }),
  has_more: Type.Boolean({ description: 'Another page is ready now.' }),
});

const HitParams = Type.Object(
  {
    busi_water_no: Type.String({ minLength: 1, maxLength: 32 }),
    hit_id: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
const HitResult = Type.Object({ id: Type.String(), state: Type.String() });

/** Bytes of the upload, counted: past the limit it is refused (413) before more is read. */
async function* limited(stream: Readable, limit: number): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of stream) {
    const bytes: Buffer = chunk;
    size += bytes.length;
    if (size > limit) throw new ServiceError('bodyTooLarge', { params: { max: limit } });
    yield bytes;
  }
}

/** List imports and status (admins), and a reviewer's actions on a hit. */
export function screeningRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    registerListRoutes(app, ctx);
    registerHitRoutes(app, ctx);
  };
}

/** The lists: import, status, and the issuer's alert feed. */
function registerListRoutes(app: TypedApp, ctx: ServiceContext): void {
  // A list file is streamed to the importer as it arrives: bounded memory for a 20 MB file. XML
  // for the UN, OFAC, EU and UK lists, JSON lines for OpenSanctions' entities.
  app.addContentTypeParser(
    ['application/xml', 'text/xml', 'application/x-ndjson', 'application/jsonl'],
    (_request, payload, done) => done(null, payload),
  );

  app.post(
    '/screening/lists/:list',
    adminRoute(ctx, {
      caller: 'admin',
      operation: 'admin.screening.import',
      operationId: 'adminScreeningImport',
      summary: 'Import a sanctions or PEP list file as a new version of its list',
      description:
        'Admin. The body is the file as published: the UN Consolidated List (`un`), OFAC SDN.XML (`ofac-sdn`), the EU Financial Sanctions Files XML (`eu`) or the UK Sanctions List XML (`uk`) with `Content-Type: application/xml`; OpenSanctions FollowTheMoney entities (`opensanctions`, JSON lines) with `Content-Type: application/x-ndjson`. A file that is not its list is refused whole. The new version is in force at once and every application not yet erased is screened again (a background job). Audited.',
      // No body schema (the file is streamed), so the body reader's errors are not derived.
      errors: [...BODY_ERRORS, 'screeningListInvalid', 'bodyTooLarge', 'xmlContentTypeRequired'],
      schema: {
        params: Type.Object(
          { list: Type.String({ enum: [...LIST_NAMES] }) },
          { additionalProperties: false },
        ),
        response: ok(ListVersion),
      },
    }),
    async (request) => {
      const { list } = request.params;
      // The schema's enum has let only a list's name through.
      if (!isListName(list)) throw new ServiceError('screeningListInvalid');
      // Only the list parsers above hand the body over as a stream; JSON or no body is not a list file.
      if (!(request.body instanceof Readable)) throw new ServiceError('xmlContentTypeRequired');
      const version = await importList(ctx, {
        list,
        source: limited(request.body, LIST_FILE_LIMIT),
        actor: actorName(operatorActor(request)),
        origin: adminSource(request),
      });
      return success(request, versionView(version));
    },
  );

  app.get(
    '/screening/status',
    adminRoute(ctx, {
      caller: 'viewer',
      operation: 'admin.screening.status',
      operationId: 'adminScreeningStatus',
      summary: 'The lists in force, recent imports, open hits and re-screens',
      schema: { response: ok(ScreeningStatus) },
    }),
    async (request) => success(request, await screeningStatus(ctx)),
  );

  app.get(
    '/screening/readiness',
    adminRoute(ctx, {
      caller: 'viewer',
      operation: 'admin.screening.readiness',
      operationId: 'adminScreeningReadiness',
      summary: 'Whether a sanctions list is in force and fresh (what /readyz and the banner say)',
      schema: { response: ok(ScreeningReadiness) },
    }),
    async (request) => success(request, await screeningReadiness(ctx)),
  );

  app.get(
    '/screening/alerts',
    adminRoute(ctx, {
      caller: 'viewer',
      operation: 'admin.screening.alerts',
      operationId: 'adminScreeningAlerts',
      summary: "The issuer's screening alerts: hits on applications already delivered, oldest first",
      description:
        "For the issuer's own systems (never a partner's): each hit found on an application whose card was already delivered, in the order found, with its state now. Poll with the last `next_cursor`. The same alerts are pushed to `ISSUER_WEBHOOK_URL` when it is set (docs/SCREENING.md). No applicant's data.",
      errors: ['fieldFormat'],
      schema: { querystring: AlertFeedQuery, response: ok(AlertFeed) },
    }),
    async (request) => {
      const { query } = request;
      const limit = Math.min(100, Math.max(1, query.limit === undefined ? 50 : Number(query.limit)));
      return success(request, await issuerAlertFeed(ctx.store.db, { cursor: query.cursor, limit }));
    },
  );
}

/** A reviewer's three moves on a hit. */
function registerHitRoutes(app: TypedApp, ctx: ServiceContext): void {
  /** The three moves on a hit share their path, guard, errors and the operator's part. */
  const hitRoute = <Body extends TObject, Result extends TObject>(
    action: 'clear' | 'confirm' | 'reject',
    summary: string,
    body: Body,
    result: Result,
  ) =>
    adminRoute(ctx, {
      caller: ACTING_ROLE,
      operation: `admin.screening.${action}`,
      operationId: `adminScreening${action[0]!.toUpperCase()}${action.slice(1)}`,
      summary,
      errors: [
        'screeningHitNotFound',
        'screeningHitState',
        'screeningSameOperator',
        'concurrentChange',
        'transitionNotAllowed',
      ],
      schema: { params: HitParams, body, response: ok(result) },
    });
  const hitPath = (action: string) => `/applications/:busi_water_no/screening/:hit_id/${action}`;
  const acting = (request: Parameters<typeof operatorOf>[0] & { params: Static<typeof HitParams> }) => {
    const operator = operatorOf(request);
    return {
      busiWaterNo: request.params.busi_water_no,
      hitId: request.params.hit_id,
      operator: { username: operator.username, role: operator.role },
      source: adminSource(request),
    };
  };
  const NoBody = Type.Object({}, { additionalProperties: false });

  app.post(
    hitPath('clear'),
    hitRoute(
      'clear',
      'Clear a hit as a false positive, with a note (a second operator confirms)',
      Type.Object({ note: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false }),
      HitResult,
    ),
    async (request) => success(request, await clearHit(ctx, { ...acting(request), note: request.body.note })),
  );
  app.post(
    hitPath('confirm'),
    hitRoute('confirm', "Confirm another operator's clearing of a hit (four eyes)", NoBody, HitResult),
    async (request) => success(request, await confirmClear(ctx, acting(request))),
  );
  app.post(
    hitPath('reject'),
    hitRoute(
      'reject',
      'Confirm a hit and reject the application with `sanctions_hit`',
      NoBody,
      TransitionResult,
    ),
    async (request) => success(request, await rejectOnHit(ctx, acting(request))),
  );
}
