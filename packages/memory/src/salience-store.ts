/**
 * Salience: how often, how recently and how strongly a memory is recalled, and the importance only
 * the promotion gate raises. It is mutable and lives outside the ledger: never in a view, a digest, an
 * evidence state or the hash chain. A salience store is deliberately synchronous (the recall hot path
 * must not wait on it); the default keeps it in memory, {@link JsonlSalienceStore} in a side file.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { badInput } from './errors.js';

/** The salience of one memory. */
export interface SalienceRecord {
  recall_count: number;
  /** Recall and replay add to it; promotion is attempted when it reaches `promotion_energy`. */
  energy: number;
  /** Raised by the promotion gate only. */
  importance: number;
  last_recalled_at: string | null;
  /** Promoted once (pinned): the pass skips it. */
  promoted: boolean;
  /**
   * The evidence state (`<class>:<view_id>`) at which the gate last refused it: the gate is not asked
   * again until the memory's class or evidence changes. A cache, never a decision.
   */
  blocked_at_state: string | null;
}

/** A fresh record. */
export function emptySalience(): SalienceRecord {
  return { recall_count: 0, energy: 0, importance: 0, last_recalled_at: null, promoted: false, blocked_at_state: null };
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
    return r === undefined ? undefined : { ...r };
  }
  set(hash: string, record: SalienceRecord): void {
    this.#records.set(hash, { ...record });
  }
  entries(): Iterable<[string, SalienceRecord]> {
    return [...this.#records].map(([h, r]) => [h, { ...r }] as [string, SalienceRecord]);
  }
  close(): void {}
}

/**
 * Salience in a side file of JSON lines next to the ledger (`ewp.salience.jsonl`): each change appends
 * the memory's whole record; opening replays the file (the last line of a memory wins) and rewrites it
 * compactly when most of its lines are superseded. A torn last line (a crash mid-write) is skipped:
 * salience is advisory, losing one bump is harmless.
 */
export class JsonlSalienceStore implements SalienceStore {
  readonly path: string;
  readonly #records = new Map<string, SalienceRecord>();
  #lines = 0;

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
          this.#records.set(parsed.h, { ...emptySalience(), ...(parsed.r as Partial<SalienceRecord>) });
          this.#lines += 1;
        }
      }
      if (this.#lines > 2 * this.#records.size + 64) this.#compact();
    }
  }

  get(hash: string): SalienceRecord | undefined {
    const r = this.#records.get(hash);
    return r === undefined ? undefined : { ...r };
  }

  set(hash: string, record: SalienceRecord): void {
    this.#records.set(hash, { ...record });
    appendFileSync(this.path, `${JSON.stringify({ h: hash, r: record })}\n`);
    this.#lines += 1;
  }

  entries(): Iterable<[string, SalienceRecord]> {
    return [...this.#records].map(([h, r]) => [h, { ...r }] as [string, SalienceRecord]);
  }

  close(): void {}

  #compact(): void {
    const text = [...this.#records].map(([h, r]) => `${JSON.stringify({ h, r })}\n`).join('');
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, this.path);
    this.#lines = this.#records.size;
  }
}
