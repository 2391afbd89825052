import { ERRORS, renderMessage } from '../errors/catalogue.ts';
import { renderProblem } from '../errors/problems.ts';
import { ServiceError, ValidationError } from '../errors/serviceError.ts';

/** An expected failure as the CLI prints it: the catalogue's message, every field problem. */
export function cliMessage(error: unknown): string | undefined {
  if (error instanceof ServiceError) return renderMessage(ERRORS[error.error].en, error.params);
  if (error instanceof ValidationError) {
    return error.problems.map((p) => renderProblem(p, 'en').message).join('; ');
  }
  return undefined;
}
