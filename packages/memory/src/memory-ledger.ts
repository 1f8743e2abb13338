/**
 * The memory layer over any EvidenceStore (docs/spec/evidence-layer.md). Memories are EWP records in
 * the store (one write path, one audit chain); their events are ledger entries written in the same call
 * as the write they record. Confidence is derived from the records at an explicit T; salience lives in a
 * {@link SalienceStore} apart from every digest, evidence state and the chain.
 *
 * Every surface (CLI, MCP, REST) calls these methods; none restates a rule.
 */
import { type ChainVerification, isWellFormed } from '@ewp/canonical';
import {
  compareInstants,
  type EvidenceItem,
  type EvidenceView,
  type Instant,
  parseInstant,
  pieceContains,
  REFERENCE_V2,
  type Warrant,
  type WarrantPiece,
  type WarrantView,
  warrantNow,
  warrantWithHorizon,
} from '@ewp/core';
import type { BatchWrite, EvidenceStore, LedgerEntry, LedgerEntryInput, LedgerRecord } from '@ewp/ledger';
import { type MemoryConfig, type MemoryConfigInput, resolveMemoryConfig } from './config.js';
import { confidenceOf } from './confidence.js';
import { checkEcho } from './echo-check.js';
import { type EpistemicClass, isClaimClass, isEpistemicClass, maySupport } from './epistemic-class.js';
import { type EvidenceCounts, evidenceCounts } from './evidence-counts.js';
import { badInput, MemoryError } from './errors.js';
import {
  factsFromStoreEvent,
  type GateEventBody,
  gateEvent,
  type LinkEventBody,
  linkEvent,
  MEMORY_EVENT_KINDS,
  MEMORY_EVENT_NAMESPACE,
  reclassEvent,
  storeEvent,
  tenThousandths,
} from './memory-events.js';
import {
  defaultOrigin,
  hashOfProposition,
  isEndogenousOrigin,
  isSelfSupport,
  linkEvidence,
  linkRecordId,
  type MemoryFacts,
  memoryHash,
  memoryOfRecord,
  memoryView,
  ownEvidence,
  type OwnLineage,
  ownLineageOf,
  propositionOf,
} from './memory-records.js';
import { oneLine, type PersonaItem, parsePersonaFile, renderPersonaFile } from './persona-file.js';
import { promotionDecision } from './promotion-gate.js';
import { copyInto, copyOf, emptySalience, fillSlot, type SalienceRecord, type SalienceStore, SlotSalienceStore } from './salience-store.js';
import { type Embedder, embedderSimilarity, onCleanText, type SimilarityMeasure, similarityMeasureNamed } from './similarity.js';

/** How a {@link MemoryLedger} is made. */
export interface MemoryLedgerOptions {
  /** The configuration section (defaults: {@link DEFAULT_MEMORY_CONFIG}). */
  config?: MemoryConfigInput;
  /** Where salience is kept. Default: in memory, on this layer's own entry of each memory. */
  salience?: SalienceStore;
  /** The echo check's measure. Default: the config's `measure` (built-in, by name); `embedder` is the shorthand for an embedder. */
  similarity?: SimilarityMeasure;
  /** Vectors for texts (Mem0's embedder, LangChain's `embedDocuments`, any function). */
  embedder?: Embedder;
  /** The clock for write times and the default T: an ISO-8601 instant. Default: the system clock. */
  now?: () => string;
}

/** What `store` takes. */
export interface StoreMemoryInput {
  text: string;
  class: EpistemicClass;
  /** Project scope; absent or `null` for a global memory. Supports never cross scopes. */
  project?: string | null;
  /** Where it came from. Default `agent`. */
  source?: string;
  /** Memories this one supports (it must be an observation or evidence). */
  supports?: readonly string[];
  /** Memories this one was derived from (lineage, never support). */
  derived_from?: readonly string[];
  /** The EWP origin of its record; by default by class (`observation`, `derived`, `model_introspection`). */
  origin_type?: string;
  /** When it was observed or asserted. Default: now. */
  observed_at?: string;
}

/** The state of one memory at T: class and confidence with the counts behind it, and its warrant beside them. */
export interface MemoryState extends EvidenceCounts {
  hash: string;
  proposition_id: string;
  view_id: string;
  text: string;
  class: EpistemicClass;
  project: string | null;
  source: string;
  confidence: number;
  /** The EWP warrant of the memory's view at T, shown beside confidence; neither feeds the other. */
  warrant: Omit<Warrant, 'strength' | 'rationale_codes'>;
  /** The warrant's count of distinct lineages (an echo joins the lineage it echoes, so it adds none). */
  independent_lineage_count: number;
  evaluated_at: string;
}

/** `store`'s answer. */
export interface StoreMemoryResult extends MemoryState {
  status: 'stored' | 'unchanged';
  links: LinkResult[];
}

/** `link`'s and `refute`'s answer. */
export interface LinkResult {
  support: string;
  target: string;
  polarity: 'supports' | 'opposes';
  status: 'linked' | 'unchanged';
  echo: boolean;
  echo_of: string | null;
  /** The support comes from the target's own source or lineage (or that of what it was derived from): it counts for nothing. */
  self_support: boolean;
  /** Highest similarity found, 0–1. */
  similarity: number;
  /** The target's state after the link. */
  target_confidence: number;
  target_distinct_sources: number;
}

/** What `recall` takes. */
export interface RecallQuery {
  /** Text to match; absent: the most salient memories. */
  query?: string;
  /** Scope; absent or null: global memories only. `'*'` for every scope. */
  project?: string | null;
  class?: EpistemicClass | readonly EpistemicClass[];
  confidence_min?: number;
  /** Default 10, at most 1000. */
  limit?: number;
  /** T for confidence. Default: now. */
  at?: string;
  /** False: a plain recall that leaves salience untouched. Default true (recall feeds salience). */
  touch?: boolean;
}

/** One recalled memory. */
export interface RecallRow {
  hash: string;
  text: string;
  class: EpistemicClass;
  confidence: number;
  project: string | null;
  source: string;
  /** The text match, 0–1 (1 with no query). */
  score: number;
  salience: SalienceRecord;
}

/**
 * Salience as `show` returns it, with `promoted` beside it: read from the chain's PROMO_GATE events
 * (the same as the state's own `promoted`), never from the salience store.
 */
export type ShownSalience = SalienceRecord & { promoted: boolean };

/** The outcome of one promotion attempt. */
export interface GateOutcome {
  hash: string;
  decision: 'allowed' | 'blocked' | 'skip';
  reason: string | null;
}

/** Gate statistics read from the chain. */
export interface GateStatistics {
  allowed: number;
  blocked: number;
  by_reason: Record<string, number>;
  from: string | null;
  to: string | null;
}

/** A row of the auto-context. */
export interface ContextRow {
  hash: string;
  text: string;
  class: EpistemicClass;
  confidence: number;
  acceptance: Warrant['acceptance'];
  conflict: Warrant['conflict'];
  disputed: boolean;
  salience: SalienceRecord;
}

/** The context an agent gets before a turn: "hot" and "confirmed" apart, each labelled. */
export interface AutoContext {
  evaluated_at: string;
  project: string | null;
  hot: ContextPart;
  confirmed: ContextPart;
}

/** One labelled part of the auto-context. */
export interface ContextPart {
  label: string;
  rows: ContextRow[];
  /** Memories that qualified for this part but were left out by its row or byte bound. */
  omitted: number;
}

/** A link decided and not yet written: what its answer says, and what to write (none when it is already there). */
interface LinkPlan {
  support: string;
  target: string;
  polarity: 'supports' | 'opposes';
  echo: boolean;
  echo_of: string | null;
  self_support: boolean;
  best: number;
  write?: { records: LedgerRecord[]; body: LinkEventBody };
}

/** A memory's latest view as read, with its counts once asked for. */
interface CachedView {
  view: EvidenceView;
  /**
   * The counts with every record available, and the latest record time: at any T at or after it the
   * counts are these (only confidence's age term moves with T). Computed on first need.
   */
  settled?: { counts: EvidenceCounts; from: Instant | undefined };
  /**
   * The warrant's piece of T last computed for this view (`warrantWithHorizon`): while T stays in it the
   * warrant is the same but for `evaluated_at`. Dropped with the view, as the counts are.
   */
  piece?: WarrantPiece;
}

/** A memory as the index keeps it: its STORE facts and its current class. */
interface Indexed {
  facts: MemoryFacts;
  current: EpistemicClass;
  reclasses: number;
  /** Its own sources and lineages and those of what it was derived from (from STORE facts; computed on first need). */
  own?: OwnLineage;
  /** An `allowed` PROMO_GATE event for it is in the chain (set while the chain is read, and on each gate write). */
  promoted: boolean;
  /**
   * The evidence state (`<class>:<view_id>`) of its latest `blocked` PROMO_GATE event, until one allows
   * it: the gate is not asked again on the same state (the chain already has that decision).
   */
  blocked_at_state: string | null;
  /**
   * The memory's salience as this layer works with it (undefined: never recalled). With the default
   * store this slot is where salience is kept ({@link SlotSalienceStore}); with a store given in the
   * options it is read from that store when the memory is indexed and written through to it on change.
   */
  salience: SalienceRecord | undefined;
}

/** The salience of a memory never recalled, for reading only. */
const NO_SALIENCE: Readonly<SalienceRecord> = Object.freeze(emptySalience());

const HOT_LABEL = 'hot: recalled often or recently (salience). Not evidence: say a hot inference or hypothesis is unconfirmed.';
const CONFIRMED_LABEL = 'confirmed: warrant ACCEPTED, or confidence at or above the threshold from independent observations.';
const MAX_TEXT = 100_000;
/** Views kept for reuse (the oldest goes first): a bound on memory, not on what can be recalled. */
const VIEW_CACHE = 10_000;
const ENTRY_PAGE = 100_000;
/** Gate events per transaction in the promotion pass. */
const GATE_BATCH = 1000;

function checkText(value: unknown, path: string, max = MAX_TEXT): string {
  if (typeof value !== 'string' || value.trim() === '') throw badInput(path, 'must be a non-empty string');
  if (value.length > max) throw badInput(path, `must be at most ${max} characters`);
  if (!isWellFormed(value)) throw badInput(path, 'holds an unpaired UTF-16 surrogate');
  return value;
}

function checkProject(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  return checkText(value, path, 256);
}

function checkHashList(value: unknown, path: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badInput(path, 'must be an array of memory hashes');
  return [...new Set(value.map((h, i) => checkText(h, `${path}[${i}]`, 256)))];
}

/**
 * The warrant of a cached view at T, from its kept piece while T is inside it (its `evaluated_at` is then
 * the T the piece was computed at: callers here take T from `at`); else computed and kept.
 */
function warrantOf(cached: CachedView, at: { text: string; instant: Instant }): WarrantView {
  const kept = cached.piece;
  if (kept !== undefined && pieceContains(kept, at.instant)) return kept.warrant;
  const piece = warrantWithHorizon(cached.view, REFERENCE_V2, at.text);
  cached.piece = piece;
  return piece.warrant;
}

function instantOf(at: string, path: string): Instant {
  const parsed = parseInstant(at);
  if (typeof parsed === 'string') throw badInput(path, `${JSON.stringify(at)} is not an ISO-8601 instant`);
  return parsed;
}

const WORDS = /[\p{L}\p{N}]+/gu;
function wordsOf(text: string): string[] {
  return [...new Set(text.toLowerCase().match(WORDS) ?? [])];
}

/** Salience order: energy, then recall count, then the latest recall, then hash (a total order). */
function bySalience(a: [string, SalienceRecord], b: [string, SalienceRecord]): number {
  return (
    b[1].energy - a[1].energy ||
    b[1].recall_count - a[1].recall_count ||
    (b[1].last_recalled_at ?? '').localeCompare(a[1].last_recalled_at ?? '') ||
    (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
  );
}

/** The memory layer over one EvidenceStore. */
export class MemoryLedger {
  readonly evidenceStore: EvidenceStore;
  readonly config: MemoryConfig;
  readonly salience: SalienceStore;
  readonly similarity: SimilarityMeasure;
  /** Salience is kept in a store given in the options, not in this layer's own slots. */
  readonly #salienceElsewhere: boolean;
  readonly #now: () => string;
  readonly #index = new Map<string, Indexed>();
  readonly #words = new Map<string, Set<string>>();
  /** Latest views read, by hash; dropped when an event names the memory or the store's revision moves. */
  readonly #views = new Map<string, CachedView>();
  #lastIndex = -1;
  #revision: string | undefined;

  constructor(store: EvidenceStore, options: MemoryLedgerOptions = {}) {
    this.evidenceStore = store;
    this.config = resolveMemoryConfig(options.config);
    this.salience =
      options.salience ??
      new SlotSalienceStore(
        (hash) => this.#index.get(hash),
        () => this.#index,
      );
    this.#salienceElsewhere = options.salience !== undefined;
    // Every measure, a caller's included, compares cleaned text (NFKC, no invisible characters).
    this.similarity = onCleanText(
      options.similarity ?? (options.embedder ? embedderSimilarity(options.embedder) : similarityMeasureNamed(this.config.measure)),
    );
    this.#now = options.now ?? (() => new Date().toISOString());
  }

  // ---------------------------------------------------------------- index

  /** Read the memory events appended since the last read (by this or any other process). */
  async refresh(): Promise<void> {
    const revision = await this.evidenceStore.revision?.();
    // An unchanged revision means nothing was committed since the last read (entries are chain events,
    // so they move it too): no query for entries, the recall hot path's largest cost before.
    if (revision !== undefined && revision === this.#revision) return;
    if (revision !== undefined) this.#views.clear();
    // By chain position only, kinds filtered here: a store answers `afterIndex` from its chain index,
    // where a kind filter may lead it to walk every memory event first.
    for (;;) {
      const page = await this.evidenceStore.readEntries({ afterIndex: this.#lastIndex, limit: ENTRY_PAGE });
      for (const entry of page) {
        // Two refreshes in flight read the same page: whichever comes second skips what the first
        // applied (a reclass applied twice would count twice).
        if (entry.chain_index <= this.#lastIndex) continue;
        this.#lastIndex = entry.chain_index;
        if (entry.kind.startsWith('memory.')) this.#apply(entry);
      }
      if (page.length < ENTRY_PAGE) break;
    }
    // Only once every entry up to it is read: a failed read is read again next time.
    this.#revision = revision;
  }

  #apply(entry: LedgerEntry): void {
    if (entry.kind === MEMORY_EVENT_KINDS.store) {
      const facts = factsFromStoreEvent(entry);
      if (!this.#index.has(facts.hash)) {
        this.#index.set(facts.hash, {
          facts,
          current: facts.class,
          reclasses: 0,
          salience: this.salience.get(facts.hash),
          promoted: false,
          blocked_at_state: null,
        });
        for (const w of wordsOf(facts.text)) {
          const set = this.#words.get(w);
          if (set === undefined) this.#words.set(w, new Set([facts.hash]));
          else set.add(facts.hash);
        }
      }
    } else if (entry.kind === MEMORY_EVENT_KINDS.reclass) {
      const m = this.#index.get(String(entry.body.memory));
      if (m !== undefined) {
        m.current = entry.body.to as EpistemicClass;
        m.reclasses += 1;
      }
    } else if (entry.kind === MEMORY_EVENT_KINDS.promoGate) {
      const m = this.#index.get(String(entry.body.memory));
      if (m !== undefined) applyGateEvent(m, entry.body as unknown as GateEventBody);
    }
    if (entry.kind !== MEMORY_EVENT_KINDS.promoGate) {
      // A link changes the target's view; a reclass changes which records count everywhere.
      if (entry.kind === MEMORY_EVENT_KINDS.reclass) this.#views.clear();
      else for (const s of entry.subjects) this.#views.delete(s.slice(4));
    }
  }

  #known(hash: string, path: string): Indexed {
    const m = this.#index.get(hash);
    if (m === undefined) throw new MemoryError('EWP_REFUSE_MEMORY_UNKNOWN', `no memory ${JSON.stringify(hash)} in this store`, { path, memory: hash });
    return m;
  }

  /** The memory's latest view, from the cache or read (and kept, unless `keep` is false: a pass over every memory). */
  async #cached(hash: string, keep = true): Promise<CachedView> {
    let cached = this.#views.get(hash);
    if (cached === undefined) {
      const view = await this.evidenceStore.get(propositionOf(hash));
      if (view === undefined) throw new MemoryError('EWP_REFUSE_MEMORY_UNKNOWN', `memory ${hash} has no stored view`, { memory: hash });
      cached = { view };
      if (keep) {
        if (this.#views.size >= VIEW_CACHE) this.#views.delete(this.#views.keys().next().value!);
        this.#views.set(hash, cached);
      }
    }
    return cached;
  }

  async #view(hash: string): Promise<EvidenceView> {
    return (await this.#cached(hash)).view;
  }

  /**
   * The counts of a cached view at T: computed once with every record available, and reused for any T
   * at or after its latest record time (an earlier T is computed afresh). Dropped with the view, so a
   * link, a reclass or another writer's commit is never missed.
   */
  #countsOf(cached: CachedView, at: Instant): EvidenceCounts {
    if (cached.settled === undefined) {
      const from = latestRecordTime(cached.view);
      cached.settled = {
        counts: evidenceCounts(cached.view, from ?? at, this.#qualifies, this.#selfTest(cached.view)),
        from,
      };
      if (from === undefined) return cached.settled.counts;
    }
    const { counts, from } = cached.settled;
    return from === undefined || compareInstants(at, from) >= 0 ? counts : evidenceCounts(cached.view, at, this.#qualifies, this.#selfTest(cached.view));
  }

  /** The own lineage of an indexed memory (its STORE facts never change, so it is computed once). */
  #own(m: Indexed): OwnLineage {
    m.own ??= ownLineageOf(m.facts.hash, (h) => this.#index.get(h)?.facts);
    return m.own;
  }

  /** The self-support test for the records of a memory's view (none for a view that is no indexed memory). */
  #selfTest(view: EvidenceView): ((record: EvidenceItem) => boolean) | undefined {
    const hash = hashOfProposition(view.proposition_id);
    const m = hash === undefined ? undefined : this.#index.get(hash);
    if (m === undefined || hash === undefined) return undefined;
    const own = this.#own(m);
    return (record) => isSelfSupport(hash, own, record);
  }

  /** A record counts unless it is a memory's record and that memory is now an inference or hypothesis. */
  readonly #qualifies = (recordId: string): boolean => {
    const h = memoryOfRecord(recordId);
    const m = h === undefined ? undefined : this.#index.get(h);
    return m === undefined || maySupport(m.current);
  };

  #at(at: string | undefined, path = 'at'): { text: string; instant: Instant } {
    const text = at ?? this.#now();
    return { text, instant: instantOf(text, path) };
  }

  async #state(hash: string, at: { text: string; instant: Instant }, keep = true): Promise<MemoryState> {
    const m = this.#known(hash, 'hash');
    const cached = await this.#cached(hash, keep);
    const view = cached.view;
    const counts = this.#countsOf(cached, at.instant);
    // A view kept in the cache keeps its warrant piece; one read for a single pass is evaluated once.
    const w = this.#views.get(hash) === cached ? warrantOf(cached, at) : warrantNow(view, REFERENCE_V2, at.text);
    const { strength: _s, rationale_codes: _r, ...warrant } = w.warrant;
    return {
      hash,
      proposition_id: view.proposition_id,
      view_id: view.view_id,
      text: m.facts.text,
      class: m.current,
      project: m.facts.project,
      source: m.facts.source,
      ...counts,
      confidence: confidenceOf(counts, this.config.confidence, at.instant),
      warrant,
      independent_lineage_count: w.independent_lineage_count,
      evaluated_at: at.text,
    };
  }

  // ---------------------------------------------------------------- writes

  /**
   * Store a memory with its class; with `supports`, link it as support of each (it must be an
   * observation or evidence, in the same project). Storing the same text from the same source in the same
   * project again is a no-op; under another class it is refused (use {@link reclass}).
   * Everything is checked before anything is written.
   */
  async store(input: StoreMemoryInput): Promise<StoreMemoryResult> {
    if (typeof input !== 'object' || input === null) throw badInput('$', 'must be an object {text, class, ...}');
    const text = checkText(input.text, 'text');
    if (!isEpistemicClass(input.class)) throw badInput('class', 'must be one of observation, evidence, inference, hypothesis');
    const cls = input.class;
    const project = checkProject(input.project, 'project');
    const source = input.source === undefined ? 'agent' : checkText(input.source, 'source', 256);
    const supports = checkHashList(input.supports, 'supports');
    const derivedFrom = checkHashList(input.derived_from, 'derived_from');
    const origin = input.origin_type === undefined ? defaultOrigin(cls) : checkText(input.origin_type, 'origin_type', 64);
    if (isClaimClass(cls) !== isEndogenousOrigin(origin)) {
      throw badInput(
        'origin_type',
        isClaimClass(cls) ? `an ${cls} is the agent's own: its origin must be endogenous` : `an ${cls} needs an exogenous origin, not ${origin}`,
      );
    }
    const at = this.#at(input.observed_at, 'observed_at');
    await this.refresh();
    const hash = memoryHash({ text, project, source });
    const existing = this.#index.get(hash);
    if (existing !== undefined && existing.current !== cls) {
      throw new MemoryError('EWP_REFUSE_MEMORY_CLASS_CONFLICT', `memory ${hash} is stored as ${existing.current}; change it with reclass`, {
        path: 'class',
        memory: hash,
      });
    }
    for (const [i, h] of derivedFrom.entries()) this.#known(h, `derived_from[${i}]`);
    const facts: MemoryFacts = existing?.facts ?? {
      hash,
      class: cls,
      project,
      source,
      text,
      origin_type: origin,
      observed_at: at.text,
      derived_from: derivedFrom,
    };
    for (let i = 0; i < supports.length; i += 1) this.#checkLink(facts, cls, supports[i]!, 'supports', `supports[${i}]`);
    // Every link is decided (views read, conflicts refused by name, echo checked) before anything is
    // written; then the STORE and every LINK are one commit of the store: all of them, or none.
    const plans: LinkPlan[] = [];
    for (let i = 0; i < supports.length; i += 1) plans.push(await this.#planLink(facts, supports[i]!, 'supports', `supports[${i}]`));
    const writes: BatchWrite[] = [];
    const entries: LedgerEntryInput[] = [];
    if (existing === undefined) {
      writes.push({ put: memoryView(facts) });
      entries.push(storeEvent(facts));
    }
    for (const p of plans) {
      if (p.write === undefined) continue;
      writes.push({ extend: propositionOf(p.target), records: p.write.records });
      entries.push(linkEvent(p.write.body));
    }
    let status: 'stored' | 'unchanged' = 'unchanged';
    if (writes.length > 0) {
      const results = await this.evidenceStore.writeBatch(writes, { entries });
      if (existing === undefined) status = results[0]!.status;
      for (const p of plans) this.#views.delete(p.target);
      await this.refresh();
    }
    const links: LinkResult[] = [];
    for (const p of plans) links.push(await this.#linkResult(p));
    return { ...(await this.#state(hash, this.#at(undefined))), status, links };
  }

  /** The support rule, checked before any write: class, self-link, project scope. */
  #checkLink(support: MemoryFacts, supportClass: EpistemicClass, target: string, polarity: 'supports' | 'opposes', path: string): Indexed {
    const verb = polarity === 'supports' ? 'support' : 'refute';
    if (!maySupport(supportClass)) {
      throw new MemoryError(
        'EWP_REFUSE_MEMORY_SUPPORT_CLASS',
        `memory ${support.hash} is an ${supportClass}: only observations and evidence may ${verb} a memory`,
        { path, memory: support.hash },
      );
    }
    if (target === support.hash) throw new MemoryError('EWP_REFUSE_MEMORY_SELF_LINK', `memory ${target} cannot ${verb} itself`, { path, memory: target });
    const t = this.#known(target, path);
    if (t.facts.project !== support.project) {
      const scope = (p: string | null) => (p === null ? 'the global scope' : `project ${JSON.stringify(p)}`);
      throw new MemoryError(
        'EWP_REFUSE_MEMORY_PROJECT_SCOPE',
        `memory ${support.hash} is in ${scope(support.project)}, memory ${target} in ${scope(t.facts.project)}: supports stay inside one project`,
        { path, memory: support.hash },
      );
    }
    return t;
  }

  /** Link `support` (an observation or evidence) as support of `target`, with the echo check. */
  async link(support: string, target: string): Promise<LinkResult> {
    return this.#linkChecked(support, target, 'supports');
  }

  /** Link `refuter` (an observation or evidence) as refutation of `target`. */
  async refute(refuter: string, target: string): Promise<LinkResult> {
    return this.#linkChecked(refuter, target, 'opposes');
  }

  async #linkChecked(support: string, target: string, polarity: 'supports' | 'opposes'): Promise<LinkResult> {
    checkText(support, 'support', 256);
    checkText(target, 'target', 256);
    await this.refresh();
    const s = this.#known(support, 'support');
    this.#checkLink(s.facts, s.current, target, polarity, 'support');
    const plan = await this.#planLink(s.facts, target, polarity, 'support');
    if (plan.write !== undefined) {
      await this.evidenceStore.extend(propositionOf(target), plan.write.records, { entries: [linkEvent(plan.write.body)] });
      this.#views.delete(target);
      await this.refresh();
    }
    return this.#linkResult(plan);
  }

  /**
   * Decide one link without writing it: the target's view is read, a link of the other polarity is
   * refused (naming `path`), the echo check runs, and the record and event to write are made (none when
   * the link is already there).
   */
  async #planLink(support: MemoryFacts, target: string, polarity: 'supports' | 'opposes', path: string): Promise<LinkPlan> {
    const view = await this.evidenceStore.get(propositionOf(target));
    if (view === undefined) throw new MemoryError('EWP_REFUSE_MEMORY_UNKNOWN', `memory ${target} has no stored view`, { path, memory: target });
    const id = linkRecordId(support.hash, polarity);
    const other = linkRecordId(support.hash, polarity === 'supports' ? 'opposes' : 'supports');
    if (view.evidence.some((e) => e.evidence_id === other)) {
      throw new MemoryError(
        'EWP_REFUSE_MEMORY_LINK_CONFLICT',
        `memory ${support.hash} already ${polarity === 'supports' ? 'refutes' : 'supports'} memory ${target}`,
        { path, memory: support.hash },
      );
    }
    const own = this.#own(this.#known(target, path));
    const done = view.evidence.find((e) => e.evidence_id === id);
    if (done !== undefined) {
      const edge = view.lineage.find((l) => l.kind === 'derived_from' && l.from_id === id);
      return {
        support: support.hash,
        target,
        polarity,
        echo: edge !== undefined,
        echo_of: edge?.to_id ?? null,
        self_support: isSelfSupport(target, own, done),
        best: 0,
      };
    }
    const decision = await checkEcho(view, support, polarity, this.similarity, this.config);
    const record = linkEvidence(support, target, polarity, decision.lineage_id);
    // Decided by source and lineage alone (no similarity): the records decide it again on every read.
    const selfSupport = isSelfSupport(target, own, record);
    const records: LedgerRecord[] = [{ kind: 'evidence', record }];
    if (decision.echo_of !== null) records.push({ kind: 'lineage', record: { from_id: id, to_id: decision.echo_of, kind: 'derived_from' } });
    const body: LinkEventBody = {
      support: support.hash,
      target,
      polarity,
      echo: decision.echo,
      echo_of: decision.echo_of,
      self_support: selfSupport,
      lineage_id: decision.lineage_id,
      measure: this.similarity.name,
      nearest: decision.nearest,
      threshold: tenThousandths(this.config.sim_threshold),
    };
    return {
      support: support.hash,
      target,
      polarity,
      echo: decision.echo,
      echo_of: decision.echo_of,
      self_support: selfSupport,
      best: (decision.nearest[0]?.similarity ?? 0) / 10_000,
      write: { records, body },
    };
  }

  /** A planned link's answer, once written (or found written): with the target's state after it. */
  async #linkResult(p: LinkPlan): Promise<LinkResult> {
    const state = await this.#state(p.target, this.#at(undefined));
    return {
      support: p.support,
      target: p.target,
      polarity: p.polarity,
      status: p.write === undefined ? 'unchanged' : 'linked',
      echo: p.echo,
      echo_of: p.echo_of,
      self_support: p.self_support,
      similarity: p.best,
      target_confidence: state.confidence,
      target_distinct_sources: state.distinct_sources,
    };
  }

  /**
   * Reclassify a memory: a RECLASS event, never an edit. Made an observation or evidence, a memory first
   * stored as a claim gains its own supporting record (in the same write); made an inference or
   * hypothesis, its records stop counting as support anywhere.
   */
  async reclass(
    hash: string,
    to: EpistemicClass,
    reason?: string,
  ): Promise<{ hash: string; from: EpistemicClass; to: EpistemicClass; status: 'reclassified' | 'unchanged' }> {
    checkText(hash, 'hash', 256);
    if (!isEpistemicClass(to)) throw badInput('to', 'must be one of observation, evidence, inference, hypothesis');
    const why = reason === undefined ? null : checkText(reason, 'reason', 4096);
    await this.refresh();
    const m = this.#known(hash, 'hash');
    const from = m.current;
    if (from === to) return { hash, from, to, status: 'unchanged' };
    const entry = reclassEvent({ memory: hash, from, to, reason: why }, m.reclasses + 1);
    if (maySupport(to) && isClaimClass(m.facts.class)) {
      await this.evidenceStore.extend(propositionOf(hash), [{ kind: 'evidence', record: ownEvidence(m.facts) }], { entries: [entry] });
    } else {
      await this.evidenceStore.appendEntries([entry]);
    }
    await this.refresh();
    return { hash, from, to, status: 'reclassified' };
  }

  // ---------------------------------------------------------------- reads

  /**
   * A memory's state at T (default now): class, confidence, counts, warrant; whether it is promoted
   * (from the chain's PROMO_GATE events), its salience and its events.
   */
  async show(hash: string, at?: string): Promise<MemoryState & { promoted: boolean; salience: ShownSalience; events: LedgerEntry[] }> {
    checkText(hash, 'hash', 256);
    await this.refresh();
    const state = await this.#state(hash, this.#at(at));
    const promoted = this.#known(hash, 'hash').promoted;
    const events = await this.evidenceStore.readEntries({ kind: MEMORY_EVENT_NAMESPACE, subject: propositionOf(hash), limit: ENTRY_PAGE });
    return { ...state, promoted, salience: { ...(this.salience.get(hash) ?? emptySalience()), promoted }, events };
  }

  /** Whether memory `hash` is promoted: an `allowed` PROMO_GATE event for it is in the chain. */
  async isPromoted(hash: string): Promise<boolean> {
    checkText(hash, 'hash', 256);
    await this.refresh();
    return this.#known(hash, 'hash').promoted;
  }

  /**
   * Recall memories: class and confidence on every row, filtered by class and `confidence_min`, ranked
   * by text match and then salience. Unless `touch` is false, each returned memory's salience rises, and
   * a memory whose energy reaches `promotion_energy` is put to the promotion gate.
   */
  async recall(query: RecallQuery = {}): Promise<RecallRow[]> {
    const text = query.query === undefined || query.query === '' ? undefined : checkText(query.query, 'query');
    const allScopes = query.project === '*';
    const project = allScopes ? null : checkProject(query.project, 'project');
    const classes = query.class === undefined ? undefined : new Set(Array.isArray(query.class) ? query.class : [query.class]);
    for (const c of classes ?? []) if (!isEpistemicClass(c)) throw badInput('class', 'must be observation, evidence, inference or hypothesis');
    const min = query.confidence_min;
    if (min !== undefined && (typeof min !== 'number' || !(min >= 0 && min <= 100))) throw badInput('confidence_min', 'must be a number from 0 to 100');
    const limit = query.limit ?? 10;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw badInput('limit', 'must be an integer from 1 to 1000');
    const at = this.#at(query.at);
    await this.refresh();

    const inScope = (m: Indexed) => (allScopes || m.facts.project === project) && (classes === undefined || classes.has(m.current));
    let ranked: { hash: string; score: number }[];
    if (text !== undefined) {
      const words = wordsOf(text);
      const hits = new Map<string, number>();
      for (const w of words) for (const h of this.#words.get(w) ?? []) hits.set(h, (hits.get(h) ?? 0) + 1);
      ranked = [];
      for (const [hash, n] of hits) if (inScope(this.#index.get(hash)!)) ranked.push({ hash, score: n / words.length });
    } else {
      ranked = [];
      for (const [hash, m] of this.#index) if (inScope(m)) ranked.push({ hash, score: 1 });
    }
    // The working records, only read here (every ranked hash is indexed).
    const sal = (h: string) => (this.#index.get(h) as Indexed).salience ?? NO_SALIENCE;
    ranked.sort((a, b) => b.score - a.score || bySalience([a.hash, sal(a.hash)], [b.hash, sal(b.hash)]));

    const rows: RecallRow[] = [];
    for (const { hash, score } of ranked) {
      if (rows.length >= limit) break;
      const m = this.#index.get(hash)!;
      const confidence = confidenceOf(this.#countsOf(await this.#cached(hash), at.instant), this.config.confidence, at.instant);
      if (min !== undefined && confidence < min) continue;
      const salience = m.salience === undefined ? emptySalience() : copyOf(m.salience);
      rows.push({ hash, text: m.facts.text, class: m.current, confidence, project: m.facts.project, source: m.facts.source, score, salience });
    }
    if (query.touch !== false) {
      for (const row of rows) {
        const m = this.#index.get(row.hash) as Indexed;
        const s = this.#touch(m, row.hash, at.text);
        if (this.#due(m, s)) await this.#attemptPromotion(row.hash, s);
        copyInto(row.salience, s);
      }
    }
    return rows;
  }

  /** Replay (consolidation) of one memory: salience rises as on recall; evidence does not move. Returns a copy of its salience. */
  async replay(hash: string, at?: string): Promise<SalienceRecord> {
    checkText(hash, 'hash', 256);
    await this.refresh();
    const m = this.#known(hash, 'hash');
    const s = this.#touch(m, hash, this.#at(at).text);
    if (this.#due(m, s)) await this.#attemptPromotion(hash, s);
    return copyOf(s);
  }

  /**
   * Raise a memory's salience; returns its working record. Synchronous: the hot path. An indexed
   * memory's record lives in its slot (no lookup in a map of every memory), written through to a
   * store given in the options.
   */
  #touch(m: Indexed, hash: string, at: string): SalienceRecord {
    if (m.salience === undefined) m.salience = emptySalience();
    const s = m.salience;
    s.recall_count += 1;
    s.energy += this.config.recall_energy;
    s.last_recalled_at = at;
    if (this.#salienceElsewhere) this.salience.set(hash, s);
    return s;
  }

  /** Keep a memory's changed salience `s`: in its slot (the default store's whole work) and through to a store given in the options. */
  #keepSalience(m: Indexed, hash: string, s: SalienceRecord): void {
    fillSlot(m, s);
    if (this.#salienceElsewhere) this.salience.set(hash, s);
  }

  /** Whether a touched memory has reached the promotion threshold and is not promoted yet (by the chain). */
  #due(m: Indexed, s: SalienceRecord): boolean {
    return s.energy >= this.config.promotion_energy && !m.promoted;
  }

  /**
   * The gate's decision for one memory, not yet recorded: the PROMO_GATE entry to append and what
   * follows once it is appended (the index's promotion state, as a read of the chain would set it, and
   * importance in salience). `undefined` when there is nothing to decide.
   */
  async #gate(
    hash: string,
    s: SalienceRecord,
    at: Instant,
    pass?: { latestViewIds: Map<string, string> | undefined },
  ): Promise<{ outcome: GateOutcome; entry: LedgerEntryInput; apply: () => void } | undefined> {
    const m = this.#known(hash, 'hash');
    if (m.promoted) return undefined;
    // Refused on this very evidence already: the chain has that decision, asking again adds nothing.
    // In a pass the latest view ids come from one listing, so a refused memory is not read again.
    const listed = pass?.latestViewIds?.get(hash);
    if (listed !== undefined && m.blocked_at_state === `${m.current}:${listed}`) return undefined;
    // A pass reads each memory once and keeps nothing: holding 100,000 views only fed the collector.
    const cached = await this.#cached(hash, pass === undefined);
    const view = cached.view;
    const state = `${m.current}:${view.view_id}`;
    if (m.blocked_at_state === state) return undefined;
    const counts = this.#countsOf(cached, at);
    const d = promotionDecision(m.current, counts.distinct_sources, m.promoted, this.config);
    if (d.decision === 'skip') return undefined;
    const body: GateEventBody = {
      memory: hash,
      decision: d.decision,
      reason: d.reason,
      class: m.current,
      distinct_sources: counts.distinct_sources,
      min_independent_sources: this.config.min_independent_sources,
      view_id: view.view_id,
    };
    const apply = () => {
      applyGateEvent(m, body);
      if (d.decision === 'allowed') {
        s.importance += 1;
        this.#keepSalience(m, hash, s);
      }
    };
    return { outcome: { hash, decision: d.decision, reason: d.reason }, entry: gateEvent(body), apply };
  }

  /** One promotion attempt: the decision is a PROMO_GATE event in the chain, which is what promotes; salience only gains importance. */
  async #attemptPromotion(hash: string, s: SalienceRecord): Promise<GateOutcome> {
    const g = await this.#gate(hash, s, this.#at(undefined).instant);
    if (g === undefined) return { hash, decision: 'skip', reason: null };
    await this.evidenceStore.appendEntries([g.entry]);
    g.apply();
    return g.outcome;
  }

  /**
   * The promotion pass: every memory whose energy has reached `promotion_energy` is put to the gate.
   * Decisions are appended in batches of {@link GATE_BATCH} events per transaction. A memory refused
   * before is checked against its latest view id from one listing of the store and read only if its
   * evidence or class changed since.
   */
  async promotionPass(): Promise<{ examined: number; allowed: number; blocked: number; skipped: number }> {
    await this.refresh();
    const at = this.#at(undefined).instant;
    const due: [string, SalienceRecord][] = [];
    let refusedBefore = 0;
    for (const [hash, s] of this.salience.entries()) {
      const m = this.#index.get(hash);
      if (s.energy < this.config.promotion_energy || m === undefined || m.promoted) continue;
      due.push([hash, s]);
      if (m.blocked_at_state !== null) refusedBefore += 1;
    }
    // Listing every proposition costs a fifth to a twentieth of reading each one's view (SQLite under
    // load, measured): worth it when more than one memory in five was refused before.
    let latestViewIds: Map<string, string> | undefined;
    if (refusedBefore > 0 && refusedBefore * 5 > this.#index.size) {
      latestViewIds = new Map();
      for (const p of await this.evidenceStore.listPropositions({ query: 'mem:', limit: Number.MAX_SAFE_INTEGER })) {
        const hash = hashOfProposition(p.proposition_id);
        if (hash !== undefined) latestViewIds.set(hash, p.latest_view_id);
      }
    }
    const result = { examined: 0, allowed: 0, blocked: 0, skipped: 0 };
    let batch: { entry: LedgerEntryInput; apply: () => void; outcome: GateOutcome }[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await this.evidenceStore.appendEntries(batch.map((b) => b.entry));
      for (const b of batch) {
        b.apply();
        if (b.outcome.decision === 'allowed') result.allowed += 1;
        else result.blocked += 1;
      }
      batch = [];
    };
    for (const [hash, s] of due) {
      result.examined += 1;
      const g = await this.#gate(hash, s, at, { latestViewIds });
      if (g === undefined) result.skipped += 1;
      else batch.push(g);
      if (batch.length >= GATE_BATCH) await flush();
    }
    await flush();
    return result;
  }

  /** Verify the store's chain (memory events included) and list a memory's events, or every memory event. */
  async audit(hash?: string): Promise<{ chain: ChainVerification; events: LedgerEntry[] }> {
    if (hash !== undefined) {
      checkText(hash, 'hash', 256);
      await this.refresh();
      this.#known(hash, 'hash');
    }
    const chain = await this.evidenceStore.verifyChain();
    const events = await this.evidenceStore.readEntries({
      kind: MEMORY_EVENT_NAMESPACE,
      ...(hash === undefined ? {} : { subject: propositionOf(hash) }),
      limit: ENTRY_PAGE,
    });
    return { chain, events };
  }

  /** Promotions allowed and blocked, by reason, from the PROMO_GATE events committed in [from, to]. */
  async gateStats(range: { from?: string; to?: string } = {}): Promise<GateStatistics> {
    const from = range.from === undefined ? undefined : instantOf(range.from, 'from');
    const to = range.to === undefined ? undefined : instantOf(range.to, 'to');
    const stats: GateStatistics = { allowed: 0, blocked: 0, by_reason: {}, from: range.from ?? null, to: range.to ?? null };
    let after = -1;
    for (;;) {
      const page = await this.evidenceStore.readEntries({ kind: MEMORY_EVENT_KINDS.promoGate, afterIndex: after, limit: ENTRY_PAGE });
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

  /** Confirmed: the warrant accepts it, or its confidence reaches `confirmed_confidence` (either suffices; neither feeds the other). */
  #isConfirmed(s: MemoryState): boolean {
    return s.warrant.acceptance === 'ACCEPTED' || s.confidence >= this.config.confirmed_confidence;
  }

  /**
   * The memories of one scope with their state at T (for the checkout). Views read here are not kept:
   * a scope may hold 100,000 memories.
   */
  async #states(project: string | null, at: { text: string; instant: Instant }): Promise<(MemoryState & { salience: SalienceRecord })[]> {
    const out: (MemoryState & { salience: SalienceRecord })[] = [];
    for (const [hash, m] of this.#index) {
      if (m.facts.project !== project) continue;
      out.push({ ...(await this.#state(hash, at, this.#views.has(hash))), salience: this.salience.get(hash) ?? emptySalience() });
    }
    return out;
  }

  /**
   * The auto-context: "hot" (the most salient memories, each with class and confidence) and "confirmed"
   * (warrant ACCEPTED or confidence ≥ `confirmed_confidence`), as separate labelled parts. With
   * `eviction_evidence_bias` 0 the hot part is ranked by salience alone. Each part is bounded: at most
   * `limit` rows (default `hot_k`) and `maxBytes` bytes of memory text (default `context_max_bytes`);
   * `omitted` says how many qualifying memories were left out, so a ledger of any size gives a bounded context.
   * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` naming the field (`project`, `at`, `limit`, `maxBytes`).
   */
  async autoContext(options: { project?: string | null; at?: string; limit?: number; maxBytes?: number } = {}): Promise<AutoContext> {
    const project = checkProject(options.project, 'project');
    const at = this.#at(options.at);
    const k = options.limit ?? this.config.hot_k;
    if (!Number.isSafeInteger(k) || k < 0 || k > 10_000) throw badInput('limit', 'must be an integer from 0 to 10000');
    const maxBytes = options.maxBytes ?? this.config.context_max_bytes;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw badInput('maxBytes', 'must be a non-negative integer');
    await this.refresh();
    const inScope = (hash: string) => this.#index.get(hash)?.facts.project === project;
    const bias = this.config.eviction_evidence_bias;

    // Hot: ranked from salience alone (only memories with energy qualify); confidence is read for
    // every memory of the scope only when a bias asks for it.
    const candidates: { hash: string; salience: SalienceRecord; confidence: number }[] = [];
    if (bias === 0) {
      for (const [hash, salience] of this.salience.entries()) if (salience.energy > 0 && inScope(hash)) candidates.push({ hash, salience, confidence: 0 });
    } else {
      for (const [hash, m] of this.#index) {
        if (m.facts.project !== project) continue;
        const cached = await this.#cached(hash, this.#views.has(hash));
        const confidence = confidenceOf(this.#countsOf(cached, at.instant), this.config.confidence, at.instant);
        candidates.push({ hash, salience: this.salience.get(hash) ?? emptySalience(), confidence });
      }
    }
    const hot = await this.#contextPart(hotRanking(candidates, bias, candidates.length), k, maxBytes, at);

    // Confirmed: every memory of the scope is judged (confidence first; the warrant only when
    // confidence alone does not confirm), then the best `k` that fit are shown.
    const confirmed: { hash: string; confidence: number }[] = [];
    for (const [hash, m] of this.#index) {
      if (m.facts.project !== project) continue;
      const keep = this.#views.has(hash);
      const confidence = confidenceOf(this.#countsOf(await this.#cached(hash, keep), at.instant), this.config.confidence, at.instant);
      if (confidence >= this.config.confirmed_confidence || (await this.#state(hash, at, keep)).warrant.acceptance === 'ACCEPTED') {
        confirmed.push({ hash, confidence });
      }
    }
    confirmed.sort((a, b) => b.confidence - a.confidence || (a.hash < b.hash ? -1 : 1));
    const shownConfirmed = await this.#contextPart(
      confirmed.map((c) => c.hash),
      k,
      maxBytes,
      at,
    );
    return {
      evaluated_at: at.text,
      project,
      hot: { label: HOT_LABEL, ...hot },
      confirmed: { label: CONFIRMED_LABEL, ...shownConfirmed },
    };
  }

  /** The first rows of `ranked` within `k` rows and `maxBytes` bytes of text; the rest are counted, not read. */
  async #contextPart(
    ranked: readonly string[],
    k: number,
    maxBytes: number,
    at: { text: string; instant: Instant },
  ): Promise<{ rows: ContextRow[]; omitted: number }> {
    const rows: ContextRow[] = [];
    let bytes = 0;
    for (const hash of ranked) {
      if (rows.length >= k) break;
      const size = Buffer.byteLength(this.#index.get(hash)!.facts.text, 'utf8');
      // A memory too large for what is left is skipped; a smaller one after it may still fit.
      if (bytes + size > maxBytes) continue;
      bytes += size;
      const s = await this.#state(hash, at);
      rows.push({
        hash,
        text: s.text,
        class: s.class,
        confidence: s.confidence,
        acceptance: s.warrant.acceptance,
        conflict: s.warrant.conflict,
        disputed: isDisputedMemory(s),
        salience: this.salience.get(hash) ?? emptySalience(),
      });
    }
    return { rows, omitted: ranked.length - rows.length };
  }

  /** The plain context, as before the evidence layer: the most salient memories' texts, nothing else. */
  async plainContext(options: { project?: string | null; limit?: number } = {}): Promise<{ hash: string; text: string }[]> {
    const project = checkProject(options.project, 'project');
    await this.refresh();
    const scoped: [string, SalienceRecord][] = [];
    for (const [hash, m] of this.#index) if (m.facts.project === project) scoped.push([hash, this.salience.get(hash) ?? emptySalience()]);
    return hotRanking(
      scoped.map(([hash, salience]) => ({ hash, salience, confidence: 0 })),
      0,
      options.limit ?? this.config.hot_k,
    ).map((hash) => ({ hash, text: this.#index.get(hash)!.facts.text }));
  }

  /** Every memory of one scope with its state at T (for the persona checkout). */
  async scopeStates(options: { project?: string | null; at?: string } = {}): Promise<(MemoryState & { salience: SalienceRecord })[]> {
    const project = checkProject(options.project, 'project');
    const at = this.#at(options.at);
    await this.refresh();
    return this.#states(project, at);
  }

  /**
   * The persona file of one scope: the memories promoted into the agent's context and those confirmed,
   * disputed ones stated as disputed, hypotheses as hypotheses; at most `checkout_max_rows` lines and
   * `checkout_max_bytes` bytes of them, with a closing note of how many were left out.
   */
  async checkout(options: { project?: string | null; at?: string } = {}): Promise<string> {
    const project = checkProject(options.project, 'project');
    const at = this.#at(options.at);
    await this.refresh();
    const items: PersonaItem[] = [];
    for (const s of await this.#states(project, at)) {
      const confirmed = this.#isConfirmed(s);
      // Promoted by the chain's PROMO_GATE events, never by anything in the salience store.
      if (!confirmed && this.#index.get(s.hash)?.promoted !== true) continue;
      items.push({
        hash: s.hash,
        text: s.text,
        class: s.class,
        confidence: s.confidence,
        acceptance: s.warrant.acceptance,
        support_count: s.support_count,
        refute_count: s.refute_count,
        confirmed,
        disputed: isDisputedMemory(s),
      });
    }
    items.sort((a, b) => b.confidence - a.confidence || (a.hash < b.hash ? -1 : 1));
    return renderPersonaFile(items, at.text, project, { maxRows: this.config.checkout_max_rows, maxBytes: this.config.checkout_max_bytes });
  }

  /**
   * Read an edited persona file back. A line left as checked out changes nothing; a changed or new line
   * becomes a new inference (derived from the memory it was checked out from, if marked), never
   * verification: its confidence starts at 0 whatever the line claims. Nothing is deleted.
   */
  async readBack(markdown: string, options: { project?: string | null; source?: string } = {}): Promise<{ unchanged: number; asserted: StoreMemoryResult[] }> {
    if (typeof markdown !== 'string') throw badInput('markdown', 'must be the text of the file');
    const project = checkProject(options.project, 'project');
    const source = options.source === undefined ? 'memory.md' : checkText(options.source, 'source', 256);
    await this.refresh();
    let unchanged = 0;
    const at = this.#at(undefined);
    // Every line is checked and made into its memory first; then every new one is written in one
    // commit (one putMany with their STORE events): a file read back is stored whole or not at all.
    const fresh = new Map<string, MemoryFacts>();
    const hashes: string[] = [];
    for (const [i, line] of parsePersonaFile(markdown).entries()) {
      const from = line.hash === null ? undefined : this.#index.get(line.hash);
      if (from !== undefined && oneLine(from.facts.text) === line.text) {
        unchanged += 1;
        continue;
      }
      const text = checkText(line.text, `markdown.lines[${i}]`);
      const hash = memoryHash({ text, project, source });
      const existing = this.#index.get(hash);
      if (existing !== undefined && existing.current !== 'inference') {
        throw new MemoryError('EWP_REFUSE_MEMORY_CLASS_CONFLICT', `memory ${hash} is stored as ${existing.current}; change it with reclass`, {
          path: `markdown.lines[${i}]`,
          memory: hash,
        });
      }
      hashes.push(hash);
      if (existing !== undefined || fresh.has(hash)) continue;
      fresh.set(hash, {
        hash,
        class: 'inference',
        project,
        source,
        text,
        origin_type: defaultOrigin('inference'),
        observed_at: at.text,
        derived_from: from !== undefined && from.facts.project === project ? [from.facts.hash] : [],
      });
    }
    const facts = [...fresh.values()];
    if (facts.length > 0) {
      await this.evidenceStore.putMany(
        facts.map((f) => memoryView(f)),
        { entries: facts.map((f) => storeEvent(f)) },
      );
      await this.refresh();
    }
    const asserted: StoreMemoryResult[] = [];
    for (const hash of hashes) {
      asserted.push({ ...(await this.#state(hash, this.#at(undefined))), status: fresh.has(hash) ? 'stored' : 'unchanged', links: [] });
      // A line repeated in the file is one memory, stored once.
      fresh.delete(hash);
    }
    return { unchanged, asserted };
  }

  /** The time the ledger's clock says it is (for callers that must name T). */
  now(): string {
    return this.#now();
  }

  /** Close the salience store (the EvidenceStore belongs to the caller). */
  close(): void {
    this.salience.close();
  }
}

/**
 * What one PROMO_GATE event says of a memory, applied to its index entry: the one rule for a gate
 * decision read back from the chain and for one just written.
 */
function applyGateEvent(m: Pick<Indexed, 'promoted' | 'blocked_at_state'>, body: Pick<GateEventBody, 'decision' | 'class' | 'view_id'>): void {
  if (body.decision === 'allowed') {
    m.promoted = true;
    m.blocked_at_state = null;
  } else if (!m.promoted) {
    m.blocked_at_state = `${body.class}:${body.view_id}`;
  }
}

/** The latest parsable assertion or observation time of a view: at or after it, every record is available. */
function latestRecordTime(view: EvidenceView): Instant | undefined {
  let latest: Instant | undefined;
  const consider = (time: string) => {
    const t = parseInstant(time);
    if (typeof t !== 'string' && (latest === undefined || compareInstants(t, latest) > 0)) latest = t;
  };
  for (const a of view.assertions) consider(a.asserted_at);
  for (const e of view.evidence) consider(e.observed_at);
  return latest;
}

/**
 * Disputed: something refutes the memory, or its warrant shows an open conflict. The one rule, for
 * every state a context, a recall or a persona file shows.
 */
export function isDisputedMemory(state: Pick<MemoryState, 'refute_count' | 'warrant'>): boolean {
  return state.refute_count > 0 || state.warrant.conflict === 'OPEN';
}

/**
 * The hot set: memories with energy (or, with a bias, confidence) ranked by `energy + bias × confidence`,
 * ties by salience order, the first `k`. With `bias` 0 this is the salience ranking, unchanged.
 */
export function hotRanking(candidates: readonly { hash: string; salience: SalienceRecord; confidence: number }[], bias: number, k: number): string[] {
  const score = (c: { salience: SalienceRecord; confidence: number }) => c.salience.energy + (bias === 0 ? 0 : bias * c.confidence);
  return candidates
    .filter((c) => score(c) > 0)
    .sort((a, b) => score(b) - score(a) || bySalience([a.hash, a.salience], [b.hash, b.salience]))
    .slice(0, k)
    .map((c) => c.hash);
}
