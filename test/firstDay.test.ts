import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { EXAMPLE_APPLICANT } from '../src/applications/rules/exampleApplicant.ts';
import { TEST_PASSWORD } from './helpers/operators.ts';
import { spawnService } from './helpers/process.ts';
import { createStoreTarget, storeNames } from './helpers/stores.ts';

/**
 * docs/FIRST-DAY.md's commands, run as written against a running service on each store, as
 * readme.test.ts runs the README's: every fenced `bash` block, the operator's and the partner's.
 * The two walks meet: the admin makes the accounts and the partner's app, the partner submits, the
 * reviewer asks for a sharper image, the partner amends. Between blocks the test sets only what the
 * page says a reader holds by then ($BASE, $APP_ID and $APP_SECRET, $TOKEN, $SERIAL), from the
 * blocks' own output, and the partner's `application.json`; the password the page says is asked
 * for is typed on standard input.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

function fencedBlocks(): string[] {
  const page = readFileSync(join(ROOT, 'docs/FIRST-DAY.md'), 'utf8');
  return [...page.matchAll(/```bash\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** The blocks by what they do, in the page's order; the test fails when the page changes shape. */
const SHAPE: [string, RegExp][] = [
  ['accounts', /operators create --username ada --role admin[\s\S]*operators create --username rita/],
  ['moves', /applications review "\$SERIAL"[\s\S]*applications supplement "\$SERIAL"/],
  ['app', /apps create --name/],
  ['token', /auth\/token/],
  ['submit', /card\/apply" /],
  ['webhook', /webhooks\/register/],
  ['amend', /apply\/amend/],
];

for (const storeName of storeNames()) {
  describe(`docs/FIRST-DAY.md on ${storeName}`, () => {
    test("an operator's and a partner's first day, command by command", async () => {
      const blocks = fencedBlocks();
      assert.equal(blocks.length, SHAPE.length, 'the fenced bash blocks of the page');
      const block = Object.fromEntries(
        SHAPE.map(([name, shape], index) => {
          assert.match(blocks[index]!, shape, `block ${index + 1} is the ${name} step`);
          return [name, blocks[index]!];
        }),
      );
      const target = createStoreTarget(storeName);
      const service = await spawnService({ ...target.env, DOCUMENT_FETCH_HOURS: '0' });
      const workDir = mkdtempSync(join(tmpdir(), 'cardapply-first-day-'));
      const held: Record<string, string> = { BASE: service.baseUrl };
      const cli = JSON.stringify(join(ROOT, 'bin/cardapply.js'));
      const shell = async (script: string) => {
        const prelude = [
          `cd ${JSON.stringify(workDir)}`,
          // `npx cardapply` as in a checkout; the password prompt answered on standard input.
          `cardapply() { if [ "\${1:-} \${2:-}" = "operators create" ]; then printf '%s\\n' "$FIRST_DAY_PASSWORD" | node ${cli} "$@" --password-stdin; else node ${cli} "$@"; fi; }`,
          'npx() { shift; cardapply "$@"; }',
          'set -euo pipefail',
        ].join('\n');
        const { stdout } = await run('bash', ['-c', `${prelude}\n${script}`], {
          env: {
            ...process.env,
            ...target.env,
            ...held,
            PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env['PATH'] ?? ''}`,
            FIRST_DAY_PASSWORD: TEST_PASSWORD,
            CARDAPPLY_OPERATOR: '',
          },
        });
        return stdout;
      };
      const envelope = (stdout: string) =>
        JSON.parse(stdout.trim().split('\n').at(-1)!) as { code: number; data: Record<string, unknown> };
      try {
        await shell(block['accounts']!);
        const app = JSON.parse(await shell(block['app']!)) as { app_id: string; app_secret: string };
        held['APP_ID'] = app.app_id;
        held['APP_SECRET'] = app.app_secret;
        const token = envelope(await shell(block['token']!));
        assert.equal(token.code, 0);
        held['TOKEN'] = String(token.data['access_token']);
        writeFileSync(
          join(workDir, 'application.json'),
          JSON.stringify({
            app_id: app.app_id,
            timestamp: Math.floor(Date.now() / 1000),
            ...EXAMPLE_APPLICANT,
          }),
        );
        const submitted = envelope(await shell(block['submit']!));
        assert.equal(submitted.code, 0, JSON.stringify(submitted));
        held['SERIAL'] = String(submitted.data['busi_water_no']);
        // partner.example resolves nowhere here: the register answers that, or registers it.
        const registered = envelope(await shell(block['webhook']!));
        assert.ok([0, 42280].includes(registered.code), JSON.stringify(registered));

        await shell(block['moves']!);
        const amended = envelope(await shell(block['amend']!));
        assert.equal(amended.code, 0, JSON.stringify(amended));
        assert.equal(amended.data['status'], 'IN_REVIEW');
        const history = amended.data['history'] as { status: string; amended_fields?: string[] }[];
        assert.deepEqual(
          history.map((entry) => entry.status),
          ['SUBMITTED', 'IN_REVIEW', 'SUPPLEMENT_REQUIRED', 'IN_REVIEW'],
        );
        assert.deepEqual(history.at(-1)?.amended_fields, ['id_card_img']);
      } finally {
        service.child.kill('SIGTERM');
        await service.exited;
        rmSync(workDir, { recursive: true, force: true });
        await target.cleanup();
      }
    });
  });
}
