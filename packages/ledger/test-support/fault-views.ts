/** Views and records for the store packages' fault tests (ledger, sqlite, postgres). */
import { testSource } from '@ewp/conformance';

export function source(id: string, origin = 'tool') {
  return testSource(id, { origin_type: origin });
}

export function evidenceRecord(id: string) {
  return {
    evidence_id: id,
    polarity: 'supports',
    source: source(`s-${id}`),
    content: `observation ${id}`,
    observed_at: '2026-09-01T00:00:00+00:00',
  };
}

export function seedView(propositionId: string) {
  return {
    proposition_id: propositionId,
    view_id: 'seed',
    assertions: [
      {
        assertion_id: 'a0',
        text: `claim ${propositionId}`,
        asserted_by: 'agent',
        assertion_confidence: 0.5,
        source: source('s0'),
        asserted_at: '2026-09-01T00:00:00+00:00',
      },
    ],
    evidence: [evidenceRecord('e0')],
  };
}

/** A view of `records` evidence items (half with a shared source). */
export function bigView(propositionId: string, records: number) {
  const evidence = [];
  for (let i = 0; i < records; i += 1) evidence.push(evidenceRecord(`e${i}`));
  return { proposition_id: propositionId, view_id: 'v1', evidence };
}
