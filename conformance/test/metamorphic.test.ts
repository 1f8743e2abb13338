/**
 * Metamorphic properties of reference-v2, checked on @ewp/core (plain-object path) and on the
 * oracle: record order never matters to the normative axes; adapter_meta never matters at all;
 * a same-source duplicate under a new id changes no axis; a degraded view is never ACCEPTED.
 */
import { decodeView, normalizeWarrantView, REFERENCE_V2, warrantNow } from '@ewp/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANCHORS_MS, arbitraryCase, arbitraryView, formatInstant, type GeneratedCase, type GeneratedView, type PlainJson } from '../src/generators/index.js';
import { evaluateViewValue, fromPlain } from '../src/oracle/index.js';
import { sortedJson } from './core-outcome.js';

const RUNS = Math.max(100, Math.floor(Number(process.env.EWP_FUZZ_RUNS ?? 10_000) / 20));
const ARRAYS = ['assertions', 'evidence', 'lineage', 'conflicts', 'checks'] as const;
const SOURCED = [
  ['assertions', 'assertion_id'],
  ['evidence', 'evidence_id'],
  ['checks', 'check_id'],
] as const;

type Evaluator = (view: GeneratedView, T: string) => Record<string, unknown> | string;

/** Normalized WarrantView, or the name of the refusal. */
const viaCore: Evaluator = (view, T) => {
  try {
    return JSON.parse(JSON.stringify(normalizeWarrantView(warrantNow(decodeView(structuredClone(view)), REFERENCE_V2, T))));
  } catch (err) {
    return (err as Error).name;
  }
};

const viaOracle: Evaluator = (view, T) => {
  const out = evaluateViewValue(fromPlain(view), T);
  return out.ok ? out.warrant : out.errorClass;
};

/** The normative part (docs/spec/protocol.md §7.1): identity fields and the five axes; or the refusal. */
function normative(w: Record<string, unknown> | string): string {
  if (typeof w === 'string') return w;
  const axes = w.warrant as Record<string, unknown>;
  return sortedJson({
    protocol_version: w.protocol_version,
    proposition_id: w.proposition_id,
    view_id: w.view_id,
    policy_id: w.policy_id,
    policy_version: w.policy_version,
    evaluated_at: w.evaluated_at,
    axes: [axes.acceptance, axes.conflict, axes.verification, axes.currency, axes.sufficiency],
  });
}

function records(view: GeneratedView, key: string): PlainJson[] {
  const v = view[key];
  return Array.isArray(v) ? v : [];
}

/** A case plus a permutation of each of its five record arrays. */
const shuffledCase = arbitraryCase().chain((c) =>
  fc
    .tuple(
      ...ARRAYS.map((k) => {
        const xs = records(c.view, k);
        return fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length });
      }),
    )
    .map((perms) => {
      const view: GeneratedView = { ...c.view };
      ARRAYS.forEach((k, i) => {
        if (Array.isArray(c.view[k])) view[k] = perms[i] as PlainJson[];
      });
      return { original: c, shuffled: { view, evaluatedAt: c.evaluatedAt } as GeneratedCase };
    }),
);

describe.each([
  ['@ewp/core', viaCore],
  ['oracle', viaOracle],
] as const)('metamorphic properties (%s)', (_name, evaluate) => {
  it('reordering any record array never changes the normative part', () => {
    fc.assert(
      fc.property(shuffledCase, ({ original, shuffled }) => {
        expect(normative(evaluate(shuffled.view, shuffled.evaluatedAt))).toBe(normative(evaluate(original.view, original.evaluatedAt)));
      }),
      { numRuns: RUNS },
    );
  });

  it('adding retrieval scores and store confidences to adapter_meta changes nothing in the WarrantView', () => {
    const meta = fc.record({
      retrieval_score: fc.double({ noNaN: true, noDefaultInfinity: true }),
      store_confidence: fc.double({ min: 0, max: 1, noNaN: true }),
      scores: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
      rank: fc.nat(),
    });
    fc.assert(
      fc.property(arbitraryCase(), meta, ({ view, evaluatedAt }, extra) => {
        const before = evaluate(view, evaluatedAt);
        const prior = view.adapter_meta;
        const base = prior !== null && typeof prior === 'object' && !Array.isArray(prior) ? prior : {};
        const after = evaluate({ ...view, adapter_meta: JSON.parse(JSON.stringify({ ...base, ...extra })) }, evaluatedAt);
        expect(sortedJson(after)).toBe(sortedJson(before));
      }),
      { numRuns: RUNS },
    );
  });

  it('duplicating a sourced record under a new id (same source, same lineage) never changes the axes', () => {
    const withDuplicate = arbitraryCase()
      .filter((c) => SOURCED.some(([k]) => records(c.view, k).length > 0))
      .chain((c) => {
        const kinds = SOURCED.filter(([k]) => records(c.view, k).length > 0);
        return fc.constantFrom(...kinds).chain(([kind, idField]) =>
          fc.nat({ max: records(c.view, kind).length - 1 }).map((i) => {
            const list = records(c.view, kind) as Array<{ [k: string]: PlainJson }>;
            const taken = new Set(list.map((r) => String(r[idField])));
            let id = `${String((list[i] as { [k: string]: PlainJson })[idField])}~dup`;
            while (taken.has(id)) id += '~';
            const copy = { ...(list[i] as { [k: string]: PlainJson }), [idField]: id };
            return { c, view: { ...c.view, [kind]: [...list, copy] } as GeneratedView };
          }),
        );
      });
    fc.assert(
      fc.property(withDuplicate, ({ c, view }) => {
        const before = evaluate(c.view, c.evaluatedAt);
        const after = evaluate(view, c.evaluatedAt);
        // view_id may be derived from content, so compare everything normative except it.
        const strip = (w: Record<string, unknown> | string) => (typeof w === 'string' ? w : normative({ ...w, view_id: '' }));
        expect(strip(after)).toBe(strip(before));
      }),
      { numRuns: RUNS },
    );
  });

  it('spelling T differently (same instant) changes nothing but the echoed evaluated_at', () => {
    const styles = ['Z', '+00:00', '-00:00', '+05:30', '-08:00', 'space', 'naive', 'compact', 'micro', 'week', 'comma', 'padded'] as const;
    fc.assert(
      fc.property(
        arbitraryView(),
        fc.constantFrom(...ANCHORS_MS),
        fc.integer({ min: -2_000_000, max: 2_000_000 }),
        fc.constantFrom(...styles),
        fc.constantFrom(...styles),
        (view, anchor, delta, s1, s2) => {
          const us = anchor * 1000 + delta;
          const a = evaluate(view, formatInstant(us, s1));
          const b = evaluate(view, formatInstant(us, s2));
          const strip = (w: Record<string, unknown> | string) => (typeof w === 'string' ? w : sortedJson({ ...w, evaluated_at: '' }));
          expect(strip(b)).toBe(strip(a));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('removing a record while setting degraded=true never yields ACCEPTED', () => {
    const removed = arbitraryCase().chain((c) => {
      const kinds = ARRAYS.filter((k) => records(c.view, k).length > 0);
      if (kinds.length === 0) return fc.constant({ c, view: { ...c.view, degraded: true } as GeneratedView });
      return fc.constantFrom(...kinds).chain((kind) =>
        fc.nat({ max: records(c.view, kind).length - 1 }).map((i) => {
          const list = [...records(c.view, kind)];
          list.splice(i, 1);
          return { c, view: { ...c.view, [kind]: list, degraded: true } as GeneratedView };
        }),
      );
    });
    fc.assert(
      fc.property(removed, ({ c, view }) => {
        const w = evaluate(view, c.evaluatedAt);
        if (typeof w !== 'string') {
          const axes = w.warrant as Record<string, string>;
          expect(axes.acceptance).not.toBe('ACCEPTED');
          expect(axes.sufficiency).toBe('DEGRADED');
        }
      }),
      { numRuns: RUNS },
    );
  });
});
