import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PATHS } from '../../src/http/paths.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import {
  newPartner,
  nowSeconds,
  post,
  startService,
  type TestPartner,
  type TestService,
} from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * One name for one thing across the partner's webhook calls (issue 55): every request names the
 * endpoint `endpoint_id`, so every answer that describes an endpoint carries `endpoint_id` too, and
 * the value one answer gives is what the next request sends. `id`, its first name in the answers,
 * stays beside it, documented as deprecated, for integrations already reading it.
 */

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  deprecated?: boolean;
}

/** Every object schema in a schema, nested ones included. */
function objectsIn(schema: Schema | undefined): Schema[] {
  if (schema === undefined) return [];
  const nested = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items === undefined ? [] : [schema.items]),
    ...(schema.anyOf ?? []),
  ].flatMap(objectsIn);
  return schema.properties === undefined ? nested : [schema, ...nested];
}

for (const storeName of storeNames()) {
  describe(`the webhook calls' one name for an endpoint on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let receiver: Receiver;

    const ok = async (path: string, body: Record<string, unknown> = {}) => {
      const reply = await post(
        service.baseUrl,
        path,
        { app_id: partner.appId, timestamp: nowSeconds(), ...body },
        { token: partner.token },
      );
      assert.equal(reply.status, 200, `${path}: ${reply.text}`);
      return reply.body.data as Record<string, unknown>;
    };

    before(async () => {
      service = await startService(storeName, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      partner = await newPartner(service);
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await service.close();
    });

    test('the endpoint_id each answer gives is the one every request takes', async () => {
      const registered = await ok(PATHS.webhookRegister, { url: receiver.url });
      const endpointId = registered['endpoint_id'];
      assert.match(String(endpointId), /^we_[0-9a-f]+$/, 'register answers endpoint_id');
      assert.equal(registered['id'], endpointId, 'the deprecated id is the same value');

      const listed = (await ok(PATHS.webhookList)).items as Record<string, unknown>[];
      assert.deepEqual(
        listed.map((e) => e['endpoint_id']),
        [endpointId],
      );

      // Each request is made with what the answer before it named endpoint_id.
      let current = registered;
      for (const path of [
        PATHS.webhookShow,
        PATHS.webhookRotateSecret,
        PATHS.webhookDisable,
        PATHS.webhookEnable,
      ]) {
        current = await ok(path, { endpoint_id: current['endpoint_id'] });
        assert.equal(current['endpoint_id'], endpointId, `${path} answers endpoint_id`);
        assert.equal(current['id'], endpointId, `${path} still answers the deprecated id`);
      }
      const tested = await ok(PATHS.webhookTest, { endpoint_id: current['endpoint_id'] });
      assert.equal(tested['delivered'], true);
      await ok(PATHS.webhookDeliveries, { endpoint_id: current['endpoint_id'] });
      const deleted = await ok(PATHS.webhookDelete, { endpoint_id: current['endpoint_id'] });
      assert.deepEqual(deleted, { endpoint_id: endpointId, id: endpointId, deleted: true });
    });

    test('the document: requests name the endpoint endpoint_id, answers carry it, id is deprecated', async () => {
      const document = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as {
        paths: Record<
          string,
          {
            post: { requestBody: { content: Record<string, { schema: Schema }> } } & {
              responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
            };
          }
        >;
      };
      const webhookPaths = Object.keys(document.paths).filter((p) => p.includes('/webhooks/'));
      assert.ok(webhookPaths.length >= 10, `webhook operations: ${webhookPaths.join(', ')}`);
      for (const path of webhookPaths) {
        const operation = document.paths[path]!.post;
        const request = operation.requestBody.content['application/json']!.schema;
        assert.equal(request.properties?.['id'], undefined, `${path}: the request has no field "id"`);
        const answer = operation.responses['200']!.content!['application/json']!.schema.properties!['data'];
        for (const object of objectsIn(answer)) {
          const describesEndpoint = 'url' in object.properties! || 'deleted' in object.properties!;
          if (!describesEndpoint) continue;
          assert.ok(
            'endpoint_id' in object.properties!,
            `${path}: an endpoint in the answer has endpoint_id`,
          );
          assert.equal(object.properties!['id']?.deprecated, true, `${path}: its id is marked deprecated`);
        }
      }
    });
  });
}
