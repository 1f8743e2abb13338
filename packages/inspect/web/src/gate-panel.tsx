/** The "Gate" panel: mayAct for every risk and reversibility at T, the rule that decided, and what would change it. */
import type { EvidenceView, WarrantView } from '@ewp/core';
import { isLargeView } from './evaluation.js';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Meta } from './api.js';
import { DecisionBadge } from './badges.js';
import { type GateCell, gateCells, searchRoutes } from './gate.js';

export function GatePanel({ view, w, at, meta }: { view: EvidenceView; w: WarrantView; at: string; meta: Meta }) {
  const base = useMemo(() => gateCells(w, meta.risk_policy), [w, meta.risk_policy]);
  const [cells, setCells] = useState<GateCell[] | undefined>(undefined);
  const large = isLargeView(view);
  const [asked, setAsked] = useState(false);
  // The search evaluates many counterfactual views; it runs after the table is drawn, and on a
  // large view only when asked.
  useEffect(() => {
    setCells(undefined);
    if (large && !asked) return;
    const timer = setTimeout(() => setCells(searchRoutes(view, w, at, meta.risk_policy, base)), 30);
    return () => clearTimeout(timer);
  }, [view, w, at, meta.risk_policy, base, large, asked]);
  const shown = cells ?? base;
  const flags = meta.risk_policy;
  return (
    <div>
      <h2>May the agent act?</h2>
      <p class="muted">
        mayAct at T under the risk policy (high_requires_accepted {String(flags.high_requires_accepted ?? true)}, high_requires_no_open_conflict{' '}
        {String(flags.high_requires_no_open_conflict ?? true)}). "Would change it" is found by applying each change to the evidence and evaluating the result
        with the same rules.
      </p>
      <table class="gate" data-testid="gate-table">
        <caption class="visually-hidden">Gate decision for each risk and reversibility</caption>
        <thead>
          <tr>
            <th scope="col">risk</th>
            <th scope="col">reversible</th>
            <th scope="col">decision</th>
            <th scope="col">rule that decided</th>
            <th scope="col">what would change it</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((cell) => (
            <tr key={`${cell.risk}-${cell.reversible}`} data-risk={cell.risk} data-reversible={String(cell.reversible)}>
              <th scope="row">{cell.risk}</th>
              <td>{cell.reversible ? 'reversible' : 'irreversible'}</td>
              <td>
                <DecisionBadge decision={cell.decision} />
              </td>
              <td>
                <code>{cell.rule.id}</code>: {cell.rule.says}
              </td>
              <td>
                {cell.decision === 'MAY_ACT' ? (
                  '—'
                ) : cells === undefined && large && !asked ? (
                  <button type="button" onClick={() => setAsked(true)}>
                    Find what would change it
                  </button>
                ) : cells === undefined ? (
                  <span class="muted">searching…</span>
                ) : cell.routes.length === 0 ? (
                  <span data-testid="gate-why">{cell.why}</span>
                ) : (
                  <ul>
                    {cell.routes.map((r) => (
                      <li key={r.steps.map((s) => s.id).join('+')}>
                        <DecisionBadge decision={r.reaches} /> with {r.steps.map((s) => s.label).join(' and ')}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
