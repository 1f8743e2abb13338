import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claimTexts, COMMITTED_SCENARIOS, decodeScenarios, FAMILIES, generateScenarios, scenariosJsonl } from '../src/index.js';

describe('scenario generator', () => {
  const set = generateScenarios();

  it('is deterministic, and the seed matters', () => {
    expect(scenariosJsonl(generateScenarios({ seed: 37 }))).toBe(scenariosJsonl(set));
    expect(scenariosJsonl(generateScenarios({ seed: 38 }))).not.toBe(scenariosJsonl(set));
  });

  it('wrote the committed set (node scripts/generate.mjs)', () => {
    expect(readFileSync(COMMITTED_SCENARIOS, 'utf8')).toBe(scenariosJsonl(set));
  });

  it("gives every scenario in the decoder's format", () => {
    expect(decodeScenarios(scenariosJsonl(set))).toEqual(set);
  });

  it('has at least 300 scenarios in at least 10 families, about half of them truth act, each with its why', () => {
    expect(set.length).toBeGreaterThanOrEqual(300);
    const families = new Set(set.map((s) => s.family));
    expect(families.size).toBeGreaterThanOrEqual(10);
    expect([...families]).toEqual([...FAMILIES]);
    const act = set.filter((s) => s.truth === 'act').length / set.length;
    expect(act).toBeGreaterThan(0.4);
    expect(act).toBeLessThan(0.6);
    for (const s of set) expect(s.why.length).toBeGreaterThan(10);
  });

  it('acts on a distinct proposition in every scenario, with varied wording and tools in each family', () => {
    const acted = set.map((s) => claimTexts(s).get(s.act.claim));
    expect(new Set(acted).size).toBe(set.length);
    for (const f of FAMILIES) {
      const of = set.filter((s) => s.family === f);
      // Several sentence templates: the acted claims do not share one shape (their first two words).
      const shapes = new Set(of.map((s) => claimTexts(s).get(s.act.claim)!.split(' ').slice(0, 2).join(' ')));
      expect(shapes.size, f).toBeGreaterThanOrEqual(3);
      expect(new Set(of.map((s) => s.act.tool)).size, f).toBeGreaterThanOrEqual(3);
      expect(new Set(of.map((s) => s.act.risk)).size, f).toBeGreaterThanOrEqual(2);
    }
  });

  it('keeps traps and controls in every family that has traps', () => {
    for (const f of FAMILIES) {
      const truths = new Set(set.filter((s) => s.family === f).map((s) => s.truth));
      expect(truths.has('act'), f).toBe(true);
    }
    expect(FAMILIES.filter((f) => set.some((s) => s.family === f && s.truth === 'hold')).length).toBeGreaterThanOrEqual(10);
  });
});
