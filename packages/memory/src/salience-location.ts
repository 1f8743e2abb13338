/**
 * Where a ledger keeps its salience: a side file beside a SQLite file or a JSON-file directory, in
 * memory for PostgreSQL or no location. The one rule for every surface that opens a ledger by location.
 */
import { resolve } from 'node:path';
import { type JsonlSalienceOptions, JsonlSalienceStore } from './salience-file.js';
import { InMemorySalienceStore, type SalienceStore } from './salience-store.js';

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
