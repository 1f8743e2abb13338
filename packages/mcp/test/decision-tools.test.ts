/**
 * ewp_decisions, ewp_recovery_plan and ewp_keys over the official MCP client, as a reader, on a SQLite ledger;
 * ewp_may_act's records under gate `mcp` with the request's call id, and ewp_decision_outcome.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { startEwpHttpServer } from '../src/index.js';
import { changeKeyStates, decisionHistory, listDecisions, recordRetraction } from '@ewp/tools';
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
      expect(shown).toMatchObject({ decision: { decision_id: id, record: { gate: 'mcp' } }, verification: { ok: true, status: 'VERIFIED' } });
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

  it("ewp_may_act records under gate mcp with the request id or the caller's call_id, claims a MAY_ACT once; ewp_decision_outcome records its outcome once", async () => {
    const store = new SqliteEvidenceStore(join(dir, 'claims.sqlite'));
    await store.put(verifiedView());
    const reader = await connect({ ingest: false, store, clock: () => SERVER_NOW });
    const w = await connect({ ingest: true, store, clock: () => SERVER_NOW });
    const w2 = await connect({ ingest: true, store, clock: () => SERVER_NOW });
    try {
      const action = { action_id: 'reboot', kind: 'shell', risk: 'low', reversible: true };
      // Without call_id: the request's JSON-RPC id, scoped to the connection (a second connection's ids restart, its calls stay apart).
      const first = await ok(w.client, 'ewp_may_act', { proposition_id: 'P-win', action });
      const other = await ok(w2.client, 'ewp_may_act', { proposition_id: 'P-win', action });
      expect(first).toMatchObject({ decision: 'MAY_ACT', recorded: true, claimed: true, call_id: expect.stringMatching(/^[0-9a-f-]{36}:\d+$/) });
      expect(other).toMatchObject({ decision: 'MAY_ACT', claimed: true });
      expect(other.call_id).not.toBe(first.call_id);
      expect(String(other.call_id).split(':')[1]).toBe(String(first.call_id).split(':')[1]);
      const records = await listDecisions(store, { limit: 100 });
      expect(records.map((d) => [d.record.gate, d.record.call_id])).toEqual([
        ['mcp', first.call_id],
        ['mcp', other.call_id],
      ]);

      // The caller's own call id: a second ask on the same call is decided and recorded, but its claim is refused.
      const named = await ok(w.client, 'ewp_may_act', { proposition_id: 'P-win', action, call_id: 'toolu_42' });
      expect(named).toMatchObject({ decision: 'MAY_ACT', call_id: 'toolu_42', claimed: true });
      expect(await refused(w2.client, 'ewp_may_act', { proposition_id: 'P-win', action, call_id: 'toolu_42' })).toBe('EWP_REFUSE_DECISION_NOT_EXECUTABLE');
      const again = (await listDecisions(store, { limit: 100 })).at(-1);
      expect(again?.record.call_id).toBe('toolu_42');
      expect((await decisionHistory(store, again?.decision_id as string)).outcome?.body.status).toBe('call_already_executed');

      // An anonymous caller is answered and records nothing, claims nothing.
      const before = (await listDecisions(store, { limit: 100 })).length;
      expect(await ok(reader.client, 'ewp_may_act', { proposition_id: 'P-win', action, call_id: 'anon-1' })).toMatchObject({
        decision: 'MAY_ACT',
        recorded: false,
        decision_id: null,
      });
      expect((await listDecisions(store, { limit: 100 })).length).toBe(before);

      // The outcome: the ingest role only; checked against the decision's call; once.
      const id = named.decision_id as string;
      expect(await refused(reader.client, 'ewp_decision_outcome', { decision_id: id, outcome: 'succeeded' })).toBe('EWP_REFUSE_INGEST_ROLE');
      expect(await refused(w.client, 'ewp_decision_outcome', { decision_id: id, outcome: 'done' })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
      expect(await refused(w.client, 'ewp_decision_outcome', { decision_id: id, outcome: 'failed', call_id: 'toolu_9' })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
      expect(await refused(w.client, 'ewp_decision_outcome', { decision_id: 'dec_unknown', outcome: 'failed' })).toBe('EWP_REFUSE_DECISION_UNKNOWN');
      expect(await ok(w.client, 'ewp_decision_outcome', { decision_id: id, outcome: 'failed', error: 'reboot timed out', call_id: 'toolu_42' })).toEqual({
        recorded: true,
        decision_id: id,
        call_id: 'toolu_42',
        outcome: 'failed',
      });
      expect((await decisionHistory(store, id)).outcome?.body).toMatchObject({ status: 'failed', error: 'reboot timed out' });
      expect(await refused(w.client, 'ewp_decision_outcome', { decision_id: id, outcome: 'succeeded' })).toBe('EWP_REFUSE_DECISION_NOT_EXECUTABLE');
      // A decision that claimed nothing (the refused second ask) has no outcome to report.
      expect(await refused(w.client, 'ewp_decision_outcome', { decision_id: again?.decision_id as string, outcome: 'succeeded' })).toBe(
        'EWP_REFUSE_DECISION_NOT_EXECUTABLE',
      );
    } finally {
      await reader.close();
      await w.close();
      await w2.close();
      await store.close();
    }
  });

  it("ewp_keys lists the keys' public states to every caller", async () => {
    const store = new SqliteEvidenceStore(join(dir, 'keys.sqlite'));
    const reader = await connect({ ingest: false, store, clock: () => SERVER_NOW });
    try {
      expect(await ok(reader.client, 'ewp_keys', {})).toEqual({ keys: [] });
      const hex = 'ab'.repeat(32);
      await changeKeyStates(store, [{ key_id: 'k1', public_key_hex: hex, state: 'ACTIVE', at: '2026-01-01T00:00:00.000Z' }]);
      await changeKeyStates(store, [{ key_id: 'k1', public_key_hex: hex, state: 'REVOKED', at: '2026-02-01T00:00:00.000Z' }]);
      expect(await ok(reader.client, 'ewp_keys', {})).toEqual({
        keys: [
          {
            key_id: 'k1',
            public_key_hex: hex,
            state: 'REVOKED',
            since: '2026-02-01T00:00:00.000Z',
            history: [
              { state: 'ACTIVE', at: '2026-01-01T00:00:00.000Z' },
              { state: 'REVOKED', at: '2026-02-01T00:00:00.000Z' },
            ],
          },
        ],
      });
      expect(await refused(reader.client, 'ewp_keys', { key_id: 'k1' })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
    } finally {
      await reader.close();
      await store.close();
    }
  });

  it("over HTTP, where one server answers all of a principal's clients, two requests with the same JSON-RPC id are two calls", async () => {
    const store = new SqliteEvidenceStore(join(dir, 'http.sqlite'));
    await store.put(verifiedView());
    const token = 'record-path-token-0123456789abcdef';
    const server = await startEwpHttpServer({ store, port: 0, ingestToken: token, clock: () => SERVER_NOW });
    const ask = async (args: Record<string, unknown>) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ewp_may_act', arguments: args } }),
      });
      return ((await response.json()) as { result: { structuredContent?: Record<string, unknown>; isError?: boolean } }).result;
    };
    try {
      const action = { action_id: 'reboot', kind: 'shell', risk: 'low', reversible: true };
      const one = await ask({ proposition_id: 'P-win', action });
      const two = await ask({ proposition_id: 'P-win', action });
      expect(one.structuredContent).toMatchObject({ decision: 'MAY_ACT', claimed: true, call_id: expect.stringMatching(/:7$/) });
      expect(two.structuredContent).toMatchObject({ decision: 'MAY_ACT', claimed: true, call_id: expect.stringMatching(/:7$/) });
      expect(two.structuredContent?.call_id).not.toBe(one.structuredContent?.call_id);
      // The caller's own call_id is what makes a retried ask the same call.
      expect((await ask({ proposition_id: 'P-win', action, call_id: 'c-1' })).structuredContent).toMatchObject({ call_id: 'c-1', claimed: true });
      expect((await ask({ proposition_id: 'P-win', action, call_id: 'c-1' })).isError).toBe(true);
      expect((await listDecisions(store, { limit: 100 })).map((d) => d.record.gate)).toEqual(['mcp', 'mcp', 'mcp', 'mcp']);
    } finally {
      await server.close();
      await store.close();
    }
  });
});
