/**
 * The "Decisions" panel: the gate decisions recorded in the ledger that consulted this proposition
 * (docs/spec/receipts.md §12.6), the rule and the warrant receipt each cited, whether a recovery gate
 * held it, and whether a later use of it would be held now until a proposition is re-evaluated;
 * with the proposition's retractions, re-evaluation and recorded recovery plans.
 */
import { useEffect, useState } from 'preact/hooks';
import { type DecisionPage, type DecisionRow, getJson, type PropositionRecovery, type RecoveryGate } from './api.js';
import { DecisionBadge, ErrorNote } from './badges.js';
import { decisionsHref, propositionHref } from './routes.js';

/** Whether a recovery gate bounds the decision below MAY_ACT (held until re-evaluation). */
export function holds(gate: RecoveryGate | null): gate is RecoveryGate {
  return gate !== null && gate.decision !== 'MAY_ACT';
}

function GateWords({ gate }: { gate: RecoveryGate }) {
  return (
    <>
      <DecisionBadge decision={gate.decision} /> until re-evaluated:{' '}
      {gate.requirements.map((p, i) => (
        <span key={p}>
          {i > 0 ? ', ' : ''}
          <a href={propositionHref(p)}>{p}</a>
          {gate.invalidated[p] === undefined ? '' : ` (${gate.invalidated[p]})`}
        </span>
      ))}
    </>
  );
}

/** The decisions of a page, one row each. */
export function DecisionTable({ items, label }: { items: DecisionRow[]; label: string }) {
  return (
    <table class="decisions" data-testid="decision-table">
      <caption class="visually-hidden">{label}</caption>
      <thead>
        <tr>
          <th scope="col">chain #</th>
          <th scope="col">decision</th>
          <th scope="col">action</th>
          <th scope="col">rule · warrant cited</th>
          <th scope="col">held when decided</th>
          <th scope="col">a later use now</th>
        </tr>
      </thead>
      <tbody>
        {items.map((d) => (
          <tr key={d.decision_id} data-decision-id={d.decision_id} data-held={String(d.held)} data-held-now={String(holds(d.later_use))}>
            <td>{d.chain_index}</td>
            <td>
              <DecisionBadge decision={d.decision} />
              {d.may_act === d.decision ? null : (
                <span class="muted">
                  {' '}
                  (mayAct alone: <DecisionBadge decision={d.may_act} />)
                </span>
              )}
              <br />
              <code>{d.decision_id}</code>
              <br />
              <span class="muted">
                {d.gate} gate · T {d.evaluated_at}
                {d.signed ? ' · signed' : ''}
              </span>
            </td>
            <td>
              <code>{d.action.action_id}</code> ({d.action.kind}, risk {d.action.risk}, {d.action.reversible ? 'reversible' : 'irreversible'})
              <br />
              <span class="muted">
                policy {d.risk_policy.policy_id} {d.risk_policy.version}
              </span>
            </td>
            <td>
              <code>{d.rule}</code>
              <ul>
                {d.consulted.map((c) => (
                  <li key={`${c.proposition_id} ${c.view_id}`}>
                    <a href={propositionHref(c.proposition_id)}>{c.proposition_id}</a> at <code>{c.view_id}</code>: receipt{' '}
                    <code title={c.receipt_digest}>{c.receipt_digest.slice(0, 16)}…</code>, <code>{c.rule}</code>
                  </li>
                ))}
                {d.propositions
                  .filter((p) => !d.consulted.some((c) => c.proposition_id === p))
                  .map((p) => (
                    <li key={p}>
                      {p}: no stored snapshot (<code>no_evidence</code>)
                    </li>
                  ))}
              </ul>
            </td>
            <td>{holds(d.recovery) ? <GateWords gate={d.recovery} /> : <span class="muted">no</span>}</td>
            <td>
              {d.later_use === null ? (
                <span class="muted">it was held: a new decision is needed</span>
              ) : holds(d.later_use) ? (
                <GateWords gate={d.later_use} />
              ) : (
                <span class="muted">not held: its evidence is unchanged</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RecoveryStatus({ r, held }: { r: PropositionRecovery; held: number }) {
  return (
    <div data-testid="recovery-status">
      {held > 0 ? (
        <p class="chain-bad" role="status" data-testid="held-banner">
          <span class="badge bad">held until re-evaluated</span> A later use of {held} recorded decision{held === 1 ? '' : 's'} on this proposition is held by
          the recovery gate: its evidence changed or was retracted since.
        </p>
      ) : null}
      <ul>
        <li data-testid="retracted">
          Retracted records: {r.retracted.length === 0 ? 'none' : r.retracted.map((x, i) => <code key={x}>{`${i > 0 ? ', ' : ''}${x}`}</code>)}
          {r.last_retraction_index === null ? '' : ` (latest retraction at chain #${r.last_retraction_index})`}
        </li>
        <li>
          Latest re-evaluation: {r.reevaluation === null ? 'none' : `chain #${r.reevaluation.chain_index}, snapshot ${r.reevaluation.view_id}`}
          {r.reevaluation_now === null ? '' : `; re-evaluating its newest snapshot now would give ${r.reevaluation_now}`}
        </li>
        <li>
          Recorded recovery plans:{' '}
          {r.plans.length === 0 ? 'none' : r.plans.map((p) => `${p.plan_id} (chain #${p.chain_index}: ${p.reason ?? 'named'}, ${p.held} held)`).join('; ')}
        </li>
      </ul>
    </div>
  );
}

/** The decisions that consulted proposition `id`, a page at a time. */
export function DecisionsPanel({ id }: { id: string }) {
  const [after, setAfter] = useState<number | undefined>(undefined);
  const [page, setPage] = useState<DecisionPage | Error | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setPage(undefined);
    getJson<DecisionPage>('decisions', { proposition: id, after }).then(
      (p) => live && setPage(p),
      (e: Error) => live && setPage(e),
    );
    return () => {
      live = false;
    };
  }, [id, after]);
  return (
    <div>
      <h2>Recorded decisions that consulted it</h2>
      <p class="muted">
        Every gate decision recorded in this ledger that cited this proposition's warrant, oldest first. See also <a href={decisionsHref()}>all decisions</a>.
      </p>
      {page === undefined ? (
        <p aria-live="polite">Loading…</p>
      ) : page instanceof Error ? (
        <ErrorNote error={page} />
      ) : (
        <>
          {page.recovery === null ? null : <RecoveryStatus r={page.recovery} held={page.items.filter((d) => holds(d.later_use)).length} />}
          {page.items.length === 0 ? (
            <p data-testid="no-decisions">No recorded decision consulted it{after === undefined ? '' : ' after this point'}.</p>
          ) : (
            <DecisionTable items={page.items} label="Recorded decisions that consulted this proposition" />
          )}
          {page.has_more ? (
            <button type="button" onClick={() => setAfter(page.next_cursor ?? undefined)}>
              Next decisions
            </button>
          ) : null}
        </>
      )}
    </div>
  );
}
