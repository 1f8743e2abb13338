import { loadFixtures } from '@ewp/conformance/pack';
import { decodeView, EwpError, InvalidArgumentError, REFERENCE_V2, warrantNow } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { inputJsonSchema, outputJsonSchema, TOOL_NAMES } from '@ewp/spec/tools';
import { runTool, toolContext } from './toolset.js';
import { ToolRefusal } from './refusal.js';

const T0 = new Date('2026-09-21T21:00:00Z');

describe('runTool', () => {
  it('evaluates every pack fixture exactly like the kernel', async () => {
    const fixtures = loadFixtures();
    expect(fixtures).toHaveLength(52);
    for (const f of fixtures) {
      const context = toolContext({ store: new MemoryEvidenceStore(), ingest: true, now: () => T0 });
      const put = await runTool('ewp_evidence_view_put', { view: f.view, ingest_attestation: true }, context);
      expect(put.ok, f.name).toBe(true);
      const view = decodeView(f.view);
      const out = await runTool('ewp_warrant_now', { proposition_id: view.proposition_id, evaluated_at: f.evaluatedAt }, context);
      if (!out.ok) throw out.refusal;
      const expected = warrantNow(view, REFERENCE_V2, f.evaluatedAt);
      expect(out.value.warrant, f.name).toMatchObject({ acceptance: expected.warrant.acceptance, conflict: expected.warrant.conflict });
      expect(out.value.view_id).toBe(expected.view_id);
    }
  });

  it('refuses with one EwpError class, a code and a JSON path', async () => {
    const context = toolContext({ store: new MemoryEvidenceStore() });
    const write = await runTool('ewp_evidence_view_put', { view: {} }, context);
    expect(write.ok ? undefined : write.refusal.code).toBe('EWP_REFUSE_INGEST_ROLE');
    const missing = await runTool('ewp_memory_context', { proposition_id: true }, context);
    if (missing.ok) throw new Error('expected a refusal');
    expect(ToolRefusal.isInstance(missing.refusal)).toBe(true);
    expect(EwpError.isInstance(missing.refusal)).toBe(true);
    expect(missing.refusal).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENTS', path: '$.proposition_id' });
    const noT = await runTool('ewp_warrant_now', { proposition_id: 'P' }, context);
    expect(noT.ok ? undefined : noT.refusal.code).toBe('EWP_MISSING_EVALUATED_AT');
    const unknown = await runTool('nope', {}, context);
    expect(unknown.ok ? undefined : unknown.refusal.code).toBe('EWP_UNKNOWN_TOOL');
    const notObject = await runTool('ewp_list_propositions', [1], context);
    expect(notObject.ok ? undefined : notObject.refusal.path).toBe('$');
    for (const [options, path] of [
      [{}, 'options.store'],
      [null, 'options'],
      [{ store: null }, 'options.store'],
    ] as const) {
      let thrown: unknown;
      try {
        toolContext(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'EWP_REFUSE_INVALID_ARGUMENT', path });
    }
  });

  it('a snapshot the store cannot read back after writing it is LEDGER_UNAVAILABLE, not a defect', async () => {
    // A store that acknowledges the append but loses what it wrote (a damaged or misbehaving backend).
    class ForgetfulStore extends MemoryEvidenceStore {
      forget = false;
      override async get(...args: Parameters<MemoryEvidenceStore['get']>) {
        return this.forget ? undefined : super.get(...args);
      }
      override async extend(...args: Parameters<MemoryEvidenceStore['extend']>) {
        const result = await super.extend(...args);
        this.forget = true;
        return result;
      }
    }
    const store = new ForgetfulStore();
    const context = toolContext({ store, ingest: true, now: () => T0 });
    const [fixture] = loadFixtures();
    expect((await runTool('ewp_evidence_view_put', { view: fixture!.view, ingest_attestation: true }, context)).ok).toBe(true);
    const { proposition_id } = decodeView(fixture!.view);
    const check = {
      check_id: 'c-lost',
      method: 'human_review',
      result: 'supports',
      observed_at: '2026-09-21T20:00:00Z',
      source: { content_hash: 'sha256:00', observed_at: '2026-09-21T20:00:00Z' },
    };
    const out = await runTool('ewp_check_record', { proposition_id, check, ingest_attestation: true }, context);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(ToolRefusal.isInstance(out.refusal)).toBe(true);
    expect(out.refusal).toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', message: expect.stringMatching(/vanished after it was written/) });
  });

  it('derives a JSON Schema for every input and output', () => {
    for (const name of TOOL_NAMES) {
      expect(inputJsonSchema(name).type).toBe('object');
      const output = outputJsonSchema(name);
      expect(output.properties ?? output.anyOf, name).toBeTypeOf('object');
    }
  });
});
