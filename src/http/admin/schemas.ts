import { Type, type TSchema } from 'typebox';
import { SuccessEnvelope } from '../schemas.ts';

/**
 * What the admin API's schemas share: the envelope and small helpers (what its routes share is in
 * adminRoute.ts). The shapes of each area are beside it: applicationSchemas.ts, moveSchemas.ts,
 * sessionSchemas.ts, operatorSchemas.ts, appSchemas.ts, auditSchemas.ts.
 */

export const ok = <T extends TSchema>(data: T) => ({ 200: SuccessEnvelope(data) });

/** A schema that may also be null. */
export const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

/** A query-string number: digits only, at most `max` of them. */
export const digits = (description: string, max = 12) =>
  Type.String({ pattern: `^[0-9]{1,${max}}$`, description });

/** A POST that needs nothing beyond the path still sends `{}`: every POST has a JSON body. */
export const EmptyBody = Type.Object({}, { additionalProperties: false });

/** Query-string numbers arrive as digit strings (the schema checked them): read them as numbers. */
export function numberOf(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}
