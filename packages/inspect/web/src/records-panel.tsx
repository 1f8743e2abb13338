/** The "Records" panel: assertions, evidence and checks of the snapshot, paged, with their sources and how each counts at T. */
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
import { durationWords, secondsOf } from './time.js';

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

export function RecordsPanel({
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
