import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookFailure,
} from '../../packages/client/src/index.ts';

/**
 * The client's webhook verifier against messages signed by the `standardwebhooks` package (a
 * signer nobody here wrote): rotation with several signatures, the timestamp window, header forms,
 * and the raw-body rule. A real delivery from the service: client.test.ts.
 */

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
// As a server may send it: compact, with a non-ASCII character escaped. Parsing and serialising
// it again gives other bytes (`café`), which is why a verifier must get the raw body.
const body =
  '{"id":"evt_1","type":"application.cancelled","created_at":1795000600,"data":{"busi_water_no":"S1",' +
  '"sequence":2,"status":"CANCELLED","previous_status":"SUBMITTED","reason":"caf\\u00e9","card_no_masked":"539966******4242"}}';

function signed(secrets: string[], at = new Date(), payload: string = body) {
  const id = 'evt_1';
  const signatures = secrets.map((s) => new Webhook(s).sign(id, at, payload));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

function failure(run: () => unknown): WebhookFailure {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof WebhookVerificationError, String(error));
    return error.reason;
  }
  assert.fail('expected the verification to fail');
}

describe('verifyWebhook', () => {
  test('accepts a message signed by standardwebhooks, as string, Buffer or Headers', () => {
    const key = secret();
    const headers = signed([key]);
    const parsed = verifyWebhook(body, headers, key);
    assert.equal((parsed.data as { reason?: string }).reason, 'café');
    assert.equal(parsed.type, 'application.cancelled');
    assert.equal(parsed.data.sequence, 2);
    verifyWebhook(Buffer.from(body), headers, key);
    verifyWebhook(body, new Headers(headers), key);
    const shouting = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    verifyWebhook(body, shouting, key);
  });

  test('a body parsed and serialised again does not verify', () => {
    const key = secret();
    const headers = signed([key]);
    const reserialised = JSON.stringify(JSON.parse(body) as unknown);
    assert.notEqual(reserialised, body);
    assert.equal(
      failure(() => verifyWebhook(reserialised, headers, key)),
      'no_matching_signature',
    );
    assert.equal(
      failure(() => verifyWebhook(JSON.stringify(JSON.parse(body), null, 2), headers, key)),
      'no_matching_signature',
    );
  });

  test('during a rotation: several signatures, several secrets, any one match is enough', () => {
    const [oldKey, newKey, otherKey] = [secret(), secret(), secret()];
    const headers = signed([oldKey, newKey]);
    verifyWebhook(body, headers, oldKey);
    verifyWebhook(body, headers, newKey);
    verifyWebhook(body, signed([newKey]), [oldKey, newKey]);
    assert.equal(
      failure(() => verifyWebhook(body, headers, otherKey)),
      'no_matching_signature',
    );
    // Unknown signature versions are skipped, not an error.
    const mixed = {
      ...signed([newKey]),
      'webhook-signature': `v1a,abc ${signed([newKey])['webhook-signature']}`,
    };
    verifyWebhook(body, mixed, newKey);
  });

  test('refuses tampered bodies, other ids, stale or future timestamps and missing headers', () => {
    const key = secret();
    const headers = signed([key]);
    assert.equal(
      failure(() => verifyWebhook(body.replace('S1', 'S2'), headers, key)),
      'no_matching_signature',
    );
    assert.equal(
      failure(() => verifyWebhook(body, { ...headers, 'webhook-id': 'evt_2' }, key)),
      'no_matching_signature',
    );
    const old = signed([key], new Date(Date.now() - 10 * 60_000));
    assert.equal(
      failure(() => verifyWebhook(body, old, key)),
      'too_old',
    );
    verifyWebhook(body, old, key, { toleranceSeconds: 700 });
    assert.equal(
      failure(() => verifyWebhook(body, signed([key], new Date(Date.now() + 10 * 60_000)), key)),
      'too_new',
    );
    assert.equal(
      failure(() => verifyWebhook(body, { 'webhook-id': 'evt_1' }, key)),
      'missing_headers',
    );
    assert.equal(
      failure(() => verifyWebhook(body, { ...headers, 'webhook-timestamp': 'yesterday' }, key)),
      'bad_timestamp',
    );
  });

  test('what it accepts, standardwebhooks accepts too', () => {
    const key = secret();
    const headers = signed([key]);
    assert.deepEqual(new Webhook(key).verify(body, headers), verifyWebhook(body, headers, key));
  });
});
