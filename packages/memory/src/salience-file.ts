/**
 * Salience in a side file of JSON lines next to the ledger ({@link JsonlSalienceStore}). The line format
 * is salience-lines.ts; where a ledger's side file is, salience-location.ts; the one writer per file is
 * held by @ewp/ledger's file lock (`tryFileLock`).
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { type FileLockOwner, type HeldFileLock, tryFileLock } from '@ewp/ledger';
import { badInput } from './errors.js';
import { isRecordLine, lineOf, type Replay, replay, SALIENCE_LINE_MAX } from './salience-lines.js';
import { copyInto, copyOf, type SalienceRecord, type SalienceStore } from './salience-store.js';

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
/**
 * The side file is rewritten once it holds more than twice as many lines as memories plus this many:
 * it stays within `2 × memories + 256` lines however many recalls it records, and a rewrite costs at most
 * one line per line appended since the last one.
 */
const COMPACT_SLACK = 256;
/** A store waiting for another process's lock asks again at most this often (ms), and at close. */
const LOCK_RETRY_MS = 1_000;

function describeHolder(holder: FileLockOwner | undefined): string {
  return holder === undefined
    ? 'another process'
    : `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`} (since ${holder.acquired_at})`;
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
 * **One writer per file.** A store that may write takes the lock `<file>.lock` (@ewp/ledger's file lock,
 * `tryFileLock`: its owner's pid, host, thread, start time and a token); only the holder appends to or
 * rewrites the file. A lock whose holder is provably gone (that lock's rules: a dead pid, a reused one, a
 * reboot) is stale and taken over. A store that finds the lock held by a live holder
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
  /** The file's lock while this store holds it. */
  #lock: HeldFileLock | undefined;
  /** Who kept the lock when this store last asked for it. */
  #holder: FileLockOwner | undefined;
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
    if (!this.readOnly) this.#takeLock();
    this.#load();
  }

  /** Whether this store holds the file's lock (the one store that writes it). */
  get owner(): boolean {
    return this.#lock !== undefined;
  }

  /** A copy of the memory's record; `undefined`: never recalled. */
  get(hash: string): SalienceRecord | undefined {
    this.#settle();
    const r = this.#records.get(hash);
    return r === undefined ? undefined : copyOf(r);
  }

  /** Keep a copy of `record`; it goes out to the file with the next write (after the delay). */
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

  /** Every record (copies), in no particular order. */
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
  #takeLock(): boolean {
    let taken: ReturnType<typeof tryFileLock>;
    try {
      taken = tryFileLock(this.lockPath);
    } catch (error) {
      this.#failed ??= error;
      taken = { owner: undefined };
    }
    if ('owner' in taken) {
      this.#holder = taken.owner;
      this.#nextLockAttempt = Date.now() + LOCK_RETRY_MS;
      return false;
    }
    this.#lock = taken.lock;
    this.#holder = undefined;
    atExit(this, lockingStores);
    return true;
  }

  /** Release the lock, if this store holds it (a lock another process broke and took meanwhile stays). */
  #unlock(): void {
    const lock = this.#lock;
    if (lock === undefined) return;
    this.#lock = undefined;
    lockingStores.delete(this);
    lock.release();
  }

  /** Whether the lock file still holds this store's lock; if not, this store stops writing. */
  #stillOwner(): boolean {
    if (this.#lock === undefined) return false;
    if (this.#lock.held()) return true;
    this.#unlock();
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
    if (!this.#takeLock()) return;
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
