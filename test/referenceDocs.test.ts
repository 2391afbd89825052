import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { codesMarkdown, errorsMarkdown } from '../scripts/referenceDocs.ts';
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
