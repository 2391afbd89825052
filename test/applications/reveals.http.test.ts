import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAudit } from '../../src/audit/auditTrail.ts';
import { ADMIN, Applications, call, newOperator } from '../helpers/operators.ts';
import { sample, scrape } from '../helpers/metrics.ts';
import { newPartner, startService, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * Reveals with a purpose (PCI DSS 3.3, 3.4.1): every reveal names one from the list (with a text
 * for `other`), the audit row carries it, an operator reveals at most OPERATOR_REVEALS_PER_HOUR
 * times an hour, and the metric counts reveals and refusals by purpose.
 */
for (const storeName of storeNames()) {
  describe(`reveals with a purpose on ${storeName}`, () => {
    let service: TestService;
    let applications: Applications;
    let appId: string;
    before(async () => {
      service = await startService(storeName, { OPERATOR_REVEALS_PER_HOUR: '3' });
      applications = new Applications(service);
      appId = (await newPartner(service)).appId;
    });
    after(() => service.close());

    test('a purpose is required, from the list; other needs a text', async () => {
      const reviewer = await newOperator(service, 'reviewer');
      const serial = await applications.submit(appId);
      const reveal = (body: Record<string, unknown>) =>
        call(service, 'POST', `${ADMIN}/applications/${serial}/reveal`, { token: reviewer.token, body });
      const none = await reveal({ field: 'cert_id' });
      assert.equal(none.status, 422);
      assert.match(none.text, /purpose/);
      assert.equal((await reveal({ field: 'cert_id', purpose: 'curiosity' })).status, 422);
      const other = await reveal({ field: 'cert_id', purpose: 'other' });
      assert.equal(other.status, 422);
      assert.match(other.body.msg, /purpose_text/);
      const ok = await reveal({
        field: 'cert_id',
        purpose: 'other',
        purpose_text: 'chargeback dispute 4411',
      });
      assert.equal(ok.status, 200, ok.text);
      const entry = (
        await listAudit(
          service.ctx.store.db,
          { targetId: serial, action: 'application.reveal', limit: 5 },
          { role: 'reviewer' },
        )
      ).items[0]!;
      assert.deepEqual(entry.details, {
        field: 'cert_id',
        purpose: 'other',
        purpose_text: 'chargeback dispute 4411',
      });
      // A viewer reading the trail sees why by its code, not the reviewer's own words.
      const viewer = await newOperator(service, 'viewer');
      const trail = await call(
        service,
        'GET',
        `${ADMIN}/audit?target_id=${serial}&action=application.reveal`,
        {
          token: viewer.token,
        },
      );
      assert.equal(trail.status, 200, trail.text);
      const seen = (trail.body.data as { items: { details: Record<string, unknown> }[] }).items[0]!;
      assert.deepEqual(seen.details, { field: 'cert_id', purpose: 'other' });
    });

    test('at most OPERATOR_REVEALS_PER_HOUR reveals an hour per operator, counted in the metric', async () => {
      const reviewer = await newOperator(service, 'reviewer');
      const other = await newOperator(service, 'reviewer');
      const serial = await applications.submit(appId);
      const reveal = (token: string) =>
        call(service, 'POST', `${ADMIN}/applications/${serial}/reveal`, {
          token,
          body: { field: 'mob_no', purpose: 'fraud_investigation' },
        });
      const before = await scrape(`${service.baseUrl}/metrics`);
      for (let i = 0; i < 3; i++) assert.equal((await reveal(reviewer.token)).status, 200);
      const refused = await reveal(reviewer.token);
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.code, 42970);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter > 3500 && retryAfter <= 3600, String(retryAfter));
      assert.equal((await reveal(other.token)).status, 200, 'the allowance is per operator');
      const after = await scrape(`${service.baseUrl}/metrics`);
      const delta = (outcome: string) =>
        sample(after, 'cardapply_reveals_total', { purpose: 'fraud_investigation', outcome }) -
        sample(before, 'cardapply_reveals_total', { purpose: 'fraud_investigation', outcome });
      assert.deepEqual([delta('revealed'), delta('limited')], [4, 1]);
      const rows = await listAudit(service.ctx.store.db, {
        targetId: serial,
        action: 'application.reveal',
        limit: 10,
      });
      assert.equal(rows.items.length, 4, 'a refused reveal shows nothing and records nothing');
    });
  });
}
