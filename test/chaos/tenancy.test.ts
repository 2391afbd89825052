import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { ApplicationRequest } from '../../src/record/schema.ts';
import { PATHS } from '../../src/http/paths.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { uniqueApplicant } from '../helpers/applicants.ts';
import { ADMIN, newOperator } from '../helpers/operators.ts';
import { newPartner, nowSeconds, startService, type TestPartner } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';
import { SQL_INJECTIONS } from '../fuzz/hostile.ts';
import { fingerprints, isEnvelope, send, type Exchange } from './support/http.ts';
import { findLeaks, identityValues } from './support/leaks.ts';
import { inspectStore } from './support/storeChecks.ts';
import { report } from './support/summary.ts';

/**
 * Secrets and tenancy: an app cannot read, list, cancel, move or learn of another app's
 * application (its serial answers exactly like one that does not exist); SQL injection strings in
 * every field are refused by validation or stored and returned as plain text; the raw store and the
 * logs hold no identity value in the clear; no response names the framework behind it.
 */
const ABSENT_SERIAL = '01M80000000000000000000000000000';

/** An answer without what legitimately differs between two requests. */
const comparable = (r: Exchange) => `${r.status} ${r.text}`;

for (const storeName of storeNames()) {
  describe(`chaos: secrets and tenancy on ${storeName}`, () => {
    test('another app is walled off; injection is inert; nothing leaks or fingerprints', async (t) => {
      const service = await startService(storeName, { SANDBOX: 'true' });
      const exchanges: Exchange[] = [];
      const call = async (path: string, partner: TestPartner | undefined, body: unknown, headers = {}) => {
        const reply = await send(service.baseUrl, path, {
          body,
          ...(partner ? { token: partner.token } : {}),
          headers,
        });
        exchanges.push(reply);
        return reply;
      };
      const identity: string[] = [];
      let n = 0;
      try {
        const owner = await newPartner(service, 'owner partner');
        const other = await newPartner(service, 'other partner');
        const ownerApplication = uniqueApplicant(n++, owner.appId);
        identity.push(...identityValues(ownerApplication));
        const submitted = await call(PATHS.apply, owner, ownerApplication);
        assert.equal(submitted.status, 200, submitted.text);
        const serial = (submitted.json as { data: { busi_water_no: string } }).data.busi_water_no;
        const otherOwn = await call(PATHS.apply, other, uniqueApplicant(n++, other.appId));
        assert.equal(otherOwn.status, 200);

        // Every partner route that takes a serial answers for another app's exactly as for none.
        const asOther = (path: string, extra: Record<string, unknown>) =>
          call(path, other, { app_id: other.appId, timestamp: nowSeconds(), ...extra });
        const probes: [string, Record<string, unknown>][] = [
          [PATHS.query, {}],
          [PATHS.cancel, { reason: 'not mine' }],
          [PATHS.simulate, { status: 'IN_REVIEW' }],
        ];
        let walls = 0;
        for (const [path, extra] of probes) {
          const foreign = await asOther(path, { ...extra, busi_water_no: serial });
          const absent = await asOther(path, { ...extra, busi_water_no: ABSENT_SERIAL });
          assert.equal(foreign.status, 404, `${path}: ${foreign.text}`);
          assert.equal(
            comparable(foreign),
            comparable(absent),
            `${path}: another app's serial answers like none`,
          );
          walls++;
        }
        // The same by the owner's own reference (external_id), which another app cannot see.
        const referenced = await call(PATHS.apply, owner, {
          ...uniqueApplicant(n++, owner.appId),
          external_id: 'TENANCY-REF-1',
        });
        assert.equal(referenced.status, 200, referenced.text);
        // Query, cancel and amend take a reference in place of the serial (simulate takes serials only).
        const referenceProbes: [string, Record<string, unknown>][] = [
          ...probes.filter(([path]) => path !== PATHS.simulate),
          [PATHS.amend, { id_card_img: 'https://img.example.com/x.jpg' }],
        ];
        for (const [path, extra] of referenceProbes) {
          const foreign = await asOther(path, { ...extra, external_id: 'TENANCY-REF-1' });
          const absent = await asOther(path, { ...extra, external_id: 'TENANCY-REF-NONE' });
          assert.equal(foreign.status, 404, `${path}: ${foreign.text}`);
          assert.equal(
            comparable(foreign),
            comparable(absent),
            `${path}: another app's reference answers like none`,
          );
          walls++;
        }
        const amendForeign = await asOther(PATHS.amend, {
          busi_water_no: serial,
          id_card_img: 'https://img.example.com/x.jpg',
        });
        const amendAbsent = await asOther(PATHS.amend, {
          busi_water_no: ABSENT_SERIAL,
          id_card_img: 'https://img.example.com/x.jpg',
        });
        assert.equal(amendForeign.status, 404, amendForeign.text);
        assert.equal(
          comparable(amendForeign),
          comparable(amendAbsent),
          "amend: another app's serial answers like none",
        );
        walls++;
        // Webhook endpoints and events of the owner: every self-service route answers as for none.
        const endpoint = await addEndpoint(
          {
            ...service.ctx,
            config: {
              ...service.ctx.config,
              webhooks: { ...service.ctx.config.webhooks, allowPrivate: true },
            },
          },
          { appId: owner.appId, url: 'http://127.0.0.1:9/hook' },
        );
        const ownerEvent = await service.ctx.store.db
          .selectFrom('events')
          .select('event_id')
          .where('busi_water_no', '=', serial)
          .executeTakeFirstOrThrow();
        for (const path of [
          PATHS.webhookShow,
          PATHS.webhookRotateSecret,
          PATHS.webhookDisable,
          PATHS.webhookEnable,
          PATHS.webhookDelete,
          PATHS.webhookTest,
          PATHS.webhookDeliveries,
        ]) {
          const foreign = await asOther(path, { endpoint_id: endpoint.id });
          const absent = await asOther(path, { endpoint_id: 'we_00000000000000000000' });
          assert.equal(foreign.status, 404, `${path}: ${foreign.text}`);
          assert.equal(
            comparable(foreign),
            comparable(absent),
            `${path}: another app's endpoint answers like none`,
          );
          walls++;
        }
        const redeliver = await asOther(PATHS.webhookRedeliver, { event_id: ownerEvent.event_id });
        const redeliverNone = await asOther(PATHS.webhookRedeliver, { event_id: 'evt_none' });
        assert.equal(
          comparable(redeliver),
          comparable(redeliverNone),
          "another app's event answers like none",
        );
        const otherList = await asOther(PATHS.webhookList, {});
        assert.ok(!otherList.text.includes(endpoint.id), "another app's endpoint is not listed");
        walls += 2;
        const events = await asOther(PATHS.events, { busi_water_no: serial });
        const noEvents = await asOther(PATHS.events, { busi_water_no: ABSENT_SERIAL });
        assert.equal(comparable(events), comparable(noEvents), 'events of another app: like none');
        walls++;
        const listed = await asOther(PATHS.list, { limit: 100 });
        assert.ok(!listed.text.includes(serial), "another app's application is not listed");
        walls++;
        // Still there and untouched for its owner.
        const mine = await call(PATHS.query, owner, {
          app_id: owner.appId,
          timestamp: nowSeconds(),
          busi_water_no: serial,
        });
        assert.equal((mine.json as { data: { status: string } }).data.status, 'SUBMITTED');
        // An idempotency key is the app's own: another app's use of it replays nothing of the first.
        const keyed = await call(PATHS.apply, owner, uniqueApplicant(n++, owner.appId), {
          'idempotency-key': 'shared-key-1',
        });
        const otherKeyed = await call(PATHS.apply, other, uniqueApplicant(n++, other.appId), {
          'idempotency-key': 'shared-key-1',
        });
        assert.equal(keyed.status, 200);
        assert.equal(otherKeyed.status, 200, otherKeyed.text);
        assert.notEqual(otherKeyed.text, keyed.text, 'no replay across apps');
        assert.equal(otherKeyed.headers.get('idempotent-replayed'), null);
        walls++;
        // A document with an active application elsewhere: a 409 that names no serial of the other app.
        const sameDocument = await call(PATHS.apply, other, {
          ...ownerApplication,
          app_id: other.appId,
          timestamp: nowSeconds(),
        });
        assert.equal(sameDocument.status, 409);
        assert.ok(!sameDocument.text.includes(serial), 'the other app learns no serial');

        // SQL injection in every field: refused naming that field, or stored and returned as sent.
        const fields = Object.keys(ApplicationRequest.properties).filter(
          (f) => f !== 'app_id' && f !== 'timestamp',
        );
        let refused = 0;
        const stored: { serial: string; field: string; value: unknown }[] = [];
        for (const [i, field] of fields.entries()) {
          const injection = SQL_INJECTIONS[i % SQL_INJECTIONS.length]!;
          const base = uniqueApplicant(n++, owner.appId) as unknown as Record<string, unknown>;
          const current = base[field];
          // Keep a structured field's shape, with the injection where text goes.
          let value: unknown = injection;
          if (Array.isArray(current)) value = [injection];
          if (field === 'other_field') value = [{ name: injection, value: injection, field: injection }];
          if (/address$/.test(field) && typeof current === 'string')
            value = `${current.split('-').slice(0, 3).join('-')}-${injection}`;
          const reply = await call(PATHS.apply, owner, { ...base, [field]: value });
          assert.ok(
            reply.status === 200 || reply.status === 422,
            `${field}: ${reply.status} ${reply.text.slice(0, 200)}`,
          );
          if (reply.status === 422) {
            const errors = (reply.json as { data: { errors: { field: string }[] } }).data.errors;
            assert.ok(
              errors.some(
                (e) =>
                  e.field === field || e.field.startsWith(`${field}[`) || e.field.startsWith(`${field}.`),
              ),
              `${field}: the 422 names it: ${reply.text.slice(0, 300)}`,
            );
            refused++;
          } else {
            stored.push({
              serial: (reply.json as { data: { busi_water_no: string } }).data.busi_water_no,
              field,
              value,
            });
            identity.push(...identityValues(base));
          }
        }
        for (const s of stored) {
          const row = await service.ctx.store.db
            .selectFrom('applications')
            .select('payload_enc')
            .where('busi_water_no', '=', s.serial)
            .executeTakeFirstOrThrow();
          const payload = JSON.parse(service.ctx.keyRing.decrypt(row.payload_enc, s.serial)) as Record<
            string,
            unknown
          >;
          assert.deepEqual(payload[s.field], s.value, `${s.field}: stored exactly as sent`);
        }
        // Returned as sent: the operator view of a free-text field, and a cancellation reason.
        const admin = await newOperator(service, 'admin');
        for (const s of stored.filter((x) => x.field === 'company_name' || x.field === 'purpose_other')) {
          const view = await send(service.baseUrl, `${ADMIN}/applications/${s.serial}`, {
            method: 'GET',
            token: admin.token,
          });
          exchanges.push(view);
          const application = (view.json as { data: { application: Record<string, unknown> } }).data
            .application;
          assert.deepEqual(application[s.field], s.value, `${s.field}: returned as sent`);
        }
        const reason = SQL_INJECTIONS[0];
        const cancelled = await call(PATHS.cancel, owner, {
          app_id: owner.appId,
          timestamp: nowSeconds(),
          busi_water_no: stored[0]!.serial,
          reason,
        });
        assert.equal(cancelled.status, 200, cancelled.text);
        assert.equal((cancelled.json as { data: { status_reason: string } }).data.status_reason, reason);
        // Injection in the other inputs: the serial, the list cursor, the headers.
        for (const injection of SQL_INJECTIONS) {
          for (const reply of [
            await call(PATHS.query, owner, {
              app_id: owner.appId,
              timestamp: nowSeconds(),
              busi_water_no: injection,
            }),
            await call(PATHS.list, owner, {
              app_id: owner.appId,
              timestamp: nowSeconds(),
              cursor: injection,
            }),
            await call(PATHS.events, owner, {
              app_id: owner.appId,
              timestamp: nowSeconds(),
              cursor: injection,
            }),
            await call(
              PATHS.codes,
              owner,
              { app_id: owner.appId, timestamp: nowSeconds() },
              { 'idempotency-key': injection },
            ),
            await send(service.baseUrl, PATHS.codes, {
              body: { app_id: owner.appId, timestamp: nowSeconds() },
              headers: { authorization: `Bearer ${injection}` },
            }),
            await send(service.baseUrl, PATHS.token, {
              body: { app_id: injection, app_secret: injection, timestamp: nowSeconds() },
            }),
          ]) {
            assert.ok(
              reply.status < 500 && isEnvelope(reply.json),
              `${reply.path}: ${reply.status} ${reply.text.slice(0, 200)}`,
            );
          }
        }
        // The tables are all still there, and hold what was stored.
        const count = await sql<{
          n: number;
        }>`select count(*) as n from ${service.ctx.store.table('applications')}`.execute(
          service.ctx.store.db,
        );
        // Four as before, and the one submitted with a reference.
        assert.equal(Number(count.rows[0]!.n), 5 + stored.length);

        // No framework fingerprint on any kind of answer.
        for (const [method, path] of [
          ['GET', '/healthz'],
          ['GET', '/readyz'],
          ['GET', '/openapi.json'],
          ['GET', '/docs'],
          ['GET', '/nope'],
          ['OPTIONS', PATHS.apply],
          ['HEAD', '/healthz'],
          ['DELETE', PATHS.apply],
        ] as const) {
          exchanges.push(await send(service.baseUrl, path, { method }));
        }
        const prints = exchanges.flatMap((e) =>
          fingerprints(e.headers).map((f) => `${e.method} ${e.path}: ${f}`),
        );
        assert.deepEqual(prints, [], 'framework fingerprint headers');
        const fiveHundreds = exchanges.filter((e) => e.status >= 500);
        assert.deepEqual(
          fiveHundreds.map((e) => `${e.path} ${e.status}`),
          [],
        );

        const state = await inspectStore(
          service.ctx,
          storeName === 'postgres'
            ? { url: service.target.env['DATABASE_URL']!, schema: service.target.schema! }
            : undefined,
        );
        const leaks = findLeaks({
          values: [...identity, ...state.cardNumbers],
          ...(storeName === 'sqlite'
            ? { sqliteDirs: [service.target.dataDir] }
            : { postgres: [{ url: service.target.env['DATABASE_URL']!, schema: service.target.schema! }] }),
          logs: service.logs,
        });
        assert.deepEqual(leaks, [], 'identity data in the clear');
        report(t, {
          part: `tenancy/${storeName}`,
          figures: {
            'cross-app probes walled off': walls,
            'fields injected': fields.length,
            'refused (422 naming the field)': refused,
            'stored verbatim': stored.length,
            'fingerprint headers': prints.length,
            'leaks found': leaks.length,
          },
          held: [
            "another app's serial answers exactly like a missing one (query, cancel, simulate, events); never listed",
            'SQL injection in every field and header: refused naming the field, or stored and returned as sent',
          ],
        });
      } finally {
        await service.close();
      }
    });
  });
}
