/**
 * Salience: how often, how recently and how strongly a memory is recalled, and the importance only
 * the promotion gate raises. It is mutable and lives outside the ledger: never in a view, a digest, an
 * evidence state or the hash chain. A salience store is deliberately synchronous (the recall hot path
 * must not wait on it); the default keeps it in memory, {@link JsonlSalienceStore} in a side file.
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { badInput } from './errors.js';

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

/** Where salience is kept. */
export interface SalienceStore {
  get(hash: string): SalienceRecord | undefined;
  set(hash: string, record: SalienceRecord): void;
  /** Every record, in no particular order. */
  entries(): Iterable<[string, SalienceRecord]>;
  close(): void;
}

/** Salience in memory: lost when the process ends (the default). */
export class InMemorySalienceStore implements SalienceStore {
  readonly #records = new Map<string, SalienceRecord>();
  get(hash: string): SalienceRecord | undefined {
    const r = this.#records.get(hash);
    return r === undefined ? undefined : copyOf(r);
  }
  set(hash: string, record: SalienceRecord): void {
    keep(this.#records, hash, record);
  }
  entries(): Iterable<[string, SalienceRecord]> {
    return [...this.#records].map(([h, r]) => [h, copyOf(r)] as [string, SalienceRecord]);
  }
  close(): void {}
}

/** A memory layer's own entry for one memory, with a slot for its salience ({@link SlotSalienceStore}). */
export interface SalienceSlot {
  salience: SalienceRecord | undefined;
}

/** Put `record` in `slot`: over the record the slot holds (unless it is that very record), else a copy. */
export function fillSlot(slot: SalienceSlot, record: SalienceRecord): void {
  if (slot.salience === undefined) slot.salience = copyOf(record);
  else if (slot.salience !== record) copyInto(slot.salience, record);
}

/**
 * Salience in memory, kept in a slot of the memory layer's own entry for each memory: the default of a
 * `MemoryLedger`. Recall has just looked that entry up, so raising a memory's salience for the first time
 * fills a field instead of inserting into a second map as large as the ledger (the insertion, with its
 * cache misses and rehashing, was most of the recall hot path's own cost). A hash the layer has not
 * indexed (yet) is kept in a map of its own. Lost when the process ends, as {@link InMemorySalienceStore}.
 */
export class SlotSalienceStore implements SalienceStore {
  readonly #slot: (hash: string) => SalienceSlot | undefined;
  readonly #slots: () => Iterable<[string, SalienceSlot]>;
  /** Records of hashes without a slot when they were set. */
  readonly #loose = new Map<string, SalienceRecord>();

  /** `slot`: the entry of a memory, if the layer has one; `slots`: every entry. */
  constructor(slot: (hash: string) => SalienceSlot | undefined, slots: () => Iterable<[string, SalienceSlot]>) {
    this.#slot = slot;
    this.#slots = slots;
  }

  get(hash: string): SalienceRecord | undefined {
    const r = this.#slot(hash)?.salience ?? (this.#loose.size === 0 ? undefined : this.#loose.get(hash));
    return r === undefined ? undefined : copyOf(r);
  }

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

  entries(): Iterable<[string, SalienceRecord]> {
    const out: [string, SalienceRecord][] = [];
    for (const [hash, slot] of this.#slots()) if (slot.salience !== undefined) out.push([hash, copyOf(slot.salience)]);
    for (const [hash, r] of this.#loose) if (this.#slot(hash)?.salience === undefined) out.push([hash, copyOf(r)]);
    return out;
  }

  close(): void {}
}

/**
 * Past this many changes (a memory counts each time it changes) the lines are written at once, without
 * waiting for the delay: a bound on what a burst that never yields to the event loop holds back (a few
 * MB of lines).
 */
const FLUSH_RECORDS = 16_384;
/**
 * How long bumps wait before they go out together (ms). An agent recalls in bursts; one write per
 * burst rather than per recall keeps the hot path's cost close to salience kept in memory.
 */
export const SALIENCE_FLUSH_DELAY_MS = 50;

/** One line of the side file, written out by hand: the hot path's serialization, a few times cheaper than `JSON.stringify`. */
function lineOf(hash: string, r: SalienceRecord): string {
  if (!Number.isFinite(r.recall_count) || !Number.isFinite(r.energy) || !Number.isFinite(r.importance)) return `${JSON.stringify({ h: hash, r: copyOf(r) })}\n`;
  const text = (v: string | null) => (v === null ? 'null' : JSON.stringify(v));
  return `{"h":${JSON.stringify(hash)},"r":{"recall_count":${r.recall_count},"energy":${r.energy},"importance":${r.importance},"last_recalled_at":${text(r.last_recalled_at)}}}\n`;
}

/** Stores with bumps waiting for their delay (a store leaves once it has written them); one `exit` listener writes them all. */
const pendingStores = new Set<JsonlSalienceStore>();
let exitListener = false;
function pendingAtExit(store: JsonlSalienceStore): void {
  pendingStores.add(store);
  if (exitListener) return;
  exitListener = true;
  process.once('exit', () => {
    for (const s of pendingStores) {
      try {
        s.flush();
      } catch {
        // Salience is advisory; a process that is ending has no one to tell.
      }
    }
  });
}

/**
 * Salience in a side file of JSON lines next to the ledger (`ewp.salience.jsonl`): a change appends
 * the memory's whole record; opening replays the file (the last line of a memory wins) and rewrites it
 * compactly when most of its lines are superseded. A torn last line (a crash mid-write) is skipped:
 * salience is advisory, losing one bump is harmless.
 *
 * `set` is the recall hot path, so it only marks the memory changed: 50 ms
 * later (or at once past 16,384 changes) each changed memory's latest record goes out as one
 * line, all in one write through a descriptor kept open; {@link flush}, {@link close} and the process's
 * `exit` write what is pending. A crash loses at most the last 50 ms of bumps. A failed background
 * write is kept and thrown by the next {@link flush} or {@link close}; salience stays correct in memory.
 */
export class JsonlSalienceStore implements SalienceStore {
  readonly path: string;
  readonly #records = new Map<string, SalienceRecord>();
  /**
   * Changes not yet applied to `#records`, in order: the hash, and a copy of its record at the same
   * index. Two array pushes are the hot path's whole cost; the map (an insertion per memory changed for
   * the first time, which measured as a fifth of a recall) is brought up to date behind it: by the
   * write, or by the first read.
   */
  #pendingHashes: string[] = [];
  #pendingRecords: SalienceRecord[] = [];
  #lines = 0;
  /** Memories changed since the last write, a memory as often as it changed; repeats are dropped when the lines are written. */
  #dirty: string[] = [];
  #scheduled: NodeJS.Timeout | undefined;
  #fd: number | undefined;
  #failed: unknown;
  #closed = false;

  constructor(path: string) {
    if (typeof path !== 'string' || path === '') throw badInput('salience.path', 'must be a file path');
    this.path = path;
    if (existsSync(path)) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (line === '') continue;
        let parsed: { h?: unknown; r?: unknown };
        try {
          parsed = JSON.parse(line);
        } catch {
          continue;
        }
        if (typeof parsed.h === 'string' && typeof parsed.r === 'object' && parsed.r !== null) {
          // Salience fields only: an older file's `promoted` and `blocked_at_state` are dropped here.
          this.#records.set(parsed.h, copyOf({ ...emptySalience(), ...(parsed.r as Partial<SalienceRecord>) }));
          this.#lines += 1;
        }
      }
      if (this.#lines > 2 * this.#records.size + 64) this.#compact();
    }
  }

  get(hash: string): SalienceRecord | undefined {
    this.#settle();
    const r = this.#records.get(hash);
    return r === undefined ? undefined : copyOf(r);
  }

  set(hash: string, record: SalienceRecord): void {
    if (this.#closed) throw badInput('salience', `the salience file ${this.path} is closed`);
    this.#pendingHashes.push(hash);
    this.#pendingRecords.push(copyOf(record));
    if (this.#pendingHashes.length + this.#dirty.length >= FLUSH_RECORDS) this.#write();
    else if (this.#scheduled === undefined) {
      // Unref'd: pending bumps never keep a process alive; `exit` writes them.
      this.#scheduled = setTimeout(() => this.#write(), SALIENCE_FLUSH_DELAY_MS).unref();
      pendingAtExit(this);
    }
  }

  entries(): Iterable<[string, SalienceRecord]> {
    this.#settle();
    return [...this.#records].map(([h, r]) => [h, copyOf(r)] as [string, SalienceRecord]);
  }

  /** Apply the pending changes to the map of every record; their memories wait for the next write. */
  #settle(): void {
    const hashes = this.#pendingHashes;
    if (hashes.length === 0) return;
    const records = this.#pendingRecords;
    this.#pendingHashes = [];
    this.#pendingRecords = [];
    for (let i = 0; i < hashes.length; i += 1) {
      const hash = hashes[i] as string;
      const kept = this.#records.get(hash);
      if (kept === undefined) this.#records.set(hash, records[i] as SalienceRecord);
      else copyInto(kept, records[i] as SalienceRecord);
      this.#dirty.push(hash);
    }
  }

  /** Write every pending line now; throws a write that failed since the last flush. */
  flush(): void {
    this.#write();
    if (this.#failed !== undefined) {
      const error = this.#failed;
      this.#failed = undefined;
      throw error;
    }
  }

  /** Flush and release the file; later `set` calls are refused. */
  close(): void {
    if (this.#closed) return;
    try {
      this.flush();
    } finally {
      this.#closed = true;
      if (this.#fd !== undefined) closeSync(this.#fd);
      this.#fd = undefined;
    }
  }

  /** Pending lines out in one write. Never throws: a background failure must not end the process. */
  #write(): void {
    if (this.#scheduled !== undefined) clearTimeout(this.#scheduled);
    this.#scheduled = undefined;
    // Nothing waits any more: a store never closed is not kept alive for the exit listener.
    pendingStores.delete(this);
    this.#settle();
    if (this.#dirty.length === 0) return;
    const dirty = this.#dirty;
    this.#dirty = [];
    const written = new Set<string>();
    let text = '';
    for (const hash of dirty) {
      if (written.has(hash)) continue;
      written.add(hash);
      text += lineOf(hash, this.#records.get(hash)!);
    }
    this.#lines += written.size;
    try {
      this.#fd ??= openSync(this.path, 'a');
      writeSync(this.#fd, text);
    } catch (error) {
      this.#failed ??= error;
    }
  }

  #compact(): void {
    const text = [...this.#records].map(([h, r]) => lineOf(h, r)).join('');
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, this.path);
    this.#lines = this.#records.size;
  }
}

/** Where a ledger is: the options a CLI verb or `ewp serve` was given (paths as given, resolved against `cwd`). */
export interface LedgerLocation {
  /** A SQLite ledger file. */
  db?: string;
  /** A JSON-file ledger directory. */
  jsonDir?: string;
  /** PostgreSQL: salience stays in memory unless `salience` names a file. */
  pg?: string;
  /** An explicit salience file; wins over the default beside the ledger. */
  salience?: string;
  /** Directory relative paths are resolved against. Default: the process's working directory. */
  cwd?: string;
}

/**
 * The salience side file of a ledger: `salience` if given, else `<db>.salience.jsonl` beside a SQLite
 * file or `<dir>.salience.jsonl` beside a JSON-file ledger; `undefined` (salience in memory) for a
 * PostgreSQL or an in-memory ledger. The one rule for every surface that opens a ledger by location.
 */
export function saliencePathFor(location: LedgerLocation): string | undefined {
  const cwd = location.cwd ?? process.cwd();
  if (location.salience !== undefined) return resolve(cwd, location.salience);
  if (location.db !== undefined) return `${resolve(cwd, location.db)}.salience.jsonl`;
  if (location.jsonDir !== undefined) return `${resolve(cwd, location.jsonDir).replace(/[\\/]+$/, '')}.salience.jsonl`;
  return undefined;
}

/** The salience store of a ledger at `location` ({@link saliencePathFor}): the side file, or in memory. */
export function openSalienceStore(location: LedgerLocation): SalienceStore {
  const path = saliencePathFor(location);
  return path === undefined ? new InMemorySalienceStore() : new JsonlSalienceStore(path);
}
