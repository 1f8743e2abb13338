import { evaluateAt } from './evaluation.js';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type Chain, getProposition, type Meta, type PropositionDetail } from './api.js';
import { AxisBadges, ErrorNote } from './badges.js';
import { GraphPanel } from './graph-view.js';
import { durationWords, isoOf } from './time.js';
import { DecisionsPanel } from './decisions-panel.js';
import { GatePanel } from './gate-panel.js';
import { MemoryPanel } from './memory-panel.js';
import { RecordsPanel } from './records-panel.js';
import { SnapshotsPanel } from './snapshots-panel.js';
import { TimeControl } from './time-control.js';
import { WhyPanel } from './why-panel.js';

const TABS = ['warrant', 'gate', 'records', 'timeline', 'graph', 'decisions'] as const;
type Tab = (typeof TABS)[number];
const TAB_NAMES: Record<Tab, string> = {
  warrant: 'Why',
  gate: 'Gate',
  records: 'Records',
  timeline: 'Snapshots',
  graph: 'Lineage graph',
  decisions: 'Decisions',
};

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
  const warrant = useMemo(() => evaluateAt(view, at), [view, at]);
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
      <MemoryPanel id={view.proposition_id} at={at} />
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
        {tab === 'decisions' ? (
          <DecisionsPanel id={view.proposition_id} />
        ) : warrant instanceof Error ? null : tab === 'warrant' ? (
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
