/**
 * One proposition: T on a slider (the warrant is re-evaluated here, in the browser, by @ewp/core),
 * the five axes and their reasons, the action gate, the records, the snapshots and the lineage graph.
 */
import {
  bindsToView,
  classifyCheck,
  type EvidenceView,
  isStale,
  lowerSubjects,
  parseInstant,
  REFERENCE_V2,
  type SourceRef,
  type WarrantView,
  warrantNow,
} from '@ewp/core';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type Chain, getProposition, type Meta, type PropositionDetail } from './api.js';
import { AXES, AxisBadge, AxisBadges, DecisionBadge, ErrorNote } from './badges.js';
import { diffSnapshots } from './diff.js';
import { axisOfCode, degradedCauses, explainCode } from './explain.js';
import { type GateCell, gateCells, searchRoutes } from './gate.js';
import { GraphPanel } from './graph-view.js';
import { DAY, durationWords, isoOf, keyInstants, secondsOf, sliderRange } from './time.js';

const TABS = ['warrant', 'gate', 'records', 'timeline', 'graph'] as const;
type Tab = (typeof TABS)[number];
const TAB_NAMES: Record<Tab, string> = { warrant: 'Why', gate: 'Gate', records: 'Records', timeline: 'Snapshots', graph: 'Lineage graph' };

function evaluate(view: EvidenceView, at: string): WarrantView | Error {
  try {
    return warrantNow(view, REFERENCE_V2, at);
  } catch (error) {
    return error as Error;
  }
}

/** The proposition is fetched at once, alongside the server's meta (T starts at the server's clock). */
export function PropositionPage({ id, meta, chain, ready }: { id: string; meta: Meta | undefined; chain: Chain | Error | undefined; ready: () => void }) {
  const [detail, setDetail] = useState<PropositionDetail | Error | undefined>(undefined);
  const [tab, setTab] = useState<Tab>('warrant');
  const [focusRecord, setFocusRecord] = useState<string | undefined>(undefined);
  const [chosenT, setT] = useState<number | undefined>(undefined);
  useEffect(() => {
    getProposition(id)
      .then(setDetail, (e: Error) => setDetail(e))
      .finally(ready);
  }, [id]);
  if (detail === undefined || (meta === undefined && !(detail instanceof Error)))
    return (
      <main id="main" tabIndex={-1}>
        <p aria-live="polite">Loading {id}…</p>
      </main>
    );
  if (detail instanceof Error)
    return (
      <main id="main" tabIndex={-1}>
        <p>
          <a href="#/">All propositions</a>
        </p>
        <ErrorNote error={detail} />
      </main>
    );
  const m = meta as Meta;
  const nowSeconds = Math.floor(Date.parse(m.now) / 1000);
  return (
    <Loaded
      detail={detail}
      setDetail={setDetail}
      meta={m}
      chain={chain}
      t={chosenT ?? nowSeconds}
      setT={setT}
      nowSeconds={nowSeconds}
      tab={tab}
      setTab={setTab}
      focusRecord={focusRecord}
      setFocusRecord={setFocusRecord}
    />
  );
}

interface LoadedProps {
  detail: PropositionDetail;
  setDetail: (d: PropositionDetail) => void;
  meta: Meta;
  chain: Chain | Error | undefined;
  t: number;
  setT: (t: number) => void;
  nowSeconds: number;
  tab: Tab;
  setTab: (t: Tab) => void;
  focusRecord: string | undefined;
  setFocusRecord: (r: string | undefined) => void;
}

function Loaded({ detail, setDetail, meta, chain, t, setT, nowSeconds, tab, setTab, focusRecord, setFocusRecord }: LoadedProps) {
  const { view } = detail;
  const at = isoOf(t);
  const warrant = useMemo(() => evaluate(view, at), [view, at]);
  const latest = detail.snapshots[detail.snapshots.length - 1]?.view_id;
  // A new page: keyboard and screen-reader users start at its content, not at the old link.
  useEffect(() => document.getElementById('main')?.focus({ preventScroll: true }), [view.proposition_id]);
  const openRecord = (record: string) => {
    setFocusRecord(record);
    setTab('records');
  };
  const onTabKey = (event: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    let next: Tab | undefined;
    if (event.key === 'ArrowRight') next = TABS[(i + 1) % TABS.length];
    else if (event.key === 'ArrowLeft') next = TABS[(i + TABS.length - 1) % TABS.length];
    else if (event.key === 'Home') next = TABS[0];
    else if (event.key === 'End') next = TABS[TABS.length - 1];
    if (next === undefined) return;
    event.preventDefault();
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return (
    <main id="main" tabIndex={-1}>
      <p>
        <a href="#/">All propositions</a>
      </p>
      <h1 data-testid="proposition-title">{view.proposition_id}</h1>
      <p class="muted">
        Snapshot <code>{view.view_id}</code>
        {view.view_id === latest ? ' (latest)' : ' (an older snapshot)'} · {detail.snapshots.length} snapshot{detail.snapshots.length === 1 ? '' : 's'} ·{' '}
        {view.assertions.length + view.evidence.length + view.checks.length} records · freshness window {durationWords(view.freshness_policy_seconds)}
        {chain !== undefined && !(chain instanceof Error) && !chain.ok ? <span class="badge bad"> audit chain FAILED: do not trust</span> : null}
      </p>
      <TimeControl view={view} t={t} setT={setT} nowSeconds={nowSeconds} />
      {warrant instanceof Error ? (
        <ErrorNote error={warrant} />
      ) : (
        <p class="axes" data-testid="axes" aria-live="polite">
          <AxisBadges axes={warrant.warrant} /> <span class="muted">strength {warrant.warrant.strength.toFixed(2)} (non-normative)</span>
        </p>
      )}
      <div role="tablist" aria-label="Views of this proposition" class="tabs" onKeyDown={onTabKey}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
          >
            {TAB_NAMES[name]}
          </button>
        ))}
      </div>
      <section role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} class="panel">
        {warrant instanceof Error ? null : tab === 'warrant' ? (
          <WhyPanel view={view} w={warrant} at={at} />
        ) : tab === 'gate' ? (
          <GatePanel view={view} w={warrant} at={at} meta={meta} />
        ) : tab === 'records' ? (
          <RecordsPanel view={view} w={warrant} at={at} trust={detail.origin_trust} focus={focusRecord} />
        ) : tab === 'timeline' ? (
          <SnapshotsPanel detail={detail} at={at} show={setDetail} setT={setT} />
        ) : (
          <GraphPanel view={view} trust={detail.origin_trust} open={openRecord} />
        )}
      </section>
    </main>
  );
}

function TimeControl({ view, t, setT, nowSeconds }: { view: EvidenceView; t: number; setT: (t: number) => void; nowSeconds: number }) {
  const keys = useMemo(() => keyInstants(view), [view]);
  const { min, max } = useMemo(() => sliderRange(keys, nowSeconds), [keys, nowSeconds]);
  const [typed, setTyped] = useState(isoOf(t));
  const [typedError, setTypedError] = useState<string | undefined>(undefined);
  useEffect(() => setTyped(isoOf(t)), [t]);
  const clamp = (s: number) => Math.min(max, Math.max(min, s));
  const previous = [...keys].reverse().find((k) => k.seconds < t);
  const next = keys.find((k) => k.seconds > t);
  // Arrows move a day, Page keys thirty days: the native step (a minute) is for the pointer.
  const onKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: DAY, ArrowUp: DAY, ArrowLeft: -DAY, ArrowDown: -DAY, PageUp: 30 * DAY, PageDown: -30 * DAY };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      setT(clamp(t + move));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      setT(event.key === 'Home' ? min : max);
    }
  };
  const ticks = keys.length <= 200 ? keys : keys.filter((_, i) => i % Math.ceil(keys.length / 200) === 0);
  return (
    <section class="time" aria-labelledby="time-title">
      <h2 id="time-title">Evaluate at T</h2>
      <div class="time-row">
        <label for="t-slider" class="visually-hidden">
          Evaluation time T
        </label>
        <input
          id="t-slider"
          type="range"
          min={min}
          max={max}
          step={60}
          value={t}
          list="t-ticks"
          aria-valuetext={isoOf(t)}
          onInput={(e) => setT(Number((e.target as HTMLInputElement).value))}
          onKeyDown={onKey}
        />
        <datalist id="t-ticks">
          {ticks.map((k) => (
            <option key={`${k.seconds}:${k.label}`} value={k.seconds} label={k.label} />
          ))}
        </datalist>
      </div>
      <div class="time-row">
        <output for="t-slider" data-testid="t-value">
          T = {isoOf(t)}
        </output>
        <button type="button" disabled={previous === undefined} onClick={() => previous && setT(previous.seconds)} title={previous?.label}>
          ◀ Previous event
        </button>
        <button type="button" disabled={next === undefined} onClick={() => next && setT(next.seconds)} title={next?.label}>
          Next event ▶
        </button>
        <button type="button" onClick={() => setT(clamp(nowSeconds))}>
          Now
        </button>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const s = secondsOf(typed);
            if (s === undefined) setTypedError(`${JSON.stringify(typed)} is not an instant`);
            else {
              setTypedError(undefined);
              setT(s);
            }
          }}
        >
          <label for="t-text">T (ISO 8601)</label>
          <input id="t-text" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} size={22} />
          <button type="submit">Evaluate</button>
        </form>
      </div>
      <p class="muted">{next ? `Next event: ${next.label} at ${isoOf(next.seconds)}.` : 'No later event.'} ←/→ a day, PageUp/PageDown thirty days.</p>
      {typedError ? (
        <p class="error" role="alert">
          {typedError}
        </p>
      ) : null}
    </section>
  );
}

function WhyPanel({ view, w, at }: { view: EvidenceView; w: WarrantView; at: string }) {
  const codes = w.warrant.rationale_codes;
  const causes = degradedCauses(view);
  return (
    <div>
      <h2>Why these axes</h2>
      <dl class="why">
        {AXES.map((axis) => (
          <div key={axis} class="why-axis">
            <dt>
              <AxisBadge axis={axis} value={w.warrant[axis]} />
            </dt>
            <dd>
              {codes.some((c) => axisOfCode(c) === axis) ? (
                <ul>
                  {codes
                    .filter((c) => axisOfCode(c) === axis)
                    .map((c) => (
                      <li key={c}>
                        <code>{c}</code>: {explainCode(c, w, view, at)}
                      </li>
                    ))}
                </ul>
              ) : (
                <span class="muted">No rationale code on this axis: nothing lowered it at T.</span>
              )}
            </dd>
          </div>
        ))}
        {codes.some((c) => axisOfCode(c) === 'availability') ? (
          <div class="why-axis">
            <dt>availability</dt>
            <dd>
              <ul>
                {codes
                  .filter((c) => axisOfCode(c) === 'availability')
                  .map((c) => (
                    <li key={c}>
                      <code>{c}</code>: {explainCode(c, w, view, at)}
                    </li>
                  ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>
      <h3>Support at T</h3>
      <ul>
        <li>Independent lineages: {w.independent_lineage_count}</li>
        <li>Supporting evidence: {w.supporting_evidence_ids.join(', ') || 'none'}</li>
        <li>Opposing evidence: {w.opposing_evidence_ids.join(', ') || 'none'}</li>
        <li>Freshest check: {w.freshest_check ?? 'none'}</li>
        <li>
          Derived from: {w.derived_from.join(', ') || 'nothing'}; supersedes: {w.supersedes.join(', ') || 'nothing'}; superseded by:{' '}
          {w.superseded_by.join(', ') || 'nothing'}
        </li>
        <li>
          Omitted sources: {view.omitted_sources.join(', ') || 'none'}; retrieval scope "{view.retrieval_scope}"
          {causes.length > 0 ? `; DEGRADED because ${causes.join('; ')}` : ''}
        </li>
      </ul>
    </div>
  );
}

/** Above this many records the counterfactual search waits for a click: it evaluates the view many times. */
const AUTO_SEARCH_MAX_RECORDS = 5000;

function GatePanel({ view, w, at, meta }: { view: EvidenceView; w: WarrantView; at: string; meta: Meta }) {
  const base = useMemo(() => gateCells(w, meta.risk_policy), [w, meta.risk_policy]);
  const [cells, setCells] = useState<GateCell[] | undefined>(undefined);
  const large = view.assertions.length + view.evidence.length + view.checks.length > AUTO_SEARCH_MAX_RECORDS;
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

const PAGE = 100;

function SourceCell({ source, trust }: { source: SourceRef; trust: Record<string, string> }) {
  const level = trust[source.origin_type] ?? 'untrusted';
  return (
    <span>
      <code>{source.source_id}</code>{' '}
      <span class={`badge ${level === 'trusted' ? 'good' : level === 'inline-demoted' ? 'bad' : 'warn'}`} data-origin-trust={level}>
        {source.origin_type}: {level}
      </span>
      <br />
      <span class="muted">
        lineage {source.lineage_id} · {source.origin_locator}
      </span>
    </span>
  );
}

/**
 * Whether one assertion or check is available at T, as the kernel decides it: the record is
 * evaluated alone and the kernel's own "not available" code is read (docs/spec/protocol.md §6.1).
 */
function availableAt(
  view: EvidenceView,
  record: { kind: 'assertions'; item: EvidenceView['assertions'][number] } | { kind: 'checks'; item: EvidenceView['checks'][number] },
  at: string,
): boolean {
  const alone: EvidenceView = { ...view, assertions: [], evidence: [], checks: [], conflicts: [], lineage: [] };
  if (record.kind === 'assertions') alone.assertions = [record.item];
  else alone.checks = [record.item];
  try {
    const codes = warrantNow(alone, REFERENCE_V2, at).warrant.rationale_codes;
    return !codes.includes(record.kind === 'assertions' ? 'availability.future_assertion' : 'verification.not_available_at_t');
  } catch {
    return false;
  }
}

function Paged<T>({ items, render, head, label }: { items: readonly T[]; render: (item: T) => preact.JSX.Element; head: string[]; label: string }) {
  const [count, setCount] = useState(PAGE);
  if (items.length === 0) return <p class="muted">None.</p>;
  return (
    <>
      <table class="records">
        <caption class="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{items.slice(0, count).map(render)}</tbody>
      </table>
      {items.length > count ? (
        <button type="button" onClick={() => setCount(count + PAGE)}>
          Show {Math.min(PAGE, items.length - count)} more of {items.length - count}
        </button>
      ) : null}
    </>
  );
}

function RecordsPanel({
  view,
  w,
  at,
  trust,
  focus,
}: {
  view: EvidenceView;
  w: WarrantView;
  at: string;
  trust: Record<string, string>;
  focus: string | undefined;
}) {
  const subjects = useMemo(() => lowerSubjects(view.subjects), [view]);
  const tInstant = parseInstant(at);
  const available = new Set([...w.supporting_evidence_ids, ...w.opposing_evidence_ids]);
  const focused = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    focused.current?.scrollIntoView({ block: 'center' });
    focused.current?.focus();
  }, [focus]);
  const rowProps = (id: string) => (id === focus ? { ref: focused, tabIndex: -1, class: 'focused', id: `record-${id}` } : { id: `record-${id}` });
  return (
    <div>
      <h2>Assertions</h2>
      <Paged
        label="Assertions"
        items={view.assertions}
        head={['id', 'text', 'by', 'asserted at', 'source']}
        render={(a) => (
          <tr key={a.assertion_id} {...rowProps(a.assertion_id)}>
            <td>
              <code>{a.assertion_id}</code>
            </td>
            <td>{a.text}</td>
            <td>{a.asserted_by}</td>
            <td>
              {a.asserted_at || '(none)'} {availableAt(view, { kind: 'assertions', item: a }, at) ? '' : <span class="badge warn">not available at T</span>}
            </td>
            <td>
              <SourceCell source={a.source} trust={trust} />
            </td>
          </tr>
        )}
      />
      <h2>Evidence</h2>
      <Paged
        label="Evidence"
        items={view.evidence}
        head={['id', 'polarity', 'content', 'observed at', 'source']}
        render={(e) => (
          <tr key={e.evidence_id} {...rowProps(e.evidence_id)}>
            <td>
              <code>{e.evidence_id}</code>
            </td>
            <td>{e.polarity}</td>
            <td>{e.content}</td>
            <td>
              {e.observed_at || '(none)'} {available.has(e.evidence_id) ? '' : <span class="badge warn">not available at T</span>}
            </td>
            <td>
              <SourceCell source={e.source} trust={trust} />
            </td>
          </tr>
        )}
      />
      <h2>Checks</h2>
      <Paged
        label="Checks"
        items={view.checks}
        head={['id', 'method · result', 'subjects', 'observed at · freshness', 'class at T', 'source']}
        render={(c) => {
          const on = availableAt(view, { kind: 'checks', item: c }, at);
          const observed = parseInstant(c.observed_at);
          const stale = on && typeof observed !== 'string' && typeof tInstant !== 'string' && isStale(observed, tInstant, view.freshness_policy_seconds);
          const age = on ? (secondsOf(at) ?? 0) - (secondsOf(c.observed_at) ?? 0) : 0;
          return (
            <tr key={c.check_id} {...rowProps(c.check_id)}>
              <td>
                <code>{c.check_id}</code>
              </td>
              <td>
                {c.method} · {c.result}
                <br />
                <span class="muted">{c.scope}</span>
              </td>
              <td>
                {c.subjects.join(', ') || '(none)'} {bindsToView(c.subjects, subjects) ? '' : <span class="badge warn">does not bind</span>}
              </td>
              <td>
                {c.observed_at || '(none)'}
                <br />
                {on ? (
                  <span class={`badge ${stale ? 'warn' : 'good'}`}>
                    {stale ? 'stale' : 'fresh'}: {durationWords(age)} old, window {durationWords(view.freshness_policy_seconds)}
                  </span>
                ) : (
                  <span class="badge warn">not available at T</span>
                )}
              </td>
              <td>{on ? classifyCheck(c, subjects) : 'NONE'}</td>
              <td>
                <SourceCell source={c.source} trust={trust} />
              </td>
            </tr>
          );
        }}
      />
      <h2>Conflicts</h2>
      <Paged
        label="Conflicts"
        items={view.conflicts}
        head={['id', 'status', 'propositions', 'note']}
        render={(c) => (
          <tr key={c.conflict_id} {...rowProps(c.conflict_id)}>
            <td>
              <code>{c.conflict_id}</code>
            </td>
            <td>{c.status}</td>
            <td>{c.proposition_ids.join(' ↔ ')}</td>
            <td>{c.note}</td>
          </tr>
        )}
      />
      <h2>Lineage edges</h2>
      <Paged
        label="Lineage edges"
        items={view.lineage}
        head={['from', 'kind', 'to']}
        render={(e) => (
          <tr key={`${e.from_id} ${e.kind} ${e.to_id}`}>
            <td>{e.from_id}</td>
            <td>{e.kind}</td>
            <td>{e.to_id}</td>
          </tr>
        )}
      />
      <h2>Retrieval</h2>
      <ul>
        <li>Omitted sources: {view.omitted_sources.join(', ') || 'none'}</li>
        <li>Retrieval scope: {view.retrieval_scope}</li>
        <li>Marked degraded by the adapter: {view.degraded ? 'yes' : 'no'}</li>
        <li>Subjects: {view.subjects.join(', ') || 'none'}</li>
      </ul>
    </div>
  );
}

/** Most snapshots evaluated on the timeline (the newest ones). */
const TIMELINE_MAX = 50;

function SnapshotsPanel({
  detail,
  at,
  show,
  setT,
}: {
  detail: PropositionDetail;
  at: string;
  show: (d: PropositionDetail) => void;
  setT: (t: number) => void;
}) {
  const id = detail.view.proposition_id;
  const listed = detail.snapshots.slice(-TIMELINE_MAX);
  const [views, setViews] = useState<Record<string, EvidenceView | Error>>({ [detail.view.view_id]: detail.view });
  useEffect(() => {
    let live = true;
    (async () => {
      for (const s of listed) {
        if (!live) return;
        if (views[s.view_id] !== undefined) continue;
        const got = await getProposition(id, s.view_id).then(
          (d) => d.view,
          (e: Error) => e,
        );
        if (live) setViews((v) => ({ ...v, [s.view_id]: got }));
      }
    })();
    return () => {
      live = false;
    };
  }, [id]);
  const [from, setFrom] = useState(listed[Math.max(0, listed.length - 2)]?.view_id ?? '');
  const [to, setTo] = useState(listed[listed.length - 1]?.view_id ?? '');
  const a = views[from];
  const b = views[to];
  const diff = a && b && !(a instanceof Error) && !(b instanceof Error) ? diffSnapshots(a, b) : undefined;
  return (
    <div>
      <h2>Snapshots at T = {at}</h2>
      {detail.snapshots.length > TIMELINE_MAX ? (
        <p class="muted">
          The newest {TIMELINE_MAX} of {detail.snapshots.length} snapshots.
        </p>
      ) : null}
      <table class="records" data-testid="timeline">
        <caption class="visually-hidden">Axes of each snapshot at T</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">snapshot</th>
            <th scope="col">records</th>
            {AXES.map((axis) => (
              <th key={axis} scope="col">
                {axis}
              </th>
            ))}
            <th scope="col">
              <span class="visually-hidden">open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {listed.map((s) => {
            const v = views[s.view_id];
            const w = v === undefined || v instanceof Error ? undefined : evaluate(v, at);
            return (
              <tr key={s.view_id} class={s.view_id === detail.view.view_id ? 'focused' : ''}>
                <td>{s.seq}</td>
                <td>
                  <code>{s.view_id}</code>
                </td>
                <td>{v && !(v instanceof Error) ? v.assertions.length + v.evidence.length + v.checks.length : '…'}</td>
                {AXES.map((axis) => (
                  <td key={axis}>
                    {w === undefined ? (
                      v instanceof Error ? (
                        v.message
                      ) : (
                        '…'
                      )
                    ) : w instanceof Error ? (
                      w.message
                    ) : (
                      <AxisBadge axis={axis} value={w.warrant[axis]} />
                    )}
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    disabled={v === undefined || v instanceof Error || s.view_id === detail.view.view_id}
                    onClick={() => v && !(v instanceof Error) && show({ ...detail, view: v })}
                  >
                    Inspect {s.view_id}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <AxesOverTime view={detail.view} setT={setT} />
      <h3>Difference between two snapshots</h3>
      <div class="time-row">
        <label for="diff-from">From</label>
        <select id="diff-from" value={from} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}>
          {listed.map((s) => (
            <option key={s.view_id} value={s.view_id}>
              #{s.seq} {s.view_id}
            </option>
          ))}
        </select>
        <label for="diff-to">to</label>
        <select id="diff-to" value={to} onChange={(e) => setTo((e.target as HTMLSelectElement).value)}>
          {listed.map((s) => (
            <option key={s.view_id} value={s.view_id}>
              #{s.seq} {s.view_id}
            </option>
          ))}
        </select>
      </div>
      {diff === undefined ? (
        <p class="muted">Loading snapshots…</p>
      ) : diff.length === 0 ? (
        <p data-testid="diff">No difference.</p>
      ) : (
        <ul data-testid="diff">
          {diff.map((d) => (
            <li key={d.part}>
              <strong>{d.part}</strong>: {d.added.length ? `added ${d.added.join(', ')}` : ''} {d.removed.length ? `removed ${d.removed.join(', ')}` : ''}{' '}
              {d.changed.length ? `changed ${d.changed.join(', ')}` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Most key instants evaluated for the axes-over-T table. */
const AXES_OVER_TIME_MAX = 200;

/** The moments at which this snapshot's axes change, evaluated at each key instant. */
function AxesOverTime({ view, setT }: { view: EvidenceView; setT: (t: number) => void }) {
  const large = view.assertions.length + view.evidence.length + view.checks.length > AUTO_SEARCH_MAX_RECORDS;
  const [asked, setAsked] = useState(false);
  if (large && !asked)
    return (
      <>
        <h3>How this snapshot's axes change over T</h3>
        <button type="button" onClick={() => setAsked(true)}>
          Evaluate the axes at up to {AXES_OVER_TIME_MAX} moments
        </button>
      </>
    );
  return <AxesOverTimeTable view={view} setT={setT} />;
}

function AxesOverTimeTable({ view, setT }: { view: EvidenceView; setT: (t: number) => void }) {
  const rows = useMemo(() => {
    const keys = keyInstants(view);
    const sampled = keys.length <= AXES_OVER_TIME_MAX ? keys : keys.filter((_, i) => i % Math.ceil(keys.length / AXES_OVER_TIME_MAX) === 0);
    const out: { seconds: number; label: string; axes: WarrantView['warrant'] }[] = [];
    let last = '';
    for (const k of sampled) {
      const w = evaluate(view, isoOf(k.seconds));
      if (w instanceof Error) continue;
      const sig = AXES.map((a) => w.warrant[a]).join();
      if (sig !== last) out.push({ seconds: k.seconds, label: k.label, axes: w.warrant });
      last = sig;
    }
    return { out, sampled: sampled.length < keys.length };
  }, [view]);
  return (
    <>
      <h3>How this snapshot's axes change over T</h3>
      {rows.sampled ? <p class="muted">Sampled: {AXES_OVER_TIME_MAX} of the moments are evaluated.</p> : null}
      <table class="records" data-testid="axes-over-time">
        <caption class="visually-hidden">Axes of this snapshot at each moment they change</caption>
        <thead>
          <tr>
            <th scope="col">from T</th>
            <th scope="col">because</th>
            {AXES.map((axis) => (
              <th key={axis} scope="col">
                {axis}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.out.map((r) => (
            <tr key={r.seconds}>
              <td>
                <button type="button" onClick={() => setT(r.seconds)}>
                  {isoOf(r.seconds)}
                </button>
              </td>
              <td>{r.label}</td>
              {AXES.map((axis) => (
                <td key={axis}>
                  <AxisBadge axis={axis} value={r.axes[axis]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
