import type { FastifyRequest } from 'fastify';
import { ERRORS, renderMessage, type Language } from '../errors/catalogue.ts';
import { renderProblem } from '../errors/problems.ts';
import type { ServiceError, ValidationError } from '../errors/serviceError.ts';

/** Every response, success or error, is `{code, data, msg}`; `code` 0 is success. */
export interface Envelope<T = unknown> {
  code: number;
  data: T;
  msg: string;
}

const SUCCESS: Record<Language, string> = { en: 'success', zh: '成功' };

/** `Accept-Language: zh...` first gets Chinese messages; anything else English. */
export function languageOf(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  return typeof header === 'string' && /^\s*zh\b/i.test(header) ? 'zh' : 'en';
}

/** A success: `code` is 0, so a route's return is checked against its `SuccessEnvelope` schema. */
export interface Success<T> extends Envelope<T> {
  code: 0;
}

export function success<T>(request: FastifyRequest, data: T): Success<T> {
  return { code: 0, data, msg: SUCCESS[languageOf(request)] };
}

export function serviceErrorEnvelope(error: ServiceError, language: Language): Envelope {
  const entry = ERRORS[error.error];
  return { code: entry.code, data: error.data ?? null, msg: renderMessage(entry[language], error.params) };
}

/** A 422 lists every problem; `code` and `msg` are those of the first, with a count of the rest. */
export function validationEnvelope(error: ValidationError, language: Language): Envelope {
  const errors = error.problems.map((p) => renderProblem(p, language));
  const first = errors[0];
  if (first === undefined) {
    return { code: ERRORS.bodyNotObject.code, data: null, msg: ERRORS.bodyNotObject[language] };
  }
  const more = errors.length - 1;
  const suffix = more === 0 ? '' : language === 'zh' ? `（另有 ${more} 个问题）` : ` (and ${more} more)`;
  return { code: first.code, data: { errors }, msg: first.message + suffix };
}
