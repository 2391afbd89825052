import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import {
  checkConsole,
  checkLayers,
  checkWalks,
  DOMAIN_RANKS,
  layerOf,
  MAX_WALK_FILES,
  readWalks,
  walkFiles,
} from '../scripts/checkLayers.ts';

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

  test("walks docs/ARCHITECTURE.md's two walks one way, each within the steps it is allowed", () => {
    const walks = readWalks(readFileSync(new URL('../docs/ARCHITECTURE.md', import.meta.url), 'utf8'), SRC);
    assert.deepEqual(
      walks.map((walk) => walk.name),
      ['A partner submits', 'An operator moves an application'],
    );
    // As the document counts them: the submission 7 files on PostgreSQL and 8 on SQLite with the
    // conflict's holder looked up; the move 6 on each (SQLite's group commit is in parentheses).
    assert.deepEqual(
      walks.map((walk) => [walkFiles(walk, 'postgres'), walkFiles(walk, 'sqlite')]),
      [
        [7, 8],
        [6, 6],
      ],
    );
    for (const walk of walks) assert.ok(walkFiles(walk, 'sqlite') <= MAX_WALK_FILES, walk.name);
    assert.deepEqual(walks[0]!.steps[0], ['http/routes/applicationRoutes.ts']);
    assert.deepEqual(walks[1]!.steps[2], ['applications/commands/changeState.ts']);
    assert.deepEqual(checkWalks(walks, SRC), []);
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

  test('reads a walk without its bracketed helpers, and finds a step importing one above it', () => {
    const root = tree({
      'http/route.ts': "import { submit } from '../applications/submit.ts';\n",
      'applications/submit.ts':
        "import { rows } from '../store/rows.ts';\nimport { pure } from './pure.ts';\n",
      'applications/pure.ts': 'export const pure = 1;\n',
      'store/rows.ts': 'export const rows = 1;\n',
    });
    const markdown = [
      '# Architecture',
      '## Two walks',
      '**A partner submits**: 3 files.',
      '',
      '1. `http/route.ts`: the route',
      '2. `applications/submit.ts`: builds the rows [`applications/pure.ts`,',
      '   `applications/pure.ts`] (declared in `store/rows.ts`)',
      '3. `store/rows.ts` or `store/gone.ts`: the store',
      '## Conventions',
      '1. `http/route.ts`: not a step',
    ].join('\n');
    try {
      const walks = readWalks(markdown, root);
      assert.deepEqual(walks, [
        {
          name: 'A partner submits',
          steps: [['http/route.ts'], ['applications/submit.ts'], ['store/rows.ts']],
        },
      ]);
      assert.deepEqual(checkWalks(walks, root), []);
      writeFileSync(join(root, 'store/rows.ts'), "import { submit } from '../applications/submit.ts';\n");
      assert.deepEqual(checkWalks(walks, root), [
        'A partner submits: store/rows.ts (step 3) imports applications/submit.ts, above it',
      ]);
      const long = {
        name: 'long',
        steps: [
          ...Array.from({ length: MAX_WALK_FILES }, (_, i) => [`applications/step${i}.ts`]),
          ['store/postgresOnly.ts', 'store/sqliteOnly.ts'],
        ],
      };
      assert.deepEqual(checkWalks([long], root), [
        'long: 9 files on postgres, more than 8',
        'long: 9 files on sqlite, more than 8',
      ]);
      assert.deepEqual(checkWalks([{ name: 'empty', steps: [[]] }], root), [
        'empty: step 1 names no file of src/',
      ]);
      assert.deepEqual(checkWalks([], root), ['no walk found under "## Two walks"']);
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
