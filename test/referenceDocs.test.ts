import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  codesMarkdown,
  errorsMarkdown,
  eventsMarkdown,
  EVENTS_END,
  EVENTS_START,
  tableCells,
  webhookFieldsMarkdown,
  WEBHOOK_FIELDS_END,
  WEBHOOK_FIELDS_START,
} from '../scripts/referenceDocs.ts';
import { EVENT_TYPES } from '../src/record/lifecycle.ts';
import { ERRORS } from '../src/errors/catalogue.ts';
import { GUIDANCE } from '../src/errors/guidance.ts';

// The committed reference pages are what the code says (run `npm run docs` after changing either).
test('docs/CODES.md lists the default code tables in force', () => {
  assert.equal(readFileSync(new URL('../docs/CODES.md', import.meta.url), 'utf8'), codesMarkdown());
});

test('docs/ERRORS.md lists every error code of the catalogue', () => {
  assert.equal(readFileSync(new URL('../docs/ERRORS.md', import.meta.url), 'utf8'), errorsMarkdown());
});

test('every error code has its own cause and remedy, none shared with another code', () => {
  const causes = new Map<string, string>();
  for (const [name, guidance] of Object.entries(GUIDANCE)) {
    assert.ok(guidance.cause.length > 20 && guidance.remedy.length > 10, name);
    assert.equal(
      causes.get(guidance.cause),
      undefined,
      `${name} repeats the cause of ${causes.get(guidance.cause)}`,
    );
    causes.set(guidance.cause, name);
  }
  assert.deepEqual(Object.keys(GUIDANCE).sort(), Object.keys(ERRORS).sort());
  // The advice of a code is about that code (it was once one text per HTTP status).
  assert.match(GUIDANCE.routeNotFound.remedy, /path/);
  assert.match(GUIDANCE.csrfTokenInvalid.remedy, /x-csrf-token/);
  assert.match(GUIDANCE.loginFailed.remedy, /password/);
});

// Issue 55: the README and docs/CONTRACT.md listed 12 of the 14 events. Both now hold the list
// written from the event catalogue, which is also the OpenAPI document's `webhooks` section.
for (const file of ['../README.md', '../docs/CONTRACT.md']) {
  test(`${file.slice(3)} lists every event type of the catalogue and of openapi.json`, () => {
    const text = readFileSync(new URL(file, import.meta.url), 'utf8');
    const start = text.indexOf(EVENTS_START);
    const end = text.indexOf(EVENTS_END);
    assert.ok(start >= 0 && end > start, 'the event markers');
    const section = text.slice(start, end);
    assert.deepEqual(tableCells(section), tableCells(eventsMarkdown()), 'run `npm run docs`');
    const listed = tableCells(section)
      .slice(1)
      .map((row) => row[0]!.replaceAll('`', ''));
    const openapi = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
      webhooks: Record<string, unknown>;
    };
    assert.deepEqual(listed, [...EVENT_TYPES]);
    assert.deepEqual([...listed].sort(), Object.keys(openapi.webhooks).sort());
    assert.ok(
      listed.includes('application.documents_kept') && listed.includes('application.document_failed'),
    );
  });
}

// Issue 55: the webhook calls' request fields were named nowhere but in the OpenAPI document.
test("docs/CONTRACT.md names every webhook call's request fields, as openapi.json has them", () => {
  const text = readFileSync(new URL('../docs/CONTRACT.md', import.meta.url), 'utf8');
  const start = text.indexOf(WEBHOOK_FIELDS_START);
  const end = text.indexOf(WEBHOOK_FIELDS_END);
  assert.ok(start >= 0 && end > start, 'the webhook-field markers');
  const document = JSON.parse(
    readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'),
  ) as Parameters<typeof webhookFieldsMarkdown>[0];
  const rows = tableCells(text.slice(start, end));
  assert.deepEqual(rows, tableCells(webhookFieldsMarkdown(document)), 'run `npm run docs`');
  const calls = Object.keys(document.paths).filter((path) => path.includes('/webhooks/'));
  assert.equal(rows.length - 1, calls.length, 'one row per webhook call');
  assert.match(rows.find((row) => row[0] === '`test`')?.[1] ?? '', /^`endpoint_id`$/);
});
