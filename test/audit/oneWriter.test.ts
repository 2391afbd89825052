import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * One audit writer: the trail's rows are made in one place (audit/auditTrail.ts's recordAudit, which
 * checks their details for identity data), so a rule added to every row (a hash chain, a check)
 * is added once. Read from the sources: only auditTrail.ts calls the repository's insert and moves the chain's head, and only
 * the repository writes to audit_log.
 */

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

test('only the audit trail calls the repository insert of an audit row', () => {
  const callers = files
    .filter((f) => /\b(insertAuditRows|takeChainTurn|setChainHead)\b/.test(f.text))
    .map((f) => f.path);
  assert.deepEqual(callers.sort(), ['audit/auditRepository.ts', 'audit/auditTrail.ts']);
});

test('only the audit repository writes to audit_log and its chain head', () => {
  const writers = files
    .filter((f) =>
      /insertInto\(\s*'audit_log'|INSERT INTO audit_log|updateTable\(\s*'audit_chain_head'|UPDATE audit_chain_head/i.test(
        f.text,
      ),
    )
    .map((f) => f.path);
  assert.deepEqual(writers, ['audit/auditRepository.ts']);
});
