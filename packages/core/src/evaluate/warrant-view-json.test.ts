import { describe, expect, it } from 'vitest';
import { REFERENCE_V2, type WarrantView } from '@ewp/spec';
import { normalizeWarrantView } from './normalize.js';
import { normalizedWarrantViewJson } from './warrant-view-json.js';
import { warrantNow } from './warrant-now.js';
import { decodeView } from '../decode/decode-view.js';

// Ids that JSON.stringify escapes, astral and lone surrogates (code point order differs from code unit order).
const IDS = ['e', 'a"b', 'back\\slash', 'nl\n', '\u0000', '\ud800', '\udc00x', '😀', '\uffff', 'é', 'z', 'E'];

function source(id: string) {
  return {
    source_id: `s-${id}`,
    lineage_id: `l-${id}`,
    origin_type: 'tool',
    origin_locator: 'loc',
    snapshot_id: 'snap',
    content_hash: 'h',
    observed_at: '2026-01-01T00:00:00Z',
  };
}

function view(seed: number) {
  const pick = (k: number) => IDS.filter((_, i) => (seed >> (i % 6)) & 1 || (i + k) % 4 === 0);
  return {
    proposition_id: `P${IDS[seed % IDS.length]}`,
    view_id: seed % 5 === 0 ? null : `v${IDS[(seed * 7) % IDS.length]}`,
    evidence: pick(1).map((id, i) => ({
      evidence_id: id,
      polarity: i % 3 === 0 ? 'opposes' : 'supports',
      source: source(id),
      content: 'c',
      observed_at: '2026-01-01T00:00:00Z',
    })),
    checks: pick(2).map((id, i) => ({
      check_id: `c${id}`,
      method: i % 2 ? 'human_review' : 'unit_test',
      scope: 'proposition',
      source: source(id),
      observed_at: '2026-01-02T00:00:00Z',
      result: ['supports', 'opposes', 'inconclusive'][i % 3],
    })),
    conflicts: pick(3).map((id, i) => ({ conflict_id: `f${id}`, proposition_ids: [`P${IDS[seed % IDS.length]}`], status: i % 2 ? 'open' : 'resolved' })),
    lineage: pick(0).map((id, i) => ({ from_id: `P${IDS[seed % IDS.length]}`, to_id: id, kind: ['derived_from', 'supersedes', 'superseded_by'][i % 3] })),
    omitted_sources: pick(4),
  };
}

describe('normalizedWarrantViewJson', () => {
  it('is JSON.stringify(normalizeWarrantView(w)) for warrants with escaped, astral and lone-surrogate ids', () => {
    for (let seed = 0; seed < 400; seed++) {
      const w = warrantNow(decodeView(view(seed)), REFERENCE_V2, seed % 2 ? '2026-01-03T00:00:00Z' : '2031-01-01T00:00:00+01:00');
      expect(normalizedWarrantViewJson(w)).toBe(JSON.stringify(normalizeWarrantView(w)));
    }
  });

  it('writes a non-finite number as JSON.stringify does (null)', () => {
    const w = warrantNow(decodeView(view(3)), REFERENCE_V2, '2026-01-03T00:00:00Z');
    const odd: WarrantView = { ...w, warrant: { ...w.warrant, strength: Number.NaN }, falsification_conditions: ['b', 'a"'] };
    expect(normalizedWarrantViewJson(odd)).toBe(JSON.stringify(normalizeWarrantView(odd)));
  });
});
