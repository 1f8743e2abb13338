/** The inspector's read-only JSON API, as the page reads it (same origin, GET only). */
import type { Assertion, EvidenceItem, EvidenceView, RiskPolicy, SourceRef, VerificationCheck } from '@ewp/core';

export interface Axes {
  acceptance: string;
  conflict: string;
  verification: string;
  currency: string;
  sufficiency: string;
}

export interface PropositionRow {
  proposition_id: string;
  latest_view_id: string;
  assertions: string[];
  snapshots: number;
  warrant: Axes | { error: string };
}

export interface PropositionPage {
  evaluated_at: string;
  query: string;
  offset: number;
  limit: number;
  items: PropositionRow[];
  has_more: boolean;
}

export interface AdapterLossReport {
  adapter: string;
  fixtures: number;
  ok: boolean;
  losses: Record<string, Record<string, number>>;
  unexpected: number;
  stale: number;
}

export interface Meta {
  protocol_version: string;
  policy: { policy_id: string; version: string };
  risk_policy: RiskPolicy;
  now: string;
  label: string;
  capabilities: { persistent: boolean; multiProcess: boolean; keepsAdapterMeta: boolean; transactional: boolean };
  loss: { adapter: string | null; report: AdapterLossReport | null; covered: string[] };
}

export type Chain = ({ ok: true; length: number; head: string } | { ok: false; length: number; firstBadIndex: number; reason: string; detail?: string }) & {
  verified_at: string;
};

export interface PropositionDetail {
  view: EvidenceView;
  snapshots: { view_id: string; seq: number }[];
  origin_trust: Record<string, string>;
}

/** A snapshot as the API sends it: sources once, records naming them by source_id. */
export interface WireView extends Omit<EvidenceView, 'assertions' | 'evidence' | 'checks'> {
  sources: Record<string, SourceRef>;
  assertions: (Omit<Assertion, 'source'> & { source: string })[];
  evidence: (Omit<EvidenceItem, 'source'> & { source: string })[];
  checks: (Omit<VerificationCheck, 'source'> & { source: string })[];
}

/** GET one proposition (latest or named snapshot), with each record's source put back. */
export async function getProposition(id: string, view?: string): Promise<PropositionDetail> {
  const wire = await getJson<Omit<PropositionDetail, 'view'> & { view: WireView }>('proposition', { id, view });
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
