/**
 * The cross-store agreement sequence of docs/spec/store-contract.md §1.7: one sequence of writes, the same outcome
 * from every store.
 */

const SUBJECTS = ['server01', 'srv-1'];

function source(id: string, lineage: string, origin = 'tool') {
  return {
    source_id: id,
    lineage_id: lineage,
    origin_type: origin,
    origin_locator: `loc:${id}`,
    snapshot_id: `snap:${id}`,
    content_hash: `sha256:${id}`,
    observed_at: '2026-09-01T00:00:00+00:00',
    extractor_id: null,
    parent_source_id: null,
  };
}

const WINRM = source('winrm', 'L-winrm');

const A1 = {
  assertion_id: 'a1',
  proposition_id: 'P-win',
  text: 'WinRM is enabled on server01',
  asserted_by: 'agent',
  assertion_confidence: 0.9,
  source: WINRM,
  asserted_at: '2026-09-01T00:00:00+00:00',
};

const E1 = {
  evidence_id: 'e1',
  proposition_id: 'P-win',
  polarity: 'supports',
  source: WINRM,
  content: 'winrm quickconfig: service running',
  observed_at: '2026-09-01T00:00:00+00:00',
};

const K1 = {
  check_id: 'k1',
  method: 'tool_run',
  scope: 'winrm service state',
  source: WINRM,
  observed_at: '2026-09-01T00:00:00+00:00',
  result: 'supports',
  subjects: [...SUBJECTS],
};

/** The base view: a verified tool view for `P-win`. */
export function baseView(viewId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    proposition_id: 'P-win',
    view_id: viewId,
    assertions: [A1],
    evidence: [E1],
    checks: [K1],
    conflicts: [],
    lineage: [],
    subjects: [...SUBJECTS],
    ...overrides,
  };
}

const E2 = { ...E1, evidence_id: 'e2', content: 'port 5985 open' };

export interface AgreementStep {
  step: number;
  write: string;
  view: Record<string, unknown>;
  outcome: 'stored' | 'unchanged' | 'refused';
}

/** The eleven steps, in order. */
export function agreementSteps(): AgreementStep[] {
  return [
    { step: 1, write: 'v1: the base view', view: baseView('v1'), outcome: 'stored' },
    {
      step: 2,
      write: 'v2: check k1 now has result opposes',
      view: baseView('v2', { checks: [{ ...K1, result: 'opposes' }] }),
      outcome: 'refused',
    },
    { step: 3, write: 'v3: adds evidence e2, keeps a1', view: baseView('v3', { evidence: [E1, E2] }), outcome: 'stored' },
    {
      step: 4,
      write: 'v4: evidence e3 whose source winrm has another lineage_id',
      // Only e3 carries winrm here, so the view itself is valid (docs/spec/protocol.md §4.6, rule I5) and the ledger must refuse it.
      view: baseView('v4', { assertions: [], checks: [], evidence: [{ ...E1, evidence_id: 'e3', source: { ...WINRM, lineage_id: 'L-other' } }] }),
      outcome: 'refused',
    },
    {
      step: 5,
      write: 'v5: adds conflict c1 open, participants [P-win]',
      view: baseView('v5', { evidence: [E1, E2], conflicts: [{ conflict_id: 'c1', proposition_ids: ['P-win'], status: 'open', note: '' }] }),
      outcome: 'stored',
    },
    {
      step: 6,
      write: 'v6: c1 with participants [P-win, P-x]',
      view: baseView('v6', { evidence: [E1, E2], conflicts: [{ conflict_id: 'c1', proposition_ids: ['P-win', 'P-x'], status: 'open', note: '' }] }),
      outcome: 'refused',
    },
    {
      step: 7,
      write: 'v7: c1 resolved, participants [P-win]',
      view: baseView('v7', { evidence: [E1, E2], conflicts: [{ conflict_id: 'c1', proposition_ids: ['P-win'], status: 'resolved', note: 'checked' }] }),
      outcome: 'stored',
    },
    { step: 8, write: "v8: v3's content with evidence in reverse order", view: baseView('v8', { evidence: [E2, E1] }), outcome: 'stored' },
    {
      step: 9,
      write: 'v9: view and check subjects in reverse order',
      view: baseView('v9', { subjects: [...SUBJECTS].reverse(), checks: [{ ...K1, subjects: [...SUBJECTS].reverse() }] }),
      outcome: 'stored',
    },
    { step: 10, write: 'v1 again, identical', view: baseView('v1'), outcome: 'unchanged' },
    { step: 11, write: 'v1 again with degraded: true', view: baseView('v1', { degraded: true }), outcome: 'refused' },
  ];
}

export const AGREEMENT_SOURCE = WINRM;
export const AGREEMENT_E2 = E2;
