/**
 * Serialized results of deterministic tools (`EwpTool.deterministic`), reused while the ledger's
 * revision is unchanged. Each lookup reads the revision first (one small read, which sees commits of
 * every process on the ledger), so a call after any commit is computed afresh. A result is kept under
 * the revision read before it was computed: two equal revisions read in turn mean nothing was committed
 * between them (`EvidenceStore.revision`), so a later lookup that reads that revision again knows the
 * computation saw the same contents; one that reads any other revision recomputes. One read serves
 * every lookup of one run to completion (see `current`): a pipelined client's read chunk of calls
 * costs one revision read, not one each.
 *
 * What is kept is bounded by bytes, not entries: result texts differ in size by orders of magnitude
 * (a warrant is a kilobyte, a stored view may be a megabyte), and a server answering every
 * proposition of a large ledger must not grow with the ledger. A result is kept from the second time
 * its key is computed on: an agent walking many propositions once each would otherwise fill the budget
 * with texts nobody asks for again, each of which outlives the young generation of the heap.
 */
import { type EvidenceStore, TurnRevision } from '@ewp/ledger';

/** Bytes of kept results (keys and texts, counted as two bytes a character) per server; least recently used go first beyond it. */
const MAX_CACHED_RESULT_BYTES = 4 * 1024 * 1024;

/** Bytes an entry is counted at beyond its two strings (map slot, entry object, string headers). */
const ENTRY_OVERHEAD_BYTES = 96;

/** Slots of the table of keys computed once (a power of two): hashes only, so it holds no strings. */
const SEEN_SLOTS = 4096;

/** FNV-1a over the UTF-16 code units of `key`, never 0 (0 marks an empty slot). */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h | 1) >>> 0;
}

interface Entry {
  revision: string;
  text: string;
  bytes: number;
}

export class ToolResultCache {
  /** In use order: the least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Hashes of keys computed once and not kept; a collision only keeps a result one computation early. */
  private readonly seen = new Uint32Array(SEEN_SLOTS);
  private readonly revisions: TurnRevision;
  private readonly maxBytes: number;

  constructor(revision: () => Promise<string>, maxBytes = MAX_CACHED_RESULT_BYTES) {
    this.revisions = new TurnRevision(revision);
    this.maxBytes = maxBytes;
  }

  /** A cache over `store`, or undefined when the store has no revision to check against. */
  static over(store: EvidenceStore, maxBytes?: number): ToolResultCache | undefined {
    return typeof store.revision === 'function' ? new ToolResultCache(() => (store.revision as () => Promise<string>).call(store), maxBytes) : undefined;
  }

  /** Bytes kept now (at most the budget). */
  get keptBytes(): number {
    return this.bytes;
  }

  /**
   * The result text of `key`: the kept one when the ledger is at the revision it was computed at,
   * else `compute()`'s. A compute that throws keeps nothing.
   */
  async text(key: string, compute: () => Promise<string>): Promise<string> {
    const before = await this.revisions.current();
    // A store that cannot say its revision (closed, unavailable): computed, and the tool reports why.
    if (before === undefined) return compute();
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      if (kept.revision === before) {
        // Most recently used: to the end of the map's order.
        this.entries.delete(key);
        this.entries.set(key, kept);
        return kept.text;
      }
      this.drop(key, kept);
    }
    const text = await compute();
    if (this.secondComputation(key)) this.keep(key, { revision: before, text, bytes: 2 * (key.length + text.length) + ENTRY_OVERHEAD_BYTES });
    return text;
  }

  /** Whether `key` was computed before (recently); if not, it is remembered as computed once. */
  private secondComputation(key: string): boolean {
    const h = keyHash(key);
    const slot = h & (SEEN_SLOTS - 1);
    if (this.seen[slot] === h) return true;
    this.seen[slot] = h;
    return false;
  }

  private keep(key: string, entry: Entry): void {
    // A result larger than the whole budget is not kept (it would evict everything for one entry).
    if (entry.bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) this.drop(key, old);
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest, e);
    }
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
