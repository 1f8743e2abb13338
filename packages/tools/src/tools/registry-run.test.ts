/**
 * Every tool of the registry through the one run road (`runTool`): the role from the registry, the
 * memory layer's and the decision ledger's refusals passed on with their own codes, results that the
 * registry's output schemas read, and `ewp_decision_outcome` for the decisions of the caller's own gate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testSource } from '@ewp/conformance';
import { INGEST_TOOL_NAMES, TOOL_SPECS, type ToolName } from '@ewp/spec/tools';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../tool-context.js';
import { runTool, toolContext } from '../toolset.js';

const NOW = new Date('2026-09-21T19:31:00Z');
const dir = mkdtempSync(join(tmpdir(), 'ewp-registry-run-'));
const stores: SqliteEvidenceStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

function store(): SqliteEvidenceStore {
  const s = new SqliteEvidenceStore(join(dir, `l-${stores.length}.sqlite`));
  stores.push(s);
  return s;
}

/** A tool-verified claim: ACCEPTED / EXTERNAL at NOW, so a low-risk reversible action may act. */
function verifiedView() {
  const winrm = testSource('winrm', { origin_type: 'tool', lineage_id: 'L-obs' });
  return {
    proposition_id: 'P-win',
    view_id: 'v-ver',
    assertions: [
      {
        assertion_id: 'a1',
        text: 'server01 runs Windows Server 2022',
        asserted_by: 'agent',
        assertion_confidence: 0.9,
        source: winrm,
        asserted_at: '2026-09-01T00:00:00+00:00',
      },
    ],
    evidence: [{ evidence_id: 'e1', polarity: 'supports', source: winrm, content: 'Get-ComputerInfo', observed_at: '2026-09-01T00:00:00+00:00' }],
    checks: [
      {
        check_id: 'k1',
        method: 'tool_observation',
        scope: 'server01',
        source: winrm,
        observed_at: '2026-09-21T18:31:00+00:00',
        result: 'supports',
        subjects: [],
      },
    ],
    conflicts: [],
    lineage: [],
    freshness_policy_seconds: 604800,
  };
}

/** The result of a call that must succeed, read back by the registry's output schema. */
async function ok<N extends ToolName>(name: N, args: unknown, context: ToolContext, call?: { gate: string; callId: string | undefined }) {
  const out = await runTool(name, args, context, call);
  if (!out.ok) throw out.refusal;
  const read = TOOL_SPECS[name].output.safeParse(out.value);
  expect(read.success, `${name}: ${read.success ? '' : JSON.stringify(read.error.issues[0])}`).toBe(true);
  return out.value as Record<string, unknown>;
}

async function refusal(name: string, args: unknown, context: ToolContext, call?: { gate: string; callId: string | undefined }) {
  const out = await runTool(name, args, context, call);
  if (out.ok) throw new Error(`${name} was not refused`);
  return { code: out.refusal.code, path: out.refusal.path };
}

describe('runTool over the whole registry', () => {
  it("refuses every ingest tool to a reader before reading its arguments, by the registry's role", async () => {
    const reader = toolContext({ store: store(), now: () => NOW });
    for (const name of INGEST_TOOL_NAMES)
      expect(await refusal(name, 'not even an object', reader), name).toEqual({ code: 'EWP_REFUSE_INGEST_ROLE', path: undefined });
  });

  it("runs the memory tools for the context's writer; the memory layer's refusals keep their codes and paths", async () => {
    const ledger = store();
    const writer = toolContext({ store: ledger, ingest: true, now: () => NOW, writer: { principal: 'ops-bot', observer: { self: true } } });
    const obs = await ok('memory_store', { text: 'NTP reports a 10 minute drift on host eu-3', epistemic_class: 'observation' }, writer);
    expect(obs).toMatchObject({ class: 'observation', source: 'ops-bot', status: 'stored', links: [] });
    const guess = await ok('memory_store', { text: 'The scheduler is misconfigured', epistemic_class: 'hypothesis', supports: [] }, writer);
    // A hypothesis cannot support: the memory layer's own code, through the one refusal path.
    expect(await refusal('memory_evidence_link', { support: guess.hash, target: obs.hash }, writer)).toMatchObject({ code: 'EWP_REFUSE_MEMORY_SUPPORT_CLASS' });
    const linked = await ok('memory_evidence_link', { support: obs.hash, target: guess.hash }, writer);
    expect(linked).toMatchObject({ polarity: 'supports', status: 'linked' });
    const recalled = await ok('memory_recall', { query: 'scheduler' }, writer);
    expect((recalled.rows as { hash: string }[]).map((r) => r.hash)).toContain(guess.hash);
    await ok('memory_auto_context', { query: 'scheduler' }, writer);
    const shown = await ok('memory_evidence_show', { hash: guess.hash }, writer);
    // Its support is the writer's own source: shown, and counted for nothing.
    expect(shown).toMatchObject({ hash: guess.hash, support_count: 0, self_support_count: 1, events_total: expect.any(Number) });
    expect(await ok('memory_evidence_audit', {}, writer)).toMatchObject({ chain: { ok: true } });
    await ok('memory_evidence_gates', {}, writer);
    // A principal without an observer grant: its observation is refused, never downgraded; a bad argument names its path.
    const agent = toolContext({ store: ledger, ingest: true, now: () => NOW });
    expect(await refusal('memory_store', { text: 'x', epistemic_class: 'observation' }, agent)).toEqual({
      code: 'EWP_REFUSE_CLASS_NOT_ALLOWED',
      path: '$.epistemic_class',
    });
    expect(await refusal('memory_recall', { limit: 0 }, agent)).toEqual({ code: 'EWP_REFUSE_INVALID_ARGUMENTS', path: '$.limit' });
    expect(await refusal('memory_evidence_show', { hash: 'mem:nope' }, agent)).toMatchObject({ code: 'EWP_REFUSE_MEMORY_UNKNOWN' });
  });

  it("ewp_decision_outcome reports on the decisions of the caller's own gate, whichever binding it is", async () => {
    const ledger = store();
    await ledger.put(verifiedView());
    const context = toolContext({ store: ledger, ingest: true, now: () => NOW });
    const action = { action_id: 'reboot', kind: 'shell', risk: 'low', reversible: true };
    const decided = await ok('ewp_may_act', { proposition_id: 'P-win', action }, context, { gate: 'ai-sdk', callId: 'call-1' });
    expect(decided).toMatchObject({ decision: 'MAY_ACT', recorded: true, claimed: true, call_id: 'call-1' });
    const id = decided.decision_id as string;
    // Another binding's gate (MCP's, or none) may not report it.
    expect(await refusal('ewp_decision_outcome', { decision_id: id, outcome: 'succeeded' }, context, { gate: 'mcp', callId: 'req-7' })).toEqual({
      code: 'EWP_REFUSE_INVALID_ARGUMENTS',
      path: '$.decision_id',
    });
    expect(await refusal('ewp_decision_outcome', { decision_id: id, outcome: 'succeeded' }, context)).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENTS' });
    // Its own gate may, even on a call the framework left unnamed; once.
    expect(await ok('ewp_decision_outcome', { decision_id: id, outcome: 'succeeded' }, context, { gate: 'ai-sdk', callId: undefined })).toEqual({
      recorded: true,
      decision_id: id,
      call_id: 'call-1',
      outcome: 'succeeded',
    });
    expect(await refusal('ewp_decision_outcome', { decision_id: id, outcome: 'failed' }, context, { gate: 'ai-sdk', callId: 'call-2' })).toMatchObject({
      code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE',
    });
    const shown = await ok('ewp_decisions', { decision_id: id }, context);
    expect(shown).toMatchObject({ decision: { decision_id: id, record: { gate: 'ai-sdk' } }, outcome: { body: { status: 'succeeded' } } });
    expect(await ok('ewp_decisions', { proposition_id: 'P-win' }, context)).toMatchObject({ decisions: [{ decision_id: id }], next_cursor: null });
    expect(await ok('ewp_recovery_plan', {}, context)).toMatchObject({ decisions: 1, held: [], next_cursor: null });
    expect(await ok('ewp_keys', {}, context)).toEqual({ keys: [] });
    expect(await refusal('ewp_decisions', { decision_id: 'dec_unknown' }, context)).toMatchObject({ code: 'EWP_REFUSE_DECISION_UNKNOWN' });
  });
});
