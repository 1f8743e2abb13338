/**
 * Salience read from a memory ledger's side file (`<ledger>.salience.jsonl`), for a page that only
 * looks. The file is @ewp/memory's format, read by @ewp/memory's own reader ({@link JsonlSalienceStore});
 * the inspector opens that reader on a private copy, because opening the file itself may compact
 * it in place, and a writer (an agent recalling) may be appending to it at that moment.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EwpError } from '@ewp/core';
import { JsonlSalienceStore, type SalienceRecord, type SalienceStore } from '@ewp/memory';

/**
 * A read-only {@link SalienceStore} over a salience side file, read again whenever the file changes
 * (size or modification time), so a running inspector shows recalls made since it started. A file
 * that does not exist reads as no salience recorded.
 */
export class SalienceFileReader implements SalienceStore {
  readonly path: string;
  #stamp: string | undefined;
  #records: SalienceStore | undefined;
  #dir: string | undefined;

  constructor(path: string) {
    this.path = path;
  }

  #current(): SalienceStore | undefined {
    const stat = statSync(this.path, { throwIfNoEntry: false });
    const stamp = stat === undefined ? 'missing' : `${stat.size}:${stat.mtimeMs}`;
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      this.#records?.close();
      if (stat === undefined) this.#records = undefined;
      else {
        this.#dir ??= mkdtempSync(join(tmpdir(), 'ewp-inspect-salience-'));
        const copy = join(this.#dir, 'salience.jsonl');
        copyFileSync(this.path, copy);
        this.#records = new JsonlSalienceStore(copy);
      }
    }
    return this.#records;
  }

  get(hash: string): SalienceRecord | undefined {
    return this.#current()?.get(hash);
  }

  /** The inspector is a read-only server: recall and the promotion gate write salience, never a page. */
  set(): void {
    throw new EwpError('EWP_REFUSE_INGEST_ROLE', `the inspector reads salience from ${this.path} and never writes it`);
  }

  entries(): Iterable<[string, SalienceRecord]> {
    return this.#current()?.entries() ?? [];
  }

  /** Removes the private copy. */
  close(): void {
    this.#records?.close();
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
    this.#records = undefined;
    this.#stamp = undefined;
  }
}
