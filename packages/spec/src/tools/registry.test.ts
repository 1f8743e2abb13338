import { describe, expect, it } from 'vitest';
import { EPISTEMIC_CLASSES, POLARITIES } from '../index.js';
import {
  evidenceViewSchema,
  INGEST_TOOL_NAMES,
  inputJsonSchema,
  isToolName,
  outputJsonSchema,
  READ_TOOL_NAMES,
  refusalSchema,
  TOOL_NAMES,
  TOOL_SPECS,
  toolNamesFor,
} from './index.js';

describe('the tool registry', () => {
  it('holds the twenty agent-callable tools, each under its own name, in list order', () => {
    expect(TOOL_NAMES).toEqual([
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
    for (const name of TOOL_NAMES) {
      expect(TOOL_SPECS[name].name).toBe(name);
      expect(TOOL_SPECS[name].title.length).toBeGreaterThan(0);
      expect(TOOL_SPECS[name].description.length).toBeGreaterThan(40);
    }
    expect(Object.isFrozen(TOOL_SPECS)).toBe(true);
  });

  it('derives the read and ingest lists from each role, and the set a caller gets', () => {
    expect(INGEST_TOOL_NAMES).toEqual([
      'ewp_evidence_view_put',
      'ewp_check_record',
      'ewp_evidence_record',
      'memory_store',
      'memory_evidence_link',
      'memory_evidence_refute',
      'ewp_decision_outcome',
    ]);
    expect([...READ_TOOL_NAMES, ...INGEST_TOOL_NAMES].sort()).toEqual([...TOOL_NAMES].sort());
    expect(toolNamesFor(false)).toEqual(READ_TOOL_NAMES);
    expect(toolNamesFor(true)).toEqual(TOOL_NAMES);
    expect(isToolName('memory_recall')).toBe(true);
    expect(isToolName('toString')).toBe(false);
  });

  it('gives every tool an object JSON Schema for its arguments and its result (no open result)', () => {
    for (const name of TOOL_NAMES) {
      const input = inputJsonSchema(name);
      const output = outputJsonSchema(name);
      expect(input.type).toBe('object');
      expect(output.type).toBe('object');
      // A result schema names its fields (directly, or in each branch of a union).
      const branches = (output.anyOf as { properties?: object }[] | undefined) ?? [output];
      for (const b of branches) expect(Object.keys(b.properties ?? {}).length, name).toBeGreaterThan(0);
    }
  });

  it('builds enumerations from the vocabulary arrays', () => {
    const store = inputJsonSchema('memory_store') as unknown as { properties: { epistemic_class: { enum: string[] } } };
    expect(store.properties.epistemic_class.enum).toEqual([...EPISTEMIC_CLASSES]);
    const view = outputJsonSchema('ewp_evidence_view_get') as unknown as {
      properties: { evidence: { items: { properties: { polarity: { enum: string[] } } } } };
    };
    expect(view.properties.evidence.items.properties.polarity.enum).toEqual([...POLARITIES]);
  });

  it('reads what the wire schemas describe, and refuses what they do not', () => {
    const source = {
      source_id: 's',
      lineage_id: 'l',
      origin_type: 'tool',
      origin_locator: 'x',
      snapshot_id: 'n',
      content_hash: 'h',
      observed_at: '2026-01-01T00:00:00Z',
      extractor_id: null,
      parent_source_id: null,
    };
    const view = {
      proposition_id: 'p',
      view_id: 'v',
      assertions: [],
      evidence: [{ evidence_id: 'e', proposition_id: 'p', polarity: 'supports', source, content: '', observed_at: '2026-01-01T00:00:00Z' }],
      lineage: [],
      conflicts: [],
      checks: [],
      omitted_sources: [],
      retrieval_scope: 'full',
      degraded: false,
      freshness_policy_seconds: 60,
      adapter_meta: {},
      subjects: [],
    };
    expect(evidenceViewSchema.safeParse(view).success).toBe(true);
    const bad = { ...view, evidence: [{ ...view.evidence[0], polarity: 'neutral' }] };
    expect(evidenceViewSchema.safeParse(bad).success).toBe(false);
    expect(refusalSchema.safeParse({ error: { code: 'EWP_REFUSE_INGEST_ROLE', message: 'm' } }).success).toBe(true);
    expect(refusalSchema.safeParse({ error: { code: 'NOT_A_CODE', message: 'm' } }).success).toBe(false);
  });
});
