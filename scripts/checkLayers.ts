import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The architecture's import rules, checked over the sources (`npm run check:layers`, and a test):
 *
 * 1. No circles, type-only imports included: every module can be read before the ones it uses.
 * 2. Arrows point down. Entry points (main, server, cli/) may import anything; the transport
 *    (app.ts, http/) anything but the entry points; the wiring (start.ts) builds the context from
 *    the domain; the domain (every other folder, and context.ts, the type every domain function
 *    receives) neither the transport nor the entry points; the foundations (store/, crypto/,
 *    errors/, validation/, config/ and the leaf modules config, environment, logger, redaction,
 *    shutdown) nothing above them.
 * 3. Only the transport and the entry points know the HTTP framework (`fastify`, `@fastify/*`).
 *
 * Imports are read from the source text (`from '...'`, `import('...')`), relative ones only:
 * packages are not part of the layering. Tests are left out; they may reach anywhere.
 */

export type Layer = 'entry' | 'transport' | 'wiring' | 'domain' | 'foundation';

const RANK: Record<Layer, number> = { entry: 4, transport: 3, wiring: 2, domain: 1, foundation: 0 };

const FOUNDATION_FOLDERS = new Set(['store', 'crypto', 'errors', 'validation', 'config']);
const FOUNDATION_FILES = new Set(['config.ts', 'environment.ts', 'logger.ts', 'redaction.ts', 'shutdown.ts']);

/** The layer of a source file, from its path relative to src/. */
export function layerOf(path: string): Layer {
  const [top, ...rest] = path.split('/');
  if (rest.length === 0) {
    if (top === 'server.ts') return 'entry';
    if (top === 'app.ts') return 'transport';
    if (top === 'start.ts') return 'wiring';
    if (FOUNDATION_FILES.has(top!)) return 'foundation';
    return 'domain';
  }
  if (top === 'cli') return 'entry';
  if (top === 'http') return 'transport';
  if (FOUNDATION_FOLDERS.has(top!)) return 'foundation';
  return 'domain';
}

export interface LayerReport {
  files: number;
  /** `a.ts -> b.ts` where a lower layer imports a higher one. */
  upward: string[];
  /** Each circle once, as the list of its files. */
  circles: string[][];
  /** Files below the transport that import the HTTP framework. */
  framework: string[];
}

const IMPORT = /(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g;
const FRAMEWORK = /(?:from\s+|import\s*\(\s*)'(?:fastify|@fastify\/[^']+)'/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

export function checkLayers(srcDir: string): LayerReport {
  const files = sourceFiles(srcDir).map((file) => relative(srcDir, file));
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  const upward: string[] = [];
  const framework: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(srcDir, file), 'utf8');
    if (RANK[layerOf(file)] < RANK.transport && FRAMEWORK.test(text)) framework.push(file);
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const target = relative(srcDir, resolve(srcDir, dirname(file), match[1]!));
      if (!known.has(target)) continue;
      targets.push(target);
      const from = layerOf(file);
      const to = layerOf(target);
      if (RANK[to] > RANK[from]) upward.push(`${file} (${from}) -> ${target} (${to})`);
    }
    edges.set(file, targets);
  }
  return { files: files.length, upward, circles: findCircles(edges), framework };
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function findCircles(edges: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) circles.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return circles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = checkLayers(fileURLToPath(new URL('../src', import.meta.url)));
  for (const line of report.upward) console.error(`upward import: ${line}`);
  for (const circle of report.circles) console.error(`circle: ${circle.join(' <-> ')}`);
  for (const file of report.framework) console.error(`knows the HTTP framework: ${file}`);
  const problems = report.upward.length + report.circles.length + report.framework.length;
  console.log(
    `${report.files} files: ${report.upward.length} upward imports, ${report.circles.length} circles, ` +
      `${report.framework.length} framework imports below the transport`,
  );
  process.exitCode = problems === 0 ? 0 : 1;
}
