/**
 * Salience: how often, how recently and how strongly a memory is recalled, and the importance only
 * the promotion gate raises. It is mutable and lives outside the ledger: never in a view, a digest, an
 * evidence state or the hash chain. A salience store is deliberately synchronous (the recall hot path
 * must not wait on it); the default keeps it in memory ({@link InMemorySalienceStore}),
 * `JsonlSalienceStore` (salience-file.ts) in a side file.
 */

/**
 * The salience of one memory: salience only. Whether a memory is promoted is read from the PROMO_GATE
 * events of the audited chain, never from here, so nothing in a salience file can promote, confirm or
 * label a memory (a `promoted` or `blocked_at_state` field in an older file is ignored).
 */
export interface SalienceRecord {
  recall_count: number;
  /** Recall and replay add to it; promotion is attempted when it reaches `promotion_energy`. */
  energy: number;
  /** Raised by the promotion gate only. */
  importance: number;
  last_recalled_at: string | null;
}

/** A fresh record. */
export function emptySalience(): SalienceRecord {
  return { recall_count: 0, energy: 0, importance: 0, last_recalled_at: null };
}

/** A copy of a record, field by field: the recall hot path makes one per returned memory. */
export function copyOf(r: SalienceRecord): SalienceRecord {
  return {
    recall_count: r.recall_count,
    energy: r.energy,
    importance: r.importance,
    last_recalled_at: r.last_recalled_at,
  };
}

/** Overwrite `target` with `record`, field by field: a kept record is updated in place (no garbage on the hot path). */
export function copyInto(target: SalienceRecord, record: SalienceRecord): void {
  target.recall_count = record.recall_count;
  target.energy = record.energy;
  target.importance = record.importance;
  target.last_recalled_at = record.last_recalled_at;
}

/** Store `record` under `hash` in `records`, in place when one is kept. */
function keep(records: Map<string, SalienceRecord>, hash: string, record: SalienceRecord): void {
  const r = records.get(hash);
  if (r === undefined) records.set(hash, copyOf(record));
  else copyInto(r, record);
}

/**
 * Where salience is kept: what the memory layer needs of it, nothing more. The layer computes each
 * change (a recall's bump, the gate's importance) and sets the whole record.
 */
export interface SalienceStore {
  /** A copy of the memory's record; `undefined`: never recalled. */
  get(hash: string): SalienceRecord | undefined;
  /** Keep a copy of `record` as the memory's salience. */
  set(hash: string, record: SalienceRecord): void;
  /** Every record, in no particular order. */
  entries(): Iterable<[string, SalienceRecord]>;
  /** Write what is pending and let go of what the store holds (a file, its lock). */
  close(): void;
}

/** A memory layer's own entry for one memory, with a slot for its salience. */
export interface SalienceSlot {
  salience: SalienceRecord | undefined;
}

/** Put `record` in `slot`: over the record the slot holds (unless it is that very record), else a copy. */
export function fillSlot(slot: SalienceSlot, record: SalienceRecord): void {
  if (slot.salience === undefined) slot.salience = copyOf(record);
  else if (slot.salience !== record) copyInto(slot.salience, record);
}

/**
 * Salience in memory: lost when the process ends. Made by a `MemoryLedger` (its default) with the
 * layer's own entries as slots: recall has just looked a memory's entry up, so raising its salience
 * for the first time fills a field instead of inserting into a second map as large as the ledger (the
 * insertion, with its cache misses and rehashing, was most of the recall hot path's own cost). A hash
 * without a slot (not indexed yet, or every hash of a store made without slots) is kept in a map of
 * its own until it gets one.
 */
export class InMemorySalienceStore implements SalienceStore {
  readonly #slot: (hash: string) => SalienceSlot | undefined;
  readonly #slots: () => Iterable<[string, SalienceSlot]>;
  /** Records of hashes without a slot when they were set. */
  readonly #loose = new Map<string, SalienceRecord>();

  /** `slot`: the entry of a memory, if the layer has one; `slots`: every entry. Default: no slots. */
  constructor(slot: (hash: string) => SalienceSlot | undefined = () => undefined, slots: () => Iterable<[string, SalienceSlot]> = () => []) {
    this.#slot = slot;
    this.#slots = slots;
  }

  /** A copy of the memory's record; `undefined`: never recalled. */
  get(hash: string): SalienceRecord | undefined {
    const r = this.#slot(hash)?.salience ?? (this.#loose.size === 0 ? undefined : this.#loose.get(hash));
    return r === undefined ? undefined : copyOf(r);
  }

  /** Keep a copy of `record` as the memory's salience. */
  set(hash: string, record: SalienceRecord): void {
    const slot = this.#slot(hash);
    if (slot === undefined) {
      keep(this.#loose, hash, record);
      return;
    }
    const first = slot.salience === undefined;
    fillSlot(slot, record);
    // Indexed since it was set loose: the slot holds it from now on.
    if (first && this.#loose.size > 0) this.#loose.delete(hash);
  }

  /** Every record (copies), in no particular order. */
  entries(): Iterable<[string, SalienceRecord]> {
    const out: [string, SalienceRecord][] = [];
    for (const [hash, slot] of this.#slots()) if (slot.salience !== undefined) out.push([hash, copyOf(slot.salience)]);
    for (const [hash, r] of this.#loose) if (this.#slot(hash)?.salience === undefined) out.push([hash, copyOf(r)]);
    return out;
  }

  /** Nothing to let go of. */
  close(): void {}
}
