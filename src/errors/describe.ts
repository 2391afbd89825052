/**
 * What of an error goes to the log: its kind, code and stack, never driver details such as
 * PostgreSQL's `detail`, which can quote stored values. Every layer logs errors through this.
 */
export function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  return { type: error.name, code: typeof code === 'string' ? code : undefined, stack: error.stack };
}
