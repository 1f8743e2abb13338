import { canonicalViewText, decodeView, type EvidenceView, type SourceRef } from '@ewp/core';
import { type MemoryAdapter, readBack } from './memory-adapter.js';

const source = (id: string, lineage: string, origin = 'tool'): SourceRef => ({
  source_id: id,
  lineage_id: lineage,
  origin_type: origin,
  origin_locator: `loc:${id}`,
  snapshot_id: `snap:${id}`,
  content_hash: `sha256:${id}`,
  observed_at: '2026-09-20T00:00:00+00:00',
  extractor_id: null,
  parent_source_id: null,
});

/** The base of the cross-store agreement test (docs/spec/store-contract.md §1.7): a verified tool view for P-win. */
function base(): EvidenceView {
  return decodeView({
    proposition_id: 'P-win',
    view_id: 'v1',
    subjects: ['server01', 'srv-1'],
    assertions: [
      {
        assertion_id: 'a1',
        text: 'Windows update KB5 is installed on server01',
        asserted_by: 'agent',
        assertion_confidence: 0.9,
        source: source('winrm', 'L-winrm'),
        asserted_at: '2026-09-20T00:00:00+00:00',
      },
    ],
    evidence: [
      {
        evidence_id: 'e1',
        polarity: 'supports',
        content: 'winrm: KB5 present',
        source: source('winrm', 'L-winrm'),
        observed_at: '2026-09-20T00:00:00+00:00',
      },
    ],
    checks: [
      {
        check_id: 'k1',
        method: 'tool_observation',
        scope: 'server01 patch level',
        source: source('winrm', 'L-winrm'),
        observed_at: '2026-09-20T01:00:00+00:00',
        result: 'supports',
        subjects: ['server01', 'srv-1'],
      },
    ],
  });
}

type Step = { name: string; view: EvidenceView; outcome: 'stored' | 'refused' | 'no-op' };

function steps(): Step[] {
  const v1 = base();
  const e2 = { ...v1.evidence[0]!, evidence_id: 'e2', content: 'wmi: KB5 present', source: source('wmi', 'L-wmi') };
  const v3 = { ...v1, view_id: 'v3', evidence: [...v1.evidence, e2] };
  const c1 = { conflict_id: 'c1', proposition_ids: ['P-win'], status: 'open' as const, note: '' };
  return [
    { name: 'v1 base', view: v1, outcome: 'stored' },
    { name: 'v2 check k1 reused with result opposes', view: { ...v1, view_id: 'v2', checks: [{ ...v1.checks[0]!, result: 'opposes' }] }, outcome: 'refused' },
    { name: 'v3 adds evidence e2', view: v3, outcome: 'stored' },
    {
      name: 'v4 source winrm reused with another lineage',
      view: {
        ...v3,
        view_id: 'v4',
        evidence: [...v3.evidence.map((e) => e), { ...e2, evidence_id: 'e3', content: 'other', source: source('winrm', 'L-other') }].filter(
          (e) => e.evidence_id !== 'e1',
        ),
        assertions: [],
        checks: [],
      },
      outcome: 'refused',
    },
    { name: 'v5 adds open conflict c1', view: { ...v3, view_id: 'v5', conflicts: [c1] }, outcome: 'stored' },
    {
      name: 'v6 conflict c1 with other participants',
      view: { ...v3, view_id: 'v6', conflicts: [{ ...c1, proposition_ids: ['P-win', 'P-x'] }] },
      outcome: 'refused',
    },
    { name: 'v7 conflict c1 resolved', view: { ...v3, view_id: 'v7', conflicts: [{ ...c1, status: 'resolved' }] }, outcome: 'stored' },
    { name: 'v8 v3 content, evidence reversed', view: { ...v3, view_id: 'v8', evidence: [...v3.evidence].reverse() }, outcome: 'stored' },
    {
      name: 'v9 subjects reversed',
      view: { ...v3, view_id: 'v9', subjects: [...v3.subjects].reverse(), checks: v3.checks.map((k) => ({ ...k, subjects: [...k.subjects].reverse() })) },
      outcome: 'stored',
    },
    { name: 'v1 again, identical', view: v1, outcome: 'no-op' },
    { name: 'v1 again with degraded: true', view: { ...v1, degraded: true }, outcome: 'refused' },
  ];
}

/**
 * The snapshot-store contract (docs/spec/store-contract.md §1) as the reference's cross-store agreement sequence:
 * immutable (P, view_id) snapshots, identical re-puts are no-ops, ids stable across snapshots,
 * refused writes leave nothing behind, and latest is the last committed snapshot. Returns the
 * failures (empty when the adapter keeps the contract).
 */
export async function runSnapshotContract(adapter: MemoryAdapter): Promise<string[]> {
  const failures: string[] = [];
  let latest: EvidenceView | undefined;
  for (const step of steps()) {
    let refused: unknown;
    try {
      await adapter.put(step.view);
    } catch (error) {
      refused = error;
    }
    if (step.outcome === 'refused' && refused === undefined) failures.push(`${step.name}: stored, expected a refusal`);
    if (step.outcome !== 'refused' && refused !== undefined) failures.push(`${step.name}: refused (${(refused as Error).message}), expected ${step.outcome}`);
    if (step.outcome === 'stored' && refused === undefined) latest = step.view;
    try {
      const now = await readBack(adapter, 'P-win');
      if (latest && (now.view_id !== latest.view_id || canonicalViewText(now) !== canonicalViewText(latest))) {
        failures.push(`${step.name}: latest is ${now.view_id}, expected ${latest.view_id}`);
      }
    } catch (error) {
      failures.push(`${step.name}: reading latest failed (${(error as Error).message})`);
    }
  }
  try {
    const v1 = await readBack(adapter, 'P-win', 'v1');
    if (canonicalViewText(v1) !== canonicalViewText(base())) failures.push('v1 read by id differs from what was written');
  } catch (error) {
    failures.push(`reading v1 by id failed (${(error as Error).message})`);
  }
  return failures;
}
