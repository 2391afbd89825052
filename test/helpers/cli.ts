import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** `npx cardapply ...` as operators run it: a separate process with the given environment. */
const BIN = fileURLToPath(new URL('../../bin/cardapply.js', import.meta.url));
const exec = promisify(execFile);

export async function cardapply(env: Record<string, string>, ...args: string[]): Promise<string> {
  // A replay's table of serials runs to megabytes; execFile's default would cut it at one.
  const { stdout } = await exec(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

export async function cardapplyJson<T>(env: Record<string, string>, ...args: string[]): Promise<T> {
  return JSON.parse(await cardapply(env, ...args, '--json')) as T;
}

/** The command's failure message (stderr), or throws if it succeeded. */
export async function cardapplyFails(env: Record<string, string>, ...args: string[]): Promise<string> {
  try {
    await cardapply(env, ...args);
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
  throw new Error(`cardapply ${args.join(' ')} succeeded`);
}
