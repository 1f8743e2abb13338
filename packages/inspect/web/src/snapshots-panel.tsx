/** The "Snapshots" panel: the proposition's snapshots with their axes at T and what changed between them, and the axes of this snapshot over time. */
import type { EvidenceView, WarrantView } from '@ewp/core';
import { evaluateAt, isLargeView } from './evaluation.js';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { getProposition, type PropositionDetail } from './api.js';
import { AXES, AxisBadge } from './badges.js';
import { diffSnapshots } from './diff.js';
import { isoOf, keyInstants } from './time.js';

/** Most snapshots evaluated on the timeline (the newest ones). */
const TIMELINE_MAX = 50;

export function SnapshotsPanel({
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
            const w = v === undefined || v instanceof Error ? undefined : evaluateAt(v, at);
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
  const large = isLargeView(view);
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
      const w = evaluateAt(view, isoOf(k.seconds));
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
