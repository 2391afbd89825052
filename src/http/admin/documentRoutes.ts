import { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { ServiceContext } from '../../context.ts';
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

/**
 * The kept copy of an image field's document, streamed from the store (decrypted a few chunks at a
 * time) with its own type, so that the console never loads the partner's URL: only after an
 * audited opening for review (or a reveal of the field) in the same session, never cached.
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
          summary: "An image field's kept document",
          errors: ['applicationNotFound', 'documentNotKept', 'documentNotOpened'],
          description:
            "Reviewer or admin, after opening the application for review (or revealing the field) in the same session: that audit row covers the viewing. The bytes as the partner served them, in their type (JPEG, PNG, WebP, HEIC/HEIF or PDF), `Content-Disposition` inline (a PDF as an attachment), `Cache-Control: no-store`, `Content-Security-Policy: default-src 'none'; sandbox` and `X-Content-Type-Options: nosniff` on every answer, errors included. While an amend's newer document for the field is pending or failed, the copy kept of the one before it is served, as evidence: `X-Document-Copy` says `current` or `previous` (the application view shows the latter as the field's `previous`).",
          schema: {
            params: DocumentParams,
            response: {
              200: {
                description: 'The document, in the type read from its bytes.',
                content: Object.fromEntries(
                  DOCUMENT_TYPES.map((type) => [
                    type,
                    // The bytes, streamed: documented as binary, typed as the stream the handler sends.
                    { schema: Type.Unsafe<Readable>(Type.String({ format: 'binary' })) },
                  ]),
                ),
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
        });
        const disposition = document.contentType === 'application/pdf' ? 'attachment' : 'inline';
        return reply
          .header('content-type', document.contentType)
          .header('content-length', String(document.byteSize))
          .header('content-disposition', `${disposition}; filename="${document.fileName}"`)
          .header('x-document-copy', document.copy)
          .send(Readable.from(document.body));
      },
    );
  };
}
