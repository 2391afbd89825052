import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addYears, decideDeletion, type CoveredApplication } from './deletionPolicy.ts';

const NOW = Date.UTC(2026, 11, 7, 12);
const app = (
  busi_water_no: string,
  status: CoveredApplication['status'],
  updated_at = NOW - 1000,
  erased_at: number | null = null,
) => ({
  busi_water_no,
  status,
  updated_at,
  erased_at,
});

test('applications ended before any decision are erased now; nothing is restricted', () => {
  assert.deepEqual(decideDeletion([app('A', 'CANCELLED'), app('B', 'EXPIRED')], NOW, 5), {
    kind: 'decided',
    erase: ['A', 'B'],
    restrict: [],
    until: null,
  });
});

test('a rejection is kept years after it; an issued card years after the request; the latest date wins', () => {
  const rejectedAt = Date.UTC(2024, 1, 29);
  const decision = decideDeletion(
    [
      app('A', 'CANCELLED'),
      app('B', 'REJECTED', rejectedAt),
      app('C', 'DELIVERED'),
      app('D', 'CANCELLED', 0, 5),
    ],
    NOW,
    5,
  );
  assert.deepEqual(decision, {
    kind: 'decided',
    erase: ['A'],
    restrict: ['B', 'C'],
    until: addYears(NOW, 5),
  });
  const rejectedOnly = decideDeletion([app('B', 'REJECTED', rejectedAt)], NOW, 10);
  assert.equal(rejectedOnly.kind === 'decided' && rejectedOnly.until, Date.UTC(2034, 2, 1));
});

test('an application still in progress holds the decision', () => {
  for (const status of ['SUBMITTED', 'IN_REVIEW', 'SUPPLEMENT_REQUIRED'] as const) {
    assert.deepEqual(decideDeletion([app('A', 'CANCELLED'), app('B', status)], NOW, 5), {
      kind: 'in_progress',
      busiWaterNo: 'B',
      status,
    });
  }
  for (const status of ['APPROVED', 'CARD_ISSUED', 'SHIPPED', 'RETURNED'] as const) {
    const decision = decideDeletion([app('A', status)], NOW, 5);
    assert.deepEqual(decision, { kind: 'decided', erase: [], restrict: ['A'], until: addYears(NOW, 5) });
  }
});
