import { ERRORS, renderMessage, type ErrorName, type Language, type Params } from './catalogue.ts';

/**
 * A problem with one field, as the domain reports it: which field, which catalogue rule, and the
 * values the message needs. The HTTP layer renders it in the request's language.
 */
export interface FieldProblem {
  readonly field: string;
  readonly error: ErrorName;
  readonly params?: Params;
}

/** The wire form of a field problem, as listed in `data.errors`. */
export interface FieldErrorView {
  field: string;
  code: number;
  message: string;
}

export function problem(field: string, error: ErrorName, params?: Params): FieldProblem {
  return params === undefined ? { field, error } : { field, error, params };
}

export function renderProblem(p: FieldProblem, language: Language): FieldErrorView {
  const entry = ERRORS[p.error];
  const message = renderMessage(entry[language], { ...p.params, field: p.field });
  return { field: p.field, code: entry.code, message };
}
