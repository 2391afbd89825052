import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { codesMarkdown, errorsMarkdown } from '../scripts/referenceDocs.ts';

// The committed reference pages are what the code says (run `npm run docs` after changing either).
test('docs/CODES.md lists the default code tables in force', () => {
  assert.equal(readFileSync(new URL('../docs/CODES.md', import.meta.url), 'utf8'), codesMarkdown());
});

test('docs/ERRORS.md lists every error code of the catalogue', () => {
  assert.equal(readFileSync(new URL('../docs/ERRORS.md', import.meta.url), 'utf8'), errorsMarkdown());
});
