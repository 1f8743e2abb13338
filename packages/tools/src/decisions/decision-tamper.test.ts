/**
 * Tampering with the rows of the new entry kinds in a real SQLite ledger: each edit is caught by the
 * audit (`verifyChain`), and an edited decision body also fails its own offline verification.
 * Caught or harmless, never a silent change of a read.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyDecision } from './decision-store.js';
import { recordRetraction, reevaluate } from './reevaluation.js';
import { runGuarded } from './run-guarded.js';

const verified = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url)), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'ewp-decision-tamper-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const action = { id: 'restart', kind: 'restart', risk: 'high' as const, reversible: false };

let n = 0;
/** A ledger holding a decision, its execution and call claims and outcome, a retraction and a re-evaluation. */
async function ledger(): Promise<{ path: string; decisionId: string }> {
  const path = join(dir, `l${n++}.sqlite`);
  const store = new SqliteEvidenceStore(path);
  await store.put(verified);
  const run = await runGuarded(
    { store, proposition: 'P-win', action, now: () => new Date('2026-09-21T21:00:00Z'), callId: () => 'call-1' },
    {},
    { gate: 'library', tool: 'restart', callId: undefined },
    () => 'ok',
  );
  await recordRetraction(store, { proposition_id: 'P-win', records: ['check:k1'] });
  await reevaluate(store, 'P-win', { evaluatedAt: '2026-09-21T21:05:00Z' });
  expect((await store.verifyChain()).ok).toBe(true);
  await store.close();
  return { path, decisionId: run.decisionId as string };
}

function edit(path: string, sql: string, ...params: unknown[]): number {
  const db = new Database(path);
  try {
    return db.prepare(sql).run(...params).changes;
  } finally {
    db.close();
  }
}

async function audit(path: string) {
  const store = new SqliteEvidenceStore(path, { readOnly: true });
  try {
    return await store.verifyChain();
  } finally {
    await store.close();
  }
}

const bodyEdits: [string, string, string, string][] = [
  ['decision', 'the recorded decision rewritten', '"decision":"MAY_ACT"', '"decision":"REQUIRE_CONFIRMATION"'],
  ['decision.outcome', 'a succeeded outcome rewritten as failed', '"status":"succeeded"', '"status":"failed"'],
  ['decision.execution', 'the execution claim of another payload', '"operation_digest":"', '"operation_digest":"0'],
  ['decision.call', 'the call claimed by another decision', '"decision_id":"dec_', '"decision_id":"dec_0'],
  ['invalidation', 'the retracted record renamed', 'check:k1', 'check:k2'],
  ['warrant.evaluated', 'a blocked re-evaluation shown as ALLOW', '"action":"BLOCK"', '"action":"ALLOW"'],
];

describe('tampering with decision, outcome, execution, call, retraction and re-evaluation rows', () => {
  it.each(bodyEdits)('%s: %s is caught by the audit', async (kind, _what, from, to) => {
    const { path } = await ledger();
    expect(edit(path, 'UPDATE ewp_entries SET body = replace(body, ?, ?) WHERE kind = ?', from, to, kind)).toBe(1);
    const result = await audit(path);
    expect(result.ok).toBe(false);
  });

  it('an edited decision body also fails its offline verification, whatever the chain says', async () => {
    const { path, decisionId } = await ledger();
    edit(path, 'UPDATE ewp_entries SET body = replace(body, ?, ?) WHERE kind = ?', '"rule":"high.warranted"', '"rule":"warranted"', 'decision');
    const store = new SqliteEvidenceStore(path, { readOnly: true });
    expect(await verifyDecision(store, decisionId)).toMatchObject({ ok: false, status: 'ID_MISMATCH' });
    expect((await store.verifyChain()).ok).toBe(false);
    await store.close();
  });

  it('a deleted outcome or retraction, or a re-keyed decision, is caught by the audit', async () => {
    for (const sql of [
      "DELETE FROM ewp_entries WHERE kind = 'decision.outcome'",
      "DELETE FROM ewp_entries WHERE kind = 'invalidation'",
      // Without its call claim, a replay of the call would run again: the audit must see the gap.
      "DELETE FROM ewp_entries WHERE kind = 'decision.call'",
      "UPDATE ewp_entries SET id = 'dec_00000000000000000000000000000000' WHERE kind = 'decision'",
      "UPDATE ewp_entries SET subjects = '[]' WHERE kind = 'decision'",
    ]) {
      const { path } = await ledger();
      expect(edit(path, sql)).toBe(1);
      expect((await audit(path)).ok, sql).toBe(false);
    }
  });
});
