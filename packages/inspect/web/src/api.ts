/** The inspector's read-only JSON API, as the page reads it (same origin, GET only). */
import type { EvidenceView } from '@ewp/core';
import type { ChainStatus, InspectorMeta, PropositionDetail as WirePropositionDetail, PropositionRow, WireView } from '../../src/wire.js';

export type {
  AdapterLossReport,
  DecisionPage,
  DecisionRow,
  LossCount,
  MemoryAnswer,
  MemoryGateAttempt,
  MemoryLink,
  MemoryPanel,
  PropositionPage,
  PropositionRecovery,
  PropositionRow,
  RecoveryGate,
  WireView,
} from '../../src/wire.js';

/** The five axes as the list sends them. */
export type Axes = Exclude<PropositionRow['warrant'], { error: string }>;

export type Meta = InspectorMeta;

export type Chain = ChainStatus;

/** A proposition as the page uses it: the wire view with each record's source put back. */
export interface PropositionDetail extends Omit<WirePropositionDetail, 'view'> {
  view: EvidenceView;
}

/** GET one proposition (latest or named snapshot), with each record's source put back. */
export async function getProposition(id: string, view?: string): Promise<PropositionDetail> {
  const wire = await getJson<WirePropositionDetail>('proposition', { id, view });
  return { ...wire, view: fromWireView(wire.view) };
}

/** The view a {@link WireView} stands for. */
export function fromWireView(wire: WireView): EvidenceView {
  const { sources, ...rest } = wire;
  const source = (sid: string) => {
    const s = sources[sid];
    if (s === undefined) throw new Error(`the server sent a record with unknown source ${JSON.stringify(sid)}`);
    return s;
  };
  return {
    ...rest,
    assertions: rest.assertions.map((a) => ({ ...a, source: source(a.source) })),
    evidence: rest.evidence.map((e) => ({ ...e, source: source(e.source) })),
    checks: rest.checks.map((c) => ({ ...c, source: source(c.source) })),
  };
}

/** GET a path of the API; a non-2xx answer throws its `error` message. */
export async function getJson<T>(path: string, params: Record<string, string | number | undefined> = {}): Promise<T> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, String(v));
  const query = search.toString();
  const response = await fetch(`./api/${path}${query ? `?${query}` : ''}`, { headers: { accept: 'application/json' } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}
