import { Type } from 'typebox';
import { LIMITS } from '../../record/schema.ts';

/** The apps (the partners that call the API): their administration and their view. */

export const AppIdParams = Type.Object(
  { app_id: Type.String({ minLength: 1, maxLength: LIMITS.appId }) },
  { additionalProperties: false },
);
export const AppBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 128, description: 'Display name of the partner.' }) },
  { additionalProperties: false },
);
export const AppView = Type.Object({
  app_id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});
