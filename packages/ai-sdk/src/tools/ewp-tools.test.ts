import { loadFixtures } from '@ewp/conformance/pack';
import { decodeView, normativeWarrant, REFERENCE_V2, warrantNow } from '@ewp/core';
import { READ_TOOL_NAMES, TOOL_NAMES } from '@ewp/spec/tools';
import { listDecisions, runTool, toolContext } from '@ewp/tools';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../test/scripted-model.js';
import { type EwpAiTool, ewpTools } from './ewp-tools.js';

const fixtures = loadFixtures();
const fixture = (name: string) => structuredClone(fixtures.find((f) => f.name === name)!.view);
const T0 = new Date('2026-09-21T21:00:00Z');

/** Run one tool call through generateText and return its output as the model receives it (JSON). */
async function viaModel(tools: ToolSet, name: string, input: unknown, id = 'c1'): Promise<Record<string, unknown>> {
  const model = scriptedModel([{ toolCalls: [{ id, name, input }] }, { text: 'ok' }]);
  const result = await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(3) });
  const toolResult = result.steps[0]!.toolResults[0];
  if (toolResult === undefined) {
    const error = result.steps[0]!.content.find((p) => p.type === 'tool-error');
    throw new Error(`tool ${name} failed: ${JSON.stringify(error)}`);
  }
  // What crosses the boundary is JSON.
  return JSON.parse(JSON.stringify(toolResult.output)) as Record<string, unknown>;
}

describe('ewpTools', () => {
  it('offers read tools only, unless given an ingest capability', () => {
    const store = new MemoryEvidenceStore();
    expect(Object.keys(ewpTools({ store })).sort()).toEqual([...READ_TOOL_NAMES].sort());
    // Every tool of the registry: the ewp_*, memory and decision tools.
    expect(Object.keys(ewpTools({ store, ingest: true }))).toEqual([...TOOL_NAMES]);
    expect(Object.keys(ewpTools({ store, ingest: true }))).toContain('memory_store');
    expect(Object.keys(ewpTools({ store, ingest: false })).sort()).toEqual([...READ_TOOL_NAMES].sort());
    expect(() => ewpTools({} as never)).toThrow(/store/);
    // Typed so that a spread leaves no tool possibly undefined (checked by tsc, no `!` needed).
    const spread = { ...ewpTools({ store }), ...ewpTools({ store, ingest: true }) };
    const reader: EwpAiTool<'ewp_memory_context'> = spread.ewp_memory_context;
    const writer: EwpAiTool<'ewp_check_record'> = spread.ewp_check_record;
    expect([reader, writer].every((t) => typeof t.execute === 'function')).toBe(true);
  });

  it('runs the memory tools of the registry too: memory_store, then memory_recall finds it', async () => {
    const store = new MemoryEvidenceStore();
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const stored = await viaModel(tools, 'memory_store', { text: 'server01 runs Windows Server 2022', epistemic_class: 'hypothesis' });
    expect(stored.error).toBeUndefined();
    const recalled = await viaModel(tools, 'memory_recall', { query: 'Windows Server' }, 'c2');
    expect(JSON.stringify(recalled)).toContain('server01 runs Windows Server 2022');
  });

  it('records every conformance fixture and evaluates it through the tool boundary like @ewp/core', async () => {
    expect(fixtures).toHaveLength(52);
    let goldens = 0;
    for (const f of fixtures) {
      const store = new MemoryEvidenceStore();
      const tools = ewpTools({ store, ingest: true, now: () => T0 });
      const put = await viaModel(tools, 'ewp_evidence_view_put', { view: f.view, ingest_attestation: true });
      const direct = decodeView(f.view);
      expect(put, f.name).toMatchObject({ stored: true, status: 'stored', proposition_id: direct.proposition_id, view_id: direct.view_id });
      const out = await viaModel(tools, 'ewp_warrant_now', { proposition_id: direct.proposition_id, evaluated_at: f.evaluatedAt });
      const { note, ...warrant } = out;
      expect(typeof note).toBe('string');
      const expected = warrantNow(direct, REFERENCE_V2, f.evaluatedAt);
      // The normative identity and axes (docs/spec/protocol.md §7.1), as the kernel computes them.
      expect(warrant, f.name).toMatchObject({ ...JSON.parse(JSON.stringify(normativeWarrant(expected))), stale: expected.stale });
      // The same call in process gives the same result.
      const inProcess = await runTool('ewp_warrant_now', { proposition_id: direct.proposition_id, evaluated_at: f.evaluatedAt }, toolContext({ store }));
      expect(out, f.name).toEqual(inProcess.ok ? JSON.parse(JSON.stringify(inProcess.value)) : undefined);
      if (f.golden) {
        const golden = f.golden.warrant as unknown as Record<string, unknown>;
        for (const axis of ['acceptance', 'conflict', 'verification', 'currency', 'sufficiency']) {
          expect((warrant.warrant as Record<string, unknown>)[axis], `${f.name} ${axis}`).toBe(golden[axis]);
        }
        goldens += 1;
      }
    }
    expect(goldens).toBe(26);
  });

  it('refuses trusted origins without an attestation, and when the capability forbids them', async () => {
    const store = new MemoryEvidenceStore();
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const view = fixture('08-verified-now');
    expect(await viaModel(tools, 'ewp_evidence_view_put', { view })).toMatchObject({
      error: { code: 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN', path: '$.ingest_attestation' },
    });
    expect(await viaModel(tools, 'ewp_evidence_view_put', { view, ingest_attestation: false })).toMatchObject({
      error: { code: 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN' },
    });
    expect(await store.get('P-win')).toBeUndefined();
    const strict = ewpTools({ store, ingest: { allowTrustedOrigins: false } });
    expect(await viaModel(strict, 'ewp_evidence_view_put', { view, ingest_attestation: true })).toMatchObject({
      error: { code: 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN' },
    });
    // Endogenous origins need no attestation.
    expect(await viaModel(tools, 'ewp_evidence_view_put', { view: fixture('05-persona') })).toMatchObject({ stored: true });
  });

  it('evaluates an inline view without storing it, demoting trusted origins unless an ingest role attests them', async () => {
    const store = new MemoryEvidenceStore();
    const view = fixture('08-verified-now');
    const T = '2026-09-21T21:00:00+00:00';
    const anonymous = await viaModel(ewpTools({ store }), 'ewp_warrant_now', { view, evaluated_at: T, ingest_attestation: true });
    expect(anonymous.inline_origins_demoted).toEqual(['tool']);
    expect(anonymous.warrant).toMatchObject({ verification: 'INDIRECT', acceptance: 'TENTATIVE' });
    const attested = await viaModel(ewpTools({ store, ingest: true }), 'ewp_warrant_now', { view, evaluated_at: T, ingest_attestation: true });
    expect(attested.inline_origins_demoted).toBeUndefined();
    const { note: _n, ...w } = attested;
    expect(w).toMatchObject(JSON.parse(JSON.stringify(normativeWarrant(warrantNow(decodeView(view), REFERENCE_V2, T)))));
    const unattested = await viaModel(ewpTools({ store, ingest: true }), 'ewp_warrant_now', { view, evaluated_at: T });
    expect(unattested.inline_origins_demoted).toEqual(['tool']);
    expect(await store.listPropositions()).toEqual([]);
    expect(await viaModel(ewpTools({ store }), 'ewp_warrant_now', {})).toMatchObject({ error: { code: 'EWP_MISSING_EVALUATED_AT', path: '$.evaluated_at' } });
    expect(await viaModel(ewpTools({ store }), 'ewp_warrant_now', { evaluated_at: T })).toMatchObject({
      error: { code: 'EWP_REFUSE_INVALID_ARGUMENTS', path: '$.proposition_id' },
    });
    expect(await viaModel(ewpTools({ store }), 'ewp_warrant_now', { view: { proposition_id: 7 }, evaluated_at: T })).toMatchObject({
      error: { code: 'EWP_REFUSE_INVALID_EVIDENCE_VIEW', path: '$.proposition_id' },
    });
  });

  it('refuses invalid views and reused ids with typed codes', async () => {
    const store = new MemoryEvidenceStore();
    const tools = ewpTools({ store, ingest: true });
    expect(await viaModel(tools, 'ewp_evidence_view_put', { view: { proposition_id: 'P', degraded: 'no' } })).toMatchObject({
      error: { code: 'EWP_REFUSE_INVALID_EVIDENCE_VIEW', path: '$.degraded' },
    });
    const persona = fixture('05-persona');
    await viaModel(tools, 'ewp_evidence_view_put', { view: persona });
    const changed = structuredClone(persona);
    (changed.assertions as Array<Record<string, unknown>>)[0]!.text = 'something else';
    expect(await viaModel(tools, 'ewp_evidence_view_put', { view: changed })).toMatchObject({ error: { code: 'EWP_REFUSE_IMMUTABLE_RECORD' } });
  });

  it('records ewp_may_act under the gate ai-sdk with the SDK toolCallId, and claims that call once', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(fixture('08-verified-now'));
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    const action = { action_id: 'patch', kind: 'patch', risk: 'high', reversible: true };
    const out = await viaModel(tools, 'ewp_may_act', { proposition_id: 'P-win', action }, 'call-ai-1');
    expect(out).toMatchObject({ decision: 'MAY_ACT', recorded: true, call_id: 'call-ai-1', claimed: true });
    const decisions = await listDecisions(store);
    expect(decisions.map((d) => [d.record.gate, d.record.call_id, d.decision_id])).toEqual([['ai-sdk', 'call-ai-1', out.decision_id]]);
    // The same call id is one call: asked again, it is not claimed a second time.
    expect(await viaModel(tools, 'ewp_may_act', { proposition_id: 'P-win', action }, 'call-ai-1')).toMatchObject({
      error: { code: 'EWP_REFUSE_DECISION_NOT_EXECUTABLE' },
    });
  });

  it('decides an action now, on the latest snapshot, with the operator risk policy', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(fixture('08-verified-now'));
    let now = T0;
    const tools = ewpTools({ store, now: () => now });
    const action = { action_id: 'patch', kind: 'patch', risk: 'high', reversible: true };
    expect(await viaModel(tools, 'ewp_may_act', { proposition_id: 'P-win', action })).toMatchObject({
      decision: 'MAY_ACT',
      view_id: 'v-ver',
      evaluated_at: T0.toISOString(),
      acceptance: 'ACCEPTED',
    });
    now = new Date('2026-10-05T00:00:00Z');
    expect(await viaModel(tools, 'ewp_may_act', { proposition_id: 'P-win', action })).toMatchObject({ decision: 'DENY', currency: 'STALE' });
    expect(await viaModel(tools, 'ewp_may_act', { proposition_id: 'P-win', action: { ...action, risk: 'medium' } })).toMatchObject({
      decision: 'REQUIRE_CONFIRMATION',
    });
    expect(await viaModel(tools, 'ewp_may_act', { proposition_id: 'P-win', action, view_id: 'v-old' })).toMatchObject({
      error: { code: 'EWP_REFUSE_STALE_VIEW_FOR_ACTION' },
    });
    expect(await viaModel(tools, 'ewp_may_act', { proposition_id: 'P-none', action })).toMatchObject({ error: { code: 'EWP_REFUSE_MISSING_VIEW' } });
    // A relaxed operator policy (the model cannot pass one).
    const relaxed = ewpTools({ store, now: () => now, riskPolicy: { high_requires_accepted: false } });
    expect(await viaModel(relaxed, 'ewp_may_act', { proposition_id: 'P-win', action })).toMatchObject({ decision: 'REQUIRE_CONFIRMATION' });
  });

  it('reads the memory context with warnings to say out loud', async () => {
    const store = new MemoryEvidenceStore();
    await store.put(fixture('p6-current-vs-verified'));
    const tools = ewpTools({ store, now: () => T0 });
    const ctx = await viaModel(tools, 'ewp_memory_context', { proposition_id: 'P-os', query: 'which OS?' });
    expect(ctx).toMatchObject({ proposition_id: 'P-os', query: 'which OS?', warrant: { conflict: 'OPEN', verification: 'EXTERNAL', acceptance: 'TENTATIVE' } });
    const warnings = ctx.warnings as string[];
    expect(warnings[0]).toMatch(/^conflict=OPEN/);
    expect(warnings.at(-1)).toMatch(/^acceptance=TENTATIVE/);
    await store.put(fixture('04-retrieval-degraded'));
    const degraded = await viaModel(tools, 'ewp_memory_context', { proposition_id: 'P-x' });
    expect(degraded.warnings as string[]).toContainEqual(expect.stringMatching(/^sufficiency=DEGRADED/));
    expect(await viaModel(tools, 'ewp_warrant_now', { proposition_id: 'P-x', evaluated_at: 'yesterday' })).toMatchObject({
      error: { code: 'EWP_REFUSE_INVALID_ARGUMENTS' },
    });
  });

  it('records evidence and checks into the latest snapshot; a check from a trusted origin needs attestation', async () => {
    const store = new MemoryEvidenceStore();
    const tools = ewpTools({ store, ingest: true, now: () => T0 });
    await viaModel(tools, 'ewp_evidence_view_put', { view: fixture('05-persona') });
    const recorded = await viaModel(tools, 'ewp_evidence_record', {
      proposition_id: 'P-checked',
      evidence: {
        evidence_id: 'e-log',
        polarity: 'supports',
        content: 'backup log shows success',
        observed_at: '2026-09-21T20:00:00+00:00',
        source: { content_hash: 'sha256:log', observed_at: '2026-09-21T20:00:00+00:00' },
      },
      text: 'the backup succeeded',
    });
    expect(recorded).toMatchObject({ recorded: true, evidence_id: 'e-log', count: 1 });
    const view = (await store.get('P-checked'))!;
    expect(view.evidence[0]!.source).toMatchObject({ source_id: 'e-log', origin_type: 'extract', origin_locator: 'mcp:e-log' });
    expect(view.assertions.map((a) => a.assertion_id)).toContain('e-log:a');
    const check = {
      check_id: 'k-tool',
      method: 'tool_observation',
      observed_at: '2026-09-21T20:30:00+00:00',
      result: 'supports',
      source: { origin_type: 'tool', content_hash: 'sha256:probe', observed_at: '2026-09-21T20:30:00+00:00' },
    };
    expect(await viaModel(tools, 'ewp_check_record', { proposition_id: 'P-checked', check })).toMatchObject({
      error: { code: 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN' },
    });
    expect(await viaModel(tools, 'ewp_check_record', { proposition_id: 'P-checked', check, ingest_attestation: true })).toMatchObject({
      recorded: true,
      check_id: 'k-tool',
      count: 1,
    });
    const w = await viaModel(tools, 'ewp_warrant_now', { proposition_id: 'P-checked', evaluated_at: T0.toISOString() });
    expect(w.warrant).toMatchObject({ verification: 'EXTERNAL' });
    expect(
      await viaModel(tools, 'ewp_check_record', {
        proposition_id: 'P-checked',
        check: { ...check, check_id: 'k2', source: { content_hash: '', observed_at: 'x' } },
      }),
    ).toMatchObject({ error: { code: 'EWP_REFUSE_MISSING_CONTENT_HASH', path: '$.check.source.content_hash' } });
    expect(
      await viaModel(tools, 'ewp_evidence_record', {
        proposition_id: 'P-missing',
        evidence: { evidence_id: 'e', polarity: 'supports', content: 'c', observed_at: 't', source: { content_hash: 'h', observed_at: 't' } },
      }),
    ).toMatchObject({ error: { code: 'EWP_REFUSE_MISSING_VIEW' } });
  });
});
