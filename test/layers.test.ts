import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { checkConsole, checkLayers, DOMAIN_RANKS, layerOf } from '../scripts/checkLayers.ts';
import {
  drawWalk,
  reachedInOrder,
  runtimeImports,
  walkProblems,
  WALKS,
  walksMarkdown,
} from '../scripts/walks.ts';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const WEB = fileURLToPath(new URL('../web/src', import.meta.url));

describe('the architecture of src/', () => {
  test('has no circle, no upward import and no framework below the transport', () => {
    const report = checkLayers(SRC);
    assert.ok(report.files > 100, `read ${report.files} files`);
    assert.deepEqual(report.upward, []);
    assert.deepEqual(report.circles, []);
    assert.deepEqual(report.framework, []);
  });

  test('ranks every domain folder; no circle of folders; every pending arrow still there', () => {
    const report = checkLayers(SRC);
    assert.deepEqual(report.unranked, []);
    assert.deepEqual(report.folderCircles, []);
    assert.deepEqual(report.stale, []);
  });

  test('builds queries in repositories only, but for the files pending, each still querying', () => {
    const report = checkLayers(SRC);
    assert.deepEqual(report.queries, []);
    assert.deepEqual(report.staleQueries, []);
  });

  test("docs/ARCHITECTURE.md's walks are the ones the imports draw, the read-back included", async () => {
    const path = fileURLToPath(new URL('../docs/ARCHITECTURE.md', import.meta.url));
    assert.deepEqual(await walkProblems(readFileSync(path, 'utf8'), SRC, path), []);
    const graph = runtimeImports(SRC);
    const [submit, move] = WALKS.map((spec) => drawWalk(spec, graph));
    assert.equal(submit!.domain[0], 'applications/commands/submitApplication.ts');
    assert.ok(submit!.domain.includes('applications/validation/validateApplication.ts'));
    assert.ok(submit!.postgres.includes('store/postgresSubmissions.ts'));
    assert.ok(submit!.sqlite.includes('store/sqliteWriterThread.ts'));
    // The move answers with the operator's view: its files are in the walk.
    assert.ok(move!.domain.includes('applications/views/operatorView.ts'));
    assert.ok(move!.domain.includes('applications/commands/changeState.ts'));
  });

  test("the console's modules have no circle", () => {
    const report = checkConsole(WEB);
    assert.ok(report.files > 20, `read ${report.files} modules`);
    assert.deepEqual(report.circles, []);
  });

  test('places each folder in its layer', () => {
    assert.equal(layerOf('cli/main.ts'), 'entry');
    assert.equal(layerOf('server.ts'), 'entry');
    assert.equal(layerOf('cluster.ts'), 'entry');
    assert.equal(layerOf('http/routes/applicationRoutes.ts'), 'transport');
    assert.equal(layerOf('app.ts'), 'transport');
    assert.equal(layerOf('start.ts'), 'wiring');
    assert.equal(layerOf('applications/commands/submitApplication.ts'), 'domain');
    assert.equal(layerOf('context.ts'), 'domain');
    assert.equal(layerOf('store/connect.ts'), 'foundation');
    assert.equal(layerOf('redaction.ts'), 'foundation');
    assert.equal(layerOf('config/webhooks.ts'), 'foundation');
  });

  test('ranks the application above its parts, its parts above its record, the record above the outbox and the accounts', () => {
    assert.ok(DOMAIN_RANKS.applications! > DOMAIN_RANKS.documents!);
    assert.equal(DOMAIN_RANKS.documents, DOMAIN_RANKS.screening);
    assert.ok(DOMAIN_RANKS.documents! > DOMAIN_RANKS.record!);
    assert.ok(DOMAIN_RANKS.record! > DOMAIN_RANKS.events!);
    assert.ok(DOMAIN_RANKS.events! > DOMAIN_RANKS.operators!);
    assert.ok(DOMAIN_RANKS.operators! > DOMAIN_RANKS.audit!);
    assert.ok(DOMAIN_RANKS.audit! > DOMAIN_RANKS['context.ts']!);
  });
});

describe('the check itself', () => {
  const tree = (files: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'layers-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };

  test('finds a domain file importing the transport, and a store file importing the domain', () => {
    const root = tree({
      'applications/submit.ts': "import { envelope } from '../http/envelope.ts';\n",
      'http/envelope.ts': 'export const envelope = 1;\n',
      'store/connect.ts': "import type { X } from '../applications/submit.ts';\n",
    });
    try {
      const report = checkLayers(root);
      assert.equal(report.upward.length, 2);
      assert.match(report.upward.join('\n'), /applications\/submit\.ts \(domain\) -> http\/envelope\.ts/);
      assert.match(report.upward.join('\n'), /store\/connect\.ts \(foundation\) -> applications\/submit\.ts/);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test('finds a type-only circle, a dynamic import and the framework in the domain', () => {
    const root = tree({
      'codes/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
      'codes/b.ts': "export type B = import('./a.ts').A;\nconst c = await import('./c.ts');\n",
      'codes/c.ts': "import type { FastifyInstance } from 'fastify';\n",
    });
    try {
      const report = checkLayers(root);
      assert.deepEqual(report.circles, [['codes/a.ts', 'codes/b.ts']]);
      assert.deepEqual(report.framework, ['codes/c.ts']);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test('finds a domain folder importing one of a higher rank', () => {
    const root = tree({
      'audit/auditTrail.ts': "import { x } from '../applications/x.ts';\n",
      'applications/x.ts': "import { recordAudit } from '../audit/auditTrail.ts';\nexport const x = 1;\n",
    });
    try {
      const report = checkLayers(root, { pending: [] });
      assert.deepEqual(report.upward, [
        'audit/auditTrail.ts (audit 3) -> applications/x.ts (applications 8)',
      ]);
      assert.deepEqual(report.circles, [['applications/x.ts', 'audit/auditTrail.ts']]);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test('finds two folders of one rank that import each other through different files', () => {
    const root = tree({
      'partners/a.ts': "import { b } from '../operators/b.ts';\nexport const a = b;\n",
      'operators/b.ts': 'export const b = 1;\n',
      'operators/c.ts': "import { d } from '../partners/d.ts';\nexport const c = d;\n",
      'partners/d.ts': 'export const d = 1;\n',
    });
    try {
      const report = checkLayers(root, { pending: [] });
      assert.deepEqual(report.upward, []);
      assert.deepEqual(report.circles, []);
      assert.deepEqual(report.folderCircles, [['operators', 'partners']]);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test('refuses a folder without a rank, tolerates a pending arrow and reports one that is gone', () => {
    const root = tree({
      'loyalty/points.ts': "import { x } from '../applications/x.ts';\n",
      'applications/x.ts': 'export const x = 1;\n',
      'documents/fetch.ts': "import { x } from '../applications/x.ts';\n",
    });
    try {
      const report = checkLayers(root, { pending: ['documents -> applications', 'events -> documents'] });
      assert.deepEqual(report.unranked, ['loyalty']);
      assert.deepEqual(report.upward, []);
      assert.deepEqual(report.stale, ['events -> documents']);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test('finds a query outside a repository, tolerates a pending one and reports one that is gone', () => {
    const query = "export const f = (db) => db.selectFrom('apps').selectAll().execute();\n";
    const root = tree({
      'partners/appRepository.ts': query,
      'partners/credentials.ts': query,
      'operators/sessions.ts': "export const g = (db) => db\n  .updateTable('operators');\n",
      'store/connect.ts': query,
      'keys/rotate.ts': "export const h = 'no query here: selectFrom';\n",
      'retention/erase.ts': 'export const e = (db) => sql<{ n: number }>`select 1`.execute(db);\n',
    });
    try {
      const report = checkLayers(root, { queriesPending: ['operators/sessions.ts', 'keys/rotate.ts'] });
      assert.deepEqual(report.queries.sort(), ['partners/credentials.ts', 'retention/erase.ts']);
      assert.deepEqual(report.staleQueries, ['keys/rotate.ts']);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test('draws a walk from the imports that run, each file before those it imports', async () => {
    const root = tree({
      'http/route.ts': "import { submit } from '../applications/submit.ts';\n",
      'applications/submit.ts': [
        '/** Submits: the operation. */',
        "import { rows } from '../record/rows.ts';",
        "import type { Shape } from './shape.ts';",
        "import { type Other, pure } from './pure.ts';",
        "const later = () => import('./later.ts');",
        '',
      ].join('\n'),
      'applications/pure.ts': "import { rows } from '../record/rows.ts';\nexport const pure = 1;\n",
      'applications/shape.ts': 'export type Shape = 1;\n',
      'applications/later.ts': "import { catalogue } from '../errors/catalogue.ts';\n",
      'record/rows.ts': "import { table } from '../store/tables.ts';\n",
      'errors/catalogue.ts': 'export const catalogue = 1;\n',
      'store/tables.ts': 'export const table = 1;\n',
      'store/pg.ts': "import { table } from './tables.ts';\n",
      'store/lite.ts': 'export const lite = 1;\n',
    });
    const spec = {
      name: 'Submits',
      operation: 'POST /submit',
      route: 'http/route.ts',
      calls: ['applications/submit.ts'],
      store: { postgres: ['store/pg.ts'], sqlite: ['store/lite.ts'] },
    };
    try {
      const graph = runtimeImports(root);
      // A type-only import is gone before the code runs; a dynamic one runs.
      assert.deepEqual(graph.get('applications/submit.ts'), [
        'record/rows.ts',
        'applications/pure.ts',
        'applications/later.ts',
      ]);
      const order = reachedInOrder(graph, ['applications/submit.ts']);
      for (const [file, targets] of graph)
        for (const target of targets)
          if (order.includes(file))
            assert.ok(order.indexOf(file) < order.indexOf(target), `${file} > ${target}`);
      const walk = drawWalk(spec, graph);
      assert.deepEqual(walk.domain, [
        'applications/submit.ts',
        'applications/pure.ts',
        'record/rows.ts',
        'applications/later.ts',
      ]);
      assert.deepEqual(walk.postgres, ['store/tables.ts', 'store/pg.ts']);
      assert.deepEqual(walk.sqlite, ['store/tables.ts', 'store/lite.ts']);
      assert.deepEqual(walk.foundations, ['errors/catalogue.ts']);
      assert.deepEqual(walk.problems, []);
      const markdown = walksMarkdown(root, graph, [spec]);
      assert.match(markdown, /1\. `applications\/submit\.ts`: Submits: the operation\./);
      assert.doesNotMatch(markdown, /shape\.ts/);
      // A route that no longer calls what the walk names, and a store file that is gone.
      const drifted = drawWalk({ ...spec, route: 'http/route.ts', calls: ['applications/pure.ts'] }, graph);
      assert.deepEqual(drifted.problems, ['Submits: http/route.ts does not import applications/pure.ts']);
      const gone = drawWalk({ ...spec, store: { postgres: ['store/gone.ts'], sqlite: [] } }, graph);
      assert.deepEqual(gone.problems, ["Submits: the store's file store/gone.ts is not a file of src/"]);
      // A section that is not what the imports draw.
      const document = join(root, 'ARCHITECTURE.md');
      assert.deepEqual(await walkProblems('# Architecture\n', root, document, [spec]), [
        'the markers <!-- walks: written by `npm run docs` from the imports (scripts/walks.ts) --> and <!-- end of walks --> are missing',
      ]);
      const drawn = `<!-- walks: written by \`npm run docs\` from the imports (scripts/walks.ts) -->\n\n${markdown}\n\n<!-- end of walks -->\n`;
      assert.deepEqual(await walkProblems(drawn, root, document, [spec]), []);
      writeFileSync(join(root, 'applications/pure.ts'), "import { lite } from '../store/lite.ts';\n");
      assert.deepEqual(await walkProblems(drawn, root, document, [spec]), [
        'the walks are not as the imports draw them: run `npm run docs`',
      ]);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  test("finds a circle between the console's modules, type-only included", () => {
    const root = tree({
      'api.js': "import { activity } from './idle.js';\n",
      'idle.js': "import { api } from './api.js';\n",
      'main.js': "import { api } from './api.js';\n",
      'pages/queue.js': "/** @type {import('../main.js').Page} */\n",
    });
    try {
      assert.deepEqual(checkConsole(root).circles, [['api.js', 'idle.js']]);
      writeFileSync(join(root, 'main.js'), "import { renderQueue } from './pages/queue.js';\n");
      assert.equal(checkConsole(root).circles.length, 2);
    } finally {
      rmSync(root, { recursive: true });
    }
  });
});
