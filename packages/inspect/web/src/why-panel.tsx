/** The "Why" panel: the five axes at T and the kernel rationale behind each, with the records that caused it. */
import type { EvidenceView, WarrantView } from '@ewp/core';
import { AXES, AxisBadge } from './badges.js';
import { axisOfCode, degradedCauses, explainCode } from './explain.js';

export function WhyPanel({ view, w, at }: { view: EvidenceView; w: WarrantView; at: string }) {
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
