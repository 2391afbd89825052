import { readFileSync } from 'node:fs';

/** `node <flags> <entry>` from a command line, the entry as written (relative to the checkout). */
export function parseNodeCommand(command: string): { flags: string[]; entry: string } {
  const words = command.trim().split(/\s+/);
  const node = words.findIndex((word) => word === 'node' || word.endsWith('/node'));
  if (node < 0) throw new Error(`no node in ${command}`);
  const rest = words.slice(node + 1);
  return { flags: rest.filter((w) => w.startsWith('-')), entry: rest.find((w) => !w.startsWith('-'))! };
}

/**
 * What `npm start` runs (package.json): the service's entry and the Node flags it runs with, which
 * the benchmark, the deployment files and the memory tests must share.
 */
export function npmStart(): { flags: string[]; entry: string } {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  return parseNodeCommand(pkg.scripts.start);
}
