import { Type } from 'typebox';
import { MAX_LIMIT } from '../../applications/views/listApplications.ts';
import { digits, nullable } from './schemas.ts';

/** The audit trail, as the admin API pages through it. */

export const AuditQuery = Type.Object(
  {
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 128, examples: ['operator:alice'] })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 64, examples: ['application.reveal'] })),
    target_type: Type.Optional(Type.Enum(['application', 'operator', 'app'])),
    target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    cursor: Type.Optional(digits('From next_cursor.', 18)),
    limit: Type.Optional(digits(`Page size, 1 to ${MAX_LIMIT}; default 20.`, 3)),
  },
  { additionalProperties: false },
);
export const AuditPage = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      at: Type.Integer({ description: 'Unix seconds.' }),
      actor: Type.String(),
      action: Type.String(),
      target_type: nullable(Type.String()),
      target_id: nullable(Type.String()),
      details: nullable(
        Type.Object({}, { additionalProperties: true }),
        "What changed. A viewer is not shown a screening hit's clearing `note` (`screening.clear`).",
      ),
      source: Type.String(),
    }),
  ),
  next_cursor: nullable(Type.String()),
});
