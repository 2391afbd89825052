import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import { freePort } from '../../helpers/privatePostgres.ts';
import type { Exchange } from './http.ts';

/**
 * The contract check, made by others: Stoplight Prism (from npm) validates responses against the
 * service's own `/openapi.json`. Traffic that Prism's proxy can carry goes through `prism proxy`;
 * Prism reads every request body as JSON and re-serialises it, so a body that is not JSON (the
 * raw-bytes cases) cannot pass through it and its response is checked in-process with the same
 * Prism validator (`validateOutput` of @stoplight/prism-http, which the proxy itself calls).
 */

const PRISM = fileURLToPath(new URL('../../../node_modules/.bin/prism', import.meta.url));

export interface Violation {
  where: string;
  message: string;
}

export interface PrismProxy {
  readonly url: string;
  readonly output: string[];
  stop(): Promise<void>;
}

/** Writes the document to a temporary file for Prism. */
function documentFile(document: unknown): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cardapply-contract-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `prism proxy <document> <upstream> --errors --validate-request=false`: every request is passed
 * on as it is (hostile requests are the point, so Prism does not refuse them), and every response
 * is validated; a violation is reported in the `sl-violations` header, and an error-level one
 * replaces the response with a 500 problem document (`--errors`).
 */
export async function startPrism(document: unknown, upstream: string): Promise<PrismProxy> {
  const { file, remove } = documentFile(document);
  const port = await freePort();
  const output: string[] = [];
  const child: ChildProcess = spawn(
    PRISM,
    ['proxy', file, upstream, '--errors', '--validate-request=false', '-h', '127.0.0.1', '-p', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false', NO_COLOR: '1' } },
  );
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited:\n${output.join('')}`);
    try {
      await fetch(`${url}/__prism_ready`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`prism did not start:\n${output.join('')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      remove();
    },
  };
}

export type ServedDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

/** The partner API's document and the admin API's as the service serves them, as one document. */
export async function servedDocuments(baseUrl: string): Promise<ServedDocument> {
  const served = async (path: string) => (await (await fetch(`${baseUrl}${path}`)).json()) as ServedDocument;
  const partner = await served('/openapi.json');
  const admin = await served('/admin/openapi.json');
  return {
    ...partner,
    paths: { ...partner.paths, ...admin.paths },
    components: {
      schemas: { ...partner.components.schemas, ...admin.components.schemas },
      securitySchemes: { ...partner.components.securitySchemes, ...admin.components.securitySchemes },
    },
  };
}

/** The response violations Prism's proxy reported for one exchange. */
export function proxyViolations(exchange: Exchange): Violation[] {
  const violations: Violation[] = [];
  const header = exchange.headers.get('sl-violations');
  if (header !== null) {
    let parsed: { location?: string[]; message?: string; severity?: string }[] = [];
    try {
      parsed = JSON.parse(header) as typeof parsed;
    } catch {
      violations.push({ where: `${exchange.path} ${exchange.status}`, message: header.slice(0, 500) });
    }
    for (const v of parsed) {
      if (v.location?.[0] !== 'response') continue;
      violations.push({
        where: `${exchange.method} ${exchange.path} ${exchange.status} ${v.location.join('.')}`,
        message: `${v.severity}: ${v.message}`,
      });
    }
  }
  const type = (exchange.json as { type?: unknown } | undefined)?.type;
  if (typeof type === 'string' && type.startsWith('https://stoplight.io/prism/errors#')) {
    violations.push({
      where: `${exchange.method} ${exchange.path}`,
      message: `prism: ${exchange.text.slice(0, 300)}`,
    });
  }
  return violations;
}

interface Operation {
  method: string;
  path: string;
}

/** In-process checks with Prism's own validator, for responses the proxy cannot carry. */
export interface ContractValidator {
  check(exchange: Exchange): Violation[];
}

export async function contractValidator(document: unknown): Promise<ContractValidator> {
  const { file, remove } = documentFile(document);
  let operations: Operation[];
  try {
    operations = (await getHttpOperationsFromSpec(file)) as unknown as Operation[];
  } finally {
    remove();
  }
  // Literal paths first, then templates (`/applications/{busi_water_no}`), as a router would.
  const routes = operations
    .map((op) => ({
      op,
      literal: !op.path.includes('{'),
      pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => Number(b.literal) - Number(a.literal));
  return {
    check(exchange) {
      const path = exchange.path.split('?')[0]!;
      const operation = routes.find(
        (r) => r.op.method.toLowerCase() === exchange.method.toLowerCase() && r.pattern.test(path),
      )?.op;
      const where = `${exchange.method} ${exchange.path} ${exchange.status}`;
      if (operation === undefined) return [{ where, message: 'no such operation in the document' }];
      const headers: Record<string, string> = {};
      exchange.headers.forEach((value, key) => (headers[key] = value));
      const result = validateOutput({
        resource: operation as never,
        element: { statusCode: exchange.status, headers, body: exchange.json ?? exchange.text },
      }) as
        { _tag: 'Left'; left: { message: string; path?: string[]; severity: number }[] } | { _tag: 'Right' };
      if (result._tag === 'Right') return [];
      return result.left.map((d) => ({
        where: `${where} ${(d.path ?? []).join('.')}`,
        message: `${d.severity === 0 ? 'Error' : d.severity === 1 ? 'Warning' : 'Info'}: ${d.message}`,
      }));
    },
  };
}
