/**
 * KNOWN CORE DISAGREEMENTS — the expected-failures list of the oracle/core comparison.
 *
 * Each entry is a minimal input on which @ewp/core and the oracle (and Python, checked by hand
 * with python3) disagree, with the reason the oracle is right. Open entries use `it.fails`: they
 * pass while core is wrong and FAIL once core is fixed, so the entry must then become a plain
 * regression test (entries 1 and 2 are fixed and kept that way). Do not "fix" an entry by
 * changing the oracle.
 */
import { compareCodePoints, decodeView, EwpError, mayAct, type WarrantView } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { compareCodePoints as oracleCompare, evaluateView } from '../src/oracle/index.js';
import { coreOutcome } from './core-outcome.js';

// docs/spec/protocol.md §11.3: Python orders strings by code point; a lone surrogate is the code point
// U+D800–U+DFFF. Python: sorted(['\U00010000', '\ud800\U0001F600']) == ['\ud800\U0001F600', '\U00010000'].
// A UTF-16 comparison that maps surrogate units above U+FFFF misorders a lone high surrogate
// followed by an astral character (its next unit is another high surrogate).
const LONE_THEN_ASTRAL = '\ud800\u{1F600}';
const ASTRAL = '\u{10000}';

describe('known disagreement 1: code point order with a lone high surrogate before an astral character', () => {
  it('the oracle orders like Python', () => {
    expect(oracleCompare(LONE_THEN_ASTRAL, ASTRAL)).toBeLessThan(0);
  });

  it('@ewp/core compareCodePoints orders like Python (fixed; regression test)', () => {
    expect(compareCodePoints(LONE_THEN_ASTRAL, ASTRAL)).toBeLessThan(0);
  });

  const src = { source_id: 's', lineage_id: 'L', origin_type: 'tool', origin_locator: 'l', snapshot_id: 'n', content_hash: 'h', observed_at: 'o' };
  const ev = (id: string) => ({ evidence_id: id, polarity: 'supports', source: src, content: 'c', observed_at: '2026-01-01T00:00:00Z' });
  // No view_id: the derived id (a normative field here) depends on the record sort (docs/spec/protocol.md §8).
  const text = JSON.stringify({ proposition_id: 'P', evidence: [ev(LONE_THEN_ASTRAL), ev(ASTRAL)] });
  const T = '2026-09-21T21:00:00Z';

  it('the oracle sorts supporting_evidence_ids like Python and derives its id from that order', () => {
    const out = evaluateView(text, T);
    expect(out.ok && out.warrant.supporting_evidence_ids).toEqual([LONE_THEN_ASTRAL, ASTRAL]);
  });

  it('@ewp/core gives the same WarrantView (derived view_id and id order) (fixed; regression test)', () => {
    const oracle = evaluateView(text, T);
    const core = coreOutcome(text, T);
    expect(core.ok && core.warrant).toEqual(oracle.ok && oracle.warrant);
  });
});

// Python 3.12's int-from-string limit (sys.get_int_max_str_digits() == 4300 by default) makes
// `json.loads` raise ValueError on an integer token of more than 4300 digits, so the reference
// refuses such a view (its harness prints HarnessError for the line). Checked with python3:
// json.loads('1' * 4301) raises "Exceeds the limit (4300 digits) for integer string conversion".
// docs/spec/protocol.md §3.1 only says "integer of unlimited size", so this is a spec gap as much as a core bug.
describe('known disagreement 2: integer tokens of more than 4300 digits', () => {
  const text = `{"proposition_id": "P", "view_id": ${'1'.repeat(4301)}}`;
  const T = '2026-09-21T21:00:00Z';

  it('the oracle refuses, like Python json.loads', () => {
    expect(evaluateView(text, T)).toMatchObject({ ok: false, errorClass: 'InvalidEvidenceView' });
    expect(evaluateView(`{"proposition_id": "P", "view_id": ${'1'.repeat(4300)}}`, T).ok).toBe(true);
  });

  it('@ewp/core refuses too (fixed; regression test)', () => {
    expect(coreOutcome(text, T).ok).toBe(false);
  });
});

// Robustness of the plain-object entry point (adapters call decodeView with JS objects): a cyclic
// or extremely deep adapter_meta makes core's deep copy overflow the stack, so decodeView throws a
// RangeError instead of a typed refusal. Found by probing; the JSON text path cannot produce a
// cycle and caps nesting (JSON_SYNTAX "nesting too deep").
describe('known disagreement 3: decodeView crashes (RangeError) on cyclic or very deep adapter_meta', () => {
  const cyclic = (): unknown => {
    const meta: Record<string, unknown> = {};
    meta.self = meta;
    return { proposition_id: 'P', adapter_meta: meta };
  };
  const deep = (): unknown => {
    let meta: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) meta = { x: meta };
    return { proposition_id: 'P', adapter_meta: meta };
  };

  it('cyclic adapter_meta is refused with an EwpError (fixed; regression test)', () => {
    expect(() => decodeView(cyclic())).toThrow(EwpError);
  });

  it('100,000-deep adapter_meta is refused with an EwpError or accepted (fixed; regression test)', () => {
    let err: unknown;
    try {
      decodeView(deep());
    } catch (e) {
      err = e;
    }
    expect(err === undefined || err instanceof EwpError).toBe(true);
  });
});

// Not a disagreement with the reference (its mayAct takes a typed WarrantView, so the case cannot
// arise there) but with the project's bar "bad input gets a typed error": a warrant whose axes
// are missing or not members of their enums is gated as if it were fine — the gate fails OPEN.
// mayAct is the safety gate and warrants can arrive as JSON (MCP, CLI, stores).
describe('known disagreement 4: mayAct fails open on a warrant without valid axes', () => {
  const action = { action_id: 'a', kind: 'k', risk: 'high' as const, reversible: false };

  it('a warrant with no axes is refused with an EwpError, not MAY_ACT (fixed; regression test)', () => {
    expect(() => mayAct({} as WarrantView, action)).toThrow(EwpError);
  });

  it('an unknown acceptance value is refused, not MAY_ACT (fixed; regression test)', () => {
    const warrant = { warrant: { acceptance: 'MAYBE', conflict: 'NONE', currency: 'CURRENT', sufficiency: 'SUFFICIENT', verification: 'HUMAN' } };
    expect(() => mayAct(warrant as unknown as WarrantView, action)).toThrow(EwpError);
  });

  it('a null warrant is refused with an EwpError (fixed; regression test)', () => {
    expect(() => mayAct(null as unknown as WarrantView, action)).toThrow(EwpError);
  });
});
