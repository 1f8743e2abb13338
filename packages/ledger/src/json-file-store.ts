/**
 * The JSON-file EvidenceStore: a directory of JSON files, no native dependency. The shared ledger
 * engine over {@link JsonFileLedgerBackend} (layout and commit protocol there): the same rules, the
 * same event log and the same audit as the memory, SQLite and PostgreSQL stores.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StoreUnavailableError } from './errors.js';
import type { StoreCapabilities } from './evidence-store.js';
import { JSON_LEDGER_FORMAT, JSON_LEDGER_VERSION, JsonFileLedgerBackend } from './json-file-backend.js';
import { LedgerEngineStore } from './ledger-engine.js';

export { fileKey } from './json-file-backend.js';

export interface JsonFileStoreOptions {
  /** Refuse every write; a root without a ledger is refused (`not_found`) and nothing is created. */
  readOnly?: boolean;
  /** How long a write waits for the lock before `StoreUnavailableError('busy')` (default 30 000 ms). */
  lockTimeoutMs?: number;
}

/** What a half-finished creation (a process killed while laying out a new ledger) may leave. */
function onlyCreationLeftovers(root: string): boolean {
  return readdirSync(root).every((name) => {
    if (name === 'propositions') return readdirSync(join(root, name)).length === 0;
    return name === 'anchor.json' || name.startsWith('anchor.json.tmp-') || name.startsWith('ledger.json.tmp-');
  });
}

function readDirectory(root: string): string[] | undefined {
  try {
    return readdirSync(root);
  } catch {
    return undefined;
  }
}

/**
 * An EvidenceStore in a directory of JSON files.
 *
 * @example
 * const store = new JsonFileEvidenceStore('./ledger');
 * await store.put(view);
 */
export class JsonFileEvidenceStore extends LedgerEngineStore {
  static readonly CAPABILITIES: StoreCapabilities = Object.freeze({ persistent: true, multiProcess: true, keepsAdapterMeta: true, transactional: true });
  readonly root: string;
  readonly readOnly: boolean;

  /** @throws {StoreUnavailableError} `not_found` (read-only, no ledger), `schema` (another format or version) or `damaged`. */
  constructor(root: string, options: JsonFileStoreOptions = {}) {
    const dir = resolve(root);
    const readOnly = options.readOnly ?? false;
    const marker = join(dir, 'ledger.json');
    const expected = `${JSON.stringify({ format: JSON_LEDGER_FORMAT, version: JSON_LEDGER_VERSION }, null, 2)}\n`;
    let text: string | undefined;
    try {
      text = readFileSync(marker, 'utf8');
    } catch {
      text = undefined;
    }
    if (text === undefined) {
      if (readOnly) throw new StoreUnavailableError('not_found', `ledger not found: ${dir} (read-only mode creates nothing)`);
      const names = readDirectory(dir);
      if (names !== undefined && names.length > 0 && !onlyCreationLeftovers(dir)) {
        throw new StoreUnavailableError('schema', `${dir} is not empty and holds no ledger.json; use an empty or new directory`);
      }
      JsonFileLedgerBackend.create(dir, expected);
      text = readFileSync(marker, 'utf8');
    }
    let info: { format?: unknown; version?: unknown };
    try {
      info = JSON.parse(text) as { format?: unknown; version?: unknown };
    } catch (cause) {
      throw new StoreUnavailableError('damaged', `${marker} is unreadable`, { cause });
    }
    if (info === null || info.format !== JSON_LEDGER_FORMAT || info.version !== JSON_LEDGER_VERSION) {
      throw new StoreUnavailableError(
        'schema',
        `${dir}: ledger format ${String(info?.format)} version ${String(info?.version)}; this store reads ${JSON_LEDGER_FORMAT} version ${JSON_LEDGER_VERSION} only. Start a new ledger in an empty directory (older JSON ledgers are not migrated)`,
      );
    }
    super(new JsonFileLedgerBackend(dir, { readOnly, lockTimeoutMs: options.lockTimeoutMs ?? 30_000 }), JsonFileEvidenceStore.CAPABILITIES);
    this.root = dir;
    this.readOnly = readOnly;
  }
}
