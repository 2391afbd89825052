/** Reading a secret without putting it on the command line: a terminal prompt or standard input. */

/** Prompts on the terminal without echo. Throws when standard input is not a terminal. */
export async function promptSecret(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) throw new Error('standard input is not a terminal: use --password-stdin or --password');
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          finish();
          reject(new Error('cancelled'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** All of standard input, less one trailing line break (as `echo` or a file adds). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * The new password of a command: `--password-stdin`, else `--password` (visible in the process
 * list and the shell history: for scripts that have no other way), else a prompt, asked twice.
 */
export async function newPassword(options: { password?: string; passwordStdin?: boolean }): Promise<string> {
  if (options.passwordStdin === true) return readStdin();
  if (options.password !== undefined) return options.password;
  if (!process.stdin.isTTY) {
    throw new Error('no password given: use --password-stdin, --password, or run in a terminal to be asked');
  }
  const first = await promptSecret('Password: ');
  const second = await promptSecret('Repeat password: ');
  if (first !== second) throw new Error('the passwords do not match');
  return first;
}
