/** Prints either JSON (for scripts, with --json) or readable lines (for people). */
export function print(json: boolean | undefined, value: unknown, human: () => string): void {
  process.stdout.write(json === true ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}
