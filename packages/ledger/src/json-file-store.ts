/**
 * The JSON-file EvidenceStore (STORES.md §3): a directory tree of pretty JSON documents, no native
 * dependency. Writers serialize on one lock file for the whole directory (see `file-lock.ts`) because
 * every write also appends to the one event log; each file is replaced atomically (temp file, fsync,
 * rename), and `latest.json` is the commit point of a snapshot.
 *
 * Layout under the root:
 * ```
 * ledger.json                                    {"format": "ewp-json-ledger", "version": 2}
 * .lock                                          the write lock ({pid, host, acquired_at})
 * events.jsonl                                   the hash-chained event log, one entry per line
 * anchor.json                                    {length, head_hash, bytes}: the log prefix that is committed
 * propositions/<K(P)>/latest.json                history: view ids in commit order, digests, id bindings
 * propositions/<K(P)>/views/<K(view_id)>.json    one snapshot document
 * ```
 * `K(x)` = the first 32 hex digits of SHA-256 of the UTF-8 id, so no id can collide or escape the root.
 */
import { createReadStream, existsSync, fsyncSync, openSync, closeSync, readdirSync, readFileSync, renameSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { canonicalViewText, decodeView, type EvidenceView } from '@ewp/core';
import { ImmutableRecordError, MissingViewError, StoreUnavailableError } from './errors.js';
import type {
  EvidenceStore,
  LedgerRecord,
  ListPropositionsQuery,
  PropositionSummary,
  PutResult,
  SnapshotSummary,
  StoreCapabilities,
} from './evidence-store.js';
import { appendDelta, decodeDelta } from './extend-records.js';
import { withFileLock } from './file-lock.js';
import { makeDirectories } from './make-directories.js';
import { buildChainEntries, type ChainAnchor, type ChainVerification, ChainVerifier, EMPTY_ANCHOR, type StoredChainEntry } from '@ewp/canonical';
import { assertionTexts, type Binding, layoutView, sha256Hex } from './snapshot-layout.js';
import { documentToView, prettySorted, viewToDocument } from './snapshot-document.js';

const FORMAT = 'ewp-json-ledger';
const VERSION = 2;

export interface JsonFileStoreOptions {
  /** Refuse every write; a root without a ledger is refused (`not_found`) and nothing is created. */
  readOnly?: boolean;
  /** How long a write waits for the lock before `StoreUnavailableError('busy')` (default 30 000 ms). */
  lockTimeoutMs?: number;
}

/** Per-proposition history (`latest.json`). */
interface History {
  claim: string;
  view_ids: string[];
  commits: Record<string, { view_digest: string; content_digest: string; event: number }>;
  /** kind → id → identity digest (STORES.md §1.5). */
  bindings: Record<string, Record<string, string>>;
  assertion_texts: string[];
  last_event: number;
}

interface StoredAnchor extends ChainAnchor {
  /** Byte length of events.jsonl at this anchor. */
  bytes: number;
}

/** `K(x)`: first 32 hex digits of SHA-256 of the id. */
export function fileKey(id: string): string {
  return sha256Hex(id).slice(0, 32);
}

function ownSet<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function atomicWrite(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/**
 * An EvidenceStore in a directory of JSON files.
 *
 * @example
 * const store = new JsonFileEvidenceStore('./ledger');
 * await store.put(view);
 */
export class JsonFileEvidenceStore implements EvidenceStore {
  static readonly CAPABILITIES: StoreCapabilities = Object.freeze({ persistent: true, multiProcess: true, keepsAdapterMeta: true, transactional: true });
  readonly capabilities = JsonFileEvidenceStore.CAPABILITIES;
  readonly root: string;
  readonly readOnly: boolean;
  private readonly lockTimeoutMs: number;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();

  /** @throws {StoreUnavailableError} `not_found` (read-only, no ledger) or `schema` (another format/version). */
  constructor(root: string, options: JsonFileStoreOptions = {}) {
    this.root = resolve(root);
    this.readOnly = options.readOnly ?? false;
    this.lockTimeoutMs = options.lockTimeoutMs ?? 30_000;
    const marker = join(this.root, 'ledger.json');
    if (!existsSync(marker)) {
      if (this.readOnly) throw new StoreUnavailableError('not_found', `ledger not found: ${this.root} (read-only mode creates nothing)`);
      if (existsSync(this.root) && readdirSync(this.root).length > 0) {
        throw new StoreUnavailableError('schema', `${this.root} is not empty and holds no ledger.json; use an empty or new directory`);
      }
      makeDirectories(join(this.root, 'propositions'));
      try {
        const fd = openSync(marker, 'wx');
        writeSync(fd, prettySorted({ format: FORMAT, version: VERSION }));
        closeSync(fd);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    let info: { format?: unknown; version?: unknown };
    try {
      info = JSON.parse(readFileSync(marker, 'utf8'));
    } catch (cause) {
      throw new StoreUnavailableError('damaged', `${marker} is unreadable`, { cause });
    }
    if (info.format !== FORMAT || info.version !== VERSION) {
      throw new StoreUnavailableError(
        'schema',
        `${this.root}: ledger format ${String(info.format)} version ${String(info.version)}, this store reads ${FORMAT} version ${VERSION} only; start a new ledger`,
      );
    }
  }

  async put(view: unknown): Promise<PutResult> {
    this.ensureOpen();
    const decoded = decodeView(view);
    return this.write(() => this.commit(decoded));
  }

  async get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined> {
    this.ensureOpen();
    const history = this.readHistory(propositionId);
    if (history === undefined) return undefined;
    const vid = viewId ?? history.view_ids.at(-1);
    if (vid === undefined || !Object.hasOwn(history.commits, vid) || !history.view_ids.includes(vid)) return undefined;
    return this.readSnapshot(history, vid);
  }

  async extend(propositionId: string, records: LedgerRecord[], options?: { newViewId?: string }): Promise<PutResult> {
    this.ensureOpen();
    const delta = decodeDelta(propositionId, records);
    return this.write(() => {
      const history = this.readHistory(propositionId);
      const last = history?.view_ids.at(-1);
      if (history === undefined || last === undefined) throw new MissingViewError(propositionId);
      const base = this.readSnapshot(history, last);
      return this.commit(decodeView(appendDelta(base, delta, options?.newViewId ?? '')));
    });
  }

  async listPropositions(query?: ListPropositionsQuery): Promise<PropositionSummary[]> {
    this.ensureOpen();
    const needle = query?.query?.toLowerCase();
    const limit = query?.limit ?? 50;
    const dir = join(this.root, 'propositions');
    const all: History[] = [];
    for (const key of existsSync(dir) ? readdirSync(dir) : []) {
      const h = this.readHistoryFile(join(dir, key, 'latest.json'));
      if (h !== undefined && h.view_ids.length > 0) all.push(h);
    }
    all.sort((a, b) => b.last_event - a.last_event);
    return all
      .filter(
        (h) =>
          !needle || h.claim.toLowerCase().includes(needle) || h.assertion_texts.some((t) => t.toLowerCase().includes(needle)),
      )
      .slice(0, limit)
      .map((h) => ({
        proposition_id: h.claim,
        latest_view_id: h.view_ids.at(-1) as string,
        assertions: h.assertion_texts,
        snapshots: h.view_ids.length,
      }));
  }

  async listSnapshots(propositionId: string): Promise<SnapshotSummary[]> {
    this.ensureOpen();
    return (this.readHistory(propositionId)?.view_ids ?? []).map((view_id, seq) => ({ view_id, seq }));
  }

  async verifyChain(): Promise<ChainVerification> {
    this.ensureOpen();
    const anchor = this.readAnchor();
    const verifier = new ChainVerifier().watchAnchor(anchor);
    const committed: { index: number; pid: string; vid: string; view_digest: string; content_digest: string }[] = [];
    const path = join(this.root, 'events.jsonl');
    let index = 0;
    if (existsSync(path)) {
      const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
      for await (const line of lines) {
        // Entries past the anchor belong to an interrupted commit not yet recovered: not part of the log.
        if (index >= anchor.length) break;
        let entry: StoredChainEntry;
        try {
          entry = JSON.parse(line) as StoredChainEntry;
        } catch {
          entry = { prev_hash: '', event: '', hash: '' };
        }
        verifier.pushStored(entry);
        if (verifier.failed) break;
        const event = JSON.parse(entry.event) as Record<string, unknown>;
        if (event.type === 'snapshot_committed') {
          committed.push({
            index,
            pid: String(event.proposition_id),
            vid: String(event.view_id),
            view_digest: String(event.view_digest),
            content_digest: String(event.content_digest),
          });
        }
        index += 1;
      }
      lines.close();
    }
    const chain = verifier.finish(anchor);
    if (!chain.ok) return chain;
    const bad = this.verifyHistories(committed, chain.length);
    if (bad !== undefined) return bad;
    for (const c of committed) {
      const fail = (detail: string): ChainVerification => ({ ok: false, length: chain.length, firstBadIndex: c.index, reason: 'row_mismatch', detail });
      const label = `snapshot ${JSON.stringify(c.vid)} of ${JSON.stringify(c.pid)}`;
      let history: History | undefined;
      try {
        history = this.readHistory(c.pid);
      } catch (error) {
        return fail(`${label}: ${(error as Error).message}`);
      }
      const commit = history !== undefined && Object.hasOwn(history.commits, c.vid) ? history.commits[c.vid] : undefined;
      if (history === undefined || commit === undefined || !history.view_ids.includes(c.vid)) return fail(`${label} is missing from its history`);
      if (commit.view_digest !== c.view_digest || commit.content_digest !== c.content_digest) return fail(`${label}: history digests differ from its event`);
      try {
        const view = this.readSnapshot(history, c.vid);
        if (sha256Hex(canonicalViewText(view)) !== c.view_digest) return fail(`${label}: content differs from its digest`);
      } catch (error) {
        return fail(`${label}: ${(error as Error).message}`);
      }
    }
    return chain;
  }

  /**
   * Every history file must say exactly what the log committed: the view ids in commit order (a
   * reordered or appended id changes which snapshot is latest), the same commits, the proposition's
   * last event (the list order) and the listed assertion texts (derived from the latest snapshot);
   * and no proposition directory may exist that no event committed.
   */
  private verifyHistories(committed: readonly { index: number; pid: string; vid: string }[], length: number): ChainVerification | undefined {
    const logged = new Map<string, { vids: string[]; last: number }>();
    for (const c of committed) {
      const entry = logged.get(c.pid) ?? { vids: [], last: -1 };
      entry.vids.push(c.vid);
      entry.last = c.index;
      logged.set(c.pid, entry);
    }
    for (const [pid, { vids, last }] of logged) {
      const fail = (detail: string): ChainVerification => ({ ok: false, length, firstBadIndex: last, reason: 'row_mismatch', detail: `history of ${JSON.stringify(pid)}: ${detail}` });
      let history: History | undefined;
      try {
        history = this.readHistory(pid);
      } catch (error) {
        return fail((error as Error).message);
      }
      if (history === undefined) return fail('missing');
      if (JSON.stringify(history.view_ids) !== JSON.stringify(vids)) return fail('its view ids differ from the commits in the event log');
      if (JSON.stringify(Object.keys(history.commits).sort()) !== JSON.stringify([...vids].sort())) return fail('its commits differ from the event log');
      if (history.last_event !== last) return fail('its last event differs from the event log');
      try {
        const latest = this.readSnapshot(history, vids.at(-1) as string);
        if (JSON.stringify(history.assertion_texts) !== JSON.stringify(assertionTexts(latest))) return fail('its listed assertion texts differ from its latest snapshot');
      } catch (error) {
        return fail((error as Error).message);
      }
    }
    const dir = join(this.root, 'propositions');
    const known = new Set([...logged.keys()].map(fileKey));
    for (const key of existsSync(dir) ? readdirSync(dir) : []) {
      if (known.has(key)) continue;
      const h = this.readHistoryFile(join(dir, key, 'latest.json'));
      // An empty directory (a writer stopped before its history) is invisible to reads; a history is not.
      if (h !== undefined && h.view_ids.length > 0) {
        return { ok: false, length, firstBadIndex: length, reason: 'row_mismatch', detail: `history of ${JSON.stringify(h.claim)} holds snapshots no event committed` };
      }
    }
    return undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
  }

  private ensureOpen(): void {
    if (this.closed) throw new StoreUnavailableError('closed', 'the store is closed');
  }

  /** One write at a time in this process, under the directory lock across processes. */
  private write<T>(fn: () => T): Promise<T> {
    if (this.readOnly) return Promise.reject(new StoreUnavailableError('read_only', 'the JSON ledger was opened read-only'));
    const run = this.queue.then(() =>
      withFileLock(join(this.root, '.lock'), this.lockTimeoutMs, () => {
        this.recover();
        return fn();
      }),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  private propositionDir(pid: string): string {
    return join(this.root, 'propositions', fileKey(pid));
  }

  private readHistoryFile(path: string): History | undefined {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StoreUnavailableError('damaged', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
    }
    try {
      return JSON.parse(text) as History;
    } catch (cause) {
      throw new StoreUnavailableError('damaged', `store damaged: ${path} is not JSON`, { cause });
    }
  }

  private readHistory(pid: string): History | undefined {
    const history = this.readHistoryFile(join(this.propositionDir(pid), 'latest.json'));
    if (history !== undefined && history.claim !== pid) {
      throw new StoreUnavailableError('damaged', `store damaged: history of ${JSON.stringify(pid)} names ${JSON.stringify(history.claim)}`);
    }
    return history;
  }

  private readSnapshot(history: History, vid: string): EvidenceView {
    const path = join(this.propositionDir(history.claim), 'views', `${fileKey(vid)}.json`);
    const label = `snapshot ${JSON.stringify(vid)} of ${JSON.stringify(history.claim)}`;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (cause) {
      throw new StoreUnavailableError('damaged', `store damaged: ${label} is missing (${path})`, { cause });
    }
    if (!Object.hasOwn(history.commits, vid) || sha256Hex(text) !== history.commits[vid]?.content_digest) {
      throw new StoreUnavailableError('damaged', `store damaged: ${label} differs from its committed digest (${path})`);
    }
    const doc = JSON.parse(text) as Record<string, unknown>;
    const view = decodeView(documentToView(doc));
    if (view.proposition_id !== history.claim || view.view_id !== vid) {
      throw new StoreUnavailableError('damaged', `store damaged: ${path} holds ${JSON.stringify(view.view_id)} of ${JSON.stringify(view.proposition_id)}`);
    }
    return view;
  }

  private readAnchor(): StoredAnchor {
    const path = join(this.root, 'anchor.json');
    if (!existsSync(path)) {
      const events = join(this.root, 'events.jsonl');
      const bytes = existsSync(events) ? statSync(events).size : 0;
      if (bytes > 0 && this.anyHistory()) throw new StoreUnavailableError('damaged', 'store damaged: anchor.json is missing but the event log is not empty');
      return { ...EMPTY_ANCHOR, bytes: 0 };
    }
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as StoredAnchor;
    } catch (cause) {
      throw new StoreUnavailableError('damaged', 'store damaged: anchor.json is unreadable', { cause });
    }
  }

  private anyHistory(): boolean {
    const dir = join(this.root, 'propositions');
    return existsSync(dir) && readdirSync(dir).length > 0;
  }

  /**
   * Finish or undo a commit a crashed writer left half done (called under the lock). Log entries past
   * the anchor whose snapshot reached its history are rolled forward into the anchor; otherwise they
   * (and a torn last line) are cut off: that snapshot was never committed. A log shorter than its
   * anchor is damage, never a fresh start.
   */
  private recover(): void {
    const anchor = this.readAnchor();
    const path = join(this.root, 'events.jsonl');
    const size = existsSync(path) ? statSync(path).size : 0;
    if (size < anchor.bytes) {
      throw new StoreUnavailableError('damaged', `store damaged: events.jsonl has ${size} bytes, its anchor commits ${anchor.bytes}; run \`ewp audit verify\``);
    }
    if (size === anchor.bytes) return;
    const extra = readFileSync(path).subarray(anchor.bytes).toString('utf8');
    const complete = extra.endsWith('\n') ? extra : extra.slice(0, extra.lastIndexOf('\n') + 1);
    const entries = complete.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as StoredChainEntry);
    const snapshotEvent = entries
      .map((e) => JSON.parse(e.event) as Record<string, unknown>)
      .find((e) => e.type === 'snapshot_committed');
    const history = snapshotEvent ? this.readHistory(String(snapshotEvent.proposition_id)) : undefined;
    if (snapshotEvent && history?.view_ids.includes(String(snapshotEvent.view_id)) && complete === extra) {
      const last = entries.at(-1) as StoredChainEntry;
      atomicWrite(join(this.root, 'anchor.json'), prettySorted({ length: anchor.length + entries.length, head_hash: last.hash, bytes: size }));
      return;
    }
    truncateSync(path, anchor.bytes);
  }

  private commit(view: EvidenceView): PutResult {
    const pid = view.proposition_id;
    const vid = view.view_id;
    const viewDigest = sha256Hex(canonicalViewText(view));
    const history: History = this.readHistory(pid) ?? {
      claim: pid,
      view_ids: [],
      commits: {},
      bindings: {},
      assertion_texts: [],
      last_event: -1,
    };
    const existing = history.view_ids.includes(vid) ? history.commits[vid] : undefined;
    if (existing !== undefined) {
      if (existing.view_digest === viewDigest) return { status: 'unchanged', proposition_id: pid, view_id: vid };
      throw new ImmutableRecordError(pid, 'snapshot', vid);
    }
    const layout = layoutView(view);
    // Each binding's identity digest, computed once: compared, then written to the event and the history.
    const fresh: (Binding & { digest: string })[] = [];
    for (const b of layout.bindings) {
      const ofKind = Object.hasOwn(history.bindings, b.kind) ? history.bindings[b.kind] : undefined;
      const stored = ofKind !== undefined && Object.hasOwn(ofKind, b.id) ? ofKind[b.id] : undefined;
      const digest = sha256Hex(b.identity);
      if (stored === undefined) fresh.push({ ...b, digest });
      else if (stored !== digest) throw new ImmutableRecordError(pid, b.kind, b.id, b.path);
    }
    const dir = this.propositionDir(pid);
    makeDirectories(join(dir, 'views'));
    const docText = prettySorted(viewToDocument(view));
    const contentDigest = sha256Hex(docText);
    // 1. the snapshot file (an orphan until the history names it; a leftover orphan is replaced)
    atomicWrite(join(dir, 'views', `${fileKey(vid)}.json`), docText);
    // 2. the log entries, past the anchor until step 4
    const anchor = this.readAnchor();
    const at = new Date().toISOString();
    const events: Record<string, unknown>[] = [];
    if (fresh.length > 0) {
      events.push({ type: 'record_appended', at, proposition_id: pid, view_id: vid, records: fresh.map((b) => [b.kind, b.id, b.digest]) });
    }
    events.push({
      type: 'snapshot_committed',
      at,
      proposition_id: pid,
      view_id: vid,
      view_digest: viewDigest,
      content_digest: contentDigest,
      parent_view_id: null,
      records: view.assertions.length + view.evidence.length + view.checks.length,
    });
    const chain = buildChainEntries(anchor, events);
    const lines = chain.entries.map((e) => `${JSON.stringify(e)}\n`).join('');
    const eventsPath = join(this.root, 'events.jsonl');
    const fd = openSync(eventsPath, 'a');
    try {
      writeSync(fd, lines);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // 3. the history: the commit point of the snapshot
    // defineProperty, never `obj[id] =`: an id may be "__proto__", which assignment would not store as a key.
    for (const b of fresh) {
      if (!Object.hasOwn(history.bindings, b.kind)) ownSet(history.bindings, b.kind, {});
      ownSet(history.bindings[b.kind] as Record<string, string>, b.id, b.digest);
    }
    history.view_ids.push(vid);
    ownSet(history.commits, vid, { view_digest: viewDigest, content_digest: contentDigest, event: chain.anchor.length - 1 });
    history.assertion_texts = assertionTexts(view);
    history.last_event = chain.anchor.length - 1;
    atomicWrite(join(dir, 'latest.json'), prettySorted(history));
    // 4. the anchor
    atomicWrite(
      join(this.root, 'anchor.json'),
      prettySorted({ length: chain.anchor.length, head_hash: chain.anchor.head_hash, bytes: anchor.bytes + Buffer.byteLength(lines) }),
    );
    return { status: 'stored', proposition_id: pid, view_id: vid };
  }
}
