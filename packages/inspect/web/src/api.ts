/** The inspector's read-only JSON API, as the page reads it (same origin, GET only). */
import type { EvidenceView, RiskPolicy } from '@ewp/core';

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

export type Chain = (
  | { ok: true; length: number; head: string }
  | { ok: false; length: number; firstBadIndex: number; reason: string; detail?: string }
) & { verified_at: string };

export interface PropositionDetail {
  view: EvidenceView;
  snapshots: { view_id: string; seq: number }[];
  origin_trust: Record<string, string>;
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
