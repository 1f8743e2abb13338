/** ewp_decisions and ewp_recovery_plan over the official MCP client, as a reader, on a SQLite ledger. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { recordRetraction } from '@ewp/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, ok, refused } from './harness.js';
import { SERVER_NOW, verifiedView } from './views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-mcp-decisions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('decision tools (reader role)', () => {
  it('ewp_may_act (ingest role) returns the recorded decision id; ewp_decisions lists, shows and verifies it; ewp_recovery_plan holds it after a retraction', async () => {
    const store = new SqliteEvidenceStore(join(dir, 'l.sqlite'));
    await store.put(verifiedView());
    const c = await connect({ ingest: false, store, clock: () => SERVER_NOW });
    // Recording a decision is a write: the writer's role records it, a reader's call is answered unrecorded.
    const w = await connect({ ingest: true, store, clock: () => SERVER_NOW });
    try {
      const action = { action_id: 'reboot', kind: 'shell', risk: 'low', reversible: true };
      const decided = await ok(w.client, 'ewp_may_act', { proposition_id: 'P-win', action });
      const id = decided.decision_id as string;
      expect(id).toMatch(/^dec_[0-9a-f]{32}$/);
      const list = await ok(c.client, 'ewp_decisions', { proposition_id: 'P-win' });
      expect(list.decisions).toEqual([expect.objectContaining({ decision_id: id, action_id: 'reboot', decision: decided.decision, held: false })]);
      const shown = await ok(c.client, 'ewp_decisions', { decision_id: id });
      expect(shown).toMatchObject({ decision: { decision_id: id, record: { gate: 'ewp_may_act' } }, verification: { ok: true, status: 'VERIFIED' } });
      expect(await ok(c.client, 'ewp_recovery_plan', {})).toMatchObject({ decisions: 1, held: [] });

      await recordRetraction(store, { proposition_id: 'P-win', records: ['check:k1'] });
      const plan = await ok(c.client, 'ewp_recovery_plan', { since: 0 });
      expect(plan).toMatchObject({ changed: { 'P-win': 'evidence_refuted' }, held: [{ decision_id: id, requirements: ['P-win'] }] });
      // The reader's call is bounded by the same recovery gate, and recorded nowhere.
      const again = await ok(c.client, 'ewp_may_act', { proposition_id: 'P-win', action });
      expect(again).toMatchObject({ decision: 'DENY', held_until_reevaluated: ['P-win'], decision_id: null, recorded: false });
      expect(await ok(c.client, 'ewp_recovery_plan', { since: 0 })).toMatchObject({ decisions: 1 });

      expect(await refused(c.client, 'ewp_decisions', { decision_id: 'dec_unknown' })).toBe('EWP_REFUSE_DECISION_UNKNOWN');
      expect(await refused(c.client, 'ewp_decisions', { limit: 0 })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
      expect(await refused(c.client, 'ewp_recovery_plan', { since: 'not a time' })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
    } finally {
      await c.close();
      await w.close();
      await store.close();
    }
  });
});
