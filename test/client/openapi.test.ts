import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { verifyWebhook } from '../../packages/client/src/index.ts';
import { generateSchema, SCHEMA_FILE } from '../../packages/client/scripts/generateSchema.ts';
import { createApp } from '../../src/partners/credentials.ts';
import { EVENT_TYPES } from '../../src/record/lifecycle.ts';
import { post, startService, type TestService } from '../helpers/service.ts';

/**
 * The OpenAPI document as a partner uses it: it passes the linter, every partner operation explains
 * itself with examples that the service really accepts, the webhooks are described, and a client
 * generated from the served document compiles under strict with no hand edits.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { example?: unknown }> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<
    string,
    { post: Operation & { parameters: { name: string; schema: { examples: string[] } }[] } }
  >;
  security: unknown[];
}

/** The scratch directory of this file's runs, inside the repository so node_modules resolves. */
function scratch(): string {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  return mkdtempSync(join(ROOT, '.tmp', 'client-openapi-'));
}

async function redoclyLint(file: string): Promise<void> {
  const cli = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
  try {
    await run(
      process.execPath,
      [cli, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=stylish'],
      {
        cwd: ROOT,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
      },
    );
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    assert.fail(`redocly lint ${file} failed:\n${stdout}\n${stderr}`);
  }
}

describe('the OpenAPI document for partners, and the client generated from it', () => {
  let service: TestService;
  let served: string;
  let doc: Document;
  let dir: string;
  before(async () => {
    service = await startService('sqlite');
    served = await (await fetch(`${service.baseUrl}/openapi.json`)).text();
    doc = JSON.parse(served) as Document;
    dir = scratch();
  });
  after(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const partnerOperations = () =>
    Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/mc-platformapi/'))
      .flatMap(([path, methods]) => Object.values(methods).map((operation) => ({ path, operation })));

  test('redocly lint finds no error in the served document nor in the committed openapi.json', async () => {
    const file = join(dir, 'served.json');
    writeFileSync(file, served);
    await redoclyLint(file);
    await redoclyLint(join(ROOT, 'openapi.json'));
    await redoclyLint(join(ROOT, 'openapi.admin.json'));
  });

  test('every partner operation has a summary, a description, examples, its security and its errors', () => {
    const operations = partnerOperations();
    assert.ok(operations.length >= 8, 'token, submit, validate, query, list, cancel, codes, events');
    assert.deepEqual(doc.security, [{ accessToken: [] }]);
    for (const { path, operation } of operations) {
      const name = `${operation.operationId} (${path})`;
      assert.ok(operation.summary, `${name}: summary`);
      assert.ok(operation.description, `${name}: description`);
      assert.ok(operation.requestBody?.content['application/json']?.example, `${name}: request example`);
      assert.ok(
        operation.responses['200']?.content?.['application/json']?.example,
        `${name}: response example`,
      );
      for (const status of ['400', '401', '422', '500']) {
        assert.match(
          operation.responses[status]?.description ?? '',
          /`\d{5}` \w+: /,
          `${name}: ${status} codes`,
        );
      }
      if (path.endsWith('/auth/token'))
        assert.deepEqual(operation.security, [], 'the exchange needs no token');
      else assert.equal(operation.security, undefined, `${name}: uses the document's accessToken`);
    }
  });

  test('the webhooks section describes every event type, with its signed headers and payload', () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_TYPES].sort());
    for (const [type, { post: operation }] of Object.entries(doc.webhooks)) {
      const body = operation.requestBody!.content['application/json']!;
      assert.equal((body.example as { type: string }).type, type);
      assert.deepEqual(
        operation.parameters.map((p) => p.name),
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      );
    }
    // The headers' examples are really signed: the client verifies them with the documented secret.
    const submitted = doc.webhooks['application.submitted']!.post;
    const [id, timestamp, signature] = submitted.parameters.map((p) => p.schema.examples[0]!);
    const body = JSON.stringify(submitted.requestBody!.content['application/json']!.example);
    assert.match(submitted.parameters[2]!.schema.examples[0]!, /^v1,/);
    const event = verifyWebhook(
      body,
      { 'webhook-id': id!, 'webhook-timestamp': timestamp!, 'webhook-signature': signature! },
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      { now: () => Number(timestamp) * 1000 },
    );
    assert.equal(event.type, 'application.submitted');
  });

  test('the request examples are accepted by the service as documented', async () => {
    const app = await createApp(service.ctx.store.db, 'examples', Date.now());
    const byId = new Map(
      partnerOperations().map(({ path, operation }) => [operation.operationId, { path, operation }]),
    );
    const example = (id: string) => {
      const entry = byId.get(id);
      assert.ok(entry, `${id} is documented`);
      return {
        path: entry.path,
        body: { ...entry.operation.requestBody!.content['application/json']!.example },
      };
    };
    const now = Math.floor(Date.now() / 1000);
    const token = example('exchangeToken');
    const exchanged = await post(service.baseUrl, token.path, {
      ...token.body,
      app_id: app.app_id,
      app_secret: app.app_secret,
      timestamp: now,
    });
    assert.equal(exchanged.body.code, 0, exchanged.text);
    const accessToken = (exchanged.body.data as { access_token: string }).access_token;
    let serial = '';
    let requestId = '';
    const call = async (id: string) => {
      const { path, body } = example(id);
      const reply = await post(
        service.baseUrl,
        path,
        {
          ...body,
          app_id: app.app_id,
          timestamp: now,
          ...('busi_water_no' in body ? { busi_water_no: serial } : {}),
          ...('request_id' in body ? { request_id: requestId } : {}),
        },
        { token: accessToken },
      );
      assert.equal(reply.body.code, 0, `${id}: ${reply.text}`);
      return reply.body.data;
    };
    await call('validateApplication');
    serial = ((await call('submitApplication')) as { busi_water_no: string }).busi_water_no;
    for (const id of [
      'queryApplication',
      'listApplications',
      'listEvents',
      'listCodes',
      'cancelApplication',
    ]) {
      await call(id);
    }
    requestId = ((await call('createSubjectRequest')) as { request_id: string }).request_id;
    await call('querySubjectRequest');
    await call('listSubjectRequests');
  });

  test('a client generated from the served document compiles under strict, with no hand edits', async () => {
    const client = join(dir, 'client');
    const source = fileURLToPath(new URL('../../packages/client/src/', import.meta.url));
    mkdirSync(client);
    for (const file of readdirSync(source)) {
      if (file !== 'schema.ts') cpSync(join(source, file), join(client, file));
    }
    writeFileSync(join(client, 'schema.ts'), await generateSchema(served));
    writeFileSync(
      join(client, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          allowImportingTsExtensions: true,
          verbatimModuleSyntax: true,
          noUncheckedIndexedAccess: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        include: ['*.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    try {
      await run(process.execPath, [tsc, '-p', join(client, 'tsconfig.json')], { cwd: client });
    } catch (error) {
      assert.fail(`the regenerated client does not compile:\n${(error as { stdout: string }).stdout}`);
    }
  });

  test('the committed client schema is generated from the committed openapi.json (`npm run openapi`)', async () => {
    const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
    assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), await generateSchema(committed));
  });
});
