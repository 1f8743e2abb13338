/** The eight tools over the SDK's in-memory transport: results and refusal codes of docs/spec/store-contract.md §5. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOOL_NAMES, TOOL_SPECS } from '@ewp/spec/tools';
import { type Connected, call, connect, ok, refused } from './harness.js';
import { extractedView, SERVER_NOW, source, T, verifiedView } from './views.js';

let c: Connected;
beforeEach(async () => {
  c = await connect({ ingest: true });
  await ok(c.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
});
afterEach(async () => c.close());

describe('tools/list', () => {
  it('lists the eight tools, then the memory and decision tools, from the registry, with input and output schemas', async () => {
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'ewp_warrant_now',
      'ewp_evidence_view_put',
      'ewp_evidence_view_get',
      'ewp_check_record',
      'ewp_evidence_record',
      'ewp_may_act',
      'ewp_memory_context',
      'ewp_list_propositions',
      'memory_store',
      'memory_recall',
      'memory_auto_context',
      'memory_evidence_show',
      'memory_evidence_link',
      'memory_evidence_refute',
      'memory_evidence_audit',
      'memory_evidence_gates',
      'ewp_decisions',
      'ewp_recovery_plan',
      'ewp_keys',
      'ewp_decision_outcome',
    ]);
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      const spec = TOOL_SPECS[tool.name as keyof typeof TOOL_SPECS];
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).toBe(spec.description);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(spec.role === 'read');
    }
    expect(tools.find((t) => t.name === 'ewp_warrant_now')?.inputSchema.required).toEqual(['evaluated_at']);
    // Results are described, not an open object: the client checks every structuredContent against them.
    expect(Object.keys((tools.find((t) => t.name === 'memory_store')?.outputSchema?.properties ?? {}) as object)).toEqual(
      expect.arrayContaining(['hash', 'class', 'confidence', 'links']),
    );
  });

  it('initialize names the server and gives the agent instructions', async () => {
    expect(c.client.getServerVersion()).toMatchObject({ name: 'ewp-mcp', version: 'EWP-0.2.0' });
    const instructions = c.client.getInstructions() ?? '';
    expect(instructions).toContain('conflict=OPEN');
    expect(instructions).toContain('DEGRADED');
  });

  it('offers the agent rules as a prompt', async () => {
    const { prompts } = await c.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['ewp_memory_rules']);
    const prompt = await c.client.getPrompt({ name: 'ewp_memory_rules' });
    const text = (prompt.messages[0]?.content as { text?: string } | undefined)?.text;
    expect(text).toContain('conflict=OPEN');
    expect(text).toContain('DEGRADED');
    await expect(c.client.getPrompt({ name: 'nope' })).rejects.toThrow(/unknown prompt/);
  });

  it('an unknown tool is EWP_UNKNOWN_TOOL', async () => {
    expect(await refused(c.client, 'ewp_nope', {})).toBe('EWP_UNKNOWN_TOOL');
  });
});

describe('ewp_warrant_now', () => {
  it('evaluates the latest stored snapshot', async () => {
    const w = await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T });
    expect(w).toMatchObject({
      protocol_version: 'EWP-0.2.0',
      proposition_id: 'P-win',
      view_id: 'v-ver',
      policy_id: 'reference-v2',
      policy_version: 'reference-v2',
      evaluated_at: T,
      warrant: { acceptance: 'ACCEPTED', conflict: 'NONE', verification: 'EXTERNAL', currency: 'CURRENT', sufficiency: 'SUFFICIENT' },
      independent_lineage_count: 1,
      supporting_evidence_ids: ['e1'],
      opposing_evidence_ids: [],
      omitted_sources: [],
      stale: false,
      rationale_codes: ['acceptance.accepted', 'verification.external'],
    });
    expect(w).not.toHaveProperty('inline_origins_demoted');
    expect(w.note).toMatch(/normative/i);
  });

  it('evaluates a named snapshot, and refuses a missing one', async () => {
    expect((await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', view_id: 'v-ver', evaluated_at: T })).view_id).toBe('v-ver');
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', view_id: 'v-none', evaluated_at: T })).toBe('EWP_REFUSE_MISSING_VIEW');
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: 'P-none', evaluated_at: T })).toBe('EWP_REFUSE_MISSING_VIEW');
  });

  it('echoes evaluated_at verbatim and honours T (the check is not yet observed earlier)', async () => {
    const early = await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: '2026-09-10T00:00:00Z' });
    expect(early.evaluated_at).toBe('2026-09-10T00:00:00Z');
    expect(early.warrant).toMatchObject({ verification: 'NONE', acceptance: 'TENTATIVE' });
  });

  it('refuses missing, unparsable and out-of-range evaluated_at with specific codes', async () => {
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: 'P-win' })).toBe('EWP_MISSING_EVALUATED_AT');
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: '' })).toBe('EWP_MISSING_EVALUATED_AT');
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: 'yesterday' })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: '0001-01-01T00:00:00+00:01' })).toBe(
      'EWP_REFUSE_INVALID_ARGUMENTS',
    );
  });

  it('refuses another policy identity', async () => {
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T, policy_id: 'reference-v1' })).toBe(
      'EWP_REFUSE_INVALID_ARGUMENTS',
    );
    expect(await refused(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T, policy_version: 'v99' })).toBe(
      'EWP_REFUSE_INVALID_ARGUMENTS',
    );
    await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T, policy_id: 'reference-v2', policy_version: 'reference-v2' });
  });

  it('an inline view wins over proposition_id and is never stored', async () => {
    const w = await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', view: extractedView('P-inline'), evaluated_at: T });
    expect(w.proposition_id).toBe('P-inline');
    expect(await c.store.get('P-inline')).toBeUndefined();
  });

  it('refuses an invalid inline view with the offending path', async () => {
    const bad = { ...verifiedView(), degraded: 'no' };
    const r = await call(c.client, 'ewp_warrant_now', { view: bad, evaluated_at: T });
    expect(r).toMatchObject({ ok: false, code: 'EWP_REFUSE_INVALID_EVIDENCE_VIEW' });
    expect(!r.ok && r.message).toContain('$.degraded');
    expect(await refused(c.client, 'ewp_warrant_now', { view: 'P-win', evaluated_at: T })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
  });
});

describe('ewp_evidence_view_put / ewp_evidence_view_get', () => {
  it('stores, re-puts as a no-op, and refuses a changed snapshot', async () => {
    const again = await ok(c.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
    expect(again).toEqual({ stored: true, status: 'unchanged', proposition_id: 'P-win', view_id: 'v-ver', assertions: 1, checks: 1 });
    const changed = { ...verifiedView(), degraded: true };
    expect(await refused(c.client, 'ewp_evidence_view_put', { view: changed, ingest_attestation: true })).toBe('EWP_REFUSE_IMMUTABLE_RECORD');
  });

  it('refuses a record id reused for other content under a new view id', async () => {
    const v2 = verifiedView('P-win', 'v2');
    v2.checks[0] = { ...(v2.checks[0] as (typeof v2.checks)[0]), result: 'opposes' };
    expect(await refused(c.client, 'ewp_evidence_view_put', { view: v2, ingest_attestation: true })).toBe('EWP_REFUSE_IMMUTABLE_RECORD');
  });

  it('accepts the view fields directly as the arguments, deriving the view id', async () => {
    const { view_id: _drop, ...fields } = extractedView('P-flat');
    const put = await ok(c.client, 'ewp_evidence_view_put', fields);
    expect(put.view_id).toMatch(/^v-[0-9a-f]{20}$/);
    const again = await ok(c.client, 'ewp_evidence_view_put', { view: fields });
    expect(again.view_id).toBe(put.view_id);
    expect(again.status).toBe('unchanged');
  });

  it('refuses to store a WarrantView', async () => {
    const w = await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T });
    expect(await refused(c.client, 'ewp_evidence_view_put', w)).toBe('EWP_REFUSE_PERSIST_WARRANT');
    expect(await refused(c.client, 'ewp_evidence_view_put', { view: extractedView(), warrant: { proposition_id: 'P' } })).toBe('EWP_REFUSE_PERSIST_WARRANT');
  });

  it('gets the latest snapshot and a named one; missing is refused', async () => {
    const view = await ok(c.client, 'ewp_evidence_view_get', { proposition_id: 'P-win' });
    expect(view).toMatchObject({ proposition_id: 'P-win', view_id: 'v-ver', retrieval_scope: 'complete', degraded: false });
    expect((view.checks as unknown[]).length).toBe(1);
    expect(await ok(c.client, 'ewp_evidence_view_get', { proposition_id: 'P-win', view_id: 'v-ver' })).toEqual(view);
    expect(await refused(c.client, 'ewp_evidence_view_get', { proposition_id: 'P-win', view_id: 'nope' })).toBe('EWP_REFUSE_MISSING_VIEW');
    expect(await refused(c.client, 'ewp_evidence_view_get', {})).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
  });

  it('numeric ids are taken as their text', async () => {
    await ok(c.client, 'ewp_evidence_view_put', { view: { ...extractedView('P-num'), view_id: 7 } });
    expect((await ok(c.client, 'ewp_evidence_view_get', { proposition_id: 'P-num', view_id: 7 })).view_id).toBe('7');
  });
});

describe('ewp_check_record / ewp_evidence_record', () => {
  const checkSource = { content_hash: 'sha256:probe', observed_at: '2026-09-21T18:40:00Z' };

  it('appends a check as a new snapshot with source defaults', async () => {
    const r = await ok(c.client, 'ewp_check_record', {
      proposition_id: 'P-win',
      check: { check_id: 'k2', method: 'inference', observed_at: '2026-09-21T18:40:00Z', result: 'supports', source: checkSource },
      new_view_id: 'v-k2',
    });
    expect(r).toEqual({ recorded: true, check_id: 'k2', view_id: 'v-k2', count: 2 });
    const view = await ok(c.client, 'ewp_evidence_view_get', { proposition_id: 'P-win' });
    expect(view.view_id).toBe('v-k2');
    const k2 = (view.checks as Array<Record<string, unknown>>).find((k) => k.check_id === 'k2');
    expect(k2).toMatchObject({
      scope: 'P-win',
      subjects: [],
      source: { source_id: 'check:k2', lineage_id: 'check:k2', snapshot_id: 'check:k2', origin_type: 'extract', origin_locator: 'mcp:check:k2' },
    });
  });

  it('derives the new view id when none is given', async () => {
    const r = await ok(c.client, 'ewp_check_record', {
      proposition_id: 'P-win',
      check: { check_id: 'k3', method: 'inference', observed_at: '2026-09-21T18:40:00Z', result: 'inconclusive', source: checkSource },
    });
    expect(r.view_id).toMatch(/^v-[0-9a-f]{20}$/);
  });

  it('refuses missing content_hash / observed_at, unknown propositions and bad results', async () => {
    const base = { check_id: 'k9', method: 'inference', observed_at: '2026-09-21T18:40:00Z', result: 'supports' };
    expect(await refused(c.client, 'ewp_check_record', { proposition_id: 'P-win', check: { ...base, source: { observed_at: 'x' } } })).toBe(
      'EWP_REFUSE_MISSING_CONTENT_HASH',
    );
    expect(await refused(c.client, 'ewp_check_record', { proposition_id: 'P-win', check: { ...base, source: { content_hash: 'h' } } })).toBe(
      'EWP_REFUSE_MISSING_OBSERVED_AT',
    );
    expect(await refused(c.client, 'ewp_check_record', { proposition_id: 'P-win', check: { ...base } })).toBe('EWP_REFUSE_MISSING_CONTENT_HASH');
    expect(await refused(c.client, 'ewp_check_record', { proposition_id: 'P-none', check: { ...base, source: checkSource } })).toBe('EWP_REFUSE_MISSING_VIEW');
    expect(await refused(c.client, 'ewp_check_record', { proposition_id: 'P-win', check: { ...base, result: 'maybe', source: checkSource } })).toBe(
      'EWP_REFUSE_INVALID_EVIDENCE_VIEW',
    );
    expect(await refused(c.client, 'ewp_check_record', { proposition_id: 'P-win' })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
  });

  it('refuses a check id reused for other content', async () => {
    const k1 = { check_id: 'k1', method: 'inference', observed_at: '2026-09-21T18:40:00Z', result: 'supports', source: checkSource };
    expect(await refused(c.client, 'ewp_check_record', { proposition_id: 'P-win', check: k1 })).toBe('EWP_REFUSE_IMMUTABLE_RECORD');
  });

  it('records evidence and, with text, its assertion', async () => {
    const r = await ok(c.client, 'ewp_evidence_record', {
      proposition_id: 'P-win',
      evidence: { evidence_id: 'e2', polarity: 'opposes', content: 'ticket says Linux', observed_at: '2026-09-21T18:45:00Z', source: checkSource },
      text: 'server01 runs Linux',
    });
    expect(r).toMatchObject({ recorded: true, evidence_id: 'e2', assertion_id: 'e2:a', count: 2 });
    const view = await ok(c.client, 'ewp_evidence_view_get', { proposition_id: 'P-win' });
    const a = (view.assertions as Array<Record<string, unknown>>).find((x) => x.assertion_id === 'e2:a');
    expect(a).toMatchObject({ asserted_by: 'mcp', assertion_confidence: 0.5, asserted_at: '2026-09-21T18:45:00Z', proposition_id: 'P-win' });
    const w = await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T });
    expect(w.warrant).toMatchObject({ conflict: 'OPEN', acceptance: 'TENTATIVE' });
    expect(w.opposing_evidence_ids).toEqual(['e2']);
  });

  it('never assumes polarity and checks the optional assertion fields', async () => {
    const evidence = { evidence_id: 'e3', content: 'c', observed_at: '2026-09-21T18:45:00Z', source: checkSource };
    expect(await refused(c.client, 'ewp_evidence_record', { proposition_id: 'P-win', evidence })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
    const withPolarity = { ...evidence, polarity: 'supports' };
    expect(await refused(c.client, 'ewp_evidence_record', { proposition_id: 'P-win', evidence: withPolarity, text: 5 })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
    expect(await refused(c.client, 'ewp_evidence_record', { proposition_id: 'P-win', evidence: withPolarity, text: 't', assertion_confidence: '0.9' })).toBe(
      'EWP_REFUSE_INVALID_ARGUMENTS',
    );
    expect(await refused(c.client, 'ewp_evidence_record', { proposition_id: 'P-win', evidence: withPolarity, text: 't', assertion_confidence: true })).toBe(
      'EWP_REFUSE_INVALID_ARGUMENTS',
    );
    const done = await ok(c.client, 'ewp_evidence_record', {
      proposition_id: 'P-win',
      evidence: withPolarity,
      text: 't',
      assertion_id: 'a-custom',
      assertion_confidence: 0.25,
    });
    expect(done.assertion_id).toBe('a-custom');
  });
});

describe('ewp_may_act', () => {
  const action = { action_id: 'reboot', kind: 'shell', risk: 'high', reversible: false };

  it('gates the latest snapshot at the server clock', async () => {
    const r = await ok(c.client, 'ewp_may_act', { proposition_id: 'P-win', action });
    expect(r).toEqual({
      decision: 'MAY_ACT',
      proposition_id: 'P-win',
      view_id: 'v-ver',
      evaluated_at: SERVER_NOW.toISOString(),
      acceptance: 'ACCEPTED',
      conflict: 'NONE',
      verification: 'EXTERNAL',
      currency: 'CURRENT',
      sufficiency: 'SUFFICIENT',
      risk_policy: { policy_id: 'action-v0.1', version: '0.1.0' },
      decision_id: expect.stringMatching(/^dec_[0-9a-f]{32}$/),
      recorded: true,
      // The request's own JSON-RPC id, scoped to its connection; a recorded MAY_ACT claims that call.
      call_id: expect.stringMatching(/^[0-9a-f-]{36}:\d+$/),
      claimed: true,
      rule: 'high.warranted',
      held_until_reevaluated: [],
    });
  });

  it('denies a high-risk irreversible action on a tentative claim', async () => {
    await ok(c.client, 'ewp_evidence_view_put', { view: extractedView() });
    expect((await ok(c.client, 'ewp_may_act', { proposition_id: 'P-note', action })).decision).toBe('DENY');
    expect((await ok(c.client, 'ewp_may_act', { proposition_id: 'P-note', action: { risk: 'low', reversible: true } })).decision).toBe('MAY_ACT');
    expect((await ok(c.client, 'ewp_may_act', { proposition_id: 'P-note', action: { risk: 'medium', reversible: true } })).decision).toBe(
      'REQUIRE_CONFIRMATION',
    );
  });

  it('refuses in the reference order', async () => {
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win' })).toBe('EWP_REFUSE_MAY_ACT_WITHOUT_ACTION');
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action: {} })).toBe('EWP_REFUSE_MAY_ACT_WITHOUT_ACTION');
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, warrant: { acceptance: 'ACCEPTED' } })).toBe(
      'EWP_REFUSE_CLIENT_SUPPLIED_WARRANT',
    );
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, view: false })).toBe('EWP_REFUSE_INLINE_VIEW_FOR_ACTION');
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, view: {} })).toBe('EWP_REFUSE_INLINE_VIEW_FOR_ACTION');
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action: { risk: 'extreme', reversible: true } })).toBe(
      'EWP_REFUSE_INVALID_ACTION',
    );
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action: { risk: 'low', reversible: 'yes' } })).toBe('EWP_REFUSE_INVALID_ACTION');
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action: { risk: 'low' } })).toBe('EWP_REFUSE_INVALID_ACTION');
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-none', action })).toBe('EWP_REFUSE_MISSING_VIEW');
  });

  it('takes evaluated_at only as a 300 s sanity check', async () => {
    const within = new Date(SERVER_NOW.getTime() + 299_000).toISOString();
    const r = await ok(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, evaluated_at: within });
    expect(r.evaluated_at).toBe(SERVER_NOW.toISOString());
    const beyond = new Date(SERVER_NOW.getTime() - 301_000).toISOString();
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, evaluated_at: beyond })).toBe('EWP_REFUSE_EVALUATED_AT_SKEW');
    // A T far in the future would make the check stale; the server refuses rather than evaluate at it.
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, evaluated_at: '2027-01-01T00:00:00Z' })).toBe(
      'EWP_REFUSE_EVALUATED_AT_SKEW',
    );
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, evaluated_at: 'now' })).toBe('EWP_REFUSE_EVALUATED_AT_SKEW');
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, evaluated_at: 12 })).toBe('EWP_REFUSE_EVALUATED_AT_SKEW');
  });

  it('gates only the latest snapshot: an older view_id is refused', async () => {
    await ok(c.client, 'ewp_check_record', {
      proposition_id: 'P-win',
      check: {
        check_id: 'k-no',
        method: 'tool_observation',
        observed_at: '2026-09-21T19:00:00Z',
        result: 'opposes',
        source: { ...source('probe', 'tool'), observed_at: '2026-09-21T19:00:00Z' },
      },
      new_view_id: 'v-opposed',
      ingest_attestation: true,
    });
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, view_id: 'v-ver' })).toBe('EWP_REFUSE_STALE_VIEW_FOR_ACTION');
    const latest = await ok(c.client, 'ewp_may_act', { proposition_id: 'P-win', action, view_id: 'v-opposed' });
    expect(latest).toMatchObject({ view_id: 'v-opposed', decision: 'DENY', conflict: 'OPEN' });
  });

  it('lets only the operator set a risk policy', async () => {
    await ok(c.client, 'ewp_evidence_view_put', { view: extractedView() });
    const loose = { high_requires_accepted: false, high_requires_no_open_conflict: false };
    const r = await ok(c.client, 'ewp_may_act', { proposition_id: 'P-note', action: { risk: 'high', reversible: true }, risk_policy: loose });
    expect(r.decision).toBe('MAY_ACT');
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-note', action, risk_policy: { high_requires_accepted: 'no' } })).toBe(
      'EWP_REFUSE_CLIENT_RISK_POLICY',
    );
    expect(await refused(c.client, 'ewp_may_act', { proposition_id: 'P-note', action, risk_policy: 'loose' })).toBe('EWP_REFUSE_CLIENT_RISK_POLICY');
    const reader = await connect({ ingest: false, store: c.store });
    expect(await refused(reader.client, 'ewp_may_act', { proposition_id: 'P-note', action, risk_policy: loose })).toBe('EWP_REFUSE_CLIENT_RISK_POLICY');
    expect((await ok(reader.client, 'ewp_may_act', { proposition_id: 'P-note', action, risk_policy: {} })).decision).toBe('DENY');
    await reader.close();
  });
});

describe('ewp_memory_context', () => {
  it('gives the axes, the checks with their classes and warnings to say out loud', async () => {
    await ok(c.client, 'ewp_check_record', {
      proposition_id: 'P-win',
      check: {
        check_id: 'k-no',
        method: 'human_review',
        observed_at: '2026-09-21T19:00:00Z',
        result: 'opposes',
        source: { ...source('ops', 'human'), observed_at: '2026-09-21T19:00:00Z' },
      },
      ingest_attestation: true,
    });
    const m = await ok(c.client, 'ewp_memory_context', { proposition_id: 'P-win', evaluated_at: T, query: 'what OS?' });
    expect(m).toMatchObject({ proposition_id: 'P-win', query: 'what OS?', evaluated_at: T, persona: null });
    expect(m.warrant).toMatchObject({ conflict: 'OPEN', verification: 'HUMAN', acceptance: 'TENTATIVE' });
    expect(m.checks).toEqual([
      { check_id: 'k1', method: 'tool_observation', result: 'supports', observed_at: '2026-09-21T18:31:00+00:00', origin_type: 'tool', class: 'EXTERNAL' },
      { check_id: 'k-no', method: 'human_review', result: 'opposes', observed_at: '2026-09-21T19:00:00Z', origin_type: 'human', class: 'HUMAN' },
    ]);
    const warnings = m.warnings as string[];
    expect(warnings[0]).toMatch(/^conflict=OPEN/);
    expect(warnings.some((w) => w.includes('HUMAN') && /not a confirmation/.test(w))).toBe(true);
    expect(warnings.at(-1)).toMatch(/^acceptance=TENTATIVE/);
  });

  it('warns DEGRADED for an incomplete view and defaults T to the server clock', async () => {
    await ok(c.client, 'ewp_evidence_view_put', { view: { ...extractedView('P-part'), retrieval_scope: 'top_k', omitted_sources: ['s9'] } });
    const m = await ok(c.client, 'ewp_memory_context', { proposition_id: 'P-part' });
    expect(m.evaluated_at).toBe(SERVER_NOW.toISOString());
    expect(m.query).toBeNull();
    expect(m.omitted_sources).toEqual(['s9']);
    expect((m.warnings as string[]).some((w) => w.startsWith('sufficiency=DEGRADED'))).toBe(true);
    expect(await refused(c.client, 'ewp_memory_context', { proposition_id: 'P-part', evaluated_at: 5 })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
  });
});

describe('ewp_list_propositions', () => {
  it('lists newest first with assertion texts, filters and limits', async () => {
    await ok(c.client, 'ewp_evidence_view_put', { view: extractedView('P-note') });
    const all = await ok(c.client, 'ewp_list_propositions', {});
    expect((all.propositions as Array<{ proposition_id: string }>).map((p) => p.proposition_id)).toEqual(['P-note', 'P-win']);
    expect((all.propositions as unknown[])[1]).toEqual({
      proposition_id: 'P-win',
      latest_view_id: 'v-ver',
      assertions: ['server01 runs Windows Server 2022'],
      snapshots: 1,
    });
    const windows = await ok(c.client, 'ewp_list_propositions', { query: 'WINDOWS' });
    expect((windows.propositions as unknown[]).length).toBe(1);
    expect(((await ok(c.client, 'ewp_list_propositions', { limit: 1 })).propositions as unknown[]).length).toBe(1);
    for (const limit of [0, 501, 1.5, true, '5']) {
      expect(await refused(c.client, 'ewp_list_propositions', { limit })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
    }
  });

  it('pages with next_cursor, each page within 64 KiB; a proposition with huge assertion texts comes back shortened and flagged', async () => {
    const own = await connect({ ingest: true });
    try {
      for (let i = 0; i < 30; i++) {
        const view = extractedView(`P-long-${i}`) as { assertions: { text: string }[] };
        view.assertions[0] = { ...view.assertions[0], text: `note ${i} ${'w'.repeat(i === 7 ? 40_000 : 4_000)}` } as { text: string };
        await ok(own.client, 'ewp_evidence_view_put', { view });
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      for (;;) {
        const page = await ok(own.client, 'ewp_list_propositions', { limit: 500, ...(cursor === undefined ? {} : { cursor }) });
        const rows = page.propositions as { proposition_id: string; assertions: string[]; truncated?: boolean }[];
        expect(Buffer.byteLength(JSON.stringify(rows))).toBeLessThanOrEqual(64 * 1024);
        for (const r of rows) {
          seen.push(r.proposition_id);
          expect(r.truncated).toBe(r.proposition_id === 'P-long-7' ? true : undefined);
        }
        pages += 1;
        if (page.next_cursor === null) break;
        cursor = page.next_cursor as string;
      }
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(seen.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `P-long-${i}`).sort());
      expect(await refused(own.client, 'ewp_list_propositions', { cursor: 'x' })).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
    } finally {
      await own.close();
    }
  });
});
