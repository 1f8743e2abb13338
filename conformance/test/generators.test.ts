/**
 * The generators' own contract: every generated view is accepted by both the oracle and
 * @ewp/core's decodeView, is plain JSON-safe data, and the raw-text cases read back.
 */
import { decodeView, decodeViewJson } from '@ewp/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryCase, arbitraryJsonTextCase, arbitraryView, formatInstant, viewToJsonText } from '../src/generators/index.js';
import { evaluateView, readInstant, readJsonText } from '../src/oracle/index.js';

describe('generators', () => {
  it('arbitraryView yields plain JSON-safe views that the oracle and core both accept', () => {
    let reprOrRefused = 0;
    fc.assert(
      fc.property(arbitraryView(), (view) => {
        const text = viewToJsonText(view);
        expect(JSON.parse(text)).toStrictEqual(view);
        const out = evaluateView(text, '2026-09-21T21:00:00Z');
        if (!out.ok && out.errorClass === 'InvalidEvidenceView') reprOrRefused++;
        expect(() => decodeView(structuredClone(view))).not.toThrow();
        expect(() => decodeViewJson(text)).not.toThrow();
      }),
      { numRuns: 500, seed: 7 },
    );
    expect(reprOrRefused).toBe(0);
  });

  it('formatInstant spellings all denote the instant they were written from', () => {
    const us = Date.UTC(2026, 8, 21, 21, 0, 0) * 1000 + 123;
    for (const style of ['Z', '+00:00', '-00:00', '+05:30', '-08:00', 'space', 'naive', 'compact', 'micro', 'week', 'comma', 'padded'] as const) {
      const r = readInstant(formatInstant(us, style));
      expect(typeof r === 'string' ? r : r.us, style).toBe(BigInt(us));
    }
  });

  it('arbitraryCase covers every outcome class and every axis value', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(arbitraryCase(), ({ view, evaluatedAt }) => {
        const out = evaluateView(viewToJsonText(view), evaluatedAt);
        if (!out.ok) seen.add(out.errorClass);
        else {
          const w = out.warrant.warrant as Record<string, string>;
          for (const axis of ['acceptance', 'conflict', 'verification', 'currency', 'sufficiency']) seen.add(`${axis}=${w[axis]}`);
        }
      }),
      { numRuns: 3000, seed: 11 },
    );
    const want = [
      'ValueError',
      'OverflowError',
      ...['UNACCEPTED', 'TENTATIVE', 'ACCEPTED'].map((x) => `acceptance=${x}`),
      ...['NONE', 'OPEN', 'RESOLVED'].map((x) => `conflict=${x}`),
      ...['NONE', 'INDIRECT', 'EXTERNAL', 'HUMAN'].map((x) => `verification=${x}`),
      ...['CURRENT', 'STALE', 'SUPERSEDED'].map((x) => `currency=${x}`),
      ...['SUFFICIENT', 'INSUFFICIENT', 'DEGRADED'].map((x) => `sufficiency=${x}`),
    ];
    expect(want.filter((x) => !seen.has(x))).toEqual([]);
  });

  it('arbitraryJsonTextCase texts are Python-JSON readable', () => {
    fc.assert(
      fc.property(arbitraryJsonTextCase(), (c) => {
        expect(() => readJsonText(c.text)).not.toThrow();
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});
