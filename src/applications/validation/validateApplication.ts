import { checkRequestedCardNo } from '../../cards/cardNumber.ts';
import { ValidationError } from '../../errors/serviceError.ts';
import type { FieldProblem } from '../../errors/problems.ts';
import { compileValidator, topField } from '../../validation/schemaValidator.ts';
import { checkApplication, type CheckContext } from './checks/index.ts';
import { ApplicationRequest } from '../../record/schema.ts';

/**
 * Everything the submit and the validate-only call check, in one function: the schema first, then
 * the domain checks on every field that passed it, so that one response lists every problem.
 */
export interface ValidationContext extends CheckContext {
  card: { bin: string; length: number };
}

const validateSchema = compileValidator(ApplicationRequest);
const FIELD_ORDER = new Map(Object.keys(ApplicationRequest.properties).map((key, index) => [key, index]));

export function validateApplication(body: unknown, ctx: ValidationContext): ApplicationRequest {
  const schema = validateSchema(body);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    // The HTTP layer only passes objects; other callers (CLI, tests) get the schema's answer.
    throw new ValidationError(schema.ok ? [] : schema.problems);
  }
  const skip = schema.ok ? new Set<string>() : schema.invalidFields;
  const application = body as ApplicationRequest;
  const problems: FieldProblem[] = schema.ok ? [] : [...schema.problems];
  problems.push(...checkApplication(application, ctx, skip));
  if (application.card_no !== undefined && !skip.has('card_no')) {
    problems.push(...checkRequestedCardNo(application.card_no, ctx.card));
  }
  if (problems.length > 0) {
    const rank = (p: FieldProblem) => FIELD_ORDER.get(topField(p.field)) ?? FIELD_ORDER.size;
    problems.sort((a, b) => rank(a) - rank(b));
    throw new ValidationError(problems);
  }
  return application;
}
