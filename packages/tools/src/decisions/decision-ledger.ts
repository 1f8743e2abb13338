/**
 * What the gate needs to know of the decisions already in a ledger, read incrementally: the latest
 * decision per action that no recovery gate held (the baseline a later use is re-checked against),
 * the explicit retractions per proposition, and the latest re-evaluation per proposition. One
 * `readEntries` call per sync reads only what was appended since the last one, by any process.
 */
import type { DecisionRecord, DecisionSignature } from '@ewp/receipts';
import type { EvidenceStore, LedgerEntry } from '@ewp/ledger';
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

const indexes = new WeakMap<EvidenceStore, DecisionLedger>();

/** The incremental decision index of one store handle. */
export class DecisionLedger {
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
    for (;;) {
      const page = await this.#store.readEntries({ kind: kinds, afterIndex: this.#afterIndex, limit: PAGE });
      for (const entry of page) this.#note(entry);
      if (page.length > 0) this.#afterIndex = (page[page.length - 1] as LedgerEntry).chain_index;
      if (page.length < PAGE) return;
    }
  }

  #note(entry: LedgerEntry): void {
    if (entry.kind === DECISION_ENTRY_KINDS.decision) {
      const d = storedDecision(entry);
      if (d !== undefined && isClean(d.record)) this.#cleanByAction.set(d.record.action.action_id, d);
      return;
    }
    const body = entry.body as { proposition_id?: unknown; view_id?: unknown; records?: unknown };
    if (typeof body.proposition_id !== 'string') return;
    if (entry.kind === DECISION_ENTRY_KINDS.evaluated && typeof body.view_id === 'string') {
      this.#reevaluated.set(body.proposition_id, { chain_index: entry.chain_index, view_id: body.view_id });
    } else if (entry.kind === DECISION_ENTRY_KINDS.invalidation && Array.isArray(body.records)) {
      let r = this.#refuted.get(body.proposition_id);
      if (r === undefined) {
        r = { records: new Set(), lastIndex: -1 };
        this.#refuted.set(body.proposition_id, r);
      }
      for (const id of body.records) if (typeof id === 'string') r.records.add(id);
      r.lastIndex = entry.chain_index;
    }
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
