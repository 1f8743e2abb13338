/** Small shared pieces: axis badges and error notes. Colour is a hint; the value is always written. */
import { AXES, type AXIS_VALUES } from '@ewp/core';
import type { Axes } from './api.js';

export { AXES };

/** A tone for every value of every axis (the type makes a new protocol value fail to compile here). */
const TONE: { [A in keyof typeof AXIS_VALUES]: Record<(typeof AXIS_VALUES)[A][number], 'good' | 'warn' | 'bad'> } = {
  acceptance: { ACCEPTED: 'good', TENTATIVE: 'warn', UNACCEPTED: 'bad' },
  conflict: { NONE: 'good', RESOLVED: 'warn', OPEN: 'bad' },
  verification: { HUMAN: 'good', EXTERNAL: 'good', INDIRECT: 'warn', NONE: 'bad' },
  currency: { CURRENT: 'good', STALE: 'warn', SUPERSEDED: 'bad' },
  sufficiency: { SUFFICIENT: 'good', INSUFFICIENT: 'warn', DEGRADED: 'bad' },
};

export function AxisBadge({ axis, value }: { axis: string; value: string }) {
  return (
    <span class={`badge ${(TONE as Record<string, Record<string, string>>)[axis]?.[value] ?? ''}`} data-axis={axis} data-value={value} title={axis}>
      <span class="axis-name">{axis} </span>
      {value}
    </span>
  );
}

export function AxisBadges({ axes }: { axes: Axes }) {
  return (
    <span class="badges">
      {AXES.map((axis) => (
        <AxisBadge key={axis} axis={axis} value={axes[axis]} />
      ))}
    </span>
  );
}

const DECISION_TONE: Record<string, string> = { MAY_ACT: 'good', REQUIRE_CONFIRMATION: 'warn', DENY: 'bad' };

export function DecisionBadge({ decision }: { decision: string }) {
  return (
    <span class={`badge ${DECISION_TONE[decision] ?? ''}`} data-decision={decision}>
      {decision}
    </span>
  );
}

export function ErrorNote({ error }: { error: Error }) {
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  );
}
