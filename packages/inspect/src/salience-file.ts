/**
 * Salience read from a memory ledger's side file (`<ledger>.salience.jsonl`), for a page that only
 * looks. The file is @ewp/memory's format, read by @ewp/memory's own reader ({@link JsonlSalienceStore})
 * opened read-only: it takes no lock and never writes, compacts or renames the file, so an agent or
 * `ewp serve` holding the file goes on writing it. The holder replaces the file only by an atomic
 * rename, so each read sees one whole file; a line being appended at that moment is skipped.
 */
import { statSync } from 'node:fs';
import { EwpError } from '@ewp/core';
import { JsonlSalienceStore, type SalienceRecord, type SalienceStore } from '@ewp/memory';

/** Options of {@link SalienceFileReader}. */
export interface SalienceFileReaderOptions {
  /** Where the one warning about unreadable lines goes. Default: `process.emitWarning`. */
  onWarning?: (message: string) => void;
}

/**
 * A read-only {@link SalienceStore} over a salience side file, read again whenever the file changes
 * (size, modification time or the file itself), so a running inspector shows recalls made since it
 * started. A file that does not exist reads as no salience recorded. Unreadable lines are skipped
 * (salience is advisory), with one warning for the reader's lifetime, however often the file is read.
 */
export class SalienceFileReader implements SalienceStore {
  readonly path: string;
  #stamp: string | undefined;
  #records: SalienceStore | undefined;
  #warned = false;
  readonly #warn: (message: string) => void;

  constructor(path: string, options: SalienceFileReaderOptions = {}) {
    this.path = path;
    this.#warn = options.onWarning ?? ((message) => process.emitWarning(message, { code: 'EWP_SALIENCE_FILE' }));
  }

  #current(): SalienceStore | undefined {
    const stat = statSync(this.path, { throwIfNoEntry: false });
    const stamp = stat === undefined ? 'missing' : `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      this.#records =
        stat === undefined
          ? undefined
          : new JsonlSalienceStore(this.path, {
              readOnly: true,
              onWarning: (message) => {
                if (this.#warned) return;
                this.#warned = true;
                this.#warn(message);
              },
            });
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

  /** Forgets what was read. */
  close(): void {
    this.#records = undefined;
    this.#stamp = undefined;
  }
}
