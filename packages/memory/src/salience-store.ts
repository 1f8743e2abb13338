/**
 * Salience: how often, how recently and how strongly a memory is recalled, and the importance only
 * the promotion gate raises. It is mutable and lives outside the ledger: never in a view, a digest, an
 * evidence state or the hash chain. A salience store is deliberately synchronous (the recall hot path
 * must not wait on it); the default keeps it in memory, {@link JsonlSalienceStore} in a side file.
 */
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { parseInstant } from '@ewp/core';
import { badInput } from './errors.js';
import { hashOfProposition, propositionOf } from './memory-records.js';

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

/**
 * Past this length (bytes, without its newline) a line of the side file is not a record: a record is a
 * memory hash and four short fields (under 200 bytes), so what is longer was not written by a store.
 * Bounds what one line costs to read, whatever the file holds.
 */
export const SALIENCE_LINE_MAX = 1024;
/**
 * The side file is rewritten once it holds more than twice as many lines as memories plus this many:
 * it stays within `2 × memories + 256` lines however many recalls it records, and a rewrite costs at most
 * one line per line appended since the last one.
 */
const COMPACT_SLACK = 256;
/** A lock file whose content cannot be read is being written by its opener, unless it is older than this (ms). */
const LOCK_WRITE_GRACE_MS = 5_000;
/** A store waiting for another process's lock asks again at most this often (ms), and at close. */
const LOCK_RETRY_MS = 1_000;

/** How each field of a line's record is checked (a field a line leaves out keeps its empty value; other keys are ignored). */
const FIELD_CHECKS: { readonly [K in keyof SalienceRecord]: (value: unknown) => boolean } = {
  recall_count: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  energy: (v) => typeof v === 'number' && Number.isFinite(v),
  importance: (v) => typeof v === 'number' && Number.isFinite(v),
  last_recalled_at: (v) => v === null || (typeof v === 'string' && v.length <= 64 && typeof parseInstant(v) !== 'string'),
};
const FIELD_NAMES = Object.keys(FIELD_CHECKS) as (keyof SalienceRecord)[];

/** Whether `hash` is a memory hash (the rule of memory-records: a memory's proposition names it). */
function isMemoryHash(hash: unknown): hash is string {
  return typeof hash === 'string' && hashOfProposition(propositionOf(hash)) === hash;
}

/** Whether `line` (ending in its newline), written for `hash`, reads back as a record. */
function isRecordLine(hash: string, line: string): boolean {
  // Most lines are ASCII and far below the bound: the byte count is taken only near it.
  return isMemoryHash(hash) && (line.length <= SALIENCE_LINE_MAX / 3 || Buffer.byteLength(line) <= SALIENCE_LINE_MAX + 1);
}

/** The record a line of the side file holds, or why it holds none. */
function recordOfLine(line: Buffer): { hash: string; record: SalienceRecord } | string {
  if (!isUtf8(line)) return 'not UTF-8';
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch {
    return 'not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'not an object';
  const { h, r } = parsed as { h?: unknown; r?: unknown };
  if (!isMemoryHash(h)) return '"h" is not a memory hash';
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return '"r" is not an object';
  const record = emptySalience();
  for (const name of FIELD_NAMES) {
    if (!Object.hasOwn(r, name)) continue;
    const value = (r as Record<string, unknown>)[name];
    if (!FIELD_CHECKS[name](value)) return `"r.${name}" is out of range`;
    (record as unknown as Record<string, unknown>)[name] = value;
  }
  return { hash: h, record };
}

/** What reading a side file found. */
interface Replay {
  records: Map<string, SalienceRecord>;
  /** Lines in the file, read or not. */
  lines: number;
  skipped: number;
  /** The first skipped line: its number and why. */
  first: string | undefined;
  /** The last line has no newline (a write cut short, or one under way in another process). */
  torn: boolean;
}

/**
 * Read the side file at `path` line by line through one 64 KiB buffer (a file of any size costs the
 * records it holds, never the whole file as one string); a missing file holds nothing. A line that is
 * longer than {@link SALIENCE_LINE_MAX}, not UTF-8, not JSON or not a well-formed record is skipped and
 * counted; a last line without its newline is skipped silently when `tornIsExpected` (another process
 * may be writing it), else counted too. The last line of a memory wins.
 */
function replay(path: string, tornIsExpected: boolean): Replay {
  const out: Replay = { records: new Map(), lines: 0, skipped: 0, first: undefined, torn: false };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw error;
  }
  const take = (line: Buffer | undefined, terminated: boolean) => {
    out.lines += 1;
    if (line !== undefined && line.length === 0) return;
    const read = line === undefined ? `longer than ${SALIENCE_LINE_MAX} bytes` : recordOfLine(line);
    if (typeof read !== 'string') {
      const kept = out.records.get(read.hash);
      if (kept === undefined) out.records.set(read.hash, read.record);
      else copyInto(kept, read.record);
      return;
    }
    if (!terminated && tornIsExpected) return;
    out.skipped += 1;
    out.first ??= `line ${out.lines}: ${terminated ? read : `${read} (cut short)`}`;
  };
  try {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    // The line read so far across chunks (copies: the chunk is reused), or undefined once it is too long.
    let partial: Buffer[] | undefined = [];
    let partialLength = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const view = chunk.subarray(0, n);
      let start = 0;
      for (;;) {
        const newline = view.indexOf(0x0a, start);
        const piece = view.subarray(start, newline === -1 ? n : newline);
        if (partial !== undefined && partialLength + piece.length > SALIENCE_LINE_MAX) partial = undefined;
        if (newline === -1) {
          if (partial !== undefined && piece.length > 0) {
            partial.push(Buffer.from(piece));
            partialLength += piece.length;
          }
          break;
        }
        take(partial === undefined ? undefined : partialLength === 0 ? piece : Buffer.concat([...partial, piece]), true);
        partial = [];
        partialLength = 0;
        start = newline + 1;
      }
    }
    if (partial === undefined || partialLength > 0) {
      out.torn = true;
      take(partial === undefined ? undefined : Buffer.concat(partial), false);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/** Who holds a side file's lock: written into `<file>.lock` by the store that took it. */
interface LockHolder {
  pid: number;
  host: string;
  /** The worker thread (0: the main thread). */
  thread: number;
  /** Tells this holding apart from any other (a later process may get the same pid). */
  token: string;
  since: string;
}

/**
 * The locks this thread holds, by lock path, with each one's token; on `globalThis`, so two copies of
 * this module in one process (two bundles) agree on which locks are live.
 */
const heldLocks: Map<string, string> = (() => {
  const shared = globalThis as { [key: symbol]: Map<string, string> | undefined };
  const key = Symbol.for('ewp.memory.salience-locks');
  shared[key] ??= new Map();
  return shared[key];
})();

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function holderOf(text: string): LockHolder | undefined {
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isSafeInteger(h.pid) && typeof h.host === 'string' && Number.isSafeInteger(h.thread) && typeof h.token === 'string') return h as LockHolder;
  } catch {
    // Not a holder: judged by its age.
  }
  return undefined;
}

/**
 * Whether the lock at `lockPath`, holding `text`, belongs to a live holder. A process on another host
 * cannot be asked, so its lock is live; a process of this host is asked with signal 0; this very
 * thread's pid (a restarted container reuses it) is live only while this thread holds that lock.
 */
function isLive(lockPath: string, text: string): boolean {
  const holder = holderOf(text);
  if (holder === undefined) {
    const stat = statSync(lockPath, { throwIfNoEntry: false });
    return stat !== undefined && Date.now() - stat.mtimeMs < LOCK_WRITE_GRACE_MS;
  }
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return holder.thread !== threadId || heldLocks.get(lockPath) === holder.token;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove a stale lock that held `judged`: moved aside first and removed only if what was moved is what
 * was judged stale; a lock taken meanwhile by another opener is put back.
 */
function breakStale(lockPath: string, judged: string): void {
  const aside = `${lockPath}.stale-${process.pid}-${randomUUID()}`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readText(aside) !== judged) linkSync(aside, lockPath);
  } catch {
    // Another opener's lock is in place again: nothing to restore.
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Take the lock at `lockPath`: the text written into it when taken, else the holder that keeps it (undefined: unknown). */
function takeLock(lockPath: string): { text: string } | { holder: LockHolder | undefined } {
  let seen: string | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const token = randomUUID();
    const text = `${JSON.stringify({ pid: process.pid, host: hostname(), thread: threadId, token, since: new Date().toISOString() } satisfies LockHolder)}\n`;
    let fd: number | undefined;
    try {
      fd = openSync(lockPath, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      heldLocks.set(lockPath, token);
      return { text };
    }
    seen = readText(lockPath);
    if (seen === undefined) continue;
    if (isLive(lockPath, seen)) return { holder: holderOf(seen) };
    breakStale(lockPath, seen);
  }
  return { holder: seen === undefined ? undefined : holderOf(seen) };
}

function describeHolder(holder: LockHolder | undefined): string {
  return holder === undefined ? 'another process' : `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`} (since ${holder.since})`;
}

/** Where a store's warnings go when its opener names no place: Node's process warnings (stderr). */
function emitWarning(message: string): void {
  process.emitWarning(message, { code: 'EWP_SALIENCE_FILE' });
}

/** Stores with bumps waiting for their delay (a store leaves once it has written them), and stores holding a lock: one `exit` listener writes the first and releases the second. */
const pendingStores = new Set<JsonlSalienceStore>();
const lockingStores = new Set<JsonlSalienceStore>();
let exitListener = false;
function atExit(store: JsonlSalienceStore, set: Set<JsonlSalienceStore>): void {
  set.add(store);
  if (exitListener) return;
  exitListener = true;
  process.once('exit', () => {
    for (const s of [...pendingStores, ...lockingStores]) {
      try {
        s.close();
      } catch {
        // Salience is advisory; a process that is ending has no one to tell.
      }
    }
  });
}

/** Options of {@link JsonlSalienceStore}. */
export interface JsonlSalienceOptions {
  /**
   * Read the file and never write it: no lock, no rewrite; changes are kept in memory only. For a
   * reader that only looks (the inspector) or a verb that cannot write the ledger either.
   */
  readOnly?: boolean;
  /**
   * Where the store's warnings go, one line each: lines of the file it skipped (once per read), and
   * changes it could not save because another process holds the file. Default: `process.emitWarning`.
   */
  onWarning?: (message: string) => void;
}

/**
 * Salience in a side file of JSON lines next to the ledger (`ewp.salience.jsonl`): a change appends
 * the memory's whole record; opening replays the file (the last line of a memory wins).
 *
 * **One writer per file.** A store that may write takes the lock `<file>.lock` (its pid, host and a
 * token); only the holder appends to or rewrites the file. A lock whose process is gone (asked with
 * signal 0 on the same host) is stale and taken over. A store that finds the lock held by a live process
 * reads the file and keeps its own changes in memory; at its writes (at most once a second) and at close
 * it asks for the lock again, and once it gets it, reads the file again, lays its own changes over it and
 * rewrites it. Changes it still holds when it closes without the lock are not saved (one warning says so).
 * A `readOnly` store never takes the lock nor writes.
 *
 * **Bounded.** The holder rewrites the file (a temporary file, fsync, rename) whenever it holds more than
 * `2 × memories + 256` lines, at open and while running; a line is at most {@link SALIENCE_LINE_MAX}
 * bytes. Salience is advisory, not evidence: a line that is not UTF-8, not JSON, not a record of a
 * memory hash with well-typed fields, or too long, is skipped with one warning for the whole read, and the
 * holder's rewrite drops it.
 *
 * `set` is the recall hot path, so it only marks the memory changed: 50 ms later (or at once past 16,384
 * changes) each changed memory's latest record goes out as one line, all in one write through a
 * descriptor kept open; {@link flush}, {@link close} and the process's `exit` write what is pending and
 * `close` (or `exit`) releases the lock. A crash loses at most the last 50 ms of bumps and leaves a stale
 * lock. A failed background write is kept and thrown by the next {@link flush} or {@link close}; salience
 * stays correct in memory.
 */
export class JsonlSalienceStore implements SalienceStore {
  readonly path: string;
  /** `<path>.lock`. */
  readonly lockPath: string;
  readonly readOnly: boolean;
  #records = new Map<string, SalienceRecord>();
  /**
   * Changes not yet applied to `#records`, in order: the hash, and a copy of its record at the same
   * index. Two array pushes are the hot path's whole cost; the map (an insertion per memory changed for
   * the first time, which measured as a fifth of a recall) is brought up to date behind it: by the
   * write, or by the first read.
   */
  #pendingHashes: string[] = [];
  #pendingRecords: SalienceRecord[] = [];
  /** Lines in the file as this store last wrote or read it. */
  #lines = 0;
  /** Memories changed since the last write, a memory as often as it changed; repeats are dropped when the lines are written. */
  #dirty: string[] = [];
  /** Memories changed while another process holds the file: written once this store gets the lock. */
  readonly #unsaved = new Set<string>();
  /** The lock's content while this store holds it. */
  #lockText: string | undefined;
  #holder: LockHolder | undefined;
  #nextLockAttempt = 0;
  readonly #warn: (message: string) => void;
  #scheduled: NodeJS.Timeout | undefined;
  #fd: number | undefined;
  #failed: unknown;
  #closed = false;

  constructor(path: string, options: JsonlSalienceOptions = {}) {
    if (typeof path !== 'string' || path === '') throw badInput('salience.path', 'must be a file path');
    this.path = path;
    this.lockPath = `${path}.lock`;
    this.readOnly = options.readOnly === true;
    this.#warn = options.onWarning ?? emitWarning;
    if (!this.readOnly) this.#lock();
    this.#load();
  }

  /** Whether this store holds the file's lock (the one store that writes it). */
  get owner(): boolean {
    return this.#lockText !== undefined;
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
      atExit(this, pendingStores);
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
    this.#write(true);
    if (this.#failed !== undefined) {
      const error = this.#failed;
      this.#failed = undefined;
      throw error;
    }
  }

  /** Flush, release the file and its lock; later `set` calls are refused. */
  close(): void {
    if (this.#closed) return;
    let failed = false;
    try {
      this.flush();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      this.#closed = true;
      pendingStores.delete(this);
      if (this.#fd !== undefined) closeSync(this.#fd);
      this.#fd = undefined;
      this.#unlock();
      // A failure thrown says why itself.
      if (this.#unsaved.size > 0 && !failed) {
        this.#warn(
          `the salience of ${this.#unsaved.size} memor${this.#unsaved.size === 1 ? 'y' : 'ies'} changed here is not saved: ${this.path} is kept by ${describeHolder(this.#holder)}`,
        );
      }
    }
  }

  /** Take the lock if free (or stale); remembers the holder otherwise, and why it could not be taken (thrown by the next flush). */
  #lock(): boolean {
    let taken: ReturnType<typeof takeLock>;
    try {
      taken = takeLock(this.lockPath);
    } catch (error) {
      this.#failed ??= error;
      taken = { holder: undefined };
    }
    if ('holder' in taken) {
      this.#holder = taken.holder;
      this.#nextLockAttempt = Date.now() + LOCK_RETRY_MS;
      return false;
    }
    this.#lockText = taken.text;
    this.#holder = undefined;
    atExit(this, lockingStores);
    return true;
  }

  /** Release the lock, if this store holds it and it is still this store's. */
  #unlock(): void {
    const text = this.#lockText;
    if (text === undefined) return;
    this.#lockText = undefined;
    lockingStores.delete(this);
    if (heldLocks.get(this.lockPath) === holderOf(text)?.token) heldLocks.delete(this.lockPath);
    try {
      if (readText(this.lockPath) === text) rmSync(this.lockPath, { force: true });
    } catch {
      // Left behind, it is stale once this process ends.
    }
  }

  /** Whether the lock file still holds this store's lock; if not, this store stops writing. */
  #stillOwner(): boolean {
    if (this.#lockText === undefined) return false;
    if (readText(this.lockPath) === this.#lockText) return true;
    if (heldLocks.get(this.lockPath) === holderOf(this.#lockText)?.token) heldLocks.delete(this.lockPath);
    this.#lockText = undefined;
    lockingStores.delete(this);
    this.#warn(`${this.lockPath} no longer holds this process's lock: it stops writing ${this.path}`);
    return false;
  }

  /** Read the file into the records; as the holder, rewrite it when oversized, cut short or holding skipped lines. */
  #load(): void {
    const read = replay(this.path, !this.owner);
    this.#records = read.records;
    this.#lines = read.lines;
    this.#warnSkipped(read);
    if (!this.owner || (read.skipped === 0 && !read.torn && !this.#oversized(0))) return;
    try {
      this.#compact();
    } catch (error) {
      // Opening still works: the rewrite is tried again when the file next outgrows its bound.
      this.#failed ??= error;
    }
  }

  /** The one warning of a read that skipped lines. */
  #warnSkipped(read: Replay): void {
    if (read.skipped === 0) return;
    const lines = `${read.skipped} unreadable line${read.skipped === 1 ? '' : 's'}`;
    this.#warn(`skipped ${lines} of ${this.path} (${read.first}); salience is advisory${this.owner ? ', so they are dropped' : ''}`);
  }

  #oversized(adding: number): boolean {
    return this.#lines + adding > 2 * this.#records.size + COMPACT_SLACK;
  }

  /**
   * Pending lines out in one write, or the whole file rewritten once it would be oversized; without the
   * lock, the changes wait for it. Never throws: a background failure must not end the process.
   */
  #write(now = false): void {
    if (this.#scheduled !== undefined) clearTimeout(this.#scheduled);
    this.#scheduled = undefined;
    // Nothing waits any more: a store never closed is not kept alive for the exit listener.
    pendingStores.delete(this);
    this.#settle();
    if (this.#dirty.length === 0 && this.#unsaved.size === 0) return;
    const dirty = this.#dirty;
    this.#dirty = [];
    if (this.readOnly) return;
    try {
      if (!this.owner) {
        for (const hash of dirty) this.#unsaved.add(hash);
        if (now || Date.now() >= this.#nextLockAttempt) this.#takeOver();
        // Still waiting: the exit listener tries once more.
        if (this.#unsaved.size > 0) atExit(this, pendingStores);
        return;
      }
      const changed = new Set<string>(dirty);
      if (this.#oversized(changed.size)) {
        if (!this.#compact()) for (const hash of changed) this.#unsaved.add(hash);
        return;
      }
      let text = '';
      let lines = 0;
      for (const hash of changed) {
        const line = lineOf(hash, this.#records.get(hash)!);
        if (!isRecordLine(hash, line)) {
          this.#failed ??= badInput(
            'salience',
            `the salience of ${JSON.stringify(hash.slice(0, 64))} is not a record of a memory hash within ${SALIENCE_LINE_MAX} bytes: kept in memory, not written`,
          );
          continue;
        }
        text += line;
        lines += 1;
      }
      this.#fd ??= openSync(this.path, 'a');
      writeSync(this.#fd, text);
      this.#lines += lines;
    } catch (error) {
      this.#failed ??= error;
    }
  }

  /** Get the lock another process held: read the file again, lay this store's changes over it, rewrite it. */
  #takeOver(): void {
    if (!this.#lock()) return;
    const mine = this.#records;
    const read = replay(this.path, false);
    this.#warnSkipped(read);
    for (const hash of this.#unsaved) read.records.set(hash, mine.get(hash)!);
    this.#records = read.records;
    this.#lines = read.lines;
    // Saved only once the rewrite is in place.
    if (this.#compact()) this.#unsaved.clear();
  }

  /** Rewrite the file from the records: a temporary file, fsync, rename; only while this store holds the lock (false: it does not). */
  #compact(): boolean {
    if (!this.#stillOwner()) return false;
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      const fd = openSync(tmp, 'w');
      try {
        let text = '';
        for (const [hash, record] of this.#records) {
          const line = lineOf(hash, record);
          if (!isRecordLine(hash, line)) continue;
          text += line;
          // Written in pieces: a large ledger's file is never one string.
          if (text.length >= 1 << 20) {
            writeSync(fd, text);
            text = '';
          }
        }
        writeSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.path);
    } catch (error) {
      // The file stays as it was; no half-written temporary file is left beside it.
      rmSync(tmp, { force: true });
      throw error;
    }
    // The descriptor kept open names the replaced file.
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#lines = this.#records.size;
    return true;
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

/**
 * The salience store of a ledger at `location` ({@link saliencePathFor}): the side file, or in memory.
 * `options` go to the side file's store ({@link JsonlSalienceOptions}: read-only, where warnings go).
 */
export function openSalienceStore(location: LedgerLocation, options: JsonlSalienceOptions = {}): SalienceStore {
  const path = saliencePathFor(location);
  return path === undefined ? new InMemorySalienceStore() : new JsonlSalienceStore(path, options);
}
