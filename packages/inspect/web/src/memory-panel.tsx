/**
 * The "Memory" panel: for a proposition that is a memory of the evidence layer, its class and
 * confidence (from evidence), its salience (from recall, not evidence) and its gate history and
 * links. It sits beside the warrant and never mixes into it: the server reads it through
 * @ewp/memory, and nothing here feeds the axes or the gate.
 */
import { useEffect, useState } from 'preact/hooks';
import { getJson, type MemoryAnswer, type MemoryGateAttempt, type MemoryLink, type MemoryPanel as Memory } from './api.js';
import { ErrorNote } from './badges.js';
import { propositionHref } from './routes.js';

const SHOWN = 50;

/** Claims (inference, hypothesis) can support nothing: a warning tone, never a good one. */
function ClassBadge({ cls }: { cls: string }) {
  const claim = cls === 'inference' || cls === 'hypothesis';
  return (
    <span class={`badge ${claim ? 'warn' : 'good'}`} data-class={cls}>
      {cls}
    </span>
  );
}

const GATE_WORDS: Record<string, string> = {
  'promotion_blocked:no_evidence': 'blocked: too few distinct independent sources for its class; recall alone promotes nothing',
  promotion_allowed: 'allowed: enough independent evidence',
  'promotion_allowed:gate_off': 'allowed with the gate switched off (gate_promotion false)',
};

function GateHistory({ gate }: { gate: MemoryGateAttempt[] }) {
  if (gate.length === 0)
    return <p class="muted">No promotion attempt yet: promotion is attempted when recall energy reaches the threshold, or by the promotion pass.</p>;
  return (
    <table data-testid="memory-gate">
      <caption class="visually-hidden">Promotion attempts, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">chain #</th>
          <th scope="col">committed</th>
          <th scope="col">outcome</th>
          <th scope="col">reason</th>
          <th scope="col">class · distinct sources / needed</th>
          <th scope="col">snapshot seen</th>
        </tr>
      </thead>
      <tbody>
        {gate.map((g) => (
          <tr key={g.chain_index} data-gate-decision={g.decision}>
            <td>{g.chain_index}</td>
            <td>{g.committed_at}</td>
            <td>
              <span class={`badge ${g.decision === 'allowed' ? 'good' : 'bad'}`}>{g.decision}</span>
            </td>
            <td>
              <code>{g.reason}</code>: {GATE_WORDS[g.reason] ?? g.reason}
            </td>
            <td>
              {g.class} · {g.distinct_sources} / {g.min_independent_sources}
            </td>
            <td>
              <code>{g.view_id}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Links({ links }: { links: MemoryLink[] }) {
  const [count, setCount] = useState(SHOWN);
  if (links.length === 0) return <p class="muted">No memory supports or refutes it, and it supports or refutes none.</p>;
  return (
    <>
      <table data-testid="memory-links">
        <caption class="visually-hidden">Links to and from this memory, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">chain #</th>
            <th scope="col">link</th>
            <th scope="col">independence</th>
            <th scope="col">echo check</th>
            <th scope="col">lineage</th>
          </tr>
        </thead>
        <tbody>
          {links.slice(0, count).map((l) => (
            <tr key={l.chain_index} data-link={l.direction === 'in' ? l.support : l.target} data-echo={String(l.echo)}>
              <td>{l.chain_index}</td>
              <td>
                {l.direction === 'in' ? (
                  <>
                    <a href={propositionHref(l.other)}>{l.other}</a> {l.polarity === 'supports' ? 'supports' : 'refutes'} this memory
                  </>
                ) : (
                  <>
                    this memory {l.polarity === 'supports' ? 'supports' : 'refutes'} <a href={propositionHref(l.other)}>{l.other}</a>
                  </>
                )}
              </td>
              <td>
                {l.echo ? (
                  <span class="badge warn">
                    echo of <code>{l.echo_of}</code>: adds no source
                  </span>
                ) : (
                  <span class="badge good">independent</span>
                )}
              </td>
              <td>
                {l.compared === 0
                  ? `${l.measure}: no earlier text of this source to compare`
                  : `${l.measure}: nearest similarity ${l.similarity.toFixed(4)} of ${l.compared} compared; an echo at ${l.threshold.toFixed(4)} or above`}
              </td>
              <td>
                <code>{l.lineage_id}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {links.length > count ? (
        <button type="button" onClick={() => setCount(count + SHOWN)}>
          Show {Math.min(SHOWN, links.length - count)} more of {links.length - count}
        </button>
      ) : null}
    </>
  );
}

function MemoryBody({ m }: { m: Memory }) {
  const c = m.counts;
  const s = m.salience;
  return (
    <>
      <div class="memory-cols">
        <div class="memory-box" data-testid="memory-confidence">
          <h3>Class and confidence (from evidence)</h3>
          <p>
            <ClassBadge cls={m.class} />
            {m.stored !== null && m.stored.class !== m.class ? <span class="muted"> stored as {m.stored.class}</span> : null} · source <code>{m.source}</code>
            {m.project === null ? ' · global' : ` · project ${m.project}`}
          </p>
          <p>
            confidence <strong data-testid="memory-confidence-value">{m.confidence}</strong> / 100 at {m.evaluated_at}
          </p>
          <dl class="facts">
            <dt>supports</dt>
            <dd data-testid="memory-supports">{c.support_count}</dd>
            <dt>refutations</dt>
            <dd data-testid="memory-refutes">{c.refute_count}</dd>
            <dt>distinct sources</dt>
            <dd data-testid="memory-sources">{c.distinct_sources}</dd>
            <dt>echoes (add no source)</dt>
            <dd data-testid="memory-echoes">{c.echo_count}</dd>
            <dt>first seen</dt>
            <dd>{c.first_seen ?? '—'}</dd>
            <dt>last support</dt>
            <dd>{c.last_support ?? '—'}</dd>
            <dt>last refutation</dt>
            <dd>{c.last_refute ?? '—'}</dd>
          </dl>
        </div>
        <div class="memory-box salience" data-testid="memory-salience">
          <h3>Salience (recall) — not evidence</h3>
          <p class="muted">
            How often and how strongly the agent recalls it. It raises neither confidence nor the warrant; importance rises only through the promotion gate.
            Kept outside the ledger with no history: shown as it is now, whatever T.
          </p>
          {s === null ? (
            <p>Salience {m.salience_from}.</p>
          ) : (
            <>
              <dl class="facts">
                <dt>recalled</dt>
                <dd data-testid="memory-recalls">{s.recall_count}</dd>
                <dt>energy</dt>
                <dd data-testid="memory-energy">
                  {s.energy} <span class="muted">(promotion attempted at {m.config.promotion_energy})</span>
                </dd>
                <dt>importance</dt>
                <dd data-testid="memory-importance">{s.importance}</dd>
                <dt>last recalled</dt>
                <dd>{s.last_recalled_at ?? 'never'}</dd>
              </dl>
              <p class="muted">
                read from <code>{m.salience_from}</code>
              </p>
            </>
          )}
        </div>
      </div>
      <h3>Promotion gate history</h3>
      <p class="muted">
        Each attempt is a PROMO_GATE event in the audit chain. An inference or hypothesis needs {m.config.min_independent_sources} distinct independent source
        {m.config.min_independent_sources === 1 ? '' : 's'}
        {m.config.gate_promotion ? '' : ' (the gate is switched off)'}.
      </p>
      {/* Promotion is a fact of the chain (an allowed PROMO_GATE event), not of salience: shown even without a salience file. */}
      <p>
        promoted <strong data-testid="memory-promoted">{m.promoted ? 'yes' : 'no'}</strong>
      </p>
      <GateHistory gate={m.gate} />
      <h3>Links</h3>
      <Links links={m.links} />
      {m.reclasses.length > 0 ? (
        <>
          <h3>Reclassifications</h3>
          <ul data-testid="memory-reclasses">
            {m.reclasses.map((r) => (
              <li key={r.chain_index}>
                #{r.chain_index} {r.committed_at}: {r.from} → {r.to}
                {r.reason === null ? '' : ` (${r.reason})`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

/**
 * The memory panel of proposition `id` at T. Renders nothing for a proposition that is no memory.
 * T moves with the slider; the panel asks again once it rests.
 */
export function MemoryPanel({ id, at }: { id: string; at: string }) {
  const [answer, setAnswer] = useState<MemoryAnswer | Error | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () =>
        getJson<MemoryAnswer>('memory', { id, at }).then(
          (a) => live && setAnswer(a),
          (e: Error) => live && setAnswer(e),
        ),
      answer === undefined ? 0 : 200,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [id, at]);
  if (answer === undefined || (!(answer instanceof Error) && answer.memory === null)) return null;
  return (
    <section class="memory" aria-labelledby="memory-title" data-testid="memory-panel">
      <h2 id="memory-title">Memory: the evidence layer, beside the warrant</h2>
      <p class="muted">
        This proposition is a memory of the evidence layer. Its confidence comes from its evidence, its salience from how often it is recalled; neither feeds
        the warrant above, and the warrant feeds neither.
      </p>
      {answer instanceof Error ? <ErrorNote error={answer} /> : <MemoryBody m={answer.memory as Memory} />}
    </section>
  );
}
