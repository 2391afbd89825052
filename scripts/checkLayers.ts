import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The architecture's import rules, checked over the sources (`npm run check:layers`, and a test):
 *
 * 1. No circles, type-only imports included: every module can be read before the ones it uses.
 *    The same holds for the console's modules (web/src).
 * 2. Arrows point down. Entry points (server, cluster, cli/) may import anything; the transport
 *    (app.ts, http/) anything but the entry points; the wiring (start.ts) builds the context from
 *    the domain; the domain (every other folder, and context.ts, the type every domain function
 *    receives) neither the transport nor the entry points; the foundations (store/, crypto/,
 *    errors/, validation/, config/ and the leaf modules config, environment, logger, redaction,
 *    shutdown) nothing above them.
 * 3. Inside the domain, each folder has a rank (`DOMAIN_RANKS`): a folder imports folders of its
 *    own rank or lower, and no two folders import each other, even through others. A new folder
 *    is refused until it is given a rank. `PENDING` names the arrows that still point up, to be
 *    removed; the check fails once one of them is gone, so the list only shrinks.
 * 4. Only the transport and the entry points know the HTTP framework (`fastify`, `@fastify/*`).
 * 5. Above the store, only repositories (`*Repository.ts`) build queries (`selectFrom`,
 *    `updateTable`, `insertInto`, `deleteFrom`, or raw SQL in Kysely's `sql` template): a domain file says what it needs and a repository
 *    of its entity says how it is read or written. `QUERIES_PENDING` names the files that still
 *    build their own, to be moved; as with `PENDING`, an entry no longer needed fails the check.
 *
 * 6. The walks of docs/ARCHITECTURE.md are drawn from the imports by scripts/walks.ts, which
 *    `npm run check:layers` runs after this check.
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
    if (top === 'server.ts' || top === 'cluster.ts') return 'entry';
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

/**
 * The domain's folders (and context.ts), lowest first; docs/ARCHITECTURE.md draws them.
 * 1 leaves, 2 the context, 3 the audit trail, 4 the accounts and the idempotency records,
 * 5 the outbox and the job queue, 6 the application record (schema, lifecycle, sealed payload,
 * repository), 7 the parts of an application (its documents, its screening), 8 the operations and
 * views of an application, 9 the workers (webhook delivery, the job runner), 10 operations on all
 * of it.
 */
export const DOMAIN_RANKS: Readonly<Record<string, number>> = {
  access: 1,
  cards: 1,
  codes: 1,
  policies: 1,
  metrics: 1,
  network: 1,
  ratelimit: 1,
  'context.ts': 2,
  audit: 3,
  partners: 4,
  idempotency: 4,
  operators: 4,
  events: 5,
  jobs: 5,
  record: 6,
  documents: 7,
  screening: 7,
  risk: 7,
  applications: 8,
  webhooks: 9,
  worker: 9,
  keys: 10,
  retention: 10,
  subjects: 10,
};

/** Arrows between domain folders that still point up (`from -> to`): none left; a new one fails. */
export const PENDING: readonly string[] = [];

/** Files above the store that still build queries without being repositories: none any more. */
export const QUERIES_PENDING: readonly string[] = [];

/** The unit a domain rank is given to: the top folder, or the file itself at the top of src/. */
export function unitOf(path: string): string {
  return path.split('/')[0]!;
}

export interface LayerOptions {
  ranks?: Readonly<Record<string, number>>;
  pending?: readonly string[];
  queriesPending?: readonly string[];
}

export interface LayerReport {
  files: number;
  /** `a.ts -> b.ts` where a lower layer imports a higher one. */
  upward: string[];
  /** Each circle once, as the list of its files. */
  circles: string[][];
  /** Each circle between domain folders once, as the list of its folders. */
  folderCircles: string[][];
  /** Domain folders without a rank. */
  unranked: string[];
  /** Entries of `PENDING` that no import needs any more. */
  stale: string[];
  /** Files below the transport that import the HTTP framework. */
  framework: string[];
  /** Files above the store, not repositories, that build queries (and are not pending). */
  queries: string[];
  /** Entries of `QUERIES_PENDING` that build no query any more. */
  staleQueries: string[];
}

const IMPORT = /(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g;
const FRAMEWORK = /(?:from\s+|import\s*\(\s*)'(?:fastify|@fastify\/[^']+)'/;
const QUERY = /\.(?:selectFrom|updateTable|insertInto|deleteFrom)\(|\bsql(?:<[^>]*>)?`/;
const REPOSITORY = /Repository\.ts$/;

function sourceFiles(dir: string, extension: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, extension);
    return entry.name.endsWith(extension) && !entry.name.endsWith(`.test${extension}`) ? [path] : [];
  });
}

/** Each file's relative imports of files that exist, as paths relative to `dir`. */
function importGraph(dir: string, extension: string): Map<string, string[]> {
  const files = sourceFiles(dir, extension).map((file) => relative(dir, file));
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((match) => relative(dir, resolve(dir, dirname(file), match[1]!)))
      .filter((target) => known.has(target));
    edges.set(file, targets);
  }
  return edges;
}

export function checkLayers(srcDir: string, options: LayerOptions = {}): LayerReport {
  const ranks = options.ranks ?? DOMAIN_RANKS;
  const pending = new Set(options.pending ?? PENDING);
  const queriesPending = new Set(options.queriesPending ?? QUERIES_PENDING);
  const queries: string[] = [];
  const queriesSeen = new Set<string>();
  const edges = importGraph(srcDir, '.ts');
  const upward: string[] = [];
  const framework: string[] = [];
  const unranked = new Set<string>();
  const folderEdges = new Map<string, Set<string>>();
  const pendingSeen = new Set<string>();
  for (const [file, targets] of edges) {
    const from = layerOf(file);
    const text = readFileSync(join(srcDir, file), 'utf8');
    if (RANK[from] < RANK.transport && FRAMEWORK.test(text)) framework.push(file);
    if (from !== 'foundation' && !REPOSITORY.test(file) && QUERY.test(text)) {
      if (queriesPending.has(file)) queriesSeen.add(file);
      else queries.push(file);
    }
    const fromUnit = unitOf(file);
    if (from === 'domain') {
      if (ranks[fromUnit] === undefined) unranked.add(fromUnit);
      if (!folderEdges.has(fromUnit)) folderEdges.set(fromUnit, new Set());
    }
    for (const target of targets) {
      const to = layerOf(target);
      if (RANK[to] > RANK[from]) upward.push(`${file} (${from}) -> ${target} (${to})`);
      const toUnit = unitOf(target);
      if (from !== 'domain' || to !== 'domain' || fromUnit === toUnit) continue;
      const arrow = `${fromUnit} -> ${toUnit}`;
      if (pending.has(arrow)) {
        pendingSeen.add(arrow);
        continue;
      }
      folderEdges.get(fromUnit)!.add(toUnit);
      const fromRank = ranks[fromUnit];
      const toRank = ranks[toUnit];
      if (fromRank !== undefined && toRank !== undefined && toRank > fromRank)
        upward.push(`${file} (${fromUnit} ${fromRank}) -> ${target} (${toUnit} ${toRank})`);
    }
  }
  const folderGraph = new Map([...folderEdges].map(([unit, targets]) => [unit, [...targets]]));
  return {
    files: edges.size,
    upward,
    circles: findCircles(edges),
    folderCircles: findCircles(folderGraph),
    unranked: [...unranked].sort(),
    stale: [...pending].filter((arrow) => !pendingSeen.has(arrow)),
    framework,
    queries,
    staleQueries: [...queriesPending].filter((file) => !queriesSeen.has(file)),
  };
}

/** The console's modules (web/src): plain ES modules, one rule: no circles. */
export function checkConsole(webSrcDir: string): { files: number; circles: string[][] } {
  const edges = importGraph(webSrcDir, '.js');
  return { files: edges.size, circles: findCircles(edges) };
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
  const srcDir = fileURLToPath(new URL('../src', import.meta.url));
  const report = checkLayers(srcDir);
  const web = checkConsole(fileURLToPath(new URL('../web/src', import.meta.url)));
  for (const line of report.upward) console.error(`upward import: ${line}`);
  for (const circle of report.circles) console.error(`circle: ${circle.join(' <-> ')}`);
  for (const circle of report.folderCircles) console.error(`circle of folders: ${circle.join(' <-> ')}`);
  for (const unit of report.unranked) console.error(`no rank in DOMAIN_RANKS: ${unit}`);
  for (const arrow of report.stale) console.error(`gone, remove it from PENDING: ${arrow}`);
  for (const file of report.framework) console.error(`knows the HTTP framework: ${file}`);
  for (const file of report.queries) console.error(`builds queries outside a repository: ${file}`);
  for (const file of report.staleQueries)
    console.error(`no query any more, remove it from QUERIES_PENDING: ${file}`);
  for (const circle of web.circles) console.error(`circle in the console: ${circle.join(' <-> ')}`);
  const problems =
    report.upward.length +
    report.circles.length +
    report.folderCircles.length +
    report.unranked.length +
    report.stale.length +
    report.framework.length +
    report.queries.length +
    report.staleQueries.length +
    web.circles.length;
  console.log(
    `${report.files} files: ${report.upward.length} upward imports, ${report.circles.length} circles, ` +
      `${report.folderCircles.length} circles of folders, ${report.unranked.length} unranked folders, ` +
      `${report.stale.length} stale pending arrows, ${report.framework.length} framework imports below ` +
      `the transport, ${report.queries.length} files querying outside a repository; console: ` +
      `${web.files} modules, ${web.circles.length} circles; ${PENDING.length} arrows pending` +
      `${PENDING.length === 0 ? '' : ` (${PENDING.join(', ')})`}; ${QUERIES_PENDING.length} files still ` +
      `querying to move into repositories`,
  );
  process.exitCode = problems === 0 ? 0 : 1;
}
