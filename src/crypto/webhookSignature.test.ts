import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signature, signedHeaders } from './webhookSignature.ts';

test('matches the example of the Standard Webhooks / Svix documentation', () => {
  assert.equal(
    signature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    ),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
});

test('headers verify with the standardwebhooks package, with one secret or two', () => {
  const [a, b] = [newWebhookSecret(), newWebhookSecret()];
  assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const body = JSON.stringify({ id: 'evt_1', type: 'application.submitted', data: { name: '张三' } });
  const now = Math.floor(Date.now() / 1000);
  const both = signedHeaders([a, b], 'evt_1', now, body);
  assert.equal(both['webhook-signature'].split(' ').length, 2);
  for (const secret of [a, b]) assert.deepEqual(new Webhook(secret).verify(body, both), JSON.parse(body));
  assert.throws(() => new Webhook(newWebhookSecret()).verify(body, both));
  assert.throws(() => new Webhook(a).verify(`${body} `, both), 'a changed body fails');
});
