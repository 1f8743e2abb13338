/**
 * Serialized results of deterministic tools (`EwpTool.deterministic`), reused while the ledger's
 * revision is unchanged. Each lookup reads the revision first (one small read, which sees commits of
 * every process on the ledger), so a call after any commit is computed afresh; a result is kept only
 * when the revision read after computing it is the one read before (no commit landed in between).
 * One read serves every lookup of one run to completion (see `current`): a pipelined client's read
 * chunk of calls costs one revision read, not one each.
 */
import type { EvidenceStore } from '@ewp/ledger';

/** Results kept per server; the oldest is dropped beyond this. */
export const MAX_CACHED_RESULTS = 256;

interface Entry {
  revision: string;
  text: string;
}

export class ToolResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly revision: () => Promise<string>;
  /** The revision read in the current run to completion; dropped at its first microtask checkpoint. */
  private thisTurn: Promise<string | undefined> | undefined;
  private readonly endTurn = (): void => {
    this.thisTurn = undefined;
  };

  constructor(revision: () => Promise<string>) {
    this.revision = revision;
  }

  /** A cache over `store`, or undefined when the store has no revision to check against. */
  static over(store: EvidenceStore): ToolResultCache | undefined {
    return typeof store.revision === 'function' ? new ToolResultCache(() => (store.revision as () => Promise<string>).call(store)) : undefined;
  }

  /**
   * The result text of `key`: the kept one when the ledger is at the revision it was computed at,
   * else `compute()`'s. A compute that throws keeps nothing.
   */
  async text(key: string, compute: () => Promise<string>): Promise<string> {
    const before = await this.current();
    // A store that cannot say its revision (closed, unavailable): computed, and the tool reports why.
    if (before === undefined) return compute();
    const kept = this.entries.get(key);
    if (kept !== undefined && kept.revision === before) return kept.text;
    const text = await compute();
    // Read afresh, not this run's revision: it must postdate the compute.
    if ((await this.read()) === before) {
      this.entries.delete(key);
      this.entries.set(key, { revision: before, text });
      if (this.entries.size > MAX_CACHED_RESULTS) this.entries.delete(this.entries.keys().next().value as string);
    }
    return text;
  }

  /**
   * The ledger's revision, read once per run to completion. Every request looked up in one run
   * arrived before it began (input is read between runs, never during one), so a read made
   * anywhere in the run is as fresh as each of them needs; a commit in another process during the
   * run is concurrent with all of them.
   */
  private current(): Promise<string | undefined> {
    if (this.thisTurn === undefined) {
      this.thisTurn = this.read();
      queueMicrotask(this.endTurn);
    }
    return this.thisTurn;
  }

  private async read(): Promise<string | undefined> {
    try {
      return await this.revision();
    } catch {
      return undefined;
    }
  }
}
