import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { actorName, type Actor } from '../../src/audit/actor.ts';
import { eventTypeFor, findTransition, isFinal, STATUSES, type Status } from '../../src/record/lifecycle.ts';
import { submitApplication } from '../../src/applications/commands/submitApplication.ts';
import { transitionApplication } from '../../src/applications/commands/transitionApplication.ts';
import { ServiceError, ValidationError } from '../../src/errors/serviceError.ts';
import {
  ADMIN,
  Applications,
  call,
  partnerOf,
  move,
  newOperator,
  pathTo,
  type TestOperator,
} from '../helpers/operators.ts';
import { newPartner, startService, type TestPartner, type TestService } from '../helpers/service.ts';
import { storeNames } from '../helpers/stores.ts';

/**
 * The state machine on every store: every move of the table is made and every other is refused
 * (409 naming both states, nothing changed); the rules of reasons, details and actors; a final
 * state frees the document; and of two concurrent moves exactly one wins.
 */

/** Who may make a move, per the table: a reviewer where one may, else the partner, else the system. */
function actorFor(to: Status, appId: string, from?: Status): Actor {
  const by = (from === undefined ? undefined : findTransition(from, to)?.by) ?? [
    to === 'CANCELLED' ? 'caller' : 'operator',
  ];
  if (by.includes('operator')) return { kind: 'operator', id: 'rita', role: 'reviewer' };
  if (by.includes('caller')) return { kind: 'caller', id: appId };
  return { kind: 'system' };
}

async function rejection(work: Promise<unknown>): Promise<ServiceError | ValidationError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ServiceError || error instanceof ValidationError) return error;
    throw error;
  }
  assert.fail('expected the move to be refused');
}

for (const storeName of storeNames()) {
  describe(`lifecycle on ${storeName}`, () => {
    let service: TestService;
    let partner: TestPartner;
    let apps: Applications;

    const snapshot = async (serial: string) => {
      const db = service.ctx.store.db;
      const row = await db
        .selectFrom('applications')
        .select(['status', 'version', 'status_reason', 'active_cert_hash', 'updated_at'])
        .where('busi_water_no', '=', serial)
        .executeTakeFirstOrThrow();
      // The history is the events that change the state (to_status set).
      const count = async (history: boolean) =>
        Number(
          (
            await db
              .selectFrom('events')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('busi_water_no', '=', serial)
              .$if(history, (q) => q.where('to_status', 'is not', null))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const audit = Number(
        (
          await db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('target_id', '=', serial)
            .executeTakeFirstOrThrow()
        ).n,
      );
      return {
        row,
        transitions: await count(true),
        events: await count(false),
        audit,
      };
    };

    before(async () => {
      service = await startService(storeName);
      partner = await newPartner(service);
      apps = new Applications(service);
    });
    after(() => service.close());

    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const rule = findTransition(from, to);
        test(`${from} -> ${to} is ${rule ? 'allowed' : 'refused'}`, async () => {
          const serial = await apps.inState(partner.appId, from);
          const before = await snapshot(serial);
          const attempt = transitionApplication(service.ctx, {
            busiWaterNo: serial,
            to,
            actor: actorFor(to, partner.appId, from),
            reason: 'checked by hand',
            reasonCodes: ['other'],
            requestedFields: ['id_card_img'],
            details: { carrier: 'SF Express', tracking_no: 'SF1234567890' },
            source: 'test',
          });
          if (rule === undefined) {
            const error = await rejection(attempt);
            assert.ok(error instanceof ServiceError);
            assert.equal(error.error, 'transitionNotAllowed');
            assert.deepEqual(error.params, { from, to });
            assert.deepEqual(await snapshot(serial), before, 'a refused move changes nothing');
            return;
          }
          const result = await attempt;
          assert.deepEqual([result.previous_status, result.status], [from, to]);
          const afterMove = await snapshot(serial);
          assert.equal(afterMove.row.status, to);
          assert.equal(afterMove.row.version, before.row.version + 1);
          assert.equal(afterMove.row.status_reason, 'checked by hand');
          assert.equal(
            afterMove.row.active_cert_hash === null,
            isFinal(to),
            'only a final state frees the document',
          );
          assert.equal(afterMove.transitions, before.transitions + 1);
          assert.equal(afterMove.events, before.events + 1);
          assert.equal(afterMove.audit, before.audit + 1);

          const last = await service.ctx.store.db
            .selectFrom('events')
            .selectAll()
            .where('busi_water_no', '=', serial)
            .orderBy('seq', 'desc')
            .executeTakeFirstOrThrow();
          assert.equal(last.from_status, from);
          assert.equal(last.to_status, to);
          assert.equal(last.actor, actorName(actorFor(to, partner.appId, from)));
          assert.equal(last.reason, 'checked by hand');
          assert.equal(last.reason_codes, '["other"]');
          assert.deepEqual(
            last.details == null ? null : JSON.parse(last.details),
            to === 'SHIPPED'
              ? { carrier: 'SF Express', tracking_no: 'SF1234567890' }
              : to === 'SUPPLEMENT_REQUIRED'
                ? { requested_fields: ['id_card_img'] }
                : null,
          );
          const event = await service.ctx.store.db
            .selectFrom('events')
            .select(['type', 'payload'])
            .where('busi_water_no', '=', serial)
            .orderBy('created_at', 'desc')
            .orderBy('seq', 'desc')
            .executeTakeFirstOrThrow();
          assert.equal(event.type, eventTypeFor(to));
          assert.deepEqual(
            { ...(JSON.parse(event.payload) as object), card_no_masked: undefined },
            {
              busi_water_no: serial,
              status: to,
              previous_status: from,
              reason: 'checked by hand',
              reason_codes: ['other'],
              card_no_masked: undefined,
              external_id: null,
              ...(to === 'SUPPLEMENT_REQUIRED' ? { requested_fields: ['id_card_img'] } : {}),
            },
          );
        });
      }
    }

    test('a move by an actor the table does not name is refused and changes nothing', async () => {
      const serial = await apps.inState(partner.appId, 'IN_REVIEW');
      const before = await snapshot(serial);
      const byPartner = await rejection(
        transitionApplication(service.ctx, {
          busiWaterNo: serial,
          to: 'APPROVED',
          actor: { kind: 'caller', id: partner.appId },
          source: 'test',
        }),
      );
      assert.equal((byPartner as ServiceError).error, 'forbidden');
      const cancelByOperator = await rejection(
        transitionApplication(service.ctx, {
          busiWaterNo: serial,
          to: 'CANCELLED',
          actor: { kind: 'operator', id: 'rita', role: 'admin' },
          source: 'test',
        }),
      );
      assert.equal((cancelByOperator as ServiceError).error, 'forbidden');
      const byViewer = await rejection(
        transitionApplication(service.ctx, {
          busiWaterNo: serial,
          to: 'APPROVED',
          actor: { kind: 'operator', id: 'victor', role: 'viewer' },
          source: 'test',
        }),
      );
      assert.equal((byViewer as ServiceError).error, 'forbidden');
      assert.deepEqual(await snapshot(serial), before);
    });

    test("another app's application is not found by a partner's move", async () => {
      const serial = await apps.submit(partner.appId);
      const other = await newPartner(service, 'other partner');
      const error = await rejection(
        transitionApplication(service.ctx, {
          busiWaterNo: serial,
          to: 'CANCELLED',
          actor: { kind: 'caller', id: other.appId },
          appId: other.appId,
          source: 'test',
        }),
      );
      assert.equal((error as ServiceError).error, 'applicationNotFound');
    });

    test('REJECTED needs a known reason code, SHIPPED a carrier and a tracking number', async () => {
      const inReview = await apps.inState(partner.appId, 'IN_REVIEW');
      const noCode = await rejection(
        transitionApplication(service.ctx, {
          busiWaterNo: inReview,
          to: 'REJECTED',
          actor: actorFor('REJECTED', partner.appId),
          reason: 'the photo is blurred',
          source: 'test',
        }),
      );
      assert.ok(noCode instanceof ValidationError);
      assert.deepEqual(
        noCode.problems.map((p) => [p.field, p.error]),
        [['reason_codes', 'fieldRequired']],
      );
      const unknownCode = await rejection(
        transitionApplication(service.ctx, {
          busiWaterNo: inReview,
          to: 'REJECTED',
          actor: actorFor('REJECTED', partner.appId),
          reasonCodes: ['document_unreadable', 'no_such_code', 'document_unreadable'],
          source: 'test',
        }),
      );
      assert.ok(unknownCode instanceof ValidationError);
      assert.deepEqual(
        unknownCode.problems.map((p) => [p.field, p.error]),
        [
          ['reason_codes[1]', 'codeUnknown'],
          ['reason_codes', 'fieldDuplicateItems'],
        ],
      );
      assert.equal((await snapshot(inReview)).row.status, 'IN_REVIEW');
      const rejected = await transitionApplication(service.ctx, {
        busiWaterNo: inReview,
        to: 'REJECTED',
        actor: actorFor('REJECTED', partner.appId),
        reasonCodes: ['document_unreadable', 'name_mismatch'],
        source: 'test',
      });
      assert.equal(rejected.status, 'REJECTED');
      const issued = await apps.inState(partner.appId, 'CARD_ISSUED');
      const noDetails = await rejection(
        transitionApplication(service.ctx, {
          busiWaterNo: issued,
          to: 'SHIPPED',
          actor: actorFor('SHIPPED', partner.appId),
          source: 'test',
        }),
      );
      assert.ok(noDetails instanceof ValidationError);
      assert.deepEqual(
        noDetails.problems.map((p) => [p.field, p.error]),
        [
          ['carrier', 'fieldRequired'],
          ['tracking_no', 'fieldRequired'],
        ],
      );
      assert.equal((await snapshot(issued)).row.status, 'CARD_ISSUED');
    });

    test('a reason carrying an identity or card number is refused', async () => {
      const serial = await apps.inState(partner.appId, 'IN_REVIEW');
      const applicant = apps.nextApplicant(partner.appId);
      for (const reason of [`cert ${applicant.cert_id} unreadable`, 'card 5399 6612 3456 7890 blocked']) {
        const error = await rejection(
          transitionApplication(service.ctx, {
            busiWaterNo: serial,
            to: 'REJECTED',
            actor: actorFor('REJECTED', partner.appId),
            reason,
            source: 'test',
          }),
        );
        assert.ok(error instanceof ValidationError);
        assert.equal(error.problems[0]?.error, 'textCarriesNumber');
      }
    });

    test('a move against a version the actor no longer has is a concurrent change', async () => {
      const serial = await apps.inState(partner.appId, 'IN_REVIEW');
      const error = await rejection(
        transitionApplication(service.ctx, {
          busiWaterNo: serial,
          to: 'APPROVED',
          actor: actorFor('APPROVED', partner.appId),
          expectedVersion: 1,
          source: 'test',
        }),
      );
      assert.equal((error as ServiceError).error, 'concurrentChange');
      const ok = await transitionApplication(service.ctx, {
        busiWaterNo: serial,
        to: 'APPROVED',
        actor: actorFor('APPROVED', partner.appId),
        expectedVersion: 2,
        source: 'test',
      });
      assert.equal(ok.version, 3);
    });

    for (const final of ['REJECTED', 'CANCELLED', 'DELIVERED'] as const) {
      test(`once ${final}, the same document may be applied for again`, async () => {
        const applicant = apps.nextApplicant(partner.appId);
        const first = await submitApplication(service.ctx, partnerOf(partner.appId), applicant);
        const duplicate = await rejection(
          submitApplication(service.ctx, partnerOf(partner.appId), applicant),
        );
        assert.equal((duplicate as ServiceError).error, 'duplicateApplication');
        for (const to of pathTo(final)) await move(service, first.busi_water_no, to, partner.appId);
        const again = await submitApplication(service.ctx, partnerOf(partner.appId), applicant);
        assert.notEqual(again.busi_water_no, first.busi_water_no);
      });
    }

    describe('concurrent moves', () => {
      let reviewer: TestOperator;
      before(async () => {
        reviewer = await newOperator(service, 'reviewer');
      });

      test('20 concurrent approve/reject pairs over the admin API: exactly one winner each', async () => {
        const serials = await Promise.all(
          Array.from({ length: 20 }, () => apps.inState(partner.appId, 'IN_REVIEW')),
        );
        const replies = await Promise.all(
          serials.flatMap((serial) => [
            call(service, 'POST', `${ADMIN}/applications/${serial}/approve`, {
              token: reviewer.token,
              body: {},
            }),
            call(service, 'POST', `${ADMIN}/applications/${serial}/reject`, {
              token: reviewer.token,
              body: { reason_codes: ['income_unverified'], reason: 'income not proven' },
            }),
          ]),
        );
        for (const [i, serial] of serials.entries()) {
          const approve = replies[2 * i]!;
          const reject = replies[2 * i + 1]!;
          const winners = [approve, reject].filter((r) => r.status === 200);
          const losers = [approve, reject].filter((r) => r.status !== 200);
          assert.equal(winners.length, 1, `${approve.text}\n${reject.text}`);
          assert.equal(losers[0]!.status, 409, losers[0]!.text);
          assert.ok([40905, 40906].includes(losers[0]!.body.code), losers[0]!.text);
          const expected = winners[0] === approve ? 'APPROVED' : 'REJECTED';
          const state = await snapshot(serial);
          assert.equal(state.row.status, expected);
          assert.equal(state.row.version, 3);
          assert.equal(state.transitions, 3, 'SUBMITTED, IN_REVIEW and the winner only');
          assert.equal(state.events, 3);
          const moves = await service.ctx.store.db
            .selectFrom('events')
            .select('to_status')
            .where('busi_water_no', '=', serial)
            .orderBy('seq')
            .execute();
          assert.deepEqual(
            moves.map((m) => m.to_status),
            ['SUBMITTED', 'IN_REVIEW', expected],
          );
        }
      });

      test('20 concurrent pairs in the domain, straight to the store: exactly one winner each', async () => {
        const serials = await Promise.all(
          Array.from({ length: 20 }, () => apps.inState(partner.appId, 'IN_REVIEW')),
        );
        const results = await Promise.allSettled(
          serials.flatMap((serial) =>
            (['APPROVED', 'REJECTED'] as const).map((to) =>
              transitionApplication(service.ctx, {
                busiWaterNo: serial,
                to,
                actor: actorFor(to, partner.appId),
                reason: 'race',
                reasonCodes: ['risk_policy'],
                source: 'test',
              }),
            ),
          ),
        );
        for (let i = 0; i < serials.length; i++) {
          const pair = [results[2 * i]!, results[2 * i + 1]!];
          assert.equal(pair.filter((r) => r.status === 'fulfilled').length, 1);
          const lost = pair.find((r) => r.status === 'rejected')!.reason as unknown;
          assert.ok(lost instanceof ServiceError, String(lost));
          assert.ok(['transitionNotAllowed', 'concurrentChange'].includes(lost.error));
          assert.equal((await snapshot(serials[i]!)).transitions, 3);
        }
      });
    });
  });
}
