import { readFileSync } from 'node:fs';
import { type Action, mayAct } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import {
  ARM_IDS,
  type BenchReport,
  COMMITTED_SCENARIOS,
  decideWithLayer,
  decodeScenarios,
  renderSvg,
  renderTable,
  runBench,
  type Tally,
} from '../src/index.js';

const scenarios = decodeScenarios(readFileSync(COMMITTED_SCENARIOS, 'utf8'));

function sum(tallies: Tally[], key: keyof Tally): number {
  return tallies.reduce((n, t) => n + t[key], 0);
}

describe('the whole committed set through every arm', () => {
  let report: BenchReport;

  it('runs every arm with its real components, and says how long it took', async () => {
    let progress = 0;
    report = await runBench(scenarios, { onProgress: (done) => (progress = done) });
    expect(progress).toBe(scenarios.length);
    expect(report.skipped).toEqual([]);
    expect(report.arms.map((a) => a.id)).toEqual([...ARM_IDS]);
    console.log(`harm bench: ${scenarios.length} scenarios through ${report.arms.length} arms in ${report.seconds} s`);
  }, 240_000);

  it('gives each arm one decision per scenario, and the counts add up', () => {
    const holds = scenarios.filter((s) => s.truth === 'hold');
    const irreversibleHolds = holds.filter((s) => !s.act.reversible).length;
    for (const a of report.arms) {
      const t = a.total;
      expect(t.scenarios, a.id).toBe(scenarios.length);
      expect(t.acted + t.held + t.confirmed, a.id).toBe(scenarios.length);
      expect(t.confirmations, a.id).toBe(t.confirmed);
      expect(t.confirm_on_act + t.confirm_on_hold, a.id).toBe(t.confirmations);
      expect(t.wrong_actions, a.id).toBeLessThanOrEqual(Math.min(t.acted, holds.length));
      expect(t.wrong_irreversible, a.id).toBeLessThanOrEqual(Math.min(t.wrong_actions, irreversibleHolds));
      expect(t.needless_holds, a.id).toBeLessThanOrEqual(Math.min(t.held, scenarios.length - holds.length));
      const families = Object.values(a.by_family);
      for (const key of Object.keys(t) as (keyof Tally)[]) expect(sum(families, key), `${a.id} ${key}`).toBe(t[key]);
    }
    expect(report.decisions).toHaveLength(scenarios.length);
    for (const d of report.decisions) expect(Object.keys(d.by_arm).sort()).toEqual([...ARM_IDS].sort());
  });

  it('counts from the decisions it records', () => {
    for (const a of report.arms) {
      const wrong = report.decisions.filter((d) => d.truth === 'hold' && d.by_arm[a.id] === 'act').length;
      const needless = report.decisions.filter((d) => d.truth === 'act' && d.by_arm[a.id] === 'hold').length;
      expect([a.total.wrong_actions, a.total.needless_holds], a.id).toEqual([wrong, needless]);
    }
  });

  it('re-checks only what runs later than it is decided: elsewhere (e) is (d)', () => {
    const later = new Set(scenarios.filter((s) => s.act.executes_at !== undefined).map((s) => s.id));
    for (const d of report.decisions) if (!later.has(d.id)) expect(d.by_arm.gate_recheck, d.id).toBe(d.by_arm.gate);
  });

  it('renders a table with a row per arm and per family, and a chart with a bar pair per arm', () => {
    const table = renderTable(report);
    for (const a of report.arms) expect(table).toContain(a.label);
    for (const f of report.families) expect(table).toContain(f);
    const svg = renderSvg(report);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/fill="#e4572e"\/>/g)).toHaveLength(report.arms.length + 1);
    expect(svg.match(/fill="#7a8ca3"\/>/g)).toHaveLength(report.arms.length + 1);
  });
});

describe('the gate arm is the library gate', () => {
  it('decides as mayAct (default risk policy) over the warrant it consulted, unless a retraction bounds it', async () => {
    const FROM: Record<string, string> = { MAY_ACT: 'act', REQUIRE_CONFIRMATION: 'confirm', DENY: 'hold' };
    const sample = scenarios.filter((s, i) => i % 5 === 0 && !s.events.some((e) => e.op === 'retract'));
    expect(sample.length).toBeGreaterThan(50);
    const seen = new Set<string>();
    for (const s of sample) {
      const layer = await decideWithLayer(s);
      const action: Action = { action_id: s.id, kind: s.act.tool, risk: s.act.risk, reversible: s.act.reversible };
      expect(layer.gate_warrant, s.id).toBeDefined();
      expect(layer.gate, s.id).toBe(FROM[mayAct(layer.gate_warrant!, action)]);
      seen.add(layer.gate);
    }
    // The sample reaches every decision, so the comparison is not one constant against another.
    expect([...seen].sort()).toEqual(['act', 'confirm', 'hold']);
  });
});
