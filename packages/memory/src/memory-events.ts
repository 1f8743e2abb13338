/**
 * The memory layer's audit events, written as ledger entries in the store's one hash chain, each in the
 * same call (and so the same transaction) as the write it records. Bodies hold no salience (no recall
 * count, energy or importance) and no floats: a similarity is kept as an integer in ten-thousandths.
 */
import type { LedgerEntry, LedgerEntryInput } from '@ewp/ledger';
import type { EpistemicClass } from './epistemic-class.js';
import { type MemoryFacts, propositionOf } from './memory-records.js';
import type { PromotionReason, RecordedPromotionDecision } from './promotion-gate.js';

/** The entry kinds, by event. */
export const MEMORY_EVENT_KINDS = {
  store: 'memory.store',
  link: 'memory.link',
  refute: 'memory.refute',
  reclass: 'memory.reclass',
  promoGate: 'memory.promo_gate',
} as const;

/** Every memory event kind matches this namespace query. */
export const MEMORY_EVENT_NAMESPACE = 'memory.*';

/** One compared text of an echo check: the record and its similarity in ten-thousandths. */
export interface EchoCandidate {
  record: string;
  similarity: number;
}

/** Body of a LINK or REFUTE event. */
export interface LinkEventBody {
  support: string;
  target: string;
  polarity: 'supports' | 'opposes';
  /** True when the support echoed an earlier text of the same source and adds no source. */
  echo: boolean;
  /** The record it echoes, when it is an echo. */
  echo_of: string | null;
  /**
   * True when the support comes from the target's own source or lineage, or that of anything the target
   * was derived from: it is never independent and adds no source and no confidence, whatever its wording.
   */
  self_support: boolean;
  /** The lineage the record was written in. */
  lineage_id: string;
  /** The measure that compared the texts, and the nearest ones it compared (at most `search_k`). */
  measure: string;
  nearest: EchoCandidate[];
  /** `sim_threshold` in ten-thousandths, as it was when the link was decided. */
  threshold: number;
}

/** Body of a RECLASS event. */
export interface ReclassEventBody {
  memory: string;
  from: EpistemicClass;
  to: EpistemicClass;
  reason: string | null;
}

/** Body of a PROMO_GATE event: a decision of the promotion gate. */
export interface PromotionEventBody {
  memory: string;
  decision: RecordedPromotionDecision;
  reason: PromotionReason;
  class: EpistemicClass;
  distinct_sources: number;
  min_independent_sources: number;
  /** The evidence state the gate looked at. */
  view_id: string;
}

/** A similarity as an integer in ten-thousandths (entry bodies hold no floats). */
export function tenThousandths(x: number): number {
  return Math.round(x * 10_000);
}

/** The STORE event of a memory. */
export function storeEvent(m: MemoryFacts): LedgerEntryInput {
  return {
    kind: MEMORY_EVENT_KINDS.store,
    id: m.hash,
    subjects: [propositionOf(m.hash)],
    body: {
      hash: m.hash,
      class: m.class,
      project: m.project,
      source: m.source,
      text: m.text,
      origin_type: m.origin_type,
      observed_at: m.observed_at,
      derived_from: m.derived_from,
    },
  };
}

/** The LINK or REFUTE event of a link. */
export function linkEvent(body: LinkEventBody): LedgerEntryInput {
  return {
    kind: body.polarity === 'supports' ? MEMORY_EVENT_KINDS.link : MEMORY_EVENT_KINDS.refute,
    id: `${body.support}>${body.target}`,
    subjects: [propositionOf(body.target), propositionOf(body.support)],
    body: { ...body, nearest: body.nearest.map((c) => ({ ...c })) },
  };
}

/** The RECLASS event; `seq` numbers the memory's reclassifications from 1. */
export function reclassEvent(body: ReclassEventBody, seq: number): LedgerEntryInput {
  return { kind: MEMORY_EVENT_KINDS.reclass, id: `${body.memory}#${seq}`, subjects: [propositionOf(body.memory)], body: { ...body } };
}

/**
 * The PROMO_GATE event. Its id names the memory, the class and the evidence state, so the same decision
 * on the same evidence is one event however often it is retried (a re-append is a no-op).
 */
export function promotionEvent(body: PromotionEventBody): LedgerEntryInput {
  return {
    kind: MEMORY_EVENT_KINDS.promoGate,
    id: `${body.memory}:${body.class}:${body.decision}:${body.view_id}`,
    subjects: [propositionOf(body.memory)],
    body: { ...body },
  };
}

/** The facts of a memory from its STORE event. */
export function factsFromStoreEvent(entry: LedgerEntry): MemoryFacts {
  const b = entry.body as Record<string, unknown>;
  return {
    hash: String(b.hash),
    class: b.class as EpistemicClass,
    project: (b.project as string | null) ?? null,
    source: String(b.source),
    text: String(b.text),
    origin_type: String(b.origin_type),
    observed_at: String(b.observed_at),
    derived_from: (b.derived_from as string[] | undefined) ?? [],
  };
}
