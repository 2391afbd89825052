import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { checkLayers, layerOf } from '../scripts/checkLayers.ts';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

describe('the architecture of src/', () => {
  test('has no circle, no upward import and no framework below the transport', () => {
    const report = checkLayers(SRC);
    assert.ok(report.files > 100, `read ${report.files} files`);
    assert.deepEqual(report.upward, []);
    assert.deepEqual(report.circles, []);
    assert.deepEqual(report.framework, []);
  });

  test('places each folder in its layer', () => {
    assert.equal(layerOf('cli/main.ts'), 'entry');
    assert.equal(layerOf('server.ts'), 'entry');
    assert.equal(layerOf('http/routes/applicationRoutes.ts'), 'transport');
    assert.equal(layerOf('app.ts'), 'transport');
    assert.equal(layerOf('start.ts'), 'wiring');
    assert.equal(layerOf('applications/submitApplication.ts'), 'domain');
    assert.equal(layerOf('context.ts'), 'domain');
    assert.equal(layerOf('store/connect.ts'), 'foundation');
    assert.equal(layerOf('redaction.ts'), 'foundation');
    assert.equal(layerOf('config/webhooks.ts'), 'foundation');
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
});
