import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
import { PREVIEW_SIDE, PREVIEW_TYPE } from '../../documents/preview.ts';
import { DOCUMENT_RESPONSE_HEADERS, openDocument } from '../../documents/serveDocument.ts';
import { DOCUMENT_FIELDS, DOCUMENT_TYPES } from '../../events/documentOutcomes.ts';
import { ACTING_ROLE } from '../../access/roles.ts';
import { adminRoute } from './adminRoute.ts';
import { operatorOf } from './operatorAuth.ts';
import type { TypedApp } from '../typedApp.ts';

/** Content-Security-Policy, nosniff and no-store on whatever a document route sends. */
async function documentHeaders(_request: unknown, reply: { header(name: string, value: string): unknown }) {
  for (const [name, value] of Object.entries(DOCUMENT_RESPONSE_HEADERS)) reply.header(name, value);
}

const DocumentParams = Type.Object(
  {
    busi_water_no: Type.String({ minLength: 1, maxLength: 32, description: 'Application serial number.' }),
    field: Type.Enum([...DOCUMENT_FIELDS], { description: 'The image field.' }),
  },
  { additionalProperties: false },
);

/** The bytes, streamed: documented as binary, typed as the stream the handler sends. */
const binary = { schema: Type.Unsafe<Readable>(Type.String({ format: 'binary' })) };

const VIEWING =
  "Reviewer or admin, after opening the application for review (or revealing the field) in the same session: that audit row covers the viewing. `Cache-Control: no-store`, `Content-Security-Policy: default-src 'none'; sandbox` and `X-Content-Type-Options: nosniff` on every answer, errors included. While an amend's newer document for the field is pending or failed, the copy kept of the one before it is served, as evidence: `X-Document-Copy` says `current` or `previous` (the application view shows the latter as the field's `previous`).";

/** RFC 9530's digest of the representation: the original's SHA-256, as the evidence says it. */
const reprDigest = (sha256: string) => `sha-256=:${Buffer.from(sha256, 'hex').toString('base64')}:`;

/**
 * A kept document from the store (decrypted a few chunks at a time), so that the console never
 * loads the partner's URL: only after an audited opening for review (or a reveal of the field) in
 * the same session, never cached. The original, byte-exact (its SHA-256 is the evidence), only as a
 * download; the preview the service drew of an image (documents/preview.ts), inline.
 */
export function documentRoutes(ctx: ServiceContext) {
  return async (app: TypedApp) => {
    app.get(
      '/applications/:busi_water_no/documents/:field',
      {
        // On every answer of the route, its errors too (a refusal is a document response as well).
        onSend: documentHeaders,
        ...adminRoute(ctx, {
          caller: ACTING_ROLE,
          operation: 'admin.application.document',
          operationId: 'adminShowDocument',
          summary: "An image field's kept document, as a download",
          errors: ['applicationNotFound', 'documentNotKept', 'documentNotOpened'],
          description: `The bytes as the partner served them, in their type (JPEG, PNG, WebP, HEIC/HEIF or PDF), always \`Content-Disposition: attachment\`: the evidence, whose SHA-256 the application view gives and \`Repr-Digest\` repeats, never drawn by the browser (the console shows the preview). ${VIEWING}`,
          schema: {
            params: DocumentParams,
            response: {
              200: {
                description: 'The document, in the type read from its bytes.',
                content: Object.fromEntries(DOCUMENT_TYPES.map((type) => [type, binary])),
              },
            },
          },
        }),
      },
      async (request, reply) => {
        const { busi_water_no, field } = request.params;
        const document = await openDocument(ctx, {
          busiWaterNo: busi_water_no,
          field,
          operator: operatorOf(request),
          copy: 'original',
        });
        return reply
          .header('content-type', document.contentType)
          .header('content-length', String(document.byteSize))
          .header('content-disposition', `attachment; filename="${document.fileName}"`)
          .header('repr-digest', reprDigest(document.sha256))
          .header('x-document-copy', document.copy)
          .send(Readable.from(document.body));
      },
    );
    app.get(
      '/applications/:busi_water_no/documents/:field/preview',
      {
        onSend: documentHeaders,
        ...adminRoute(ctx, {
          caller: ACTING_ROLE,
          operation: 'admin.application.document_preview',
          operationId: 'adminShowDocumentPreview',
          summary: "An image field's preview",
          errors: ['applicationNotFound', 'documentNotKept', 'documentNoPreview', 'documentNotOpened'],
          description: `The preview the service drew of a kept image (JPEG, PNG or WebP): decoded by libvips, upright, at most ${PREVIEW_SIDE} px on its longer side, encoded again as a JPEG without metadata, so no byte of it is the partner's; \`Content-Disposition: inline\`. A PDF or a HEIC has none (404 \`document_no_preview\`): its original is a download. ${VIEWING}`,
          schema: {
            params: DocumentParams,
            response: {
              200: { description: 'The preview, a JPEG.', content: { [PREVIEW_TYPE]: binary } },
            },
          },
        }),
      },
      async (request, reply) => {
        const { busi_water_no, field } = request.params;
        const document = await openDocument(ctx, {
          busiWaterNo: busi_water_no,
          field,
          operator: operatorOf(request),
          copy: 'preview',
        });
        return reply
          .header('content-type', document.contentType)
          .header('content-length', String(document.byteSize))
          .header('content-disposition', `inline; filename="${document.fileName}"`)
          .header('x-document-copy', document.copy)
          .send(Readable.from(document.body));
      },
    );
  };
}
