/**
 * The promotion gate's records: a memory whose energy reaches `promotion_energy` is put to the gate
 * (promotion-gate.ts decides), and the decision is a PROMO_GATE event in the store's chain, which is
 * what promotes; salience only gains importance. Gate statistics are read back from those events.
 */
import { compareInstants, type Instant, parseInstant } from '@ewp/core';
import type { LedgerEntryInput } from '@ewp/ledger';
import { countsOf } from './memory-counts.js';
import { MEMORY_EVENT_KINDS, type PromotionEventBody, promotionEvent } from './memory-events.js';
import { ENTRY_PAGE, type Indexed } from './memory-index.js';
import { checkText, instantOf } from './memory-input.js';
import { keepSalience, type MemoryLayer, timeOf } from './memory-layer.js';
import { hashOfProposition } from './memory-records.js';
import { applyPromotionEvent, decidePromotion, type PromotionDecisionKind, type PromotionReason } from './promotion-gate.js';
import type { SalienceRecord } from './salience-store.js';

/** The outcome of one promotion attempt. */
export interface PromotionOutcome {
  hash: string;
  decision: PromotionDecisionKind;
  reason: PromotionReason | null;
}

/** Promotions allowed and blocked, by reason, read from the chain's PROMO_GATE events. */
export interface PromotionStatistics {
  allowed: number;
  blocked: number;
  by_reason: Record<string, number>;
  from: string | null;
  to: string | null;
}

/** Gate events per transaction in the promotion pass. */
const GATE_BATCH = 1000;

/** Whether memory `hash` is promoted: an `allowed` PROMO_GATE event for it is in the chain. */
export async function isPromoted(layer: MemoryLayer, hash: string): Promise<boolean> {
  checkText(hash, 'hash', 256);
  await layer.index.refresh();
  return layer.index.known(hash, 'hash').promoted;
}

/** Whether a touched memory has reached the promotion threshold and is not promoted yet (by the chain). */
export function isDue(layer: MemoryLayer, m: Indexed, s: SalienceRecord): boolean {
  return s.energy >= layer.config.promotion_energy && !m.promoted;
}

/**
 * The gate's decision for one memory, not yet recorded: the PROMO_GATE entry to append and what
 * follows once it is appended (the index's promotion state, as a read of the chain would set it, and
 * importance in salience). `undefined` when there is nothing to decide.
 */
async function gateOf(
  layer: MemoryLayer,
  hash: string,
  s: SalienceRecord,
  at: Instant,
  pass?: { latestViewIds: Map<string, string> | undefined },
): Promise<{ outcome: PromotionOutcome; entry: LedgerEntryInput; apply: () => void } | undefined> {
  const m = layer.index.known(hash, 'hash');
  if (m.promoted) return undefined;
  // Refused on this very evidence already: the chain has that decision, asking again adds nothing.
  // In a pass the latest view ids come from one listing, so a refused memory is not read again.
  const listed = pass?.latestViewIds?.get(hash);
  if (listed !== undefined && m.blocked_at_state === `${m.current}:${listed}`) return undefined;
  // A pass reads each memory once and keeps nothing: holding 100,000 views only fed the collector.
  const cached = await layer.index.cached(hash, pass === undefined);
  const view = cached.view;
  const state = `${m.current}:${view.view_id}`;
  if (m.blocked_at_state === state) return undefined;
  const counts = countsOf(layer, cached, at);
  const d = decidePromotion(m.current, counts.distinct_sources, m.promoted, layer.config);
  if (d.decision === 'skip') return undefined;
  const body: PromotionEventBody = {
    memory: hash,
    decision: d.decision,
    reason: d.reason,
    class: m.current,
    distinct_sources: counts.distinct_sources,
    min_independent_sources: layer.config.min_independent_sources,
    view_id: view.view_id,
  };
  const apply = () => {
    applyPromotionEvent(m, body);
    if (d.decision === 'allowed') {
      s.importance += 1;
      keepSalience(layer, m, hash, s);
    }
  };
  return { outcome: { hash, decision: d.decision, reason: d.reason }, entry: promotionEvent(body), apply };
}

/** One promotion attempt: the decision is a PROMO_GATE event in the chain, which is what promotes; salience only gains importance. */
export async function attemptPromotion(layer: MemoryLayer, hash: string, s: SalienceRecord): Promise<PromotionOutcome> {
  const g = await gateOf(layer, hash, s, timeOf(layer, undefined).instant);
  if (g === undefined) return { hash, decision: 'skip', reason: null };
  await layer.evidenceStore.appendEntries([g.entry]);
  g.apply();
  return g.outcome;
}

/**
 * The promotion pass: every memory whose energy has reached `promotion_energy` is put to the gate.
 * Decisions are appended in batches of {@link GATE_BATCH} events per transaction. A memory refused
 * before is checked against its latest view id from one listing of the store and read only if its
 * evidence or class changed since.
 */
export async function promotionPass(layer: MemoryLayer): Promise<{ examined: number; allowed: number; blocked: number; skipped: number }> {
  await layer.index.refresh();
  const at = timeOf(layer, undefined).instant;
  const due: [string, SalienceRecord][] = [];
  let refusedBefore = 0;
  for (const [hash, s] of layer.salience.entries()) {
    const m = layer.index.get(hash);
    if (s.energy < layer.config.promotion_energy || m === undefined || m.promoted) continue;
    due.push([hash, s]);
    if (m.blocked_at_state !== null) refusedBefore += 1;
  }
  // Listing every proposition costs a fifth to a twentieth of reading each one's view (SQLite under
  // load, measured): worth it when more than one memory in five was refused before.
  let latestViewIds: Map<string, string> | undefined;
  if (refusedBefore > 0 && refusedBefore * 5 > layer.index.memories.size) {
    latestViewIds = new Map();
    for (const p of await layer.evidenceStore.listPropositions({ query: 'mem:', limit: Number.MAX_SAFE_INTEGER })) {
      const hash = hashOfProposition(p.proposition_id);
      if (hash !== undefined) latestViewIds.set(hash, p.latest_view_id);
    }
  }
  const result = { examined: 0, allowed: 0, blocked: 0, skipped: 0 };
  let batch: { entry: LedgerEntryInput; apply: () => void; outcome: PromotionOutcome }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await layer.evidenceStore.appendEntries(batch.map((b) => b.entry));
    for (const b of batch) {
      b.apply();
      if (b.outcome.decision === 'allowed') result.allowed += 1;
      else result.blocked += 1;
    }
    batch = [];
  };
  for (const [hash, s] of due) {
    result.examined += 1;
    const g = await gateOf(layer, hash, s, at, { latestViewIds });
    if (g === undefined) result.skipped += 1;
    else batch.push(g);
    if (batch.length >= GATE_BATCH) await flush();
  }
  await flush();
  return result;
}

/** Promotions allowed and blocked, by reason, from the PROMO_GATE events committed in [from, to]. */
export async function promotionStatistics(layer: MemoryLayer, range: { from?: string; to?: string } = {}): Promise<PromotionStatistics> {
  const from = range.from === undefined ? undefined : instantOf(range.from, 'from');
  const to = range.to === undefined ? undefined : instantOf(range.to, 'to');
  const stats: PromotionStatistics = { allowed: 0, blocked: 0, by_reason: {}, from: range.from ?? null, to: range.to ?? null };
  let after = -1;
  for (;;) {
    const page = await layer.evidenceStore.readEntries({ kind: MEMORY_EVENT_KINDS.promoGate, afterIndex: after, limit: ENTRY_PAGE });
    for (const e of page) {
      after = e.chain_index;
      const t = parseInstant(e.committed_at);
      if (typeof t !== 'string' && ((from !== undefined && compareInstants(t, from) < 0) || (to !== undefined && compareInstants(t, to) > 0))) continue;
      if (e.body.decision === 'allowed') stats.allowed += 1;
      else stats.blocked += 1;
      const reason = String(e.body.reason);
      stats.by_reason[reason] = (stats.by_reason[reason] ?? 0) + 1;
    }
    if (page.length < ENTRY_PAGE) return stats;
  }
}
