/**
 * What the gate needs to know of the decisions already in a ledger, read incrementally: the latest
 * decision per action that no recovery gate held (the baseline a later use is re-checked against),
 * the explicit retractions per proposition, and the latest re-evaluation per proposition. One
 * `readEntries` call per sync reads only what was appended since the last one, by any process.
 */
import { InvalidArgumentError } from '@ewp/core';
import type { DecisionRecord, DecisionSignature } from '@ewp/receipts';
import type { EntryQuery, EvidenceStore, LedgerEntry } from '@ewp/ledger';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';

/** A decision as stored: its id, its place in the chain, the record and its signature. */
export interface StoredDecision {
  decision_id: string;
  chain_index: number;
  committed_at: string;
  record: DecisionRecord;
  signature: DecisionSignature | null;
}

/** The latest re-evaluation of a proposition. */
export interface StoredReevaluation {
  chain_index: number;
  view_id: string;
}

const PAGE = 100_000;

/** Every entry `query` selects after chain index `after` (all, when undefined), oldest first, read a page at a time. */
export async function* entriesAfter(
  store: EvidenceStore,
  query: Omit<EntryQuery, 'afterIndex' | 'limit' | 'newestFirst' | 'beforeIndex'>,
  after?: number,
): AsyncGenerator<LedgerEntry> {
  for (let from = after; ; ) {
    const page = await store.readEntries({ ...query, ...(from === undefined ? {} : { afterIndex: from }), limit: PAGE });
    yield* page;
    if (page.length < PAGE) return;
    from = (page[page.length - 1] as LedgerEntry).chain_index;
  }
}

/** A decision entry's body as stored (`{record, signature}`), or undefined when it is not one. */
export function storedDecision(entry: LedgerEntry): StoredDecision | undefined {
  const body = entry.body as { record?: unknown; signature?: unknown };
  if (entry.kind !== DECISION_ENTRY_KINDS.decision || typeof body.record !== 'object' || body.record === null) return undefined;
  return {
    decision_id: entry.id,
    chain_index: entry.chain_index,
    committed_at: entry.committed_at,
    record: body.record as DecisionRecord,
    signature: (body.signature ?? null) as DecisionSignature | null,
  };
}

/** Whether no recovery gate held this decision: it is a baseline for later uses of its action. */
export function isClean(record: DecisionRecord): boolean {
  return record.recovery === null || record.recovery.decision === 'MAY_ACT';
}

/**
 * What a recovery gate reads of the decisions already in a ledger: a {@link DecisionLedger} (everything,
 * kept in step), or {@link decisionFactsFor}'s answers for one action and the propositions it consults.
 */
export interface DecisionFacts {
  /** The latest decision on `actionId` that no recovery gate held. */
  baseline(actionId: string): StoredDecision | undefined;
  /** Records of the proposition explicitly retracted (`<kind>:<id>`, e.g. `check:C-1`). */
  refuted(propositionId: string): ReadonlySet<string>;
  /** Chain index of the latest retraction of the proposition's records (-1: none). */
  lastRefutation(propositionId: string): number;
  /** The latest re-evaluation of the proposition. */
  reevaluation(propositionId: string): StoredReevaluation | undefined;
}

/**
 * The proposition a re-evaluation or retraction entry is about: its body's `proposition_id`, when its
 * subjects list it too (the subject index then finds it; one rule for the full index and the scoped read).
 */
function entryProposition(entry: LedgerEntry): string | undefined {
  const pid = (entry.body as { proposition_id?: unknown }).proposition_id;
  return typeof pid === 'string' && entry.subjects.includes(pid) ? pid : undefined;
}

const indexes = new WeakMap<EvidenceStore, DecisionLedger>();

/** The incremental decision index of one store handle. */
export class DecisionLedger implements DecisionFacts {
  readonly #store: EvidenceStore;
  #afterIndex: number | undefined;
  #syncing: Promise<void> = Promise.resolve();
  readonly #cleanByAction = new Map<string, StoredDecision>();
  readonly #refuted = new Map<string, { records: Set<string>; lastIndex: number }>();
  readonly #reevaluated = new Map<string, StoredReevaluation>();

  private constructor(store: EvidenceStore) {
    this.#store = store;
  }

  /** The index of `store` (one per store handle). */
  static for(store: EvidenceStore): DecisionLedger {
    let index = indexes.get(store);
    if (index === undefined) {
      index = new DecisionLedger(store);
      indexes.set(store, index);
    }
    return index;
  }

  /** Reads the entries appended since the last sync (calls are serialized). */
  sync(): Promise<void> {
    this.#syncing = this.#syncing.then(
      () => this.#readNew(),
      () => this.#readNew(),
    );
    return this.#syncing;
  }

  async #readNew(): Promise<void> {
    const kinds = [DECISION_ENTRY_KINDS.decision, DECISION_ENTRY_KINDS.evaluated, DECISION_ENTRY_KINDS.invalidation];
    for await (const entry of entriesAfter(this.#store, { kind: kinds }, this.#afterIndex)) {
      this.#note(entry);
      this.#afterIndex = entry.chain_index;
    }
  }

  #note(entry: LedgerEntry): void {
    if (entry.kind === DECISION_ENTRY_KINDS.decision) {
      const d = storedDecision(entry);
      if (d !== undefined && isClean(d.record)) this.#cleanByAction.set(d.record.action.action_id, d);
      return;
    }
    const pid = entryProposition(entry);
    if (pid !== undefined) noteAbout(pid, entry, this.#reevaluated, this.#refuted);
  }

  /** The latest decision on `actionId` that no recovery gate held. */
  baseline(actionId: string): StoredDecision | undefined {
    return this.#cleanByAction.get(actionId);
  }

  /** Records of the proposition explicitly retracted (`<kind>:<id>`, e.g. `check:C-1`). */
  refuted(propositionId: string): ReadonlySet<string> {
    return this.#refuted.get(propositionId)?.records ?? EMPTY;
  }

  /** Chain index of the latest retraction of the proposition's records (-1: none). */
  lastRefutation(propositionId: string): number {
    return this.#refuted.get(propositionId)?.lastIndex ?? -1;
  }

  /** The latest re-evaluation of the proposition. */
  reevaluation(propositionId: string): StoredReevaluation | undefined {
    return this.#reevaluated.get(propositionId);
  }
}

const EMPTY: ReadonlySet<string> = new Set();

type Refutations = Map<string, { records: Set<string>; lastIndex: number }>;

/** Note a re-evaluation or retraction entry about `pid` (read oldest first: the latest wins). */
function noteAbout(pid: string, entry: LedgerEntry, reevaluated: Map<string, StoredReevaluation>, refuted: Refutations): void {
  const body = entry.body as { view_id?: unknown; records?: unknown };
  if (entry.kind === DECISION_ENTRY_KINDS.evaluated && typeof body.view_id === 'string') {
    reevaluated.set(pid, { chain_index: entry.chain_index, view_id: body.view_id });
  } else if (entry.kind === DECISION_ENTRY_KINDS.invalidation && Array.isArray(body.records)) {
    let r = refuted.get(pid);
    if (r === undefined) {
      r = { records: new Set(), lastIndex: -1 };
      refuted.set(pid, r);
    }
    for (const id of body.records) if (typeof id === 'string') r.records.add(id);
    r.lastIndex = entry.chain_index;
  }
}

/** Decisions in the first page read back from the newest (the action's latest is usually among them); each next page is four times larger. */
const FIRST_BACK_PAGE = 8;

/**
 * The {@link DecisionFacts} one decision on `actionId` consults, read by index rather than by reading every
 * decision the ledger holds: the action's baseline paging back from the newest decision (usually the first
 * page), then the re-evaluations and retractions of `propositions` and of the baseline's basis through the
 * subject index. Each answer is the one a synced {@link DecisionLedger} gives, so a process that decides
 * once (a hook) does not pay for the ledger's whole decision history. A store whose entries do not come
 * back newest first is read in full as before. Asking about another proposition throws.
 */
export async function decisionFactsFor(store: EvidenceStore, actionId: string, propositions: Iterable<string>): Promise<DecisionFacts> {
  const found = await latestClean(store, actionId);
  if (found === 'unordered') {
    const ledger = DecisionLedger.for(store);
    await ledger.sync();
    return ledger;
  }
  const pids = new Set(propositions);
  for (const b of found?.record.basis ?? []) pids.add(b.proposition_id);
  const reevaluated = new Map<string, StoredReevaluation>();
  const refuted: Refutations = new Map();
  const kinds = [DECISION_ENTRY_KINDS.evaluated, DECISION_ENTRY_KINDS.invalidation];
  for (const pid of pids) {
    for await (const entry of entriesAfter(store, { kind: kinds, subject: pid })) {
      if (entryProposition(entry) === pid) noteAbout(pid, entry, reevaluated, refuted);
    }
  }
  const scoped = (pid: string): string => {
    if (!pids.has(pid)) throw new InvalidArgumentError('propositionId', `decisionFactsFor: ${JSON.stringify(pid)} was not among the propositions read`);
    return pid;
  };
  return {
    baseline: (id) => {
      if (id !== actionId)
        throw new InvalidArgumentError('actionId', `decisionFactsFor: read for action ${JSON.stringify(actionId)}, asked for ${JSON.stringify(id)}`);
      return found;
    },
    refuted: (pid) => refuted.get(scoped(pid))?.records ?? EMPTY,
    lastRefutation: (pid) => refuted.get(scoped(pid))?.lastIndex ?? -1,
    reevaluation: (pid) => reevaluated.get(scoped(pid)),
  };
}

/**
 * The latest decision on `actionId` that no recovery gate held, paging back from the newest decision;
 * `'unordered'` when the store does not return entries newest first (it ignores `newestFirst`).
 */
async function latestClean(store: EvidenceStore, actionId: string): Promise<StoredDecision | undefined | 'unordered'> {
  let before: number | undefined;
  for (let limit = FIRST_BACK_PAGE; ; limit = Math.min(limit * 4, PAGE)) {
    const page = await store.readEntries({
      kind: DECISION_ENTRY_KINDS.decision,
      newestFirst: true,
      ...(before === undefined ? {} : { beforeIndex: before }),
      limit,
    });
    // The whole page in order first: a store that ignores `newestFirst` returns its oldest decisions.
    for (const entry of page) {
      if (before !== undefined && entry.chain_index >= before) return 'unordered';
      before = entry.chain_index;
    }
    for (const entry of page) {
      const d = storedDecision(entry);
      if (d !== undefined && d.record.action.action_id === actionId && isClean(d.record)) return d;
    }
    if (page.length < limit) return undefined;
  }
}
