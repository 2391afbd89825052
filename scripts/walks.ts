import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { layerOf } from './checkLayers.ts';

/**
 * The walks of docs/ARCHITECTURE.md, drawn from the code: for each, the route and the domain
 * functions its handler calls are named here (and checked: the route must import them), and every
 * file below them is found by following the imports that run (`import type` left out: it is gone
 * before the code runs), so the document lists all of them and cannot drift. The store behind
 * `ctx.store` is not imported by the domain (it is handed in as the context), so each walk names
 * the store's files it reaches on each store.
 *
 * `node scripts/walks.ts` checks the document (and `npm run check:layers` runs that check);
 * `node scripts/walks.ts --write` (in `npm run docs`) writes the section.
 */

export interface WalkSpec {
  name: string;
  /** The operation, as the documents name it. */
  operation: string;
  /** Others that take the same walk. */
  also?: string;
  /** The route's file, relative to src/. */
  route: string;
  /** The domain files whose functions the handler calls, relative to src/. */
  calls: string[];
  /** The store's files the walk ends in, on each store (reached through `ctx.store`). */
  store: { postgres: string[]; sqlite: string[] };
}

export const WALKS: readonly WalkSpec[] = [
  {
    name: 'A partner submits',
    operation: 'POST /mc-platformapi/v1/open/et/vs/card/apply',
    route: 'http/routes/applicationRoutes.ts',
    calls: ['applications/commands/submitApplication.ts'],
    store: {
      postgres: ['store/postgres.ts', 'store/postgresSubmissions.ts'],
      sqlite: ['store/sqlite.ts', 'store/sqliteWriter.ts', 'store/sqliteWriterThread.ts'],
    },
  },
  {
    name: 'An operator moves an application',
    operation: 'POST /admin/v1/applications/{busi_water_no}/approve',
    also: 'and the other actions',
    route: 'http/admin/applicationAdminRoutes.ts',
    // The move, then the operator's view of the application it answers with (the read-back).
    calls: ['applications/commands/transitionApplication.ts', 'applications/views/operatorView.ts'],
    store: {
      postgres: ['store/postgres.ts'],
      sqlite: ['store/sqlite.ts', 'store/groupCommit.ts'],
    },
  },
];

export const WALKS_START = '<!-- walks: written by `npm run docs` from the imports (scripts/walks.ts) -->';
export const WALKS_END = '<!-- end of walks -->';

/** Every source file of src/ (tests left out) and the files it imports at run time. */
export function runtimeImports(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
    });
  for (const path of walk(srcDir)) {
    const file = relative(srcDir, path);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const targets: string[] = [];
    const add = (specifier: string) => {
      if (specifier.startsWith('.')) targets.push(relative(srcDir, resolve(dirname(path), specifier)));
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        if (!isTypeOnlyImport(node.importClause)) add(node.moduleSpecifier.text);
      } else if (
        ts.isExportDeclaration(node) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const clause = node.exportClause;
        const typeOnly =
          node.isTypeOnly ||
          (clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly));
        if (!typeOnly) add(node.moduleSpecifier.text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] !== undefined &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        add(node.arguments[0].text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

function isTypeOnlyImport(clause: ts.ImportClause | undefined): boolean {
  if (clause === undefined) return false; // import './x.ts': runs it
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/**
 * Every file reached from `roots`, each before the files it imports (a depth-first walk in the
 * order of the imports, reversed after): a reader goes down the list and never back up.
 */
export function reachedInOrder(graph: Map<string, string[]>, roots: readonly string[]): string[] {
  const done = new Set<string>();
  const order: string[] = [];
  const visit = (file: string) => {
    if (done.has(file)) return;
    done.add(file);
    // The last import first, so that once reversed the list reads in the order of the imports.
    for (const target of [...(graph.get(file) ?? [])].reverse()) visit(target);
    order.push(file);
  };
  for (const root of [...roots].reverse()) visit(root);
  return order.reverse();
}

/** What a walk goes through: the domain's files, the store's on each store, the foundations. */
export interface DrawnWalk {
  spec: WalkSpec;
  domain: string[];
  postgres: string[];
  sqlite: string[];
  foundations: string[];
  problems: string[];
}

export function drawWalk(spec: WalkSpec, graph: Map<string, string[]>): DrawnWalk {
  const problems: string[] = [];
  const routeImports = graph.get(spec.route);
  if (routeImports === undefined)
    problems.push(`${spec.name}: the route ${spec.route} is not a file of src/`);
  for (const call of spec.calls) {
    if (routeImports !== undefined && !routeImports.includes(call))
      problems.push(`${spec.name}: ${spec.route} does not import ${call}`);
  }
  const operation = reachedInOrder(graph, spec.calls);
  const isStore = (file: string) => file.startsWith('store/');
  const domain = operation.filter((file) => layerOf(file) === 'domain');
  const foundations = operation.filter((file) => layerOf(file) !== 'domain' && !isStore(file)).sort();
  const shared = operation.filter(isStore);
  const onStore = (roots: string[]) => {
    for (const root of roots)
      if (!graph.has(root)) problems.push(`${spec.name}: the store's file ${root} is not a file of src/`);
    return [...new Set([...shared, ...reachedInOrder(graph, roots).filter(isStore)])];
  };
  for (const file of operation)
    if (layerOf(file) === 'transport' || layerOf(file) === 'entry')
      problems.push(`${spec.name}: the domain reaches ${file}, above it`);
  return {
    spec,
    domain,
    postgres: onStore(spec.store.postgres),
    sqlite: onStore(spec.store.sqlite),
    foundations,
    problems,
  };
}

/**
 * A file's own words: the first sentence of the doc comment of its namesake export (the function
 * `submitApplication` of submitApplication.ts), else of the comment that opens the file (before or
 * just after its imports), else of its first doc comment.
 */
function summaryOf(srcDir: string, file: string): string {
  const path = join(srcDir, file);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const name = file.replace(/^.*\//, '').replace(/\.ts$/, '');
  const docOf = (node: ts.Node) =>
    ts
      .getJSDocCommentsAndTags(node)
      .map((doc) => (ts.isJSDoc(doc) ? ts.getTextOfJSDocComment(doc.comment) : undefined))
      .find((text) => text !== undefined && text.trim() !== '');
  const namesake = source.statements.find((statement) => {
    if (
      ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement)
    )
      return statement.name?.text === name;
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.some(
        (d) => ts.isIdentifier(d.name) && d.name.text === name,
      );
    return false;
  });
  const firstCode = source.statements.find(
    (statement) =>
      !ts.isImportDeclaration(statement) && !(ts.isExportDeclaration(statement) && statement.moduleSpecifier),
  );
  const opening = /\/\*\*([\s\S]*?)\*\//.exec(
    source.text.slice(0, firstCode === undefined ? undefined : firstCode.getStart()),
  );
  const words =
    (namesake === undefined ? undefined : docOf(namesake)) ??
    (opening === null ? undefined : cleanComment(opening[1]!)) ??
    (firstCode === undefined ? undefined : docOf(firstCode)) ??
    '';
  const flat = words.replace(/\s+/g, ' ').trim();
  const sentence = /^(.*?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length > 150 ? `${sentence.slice(0, 147).trimEnd()}...` : sentence;
}

function cleanComment(body: string): string {
  return body
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .join(' ');
}

const code = (file: string) => `\`${file}\``;

export function walksMarkdown(
  srcDir: string,
  graph = runtimeImports(srcDir),
  walks: readonly WalkSpec[] = WALKS,
): string {
  const parts: string[] = [];
  for (const spec of walks) {
    const walk = drawWalk(spec, graph);
    const only = (files: string[], other: string[]) => files.filter((file) => !other.includes(file));
    parts.push(
      `**${spec.name}** (\`${spec.operation}\`${spec.also === undefined ? '' : `, ${spec.also}`}): the route ${code(spec.route)} calls ` +
        `${spec.calls.map(code).join(' and ')}; below them ${walk.domain.length} files of the domain, ` +
        `${walk.postgres.length} of the store on PostgreSQL and ${walk.sqlite.length} on SQLite, standing on ` +
        `${walk.foundations.length} of the foundations.`,
      '',
      ...walk.domain.map((file, index) => {
        const summary = summaryOf(srcDir, file);
        return `${index + 1}. ${code(file)}${summary === '' ? '' : `: ${summary}`}`;
      }),
      '',
      `The store, on both: ${
        walk.postgres
          .filter((f) => walk.sqlite.includes(f))
          .map(code)
          .join(', ') || 'none'
      }; ` +
        `on PostgreSQL only: ${only(walk.postgres, walk.sqlite).map(code).join(', ') || 'none'}; ` +
        `on SQLite only: ${only(walk.sqlite, walk.postgres).map(code).join(', ') || 'none'}.`,
      '',
      `The foundations: ${walk.foundations.map(code).join(', ')}.`,
      '',
    );
  }
  return parts.join('\n').trimEnd();
}

/** The section between the markers of `markdown`, or undefined when the markers are missing. */
export function walksSection(markdown: string): string | undefined {
  const start = markdown.indexOf(WALKS_START);
  const end = markdown.indexOf(WALKS_END);
  if (start < 0 || end < start) return undefined;
  return markdown.slice(start + WALKS_START.length, end).trim();
}

/**
 * What is wrong with the document's walks: a walk whose route does not call what it names, or a
 * section that is not what the imports draw (both compared as prettier formats them).
 */
export async function walkProblems(
  markdown: string,
  srcDir: string,
  documentPath: string,
  walks: readonly WalkSpec[] = WALKS,
): Promise<string[]> {
  const prettier = await import('prettier');
  const options = { ...(await prettier.resolveConfig(documentPath)), filepath: documentPath };
  const graph = runtimeImports(srcDir);
  const problems = walks.flatMap((spec) => drawWalk(spec, graph).problems);
  const section = walksSection(await prettier.format(markdown, options));
  const drawn = walksSection(
    await prettier.format(
      `${WALKS_START}\n\n${walksMarkdown(srcDir, graph, walks)}\n\n${WALKS_END}\n`,
      options,
    ),
  );
  if (section === undefined) problems.push(`the markers ${WALKS_START} and ${WALKS_END} are missing`);
  else if (section !== drawn) problems.push('the walks are not as the imports draw them: run `npm run docs`');
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = fileURLToPath(new URL('../src', import.meta.url));
  const path = fileURLToPath(new URL('../docs/ARCHITECTURE.md', import.meta.url));
  const markdown = readFileSync(path, 'utf8');
  if (process.argv.includes('--write')) {
    const start = markdown.indexOf(WALKS_START);
    const end = markdown.indexOf(WALKS_END);
    if (start < 0 || end < start) throw new Error(`docs/ARCHITECTURE.md: ${WALKS_START} not found`);
    const prettier = await import('prettier');
    const options = { ...(await prettier.resolveConfig(path)), filepath: path };
    const updated =
      markdown.slice(0, start + WALKS_START.length) +
      '\n\n' +
      walksMarkdown(srcDir) +
      '\n\n' +
      markdown.slice(end);
    writeFileSync(path, await prettier.format(updated, options));
    console.log('the walks of docs/ARCHITECTURE.md written');
  } else {
    const problems = await walkProblems(markdown, srcDir, path);
    for (const problem of problems) console.error(`walk in docs/ARCHITECTURE.md: ${problem}`);
    console.log(
      `walks of docs/ARCHITECTURE.md: ${WALKS.length}, drawn from the imports, ${problems.length} problems`,
    );
    process.exitCode = problems.length === 0 ? 0 : 1;
  }
}
