/**
 * {@link LedgerBackend} rows as files in one directory, for {@link JsonFileEvidenceStore}. The engine
 * owns every rule; this file only stores and fetches rows, and makes a write transaction atomic:
 * the directory lock (`file-lock.ts`) is the exclusive part, `anchor.json` is the commit point.
 *
 * Layout under the root (format 3):
 * ```
 * ledger.json                                  {"format": "ewp-json-ledger", "version": 3}
 * .lock                                        the write lock ({pid, host, acquired_at})
 * events.jsonl                                 the event log (the engine's events), one entry per line
 * anchor.json                                  {length, head_hash, bytes, snapshots[, entry_bytes]}: what is committed
 * entries.jsonl                                ledger entry rows, one per line, in chain order (created by the first entry)
 * propositions/<K(P)>/index.json               P's snapshot rows without their content, in commit order
 * propositions/<K(P)>/snapshots/<seq>.json     one snapshot's head and members, and the records its commit appended
 * ```
 * `K(x)` = the first 32 hex digits of SHA-256 of the UTF-8 id, so no id can collide or escape the root.
 *
 * A transaction buffers its rows and publishes them when it succeeds: (1) the log entries (and the
 * ledger entry rows) are appended past the anchor, (2) snapshot files and index files are written atomically (temporary
 * file, fsync, rename), (3) `anchor.json` is replaced atomically. Readers see only snapshots with
 * `seq <= anchor.snapshots` and log entries below `anchor.length`, so a writer killed before step 3
 * published nothing. The next writer, under the lock, undoes what it left: log entries past the
 * anchor name the propositions it touched, whose index entries and files past the anchor are
 * removed, then the log is cut back to the anchor (and `entries.jsonl` to `entry_bytes`).
 */
import {
  closeSync,
  createReadStream,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { LedgerError, StoreUnavailableError } from './errors.js';
import { withFileLock } from './file-lock.js';
import { type ChainAnchor, EMPTY_ANCHOR, sha256Hex, type StoredChainEntry } from '@ewp/canonical';
import type {
  BindingRequest,
  EntryKey,
  EntryRowQuery,
  LedgerBackend,
  LedgerReader,
  LedgerWriter,
  ListedSnapshotRow,
  NewSnapshotRow,
  SnapshotRow,
  StoredBinding,
  StoredBindingRow,
  StoredEntryRow,
} from './ledger-backend.js';
import { entryKey, selectEntries } from './ledger-entries.js';
import { makeDirectories } from './make-directories.js';
import { type Binding, type BindingKind, bindingKey } from './snapshot-layout.js';

export const JSON_LEDGER_FORMAT = 'ewp-json-ledger';
/** Format 3: engine rows (format 2 kept renamed snapshot documents and its own event schema). */
export const JSON_LEDGER_VERSION = 3;

/** `K(x)`: first 32 hex digits of SHA-256 of the id. */
export function fileKey(id: string): string {
  return sha256Hex(id).slice(0, 32);
}

/** `anchor.json`: the commit point. */
interface JsonLedgerAnchor extends ChainAnchor {
  /** Byte length of `events.jsonl` at this anchor. */
  bytes: number;
  /** Committed snapshots: rows with a higher `seq` are not (yet) part of the ledger. */
  snapshots: number;
  /** Byte length of `entries.jsonl` at this anchor (absent in ledgers that never had an entry: 0). */
  entry_bytes: number;
}

const EMPTY_JSON_ANCHOR: JsonLedgerAnchor = Object.freeze({ ...EMPTY_ANCHOR, bytes: 0, snapshots: 0, entry_bytes: 0 });

/** One entry of `index.json`: a snapshot row without its content. */
interface IndexEntry {
  seq: number;
  view_id: string;
  content_digest: string;
  parent_seq: number | null;
  depth: number;
  committed_at: string;
  record_count: number;
  /** Up to five distinct assertion texts (the row keeps them as JSON text). */
  assertion_texts: string[];
}

interface IndexFile {
  proposition_id: string;
  snapshots: IndexEntry[];
}

type PageEntry = [BindingKind, string, string];

/** `snapshots/<seq>.json`. */
interface SnapshotFile {
  view_id: string;
  head: string;
  members: string;
  /** The bindings this snapshot's commit appended: `[kind, id, body]`. */
  records: PageEntry[];
}

function damaged(what: string, cause?: unknown): StoreUnavailableError {
  return new StoreUnavailableError('damaged', `store damaged: ${what}; run \`ewp audit verify\``, { cause });
}

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

/** The infix of temporary files (`anchor.json.tmp-<pid>-<random>`): the pid names the writer. */
const TMP_INFIX = '.tmp-';

/**
 * Write `text` to a new temporary file beside `path` and fsync it. On any failure (a full disk: ENOSPC)
 * the temporary file is removed before the error goes on, so failed writes leave nothing behind.
 */
function writeTemporary(path: string, text: string): string {
  const tmp = `${path}${TMP_INFIX}${process.pid}-${Math.random().toString(36).slice(2)}`;
  const fd = openSync(tmp, 'wx');
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    removeQuietly(tmp);
    throw error;
  }
  return tmp;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Write `text` to `path` atomically: a temporary file beside it, fsync, rename over. */
function writeFileAtomic(path: string, text: string): void {
  const tmp = writeTemporary(path, text);
  try {
    renameSync(tmp, path);
  } catch (error) {
    removeQuietly(tmp);
    throw error;
  }
}

/**
 * Remove temporary files of the ledger's root (the anchor's) that writers which are gone left behind
 * (killed between writing and renaming them): their pid, in the name, is not a live process.
 */
function sweepTemporaries(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const at = name.indexOf(TMP_INFIX);
    if (at === -1) continue;
    const pid = Number.parseInt(name.slice(at + TMP_INFIX.length), 10);
    if (!Number.isSafeInteger(pid) || pid === process.pid || processExists(pid)) continue;
    removeQuietly(join(root, name));
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, 'EPERM');
  }
}

/** Create `path` holding `text` unless it exists (written beside it, then linked: never seen half written). */
function createFileOnce(path: string, text: string): void {
  const tmp = writeTemporary(path, text);
  try {
    linkSync(tmp, path);
  } catch (error) {
    if (!isErrno(error, 'EEXIST')) throw error;
  } finally {
    unlinkSync(tmp);
  }
}

/** One JSON value per line inside a list, so a file reads (and diffs) one row at a time. */
function listLines(items: readonly unknown[]): string {
  return items.length === 0 ? '[]' : `[\n${items.map((x) => JSON.stringify(x)).join(',\n')}\n]`;
}

function indexText(index: IndexFile): string {
  return `{"proposition_id": ${JSON.stringify(index.proposition_id)},\n"snapshots": ${listLines(index.snapshots)}}\n`;
}

function snapshotText(file: SnapshotFile): string {
  return `{"view_id": ${JSON.stringify(file.view_id)},\n"head": ${JSON.stringify(file.head)},\n"members": ${JSON.stringify(file.members)},\n"records": ${listLines(file.records)}}\n`;
}

/** A log line: keys in a fixed order, so a crashed writer's bytes are recognisable past the anchor. */
function entryLine(e: StoredChainEntry): string {
  return `${JSON.stringify({ prev_hash: e.prev_hash, event: e.event, hash: e.hash })}\n`;
}

function toRow(propositionId: string, entry: IndexEntry, file: SnapshotFile): SnapshotRow {
  return {
    seq: entry.seq,
    proposition_id: propositionId,
    view_id: entry.view_id,
    content_digest: entry.content_digest,
    parent_seq: entry.parent_seq,
    depth: entry.depth,
    head: file.head,
    members: file.members,
    record_count: entry.record_count,
    assertion_texts: JSON.stringify(entry.assertion_texts),
    committed_at: entry.committed_at,
  };
}

/** Paths of one ledger directory. */
class LedgerPaths {
  /** `K(P)` of recently used propositions: a read needs it three times. */
  private readonly keys = new Map<string, string>();
  constructor(readonly root: string) {}
  private key(pid: string): string {
    let key = this.keys.get(pid);
    if (key === undefined) {
      if (this.keys.size >= 4096) this.keys.clear();
      key = fileKey(pid);
      this.keys.set(pid, key);
    }
    return key;
  }
  get anchor() {
    return join(this.root, 'anchor.json');
  }
  get events() {
    return join(this.root, 'events.jsonl');
  }
  get entries() {
    return join(this.root, 'entries.jsonl');
  }
  get lock() {
    return join(this.root, '.lock');
  }
  get propositions() {
    return join(this.root, 'propositions');
  }
  proposition(pid: string) {
    return join(this.root, 'propositions', this.key(pid));
  }
  index(pid: string) {
    return join(this.proposition(pid), 'index.json');
  }
  snapshot(pid: string, seq: number) {
    return join(this.proposition(pid), 'snapshots', `${seq}.json`);
  }
}

function readAnchorFile(paths: LedgerPaths): JsonLedgerAnchor {
  let text: string;
  try {
    text = readFileSync(paths.anchor, 'utf8');
  } catch (cause) {
    throw damaged(`${paths.anchor} is missing`, cause);
  }
  let a: Partial<JsonLedgerAnchor>;
  try {
    a = JSON.parse(text) as Partial<JsonLedgerAnchor>;
  } catch (cause) {
    throw damaged(`${paths.anchor} is not JSON`, cause);
  }
  const count = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  if (
    a === null ||
    !count(a.length) ||
    !count(a.bytes) ||
    !count(a.snapshots) ||
    typeof a.head_hash !== 'string' ||
    !(a.entry_bytes === undefined || count(a.entry_bytes))
  ) {
    throw damaged(`${paths.anchor} is malformed`);
  }
  return { length: a.length as number, head_hash: a.head_hash, bytes: a.bytes as number, snapshots: a.snapshots as number, entry_bytes: a.entry_bytes ?? 0 };
}

function readIndexFile(paths: LedgerPaths, path: string): IndexFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw damaged(`cannot read ${path}`, error);
  }
  let index: IndexFile;
  try {
    index = JSON.parse(text) as IndexFile;
  } catch (cause) {
    throw damaged(`${path} is not JSON`, cause);
  }
  if (index === null || typeof index.proposition_id !== 'string' || !Array.isArray(index.snapshots)) throw damaged(`${path} is malformed`);
  if (paths.index(index.proposition_id) !== path) throw damaged(`${path} names proposition ${JSON.stringify(index.proposition_id)}`);
  for (const e of index.snapshots) {
    if (e === null || typeof e !== 'object' || !Number.isSafeInteger(e.seq) || typeof e.view_id !== 'string' || !Array.isArray(e.assertion_texts)) {
      throw damaged(`${path} holds a malformed entry`);
    }
  }
  return index;
}

/** Entries committed at `anchor`, in commit order. */
function committedEntries(index: IndexFile | undefined, anchor: JsonLedgerAnchor): IndexEntry[] {
  if (index === undefined) return [];
  return index.snapshots.filter((e) => e.seq <= anchor.snapshots).sort((a, b) => a.seq - b.seq);
}

/**
 * Read access at one anchor. Committed files never change, so each is read (and parsed) at most once
 * per transaction or read call.
 */
class FileReader implements LedgerReader {
  protected readonly indexes = new Map<string, IndexEntry[]>();
  private readonly files = new Map<string, SnapshotFile>();
  private byOwnSeq?: Map<number, string>;
  private entryList?: StoredEntryRow[];

  constructor(
    protected readonly paths: LedgerPaths,
    protected readonly anchor: JsonLedgerAnchor,
  ) {}

  /** P's committed entries (and, in a writer, its pending ones), in commit order. */
  protected indexEntries(pid: string): IndexEntry[] {
    let list = this.indexes.get(pid);
    if (list === undefined) {
      const path = this.paths.index(pid);
      const index = readIndexFile(this.paths, path);
      if (index !== undefined && index.proposition_id !== pid) throw damaged(`${path} names ${JSON.stringify(index.proposition_id)}`);
      list = committedEntries(index, this.anchor);
      this.indexes.set(pid, list);
    }
    return list;
  }

  protected file(pid: string, entry: IndexEntry): SnapshotFile {
    const path = this.paths.snapshot(pid, entry.seq);
    let file = this.files.get(path);
    if (file !== undefined) return file;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (cause) {
      throw damaged(`snapshot ${JSON.stringify(entry.view_id)} of ${JSON.stringify(pid)} is missing (${path})`, cause);
    }
    try {
      file = JSON.parse(text) as SnapshotFile;
    } catch (cause) {
      throw damaged(`${path} is not JSON`, cause);
    }
    if (file === null || typeof file.head !== 'string' || typeof file.members !== 'string' || !Array.isArray(file.records))
      throw damaged(`${path} is malformed`);
    if (file.view_id !== entry.view_id) throw damaged(`${path} holds ${JSON.stringify(file.view_id)}, its index names ${JSON.stringify(entry.view_id)}`);
    this.files.set(path, file);
    return file;
  }

  protected row(pid: string, entry: IndexEntry): SnapshotRow {
    return toRow(pid, entry, this.file(pid, entry));
  }

  /** The proposition ids that have an index file. */
  protected propositionIds(): string[] {
    let keys: string[];
    try {
      keys = readdirSync(this.paths.propositions);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return [];
      throw error;
    }
    const out: string[] = [];
    for (const key of keys) {
      const index = readIndexFile(this.paths, join(this.paths.propositions, key, 'index.json'));
      if (index === undefined) continue;
      if (!this.indexes.has(index.proposition_id)) this.indexes.set(index.proposition_id, committedEntries(index, this.anchor));
      out.push(index.proposition_id);
    }
    return out;
  }

  findSnapshot(pid: string, vid: string): SnapshotRow | undefined {
    const entry = this.indexEntries(pid).find((e) => e.view_id === vid);
    return entry === undefined ? undefined : this.row(pid, entry);
  }

  latestSnapshot(pid: string): SnapshotRow | undefined {
    const entry = this.indexEntries(pid).at(-1);
    return entry === undefined ? undefined : this.row(pid, entry);
  }

  snapshotBySeq(seq: number): SnapshotRow | undefined {
    // Rows are kept per proposition; the engine asks by seq only for a parent that is not among the
    // proposition's own rows (damage), so a scan is acceptable here.
    if (this.byOwnSeq === undefined) {
      this.byOwnSeq = new Map();
      for (const pid of this.propositionIds()) for (const e of this.indexEntries(pid)) this.byOwnSeq.set(e.seq, pid);
    }
    const pid = this.byOwnSeq.get(seq);
    const entry = pid === undefined ? undefined : this.indexEntries(pid).find((e) => e.seq === seq);
    return pid === undefined || entry === undefined ? undefined : this.row(pid, entry);
  }

  snapshotAncestors(row: SnapshotRow): SnapshotRow[] {
    const own = new Map(this.indexEntries(row.proposition_id).map((e) => [e.seq, e]));
    const out: SnapshotRow[] = [];
    let parent = row.parent_seq;
    while (parent !== null) {
      const entry = own.get(parent);
      if (entry === undefined) break; // the engine reports the missing parent
      own.delete(parent); // a parent loop ends here; the engine reports it
      out.push(this.row(row.proposition_id, entry));
      parent = entry.parent_seq;
    }
    return out;
  }

  bindings(pid: string, _keys: readonly BindingRequest[]): Map<string, StoredBinding> {
    // Every page of the proposition, in commit order (the audit reads them the same way).
    const out = new Map<string, StoredBinding>();
    for (const entry of this.indexEntries(pid)) {
      for (const [kind, id, body] of this.file(pid, entry).records) out.set(bindingKey(kind, id), { body });
    }
    return out;
  }

  snapshotIds(pid: string): { view_id: string; seq: number }[] {
    return this.indexEntries(pid).map((e) => ({ view_id: e.view_id, seq: e.seq }));
  }

  latestRows(): { row: ListedSnapshotRow; snapshots: number }[] {
    const out: { seq: number; row: ListedSnapshotRow; snapshots: number }[] = [];
    for (const pid of this.propositionIds()) {
      const list = this.indexEntries(pid);
      const latest = list.at(-1);
      if (latest === undefined) continue;
      out.push({
        seq: latest.seq,
        row: { proposition_id: pid, view_id: latest.view_id, assertion_texts: JSON.stringify(latest.assertion_texts) },
        snapshots: list.length,
      });
    }
    return out.sort((a, b) => b.seq - a.seq).map(({ row, snapshots }) => ({ row, snapshots }));
  }

  chainAnchor(): ChainAnchor {
    return { length: this.anchor.length, head_hash: this.anchor.head_hash };
  }

  chainTail(): { index: number; hash: string } | undefined {
    if (this.anchor.bytes === 0) return undefined;
    const line = lastLineBefore(this.paths.events, this.anchor.bytes);
    if (line === undefined) return undefined;
    let entry: StoredChainEntry;
    try {
      entry = JSON.parse(line) as StoredChainEntry;
    } catch {
      return { index: this.anchor.length - 1, hash: '' };
    }
    // The index is the anchor's: counting lines would read the whole log on every write.
    return { index: this.anchor.length - 1, hash: String(entry.hash) };
  }

  async *chainEntries(): AsyncIterable<StoredChainEntry> {
    if (this.anchor.length === 0) return;
    let input: ReturnType<typeof createReadStream>;
    try {
      input = createReadStream(this.paths.events, { encoding: 'utf8', end: Math.max(0, this.anchor.bytes - 1) });
    } catch {
      return;
    }
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    let index = 0;
    try {
      for await (const line of lines) {
        if (index >= this.anchor.length) break;
        let entry: StoredChainEntry;
        try {
          entry = JSON.parse(line) as StoredChainEntry;
        } catch {
          entry = { prev_hash: '', event: '', hash: '' };
        }
        yield entry;
        index += 1;
      }
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
    } finally {
      lines.close();
      input.destroy();
    }
  }

  *allSnapshots(): Iterable<SnapshotRow> {
    const all: { pid: string; entry: IndexEntry }[] = [];
    for (const pid of this.propositionIds()) for (const entry of this.indexEntries(pid)) all.push({ pid, entry });
    all.sort((a, b) => a.entry.seq - b.entry.seq);
    for (const { pid, entry } of all) yield this.row(pid, entry);
  }

  /**
   * The committed entry rows, read once: rows of events below the anchor (a killed writer's rows past
   * it belong to events past it). Rows are told apart by their index, not by byte offsets, so the audit
   * still sees every row of a file whose length was changed.
   */
  protected committedEntries(): StoredEntryRow[] {
    if (this.entryList !== undefined) return this.entryList;
    const list: StoredEntryRow[] = [];
    if (this.anchor.entry_bytes > 0) {
      for (const row of readEntryRows(this.paths, this.anchor.entry_bytes)) if (row.chain_index < this.anchor.length) list.push(row);
    }
    this.entryList = list;
    return list;
  }

  entries(q: EntryRowQuery): StoredEntryRow[] {
    return selectEntries(this.committedEntries(), q).map((row) => ({ ...row }));
  }

  entryRows(keys: readonly EntryKey[]): Map<string, StoredEntryRow> {
    const wanted = new Set(keys.map((k) => entryKey(k.kind, k.id)));
    const out = new Map<string, StoredEntryRow>();
    for (const row of this.committedEntries()) {
      const key = entryKey(row.kind, row.id);
      if (wanted.has(key)) out.set(key, { ...row });
    }
    return out;
  }

  allEntries(): StoredEntryRow[] {
    return this.committedEntries().map((row) => ({ ...row }));
  }

  *allBindings(): Iterable<StoredBindingRow> {
    for (const pid of this.propositionIds()) {
      for (const entry of this.indexEntries(pid)) {
        for (const [kind, id, body] of this.file(pid, entry).records) yield { proposition_id: pid, kind, id, body };
      }
    }
  }
}

/** The last complete line of `path` that ends at byte `end` (exclusive), without reading the whole file. */
function lastLineBefore(path: string, end: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let pos = end - 1; // skip the final newline
    const size = 64 * 1024;
    while (pos > 0) {
      const from = Math.max(0, pos - size);
      const buf = Buffer.alloc(pos - from);
      readSync(fd, buf, 0, buf.length, from);
      const nl = buf.lastIndexOf(0x0a);
      if (nl >= 0) {
        chunks.unshift(buf.subarray(nl + 1));
        return Buffer.concat(chunks).toString('utf8');
      }
      chunks.unshift(buf);
      pos = from;
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

interface PendingSnapshot {
  pid: string;
  entry: IndexEntry;
  file: SnapshotFile;
}

/** Write access: rows buffered in memory, published by {@link publish}. */
class FileWriter extends FileReader implements LedgerWriter {
  private readonly pending: PendingSnapshot[] = [];
  private readonly pendingPages = new Map<string, PageEntry[]>();
  private readonly pendingChain: StoredChainEntry[] = [];
  private readonly pendingEntries: StoredEntryRow[] = [];
  private pendingAnchor: ChainAnchor | undefined;

  override entries(q: EntryRowQuery): StoredEntryRow[] {
    return selectEntries([...this.committedEntries(), ...this.pendingEntries], q).map((row) => ({ ...row }));
  }

  override entryRows(keys: readonly EntryKey[]): Map<string, StoredEntryRow> {
    const out = super.entryRows(keys);
    const wanted = new Set(keys.map((k) => entryKey(k.kind, k.id)));
    for (const row of this.pendingEntries) {
      const key = entryKey(row.kind, row.id);
      if (wanted.has(key)) out.set(key, { ...row });
    }
    return out;
  }

  insertEntries(rows: readonly StoredEntryRow[]): void {
    this.pendingEntries.push(...rows.map((row) => ({ ...row })));
  }

  protected override file(pid: string, entry: IndexEntry): SnapshotFile {
    const own = entry.seq > this.anchor.snapshots ? this.pending.find((p) => p.entry === entry) : undefined;
    return own?.file ?? super.file(pid, entry);
  }

  override bindings(pid: string, keys: readonly BindingRequest[]): Map<string, StoredBinding> {
    const out = super.bindings(pid, keys);
    for (const [kind, id, body] of this.pendingPages.get(pid) ?? []) out.set(bindingKey(kind, id), { body });
    return out;
  }

  override chainAnchor(): ChainAnchor {
    return this.pendingAnchor ?? super.chainAnchor();
  }

  override chainTail(): { index: number; hash: string } | undefined {
    const last = this.pendingChain.at(-1);
    if (last === undefined) return super.chainTail();
    return { index: this.anchor.length + this.pendingChain.length - 1, hash: last.hash };
  }

  insertBindings(pid: string, rows: readonly Binding[]): void {
    let page = this.pendingPages.get(pid);
    if (page === undefined) {
      page = [];
      this.pendingPages.set(pid, page);
    }
    for (const b of rows) page.push([b.kind, b.id, b.body]);
  }

  insertSnapshot(row: NewSnapshotRow): number {
    const seq = this.anchor.snapshots + this.pending.length + 1;
    const pid = row.proposition_id;
    const entry: IndexEntry = {
      seq,
      view_id: row.view_id,
      content_digest: row.content_digest,
      parent_seq: row.parent_seq,
      depth: row.depth,
      committed_at: row.committed_at,
      record_count: row.record_count,
      assertion_texts: JSON.parse(row.assertion_texts) as string[],
    };
    // The records this commit appended travel in its snapshot file.
    const records = this.pendingPages.get(pid) ?? [];
    this.pendingPages.delete(pid);
    this.pending.push({ pid, entry, file: { view_id: row.view_id, head: row.head, members: row.members, records } });
    this.indexEntries(pid).push(entry);
    return seq;
  }

  appendChain(entries: readonly StoredChainEntry[], anchor: ChainAnchor): void {
    this.pendingChain.push(...entries);
    this.pendingAnchor = anchor;
  }

  /** Steps (1)–(3) of the module comment. */
  publish(): void {
    if (this.pendingPages.size > 0)
      throw new LedgerError('EWP_REFUSE_LEDGER_UNAVAILABLE', 'json-file backend: records inserted without their snapshot (nothing was published)');
    if (this.pendingChain.length === 0 && this.pending.length === 0) return;
    const lines = this.pendingChain.map(entryLine).join('');
    const fd = openSync(this.paths.events, 'a');
    try {
      writeSync(fd, lines);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const entryLines = this.pendingEntries.map((row) => `${entryRowLine(row)}\n`).join('');
    if (entryLines !== '') {
      const efd = openSync(this.paths.entries, 'a');
      try {
        writeSync(efd, entryLines);
        fsyncSync(efd);
      } finally {
        closeSync(efd);
      }
    }
    const touched = new Set<string>();
    for (const p of this.pending) {
      makeDirectories(join(this.paths.proposition(p.pid), 'snapshots'));
      writeFileAtomic(this.paths.snapshot(p.pid, p.entry.seq), snapshotText(p.file));
      touched.add(p.pid);
    }
    for (const pid of touched) writeFileAtomic(this.paths.index(pid), indexText({ proposition_id: pid, snapshots: this.indexEntries(pid) }));
    const anchor = this.pendingAnchor ?? this.chainAnchor();
    const next: JsonLedgerAnchor = {
      length: anchor.length,
      head_hash: anchor.head_hash,
      bytes: this.anchor.bytes + Buffer.byteLength(lines),
      snapshots: this.anchor.snapshots + this.pending.length,
      entry_bytes: this.anchor.entry_bytes + Buffer.byteLength(entryLines),
    };
    writeFileAtomic(this.paths.anchor, anchorText(next));
  }
}

function anchorText(a: JsonLedgerAnchor): string {
  // `entry_bytes` only once there are entries: a ledger without them keeps the anchor it always had.
  const fields = {
    length: a.length,
    head_hash: a.head_hash,
    bytes: a.bytes,
    snapshots: a.snapshots,
    ...(a.entry_bytes > 0 ? { entry_bytes: a.entry_bytes } : {}),
  };
  return `${JSON.stringify(fields, null, 2)}\n`;
}

/**
 * The rows of `entries.jsonl` (none when it does not exist). A line that starts within the committed
 * `entry_bytes` must be a row (else the file is damaged); past them lie only a killed writer's rows,
 * the last perhaps cut short, so a line there that is no row is skipped (the next writer cuts it).
 */
function readEntryRows(paths: LedgerPaths, committedBytes: number): StoredEntryRow[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(paths.entries);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return [];
    throw damaged(`cannot read ${paths.entries}`, error);
  }
  const rows: StoredEntryRow[] = [];
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    const line = bytes.toString('utf8', start, end);
    const committed = start < committedBytes;
    start = end + 1;
    if (line === '') continue;
    let row: StoredEntryRow | undefined;
    try {
      row = JSON.parse(line) as StoredEntryRow;
    } catch (cause) {
      if (committed) throw damaged(`${paths.entries} holds a line that is not JSON`, cause);
      continue;
    }
    if (row === null || typeof row !== 'object' || !Number.isSafeInteger(row.chain_index) || typeof row.kind !== 'string' || typeof row.id !== 'string') {
      if (committed) throw damaged(`${paths.entries} holds a malformed row`);
      continue;
    }
    rows.push(row);
  }
  return rows;
}

/** An entry row's line: keys in a fixed order, one row per line. */
function entryRowLine(row: StoredEntryRow): string {
  return JSON.stringify({ chain_index: row.chain_index, kind: row.kind, id: row.id, subjects: row.subjects, body: row.body, committed_at: row.committed_at });
}

/**
 * Undo what a killed writer left past the anchor (called under the lock, before a transaction).
 * Bytes past the anchor that do not continue the committed log are damage, never cut.
 */
function recover(paths: LedgerPaths, anchor: JsonLedgerAnchor): void {
  // Entry rows past the anchor were never committed; they name no proposition, so they go first.
  let entrySize = 0;
  try {
    entrySize = statSync(paths.entries).size;
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
  }
  if (entrySize < anchor.entry_bytes) throw damaged(`entries.jsonl has ${entrySize} bytes, its anchor commits ${anchor.entry_bytes}`);
  if (entrySize > anchor.entry_bytes) {
    // Only a killed writer's whole rows, of events past the anchor, are cut; anything else is damage.
    const extra = readRange(paths.entries, anchor.entry_bytes, entrySize);
    const lines = extra.split('\n');
    const complete = lines.slice(0, -1);
    const ours = complete.every((line) => {
      try {
        return (JSON.parse(line) as StoredEntryRow).chain_index >= anchor.length;
      } catch {
        return false;
      }
    });
    if (!ours) throw damaged('entries.jsonl holds rows past its anchor that no uncommitted event appended');
    truncateSync(paths.entries, anchor.entry_bytes);
  }
  let size = 0;
  try {
    size = statSync(paths.events).size;
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
  }
  if (size < anchor.bytes) throw damaged(`events.jsonl has ${size} bytes, its anchor commits ${anchor.bytes}`);
  if (size === anchor.bytes) return;
  const extra = readRange(paths.events, anchor.bytes, size);
  const start = `{"prev_hash":${JSON.stringify(anchor.length === 0 ? EMPTY_ANCHOR.head_hash : anchor.head_hash)}`;
  if (!(extra.startsWith(start) || start.startsWith(extra))) throw damaged('events.jsonl holds bytes past its anchor that do not continue the committed log');
  const touched = new Set<string>();
  for (const line of extra.split('\n').slice(0, -1)) {
    try {
      const event = JSON.parse((JSON.parse(line) as StoredChainEntry).event) as { proposition_id?: unknown };
      if (typeof event.proposition_id === 'string') touched.add(event.proposition_id);
    } catch {
      // a line the killed writer never finished names nothing
    }
  }
  for (const pid of touched) {
    const path = paths.index(pid);
    const index = readIndexFile(paths, path);
    if (index?.snapshots.some((e) => e.seq > anchor.snapshots)) {
      const kept = index.snapshots.filter((e) => e.seq <= anchor.snapshots);
      if (kept.length === 0) unlinkSync(path);
      else writeFileAtomic(path, indexText({ proposition_id: pid, snapshots: kept }));
    }
    const dir = join(paths.proposition(pid), 'snapshots');
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // no snapshot was written
    }
    for (const name of names) {
      const seq = Number.parseInt(name, 10);
      if (name.includes('.tmp-') || (String(seq) === name.replace(/\.json$/, '') && seq > anchor.snapshots)) unlinkSync(join(dir, name));
    }
  }
  // Last: until the log is cut, a second recovery finds the same propositions.
  truncateSync(paths.events, anchor.bytes);
}

function readRange(path: string, from: number, to: number): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(to - from);
    readSync(fd, buf, 0, buf.length, from);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The backend of {@link JsonFileEvidenceStore}. */
export class JsonFileLedgerBackend implements LedgerBackend {
  private readonly paths: LedgerPaths;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    root: string,
    private readonly options: { readOnly: boolean; lockTimeoutMs: number },
  ) {
    this.paths = new LedgerPaths(root);
    if (!options.readOnly) sweepTemporaries(root);
  }

  /** Lay out a new, empty ledger (idempotent; several processes may race here). */
  static create(root: string, marker: string): void {
    const paths = new LedgerPaths(root);
    makeDirectories(paths.propositions);
    createFileOnce(paths.anchor, anchorText(EMPTY_JSON_ANCHOR));
    // The marker last: a ledger.json names a complete, empty ledger.
    createFileOnce(join(root, 'ledger.json'), marker);
  }

  read<T>(fn: (reader: LedgerReader) => Promise<T>): Promise<T> {
    return fn(new FileReader(this.paths, readAnchorFile(this.paths)));
  }

  write<T>(fn: (writer: LedgerWriter) => Promise<T>): Promise<T> {
    if (this.options.readOnly) return Promise.reject(new StoreUnavailableError('read_only', 'the JSON ledger was opened read-only'));
    // One transaction at a time in this process, under the directory lock across processes.
    const run = this.queue.then(() =>
      withFileLock(this.paths.lock, this.options.lockTimeoutMs, async () => {
        const anchor = readAnchorFile(this.paths);
        recover(this.paths, anchor);
        const writer = new FileWriter(this.paths, anchor);
        const result = await fn(writer);
        writer.publish();
        return result;
      }),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
  }
}
