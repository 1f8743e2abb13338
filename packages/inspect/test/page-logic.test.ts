/**
 * The page's pure logic in Node: rationale words cover every code the kernel emits, the gate's
 * "what would change it" is found through the real rules, the lineage graph, snapshot diffs.
 */
import { readFileSync } from 'node:fs';
import { decodeView, type EvidenceView, gateRuleFor, mayAct, REFERENCE_V2, warrantNow } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { toWireView } from '../src/index.js';
import { fromWireView } from '../web/src/api.js';
import { diffSnapshots } from '../web/src/diff.js';
import { explainCode, RATIONALE_MEANINGS } from '../web/src/explain.js';
import { axesReadBy, gateCells, interventionsFor, searchRoutes } from '../web/src/gate.js';
import { lineageGraph } from '../web/src/graph.js';
import { isoOf, keyInstants, nextEvent, previousEvent } from '../web/src/time.js';
import { packFixture, quickstartViews } from './ledgers.js';

const quickstart = (id: string) => decodeView(quickstartViews().find((v) => (v as { proposition_id: string }).proposition_id === id));

describe('rationale codes in words', () => {
  it('explains every code warrantNow can emit', () => {
    // The codes as written in the kernel: literal ones, and verification.<class> for each class.
    const source = readFileSync(new URL('../../core/src/evaluate/warrant-now.ts', import.meta.url), 'utf8');
    const literal = [...source.matchAll(/'((?:availability|conflict|verification|currency|sufficiency|acceptance)\.[a-z_]+)'/g)].map((m) => m[1] as string);
    const classes = ['none', 'indirect', 'external', 'human'].map((c) => `verification.${c}`);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the kernel's source text, searched for
    expect(source).toContain('`verification.${verification.toLowerCase()}`');
    const emitted = new Set([...literal, ...classes]);
    expect(emitted.size).toBeGreaterThan(15);
    expect([...emitted].filter((code) => RATIONALE_MEANINGS[code] === undefined)).toEqual([]);
  });

  it('names the records behind a code', () => {
    const view = quickstart('P-prod-db-version');
    const w = warrantNow(view, REFERENCE_V2, '2026-09-23T12:00:00Z');
    expect(w.warrant.rationale_codes).toContain('conflict.implied_polarity');
    expect(explainCode('conflict.implied_polarity', w, view, w.evaluated_at)).toContain('k-psql-version opposes');
  });
});

describe('the gate table', () => {
  const at = '2027-10-01T00:00:00Z';
  const view = quickstart('P-deploys-from-main');
  const w = warrantNow(view, REFERENCE_V2, at);

  it('decides each cell with mayAct and names the rule', () => {
    expect(w.warrant.currency).toBe('STALE');
    const cells = gateCells(w, {});
    expect(cells).toHaveLength(6);
    for (const c of cells) {
      const action = { action_id: 'x', kind: 'x', risk: c.risk, reversible: c.reversible };
      expect(c.decision).toBe(mayAct(w, action));
      expect(c.rule).toBe(gateRuleFor(w, action));
    }
  });

  it('finds what would lift each blocked cell by evaluating counterfactual evidence', () => {
    const cells = searchRoutes(view, w, at, {}, gateCells(w, {}));
    const high = cells.find((c) => c.risk === 'high' && !c.reversible);
    expect(high?.decision).toBe('DENY');
    // One fresh external check from a trusted origin is enough, and is the smallest route.
    expect(high?.routes.some((r) => r.reaches === 'MAY_ACT' && r.steps.map((s) => s.id).join() === 'external-check')).toBe(true);
    // Each route, applied, really reaches its decision.
    const interventions = interventionsFor(view, w, at);
    for (const cell of cells) {
      for (const route of cell.routes) {
        let changed: EvidenceView = view;
        for (const step of route.steps) changed = (interventions.find((i) => i.id === step.id) ?? step).apply(changed);
        expect(mayAct(warrantNow(changed, REFERENCE_V2, at), { action_id: 'x', kind: 'x', risk: cell.risk, reversible: cell.reversible })).toBe(route.reaches);
      }
    }
  });

  it('offers resolving an open conflict, and no route where the rules allow none', () => {
    const fork = decodeView(packFixture('02-fork-x'));
    const at2 = '2026-10-01T00:00:00Z';
    const wf = warrantNow(fork, REFERENCE_V2, at2);
    const cells = searchRoutes(fork, wf, at2, {}, gateCells(wf, {}));
    const labels = cells.flatMap((c) => c.routes.flatMap((r) => r.steps.map((s) => s.label)));
    if (wf.open_conflicts.length > 0) expect(labels.some((l) => l.startsWith('resolve conflict'))).toBe(true);
    const superseded = decodeView(packFixture('08-superseded'));
    const ws = warrantNow(superseded, REFERENCE_V2, at2);
    expect(ws.warrant.currency).toBe('SUPERSEDED');
    const highCell = searchRoutes(superseded, ws, at2, {}, gateCells(ws, {})).find((c) => c.risk === 'high');
    expect(highCell?.decision).toBe('DENY');
    // A supersession is permanent under the rules: nothing lifts a high-risk action on it.
    expect(highCell?.routes).toEqual([]);
  });
});

describe('what would change it, for every proposition of the quick start and the pack', () => {
  const manifest = (
    JSON.parse(readFileSync(new URL('../../../conformance/pack/manifest.json', import.meta.url), 'utf8')) as {
      name: string;
      view: string;
      evaluated_at: string;
    }[]
  ).filter((m) => m.view === `fixtures/${m.name}.json`);
  const cases: [string, EvidenceView, string][] = [
    ...quickstartViews().map((raw): [string, EvidenceView, string] => {
      const view = decodeView(raw);
      return [`quickstart ${view.proposition_id}`, view, '2026-09-23T12:00:00Z'];
    }),
    ...manifest.map((m): [string, EvidenceView, string] => [`pack ${m.name}`, decodeView(packFixture(m.name)), m.evaluated_at]),
  ];

  it.each(cases)('%s: every blocked cell has a route that really reaches its decision, or a reason naming the rule', (_name, view, at) => {
    const w = warrantNow(view, REFERENCE_V2, at);
    const interventions = interventionsFor(view, w, at);
    for (const cell of searchRoutes(view, w, at, {}, gateCells(w, {}))) {
      if (cell.decision === 'MAY_ACT') continue;
      const action = { action_id: 'x', kind: 'x', risk: cell.risk, reversible: cell.reversible };
      if (cell.routes.length === 0) {
        expect(cell.why).toContain(`rule ${cell.rule.id} reads`);
        continue;
      }
      for (const route of cell.routes) {
        let changed: EvidenceView = view;
        for (const step of route.steps) changed = (interventions.find((i) => i.id === step.id) as (typeof interventions)[number]).apply(changed);
        expect(mayAct(warrantNow(changed, REFERENCE_V2, at), action)).toBe(route.reaches);
      }
    }
  });

  it('lifts the open conflict of P-prod-db-version at every risk, naming the records to withdraw', () => {
    const view = quickstart('P-prod-db-version');
    const at = '2026-09-23T12:00:00Z';
    const w = warrantNow(view, REFERENCE_V2, at);
    const cells = searchRoutes(view, w, at, {}, gateCells(w, {}));
    for (const cell of cells) expect(cell.decision === 'MAY_ACT' || cell.routes.length > 0, `${cell.risk} ${cell.reversible}`).toBe(true);
    const low = cells.find((c) => c.risk === 'low' && c.reversible);
    // The implied conflict is the turn's supporting evidence against the psql check: withdrawing the
    // recalled evidence (if it was wrong) lifts a low-risk action.
    expect(low?.routes.some((r) => r.reaches === 'MAY_ACT' && r.steps.map((s) => s.id).join() === 'withdraw:evidence:e-memory')).toBe(true);
    // A high-risk action needs the opposing external check gone and an independent supporting one.
    const high = cells.find((c) => c.risk === 'high' && !c.reversible);
    expect(high?.routes.some((r) => r.steps.some((s) => s.id === 'withdraw:check:k-psql-version'))).toBe(true);
  });

  it('says why a supersession cannot be lifted, from the rule the kernel applied', () => {
    const view = decodeView(packFixture('08-superseded'));
    const at = '2026-10-01T00:00:00Z';
    const w = warrantNow(view, REFERENCE_V2, at);
    const high = searchRoutes(view, w, at, {}, gateCells(w, {})).find((c) => c.risk === 'high');
    expect(high?.routes).toEqual([]);
    expect(high?.why).toContain('rule high.superseded reads currency');
    expect(high?.why).toContain('Superseded by');
    expect(high?.why).toContain('A supersession is permanent');
  });

  it('finds the axes a rule reads by asking the rule', () => {
    const w = warrantNow(quickstart('P-prod-db-version'), REFERENCE_V2, '2026-09-23T12:00:00Z');
    const rule = gateRuleFor(w, { action_id: 'x', kind: 'x', risk: 'high', reversible: false });
    expect(rule.id).toBe('high.requires_accepted');
    expect(axesReadBy(rule, w, { risk: 'high', reversible: false }, {})).toEqual(['acceptance']);
  });
});

describe('lineage graph and snapshots', () => {
  it('draws every record of a fixture, its sources and lineage edges', () => {
    const view = decodeView(packFixture('07-lineage'));
    const g = lineageGraph(view, {});
    expect(g.nodes.filter((n) => n.record !== undefined)).toHaveLength(view.assertions.length + view.evidence.length + view.checks.length);
    expect(g.edges.filter((e) => e.kind === 'lineage')).toHaveLength(view.lineage.length);
    for (const n of g.nodes) expect(Number.isFinite(n.x) && Number.isFinite(n.y)).toBe(true);
  });

  it('diffs two snapshots by record id', () => {
    const a = quickstart('P-deploys-from-main');
    const b: EvidenceView = { ...a, view_id: 'b', checks: a.checks.slice(1), omitted_sources: ['s-9'] };
    const diff = diffSnapshots(a, b);
    expect(diff.find((d) => d.part === 'checks')?.removed).toEqual([a.checks[0]?.check_id]);
    expect(diff.find((d) => d.part === 'omitted_sources')?.added).toEqual(['s-9']);
    expect(diffSnapshots(a, a)).toEqual([]);
  });

  it('marks the moment each check leaves its freshness window', () => {
    const view = quickstart('P-deploys-from-main');
    const leaves = keyInstants(view).filter((k) => k.label.includes('leaves its freshness window'));
    expect(leaves).toHaveLength(view.checks.length);
    for (const k of leaves) {
      const before = new Date((k.seconds - 1) * 1000).toISOString();
      const after = new Date(k.seconds * 1000).toISOString();
      expect(warrantNow(view, REFERENCE_V2, before).warrant.currency).toBe('CURRENT');
      expect(warrantNow(view, REFERENCE_V2, after).warrant.currency).toBe('STALE');
    }
  });
});

describe('next and previous events follow the warrant pieces', () => {
  const sameWarrant = (view: EvidenceView, a: number, b: number) => {
    const at = (s: number) => JSON.stringify({ ...warrantNow(view, REFERENCE_V2, isoOf(s)), evaluated_at: '' });
    return at(a) === at(b);
  };
  it('steps to each change of the warrant and back', () => {
    for (const raw of quickstartViews()) {
      const view = decodeView(raw);
      let t = Math.floor(Date.parse('2020-01-01T00:00:00Z') / 1000);
      let steps = 0;
      for (let next = nextEvent(view, t); next !== undefined; next = nextEvent(view, t)) {
        expect(next.seconds).toBeGreaterThan(t);
        // Nothing changes before the next event; the one before it starts where we came from or later.
        expect(sameWarrant(view, t, next.seconds - 1)).toBe(true);
        expect(previousEvent(view, next.seconds)?.seconds ?? Number.NEGATIVE_INFINITY).toBeLessThanOrEqual(t);
        t = next.seconds;
        steps += 1;
      }
      expect(steps).toBeGreaterThan(0);
      expect(steps).toBeLessThanOrEqual(2 * (view.assertions.length + view.evidence.length + view.checks.length));
    }
  });
});

describe('the wire form of a snapshot', () => {
  it('sends each source once and gives back the same view', () => {
    for (const name of ['07-lineage', '01-reinforcement', '08-superseded']) {
      const view = decodeView(packFixture(name));
      const wire = toWireView(view);
      expect(Object.keys(wire.sources).length).toBeLessThanOrEqual(view.assertions.length + view.evidence.length + view.checks.length);
      expect(JSON.parse(JSON.stringify(fromWireView(JSON.parse(JSON.stringify(wire)))))).toEqual(JSON.parse(JSON.stringify(view)));
    }
  });
});
