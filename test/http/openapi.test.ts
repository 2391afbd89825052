import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ApplicationRequest } from '../../src/record/schema.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { PATHS } from '../../src/http/paths.ts';
import { startService, type TestService } from '../helpers/service.ts';

/** The reference is generated from the route schemas, served, and committed; all three agree. */
describe('OpenAPI document and reference', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite');
  });
  after(() => service.close());

  test('the committed openapi.json is the served document (run `npm run openapi` after changing a route)', async () => {
    const served = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as unknown;
    const committed = JSON.parse(
      readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'),
    ) as unknown;
    assert.deepEqual(served, committed);
  });

  test('the admin API has its own document, committed as openapi.admin.json; the two do not mix', async () => {
    type Doc = {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { in: string; name: string }[];
            responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
          }
        >
      >;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
      webhooks?: unknown;
    };
    const admin = (await (await fetch(`${service.baseUrl}/admin/openapi.json`)).json()) as Doc;
    const committed = JSON.parse(
      readFileSync(new URL('../../openapi.admin.json', import.meta.url), 'utf8'),
    ) as unknown;
    assert.deepEqual(admin, committed);
    const partner = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as Doc;
    assert.ok(
      Object.keys(admin.paths).length > 0 && Object.keys(admin.paths).every((p) => p.startsWith('/admin/')),
    );
    assert.ok(
      Object.keys(partner.paths).every((p) => !p.startsWith('/admin/')),
      'no back office for partners',
    );
    assert.deepEqual(Object.keys(partner.components.securitySchemes), ['accessToken']);
    assert.deepEqual(Object.keys(admin.components.securitySchemes).sort(), [
      'operatorCookie',
      'operatorToken',
    ]);
    assert.equal(admin.webhooks, undefined);
    for (const doc of [partner, admin]) {
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const operation of Object.values(item)) {
          assert.ok(
            !(operation.parameters ?? []).some(
              (p) => p.in === 'header' && p.name.toLowerCase() === 'authorization',
            ),
            `${path}: the token is the security scheme's, not a parameter`,
          );
          for (const [status, response] of Object.entries(operation.responses)) {
            if (status.startsWith('2') || response.content === undefined) continue;
            const schema = response.content['application/json']?.schema as {
              allOf?: [unknown, { properties: { code: { enum: number[] } } }];
            };
            assert.deepEqual(
              schema.allOf?.[0],
              { $ref: '#/components/schemas/ErrorEnvelope' },
              `${path} ${status}: the shared error envelope`,
            );
            const codes = schema.allOf?.[1].properties.code.enum ?? [];
            assert.ok(codes.length > 0, `${path} ${status}: its codes listed`);
            assert.ok(
              codes.every((code) => Math.floor(code / 100) === Number(status)),
              `${path} ${status}: ${codes.join(', ')}`,
            );
          }
        }
      }
    }
  });

  test("the partner's document never names the operators' previous copy; the admin application view does", async () => {
    /** The paths (`/`-joined keys) at which a schema declares a property `previous`. */
    const declared = (node: unknown, path = ''): string[] => {
      if (node === null || typeof node !== 'object') return [];
      const found: string[] = [];
      for (const [key, value] of Object.entries(node)) {
        if (key === 'properties' && value !== null && typeof value === 'object' && 'previous' in value)
          found.push(path);
        found.push(...declared(value, `${path}/${key}`));
      }
      return found;
    };
    const partner = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as unknown;
    assert.deepEqual(declared(partner), [], 'a partner never gets the copy an amend replaced');
    assert.doesNotMatch(JSON.stringify(partner), /"previous"/);
    const admin = (await (await fetch(`${service.baseUrl}/admin/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    const view = admin.paths['/admin/v1/applications/{busi_water_no}'];
    assert.ok(declared(view).some((path) => path.includes('/documents/properties/passport_img')));
    assert.deepEqual(
      declared(admin.paths['/admin/v1/applications/{busi_water_no}/events']),
      [],
      'events never carry it, to operators either',
    );
  });

  test('the submit operation documents every field of the specification and its errors', async () => {
    const doc = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<
        string,
        {
          post: {
            requestBody: { content: Record<string, { schema: { properties: object; required: string[] } }> };
            responses: Record<string, { description: string }>;
          };
        }
      >;
    };
    assert.equal(doc.openapi, '3.1.0');
    const submit = doc.paths[PATHS.apply]!.post;
    const schema = submit.requestBody.content['application/json']!.schema;
    assert.deepEqual(
      Object.keys(schema.properties).sort(),
      Object.keys(ApplicationRequest.properties).sort(),
    );
    assert.deepEqual([...schema.required].sort(), [...ApplicationRequest.required].sort());
    for (const status of ['200', '400', '401', '403', '409', '413', '415', '422', '500', '503']) {
      assert.ok(submit.responses[status], `response ${status} is documented`);
    }
    assert.ok(submit.responses['422']!.description.includes(String(ERRORS.certCheckDigit.code)));
  });

  test("/docs carries the service's name and icon, not the framework's", async () => {
    const html = await (await fetch(`${service.baseUrl}/docs/`)).text();
    assert.equal(/<title>([^<]*)<\/title>/.exec(html)?.[1], 'Card application service: API reference');
    assert.doesNotMatch(html, /favicon-(16|32)x(16|32)\.png/, "the framework's icons");
    const icon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html)?.[1];
    assert.ok(icon, html);
    const served = await fetch(new URL(icon, `${service.baseUrl}/docs/`));
    assert.equal(served.headers.get('content-type'), 'image/svg+xml');
    assert.deepEqual(
      Buffer.from(await served.arrayBuffer()),
      readFileSync(new URL('../../web/favicon.svg', import.meta.url)),
    );
    // The page's script draws no top bar, so neither the framework's logo nor its document box.
    const initializer = await (await fetch(`${service.baseUrl}/docs/static/swagger-initializer.js`)).text();
    assert.match(initializer, /"layout":\s*"BaseLayout"/);
  });

  test('/docs renders the reference from local files, with no CDN', async () => {
    const page = await fetch(`${service.baseUrl}/docs/`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /swagger-ui/i);
    assert.doesNotMatch(html, /https?:\/\/(?!localhost|127\.0\.0\.1)[a-z0-9.-]+\/[^"']*\.(js|css)/i);
    const script = /src="\.?\/?([^"]*swagger-ui-bundle\.js)"/.exec(html)?.[1];
    assert.ok(script, 'the bundle is referenced');
    const bundle = await fetch(`${service.baseUrl}/docs/${script.replace(/^\.?\/?(docs\/)?/, '')}`);
    assert.equal(bundle.status, 200);
  });
});
