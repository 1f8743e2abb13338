/**
 * The one implementation of the EvidenceStore rules (docs/spec/store-contract.md §1) shared by the memory,
 * SQLite and PostgreSQL stores. Backends store rows; this class decides what may be written, lays
 * snapshots out (extends are stored as deltas over their parent), writes the event log in the same
 * transaction, and checks digests on read.
 */
import { canonicalViewText, decodeView, type EvidenceView, InvalidArgumentError, type VerificationCheck } from '@ewp/core';
import { ImmutableRecordError, InvalidEntryError, MissingViewError, StoreUnavailableError } from './errors.js';
import { appendDelta, type Delta, decodeDelta } from './extend-records.js';
import type {
  AppendEntryResult,
  BatchWrite,
  EntryQuery,
  EntryWriteOptions,
  EvidenceStore,
  LedgerEntry,
  LedgerEntryInput,
  LedgerRecord,
  ListPropositionsQuery,
  PropositionSummary,
  PutResult,
  SnapshotSummary,
  StoreCapabilities,
} from './evidence-store.js';
import { buildChainEntries, type ChainAnchor, type ChainVerification, ChainVerifier, ebcj1String, isWellFormed, type VerifyChainOptions } from '@ewp/canonical';
import type { BindingRequest, LedgerBackend, LedgerReader, LedgerWriter, SnapshotRow, StoredBinding, StoredBindingRow } from './ledger-backend.js';
import {
  type EntryEvent,
  entryEvent,
  entryEventOf,
  entryFromRow,
  entryKey,
  entryRow,
  entryRowFault,
  entryRowQuery,
  type PreparedEntry,
  prepareEntries,
  sameEntry,
} from './ledger-entries.js';
import {
  assembleView,
  assertionTexts,
  bindingKey,
  checkMember,
  contentDigest,
  distinctSources,
  identityText,
  layoutView,
  MEMBER_KIND,
  type MemberRef,
  parseRecords,
  recordsDigest,
  type StoredRecord,
} from './snapshot-layout.js';

/** Beyond this many delta steps a snapshot stores its complete member list (bounds read cost). */
export const MAX_DELTA_DEPTH = 64;

const DEFAULT_LIST_LIMIT = 50;

interface Resolved {
  view: EvidenceView;
  members: MemberRef[];
  bodies: Map<string, StoredBinding>;
}

interface ParentInfo {
  row: SnapshotRow;
  resolved: Resolved;
}

/** Views made by {@link sealView}: decoded, then frozen, so what was checked is what gets stored. */
const sealedViews = new WeakSet<object>();

/** Freeze an object and every object under it (a decoded view holds only plain objects and arrays). */
function deepFreeze(value: object): void {
  Object.freeze(value);
  // for-in, not Object.keys: no key array per object (a visible share of an ingest's sealing).
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) freezeChild(value[i]);
  } else {
    for (const key in value) freezeChild((value as Record<string, unknown>)[key]);
  }
}

function freezeChild(x: unknown): void {
  if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) deepFreeze(x);
}

/**
 * `decodeView` (the same checks and refusals), with the result frozen deeply and remembered: a store
 * of this process takes that very object as already decoded in `put` and `putMany`, instead of
 * decoding it a second time. For a caller that must decode first anyway (to refuse views one by
 * one before it batches them, as `ewp ingest` does). The decoded view shares nothing with `value`.
 * @throws {EwpError} as `decodeView`.
 */
export function sealView(value: unknown): EvidenceView {
  const view = decodeView(value);
  deepFreeze(view);
  sealedViews.add(view);
  return view;
}

/** The decoded view of a write's argument: a sealed view as it is, anything else through `decodeView`. */
function decodedView(value: unknown): EvidenceView {
  return typeof value === 'object' && value !== null && sealedViews.has(value) ? (value as EvidenceView) : decodeView(value);
}

/** The stored bindings of a proposition that has none. */
const NOTHING_STORED: ReadonlyMap<string, StoredBinding> = new Map();

/**
 * The proposition ids the views of a batch name, as far as they can be read before decoding: only a
 * hint for one lookup (a view's decoded id that the lookup did not cover is looked up as usual).
 */
function propositionIdsOf(views: readonly unknown[]): string[] {
  const ids: string[] = [];
  for (const v of views) {
    const id = typeof v === 'object' && v !== null ? (v as { proposition_id?: unknown }).proposition_id : undefined;
    if (typeof id === 'string') ids.push(id);
  }
  return ids;
}

/** Key of a member in the bindings map. */
function memberKey(m: MemberRef): string {
  return bindingKey(MEMBER_KIND[m[0]], m[1]);
}

/**
 * An EvidenceStore over a {@link LedgerBackend}. Subclasses pick the backend and capabilities.
 */
export class LedgerEngineStore implements EvidenceStore {
  readonly capabilities: StoreCapabilities;
  protected readonly backend: LedgerBackend;
  private closed = false;
  /** Write transactions this store has run (committed or not): part of {@link revision}. */
  private ownWrites = 0;

  constructor(backend: LedgerBackend, capabilities: StoreCapabilities) {
    this.backend = backend;
    this.capabilities = capabilities;
  }

  async put(view: unknown, options?: EntryWriteOptions): Promise<PutResult> {
    this.ensureOpen();
    const decoded = decodedView(view);
    const entries = optionEntries(options);
    return this.write(async (w) => {
      const cursor = new ChainCursor();
      const result = await this.commit(w, decoded, undefined, cursor);
      await this.appendIn(w, entries, cursor);
      return result;
    });
  }

  /**
   * Store several snapshots in one transaction: all or nothing. An invalid view refuses the batch and
   * the transaction rolls back, so the ledger is untouched. Each view is decoded just before it is
   * written (not all of them first), so a large batch's decoded records die young instead of filling
   * the old generation of the heap.
   */
  async putMany(views: readonly unknown[], options?: EntryWriteOptions): Promise<PutResult[]> {
    this.ensureOpen();
    if (!Array.isArray(views)) throw new InvalidArgumentError('views', 'putMany needs an array of views');
    const entries = optionEntries(options);
    return this.write(async (w) => {
      const out: PutResult[] = [];
      // One cursor for the transaction: the log's anchor is read and checked once, not once per view.
      const cursor = new ChainCursor();
      // Propositions with nothing stored, asked once for the batch (under the write lock): the first
      // view of one has no snapshot and no binding to look up. Later views of the same proposition
      // see what the transaction wrote, so it leaves the set with its first view.
      const unused = views.length > 1 && w.unusedPropositions !== undefined ? await w.unusedPropositions(propositionIdsOf(views)) : undefined;
      for (const v of views) {
        const view = decodedView(v);
        out.push(await this.commit(w, view, undefined, cursor, unused?.delete(view.proposition_id) === true));
      }
      await this.appendIn(w, entries, cursor);
      return out;
    });
  }

  async get(propositionId: string, viewId?: string): Promise<EvidenceView | undefined> {
    this.ensureOpen();
    return this.backend.read(async (r) => {
      const row = viewId === undefined ? await r.latestSnapshot(propositionId) : await r.findSnapshot(propositionId, viewId);
      return row === undefined ? undefined : (await this.resolve(r, row)).view;
    });
  }

  async extend(propositionId: string, records: LedgerRecord[], options?: { newViewId?: string } & EntryWriteOptions): Promise<PutResult> {
    this.ensureOpen();
    if (!Array.isArray(records)) throw new InvalidArgumentError('records', 'extend needs an array of {kind, record}');
    const delta = decodeDelta(propositionId, records);
    const entries = optionEntries(options);
    return this.write(async (w) => {
      const latest = await w.latestSnapshot(propositionId);
      if (latest === undefined) throw new MissingViewError(propositionId);
      const resolved = await this.resolve(w, latest);
      const candidate = appendDelta(resolved.view, delta, options?.newViewId ?? '');
      const view = decodeView(candidate);
      const cursor = new ChainCursor();
      const result = await this.commit(w, view, { row: latest, resolved }, cursor);
      await this.appendIn(w, entries, cursor);
      return result;
    });
  }

  async writeBatch(writes: readonly BatchWrite[], options?: EntryWriteOptions): Promise<PutResult[]> {
    this.ensureOpen();
    if (!Array.isArray(writes)) throw new InvalidArgumentError('writes', 'writeBatch needs an array of {put} or {extend, records}');
    // Decoded first, as put and extend do: bad input is refused before the transaction starts.
    const decoded = writes.map((x: unknown, i): { view: EvidenceView } | { extend: string; delta: Delta; newViewId: string } => {
      const write = typeof x === 'object' && x !== null ? (x as Record<string, unknown>) : undefined;
      if (write !== undefined && Object.hasOwn(write, 'put')) return { view: decodedView(write.put) };
      if (write !== undefined && typeof write.extend === 'string') {
        const newViewId = write.newViewId;
        if (newViewId !== undefined && typeof newViewId !== 'string') throw new InvalidArgumentError(`writes[${i}].newViewId`, 'must be a string');
        return { extend: write.extend, delta: decodeDelta(write.extend, write.records as LedgerRecord[]), newViewId: newViewId ?? '' };
      }
      throw new InvalidArgumentError(`writes[${i}]`, 'must be {put: view} or {extend: proposition_id, records}');
    });
    const entries = optionEntries(options);
    return this.write(async (w) => {
      const cursor = new ChainCursor();
      const out: PutResult[] = [];
      for (const d of decoded) {
        if ('view' in d) {
          out.push(await this.commit(w, d.view, undefined, cursor));
          continue;
        }
        // As extend: the latest snapshot read under the write lock, so no concurrent extender is lost.
        const latest = await w.latestSnapshot(d.extend);
        if (latest === undefined) throw new MissingViewError(d.extend);
        const resolved = await this.resolve(w, latest);
        const view = decodeView(appendDelta(resolved.view, d.delta, d.newViewId));
        out.push(await this.commit(w, view, { row: latest, resolved }, cursor));
      }
      await this.appendIn(w, entries, cursor);
      return out;
    });
  }

  async appendEntries(entries: readonly LedgerEntryInput[]): Promise<AppendEntryResult[]> {
    this.ensureOpen();
    const prepared = prepareEntries(entries, 'entries');
    if (prepared.length === 0) return [];
    return this.write((w) => this.appendIn(w, prepared, new ChainCursor()));
  }

  async readEntries(query?: EntryQuery): Promise<LedgerEntry[]> {
    this.ensureOpen();
    const q = entryRowQuery(query);
    if (q.limit === 0 || (q.kinds?.length === 0 && q.prefixes?.length === 0)) return [];
    return this.backend.read(async (r) => (await r.entries(q)).map(entryFromRow));
  }

  async listPropositions(query?: ListPropositionsQuery): Promise<PropositionSummary[]> {
    this.ensureOpen();
    const needle = query?.query?.toLowerCase();
    const limit = query?.limit ?? DEFAULT_LIST_LIMIT;
    if (!Number.isInteger(limit) || limit < 0) throw new InvalidArgumentError('limit', 'must be a non-negative integer');
    return this.backend.read(async (r) => {
      const out: PropositionSummary[] = [];
      if (limit === 0) return out;
      for await (const { row, snapshots } of await r.latestRows()) {
        const texts = JSON.parse(row.assertion_texts) as string[];
        if (needle === undefined || needle === '' || row.proposition_id.toLowerCase().includes(needle) || texts.some((t) => t.toLowerCase().includes(needle))) {
          out.push({ proposition_id: row.proposition_id, latest_view_id: row.view_id, assertions: texts, snapshots });
          if (out.length >= limit) break;
        }
      }
      return out;
    });
  }

  async listSnapshots(propositionId: string): Promise<SnapshotSummary[]> {
    this.ensureOpen();
    return this.backend.read(async (r) => (await r.snapshotIds(propositionId)).map((s, i) => ({ view_id: s.view_id, seq: i })));
  }

  /**
   * Verify the event log from its genesis entry against the stored anchor, then every stored row
   * against the event that committed it (snapshot digests, record digests). A row that does not
   * match fails at the index of its event. With `expectHead`, the log must also reach a head the user kept.
   */
  async verifyChain(options: VerifyChainOptions = {}): Promise<ChainVerification> {
    this.ensureOpen();
    return this.backend.read(async (r) => {
      const anchor = await r.chainAnchor();
      const verifier = new ChainVerifier().watchAnchor(anchor).expectHead(options.expectHead);
      const snapshotEvents = new Map<string, SnapshotEvent>();
      const recordEvents: { index: number; keys: string[]; digest: string }[] = [];
      const entryEvents = new Map<string, EntryEvent>();
      let index = 0;
      for await (const entry of r.chainEntries()) {
        verifier.pushStored(entry);
        if (verifier.failed) break;
        const event = JSON.parse(entry.event) as Record<string, unknown>;
        if (event.type === 'snapshot_committed') {
          snapshotEvents.set(`${event.proposition_id}\u0000${event.view_id}`, {
            index,
            content_digest: String(event.content_digest),
            parent_view_id: event.parent_view_id === null ? null : String(event.parent_view_id),
            at: String(event.at),
            records: Number(event.records),
          });
        } else if (event.type === 'record_appended') {
          const keys = (event.records as [string, string][]).map(([kind, id]) => `${event.proposition_id}\u0000${kind}\u0000${id}`);
          recordEvents.push({ index, keys, digest: String(event.records_digest) });
        } else if (event.type === 'entry_appended') {
          const { key, event: appended } = entryEventOf(event, index);
          entryEvents.set(key, appended);
        }
        index += 1;
      }
      const chain = verifier.finish(anchor);
      if (!chain.ok) return chain;
      const fail = (firstBadIndex: number, detail: string, reason = 'row_mismatch'): Failed => ({
        ok: false,
        length: chain.length,
        firstBadIndex,
        reason,
        detail,
      });
      const checkSnapshots = async (): Promise<Failed | undefined> => {
        let rows = 0;
        // Every column a read uses is checked against the event that committed the row: the digest
        // covers head, members and records; the parent link, delta depth, commit order, commit time,
        // record count and listed texts are compared here (a re-parented delta or a reordered `seq`
        // changes what `get` returns while every digest still matches).
        const bySeq = new Map<number, { view_id: string; proposition_id: string; depth: number }>();
        const byView = new Map<string, { view_id: string; proposition_id: string; depth: number }>();
        let lastIndex = -1;
        for await (const row of r.allSnapshots()) {
          rows += 1;
          const event = snapshotEvents.get(`${row.proposition_id}\u0000${row.view_id}`);
          const label = where(row);
          if (event === undefined) return fail(chain.length, `${label} has no snapshot_committed event`);
          if (event.content_digest !== row.content_digest) return fail(event.index, `${label}: stored digest differs from its event`);
          if (event.index <= lastIndex) return fail(event.index, `${label}: stored commit order differs from the event log`);
          lastIndex = event.index;
          if (row.committed_at !== event.at) return fail(event.index, `${label}: stored commit time differs from its event`);
          if (row.record_count !== event.records) return fail(event.index, `${label}: stored record count differs from its event`);
          const parent = row.parent_seq === null ? undefined : bySeq.get(row.parent_seq);
          if (row.parent_seq !== null && (parent === undefined || parent.proposition_id !== row.proposition_id)) {
            return fail(event.index, `${label}: its parent link names no earlier snapshot of the proposition`);
          }
          if (parent !== undefined && parent.view_id !== event.parent_view_id) return fail(event.index, `${label}: its parent link differs from its event`);
          if (parent === undefined && event.parent_view_id !== null) {
            // An extend is stored complete only when its parent's delta chain is full.
            const committedParent = byView.get(`${row.proposition_id}\u0000${event.parent_view_id}`);
            if (committedParent === undefined || committedParent.depth + 1 <= MAX_DELTA_DEPTH) {
              return fail(event.index, `${label}: stored complete, committed as a delta of ${JSON.stringify(event.parent_view_id)}`);
            }
          }
          if (row.depth !== (parent === undefined ? 0 : parent.depth + 1))
            return fail(event.index, `${label}: stored delta depth differs from its parent link`);
          const seen = { view_id: row.view_id, proposition_id: row.proposition_id, depth: row.depth };
          bySeq.set(row.seq, seen);
          byView.set(`${row.proposition_id}\u0000${row.view_id}`, seen);
          try {
            // Rebuilding checks every row the snapshot is made of against its content digest.
            const resolved = await this.resolve(r, row);
            if (row.assertion_texts !== JSON.stringify(assertionTexts(resolved.view))) {
              return fail(event.index, `${label}: stored assertion texts differ from its records`);
            }
          } catch (error) {
            return fail(event.index, `${label}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        if (rows !== snapshotEvents.size) return fail(chain.length, `${snapshotEvents.size - rows} committed snapshot(s) missing from the tables`);
        return undefined;
      };
      const checkBindings = async (): Promise<Failed | undefined> => {
        // Every stored binding must be one that an event appended, with the content it appended.
        const stored = new Map<string, StoredBindingRow>();
        for await (const b of r.allBindings()) stored.set(`${b.proposition_id}\u0000${b.kind}\u0000${b.id}`, b);
        let appended = 0;
        for (const event of recordEvents) {
          const identities: string[] = [];
          for (const key of event.keys) {
            const b = stored.get(key);
            if (b === undefined) return fail(event.index, `${key.split('\u0000').join(' ')}: an appended record is missing from the tables`);
            try {
              identities.push(identityText(b.kind, b.body));
            } catch {
              return fail(event.index, `${b.kind} ${JSON.stringify(b.id)} of ${JSON.stringify(b.proposition_id)}: stored record is unreadable`);
            }
          }
          if (recordsDigest(identities) !== event.digest) return fail(event.index, 'a stored record differs from the event that appended it');
          appended += event.keys.length;
        }
        if (stored.size !== appended) return fail(chain.length, `${stored.size - appended} stored record(s) have no record_appended event`);
        return undefined;
      };
      const checkEntries = async (): Promise<Failed | undefined> => {
        const fault = await entryRowFault(r.allEntries(), r.allEntrySubjects?.(), entryEvents, chain.length);
        return fault === undefined ? undefined : fail(fault.index, fault.detail, fault.reason);
      };
      // Every pass stops at (or keeps) its first bad event; the earliest is the first bad index.
      const bad = [await checkBindings(), await checkSnapshots(), await checkEntries()].filter((x) => x !== undefined);
      if (bad.length > 0) return bad.reduce((a, b) => (b.firstBadIndex < a.firstBadIndex ? b : a));
      return chain;
    });
  }

  /**
   * When the backend can say cheaply whether another connection committed (`othersCommits`: SQLite's
   * `data_version`, PostgreSQL's count of commit notifications while its listener is confirmed), that
   * and this store's own write count; else (no such value, or none right now) the event log's length
   * and head hash (one small read: every commit moves both).
   */
  async revision(): Promise<string> {
    this.ensureOpen();
    const said = this.backend.othersCommits?.();
    // Awaited only when it is a promise: SQLite's value is read synchronously, in this very turn.
    const others = said instanceof Promise ? await said : said;
    if (others !== undefined) return `${others}.${this.ownWrites}`;
    return this.backend.read(async (r) => {
      const anchor = await r.chainAnchor();
      return `${anchor.length}:${anchor.head_hash}`;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.backend.close();
  }

  /**
   * Append checked entries inside the caller's transaction, after whatever it wrote: one
   * `entry_appended` event each. An entry already stored (or earlier in the batch) with the same
   * subjects and body is `unchanged`; with others it is refused, and the transaction with it.
   */
  private async appendIn(w: LedgerWriter, entries: readonly PreparedEntry[], cursor: ChainCursor): Promise<AppendEntryResult[]> {
    if (entries.length === 0) return [];
    const stored = await w.entryRows(entries.map((e) => ({ kind: e.kind, id: e.id })));
    const anchor = await cursor.anchor(w);
    const at = new Date().toISOString();
    const fresh: PreparedEntry[] = [];
    const rows: ReturnType<typeof entryRow>[] = [];
    const out: AppendEntryResult[] = [];
    for (const e of entries) {
      const key = entryKey(e.kind, e.id);
      const before = stored.get(key);
      if (before !== undefined) {
        if (!sameEntry(before, e)) throw new ImmutableRecordError(e.kind, 'entry', e.id, e.path);
        out.push({ status: 'unchanged', kind: e.kind, id: e.id, chain_index: before.chain_index });
        continue;
      }
      const row = entryRow(e, anchor.length + fresh.length, at);
      stored.set(key, row);
      fresh.push(e);
      rows.push(row);
      out.push({ status: 'stored', kind: e.kind, id: e.id, chain_index: row.chain_index });
    }
    if (fresh.length === 0) return out;
    const chain = buildChainEntries(
      anchor,
      fresh.map((e) => entryEvent(e, at)),
    );
    await w.insertEntries(rows);
    await w.appendChain(chain.entries, chain.anchor);
    cursor.advance(chain.anchor);
    return out;
  }

  /** A write transaction, counted (whatever its outcome) once it has ended, for {@link revision}. */
  private async write<T>(fn: (w: LedgerWriter) => Promise<T>): Promise<T> {
    try {
      return await this.backend.write(fn);
    } finally {
      this.ownWrites += 1;
    }
  }

  protected ensureOpen(): void {
    if (this.closed) throw new StoreUnavailableError('closed', 'the store is closed');
  }

  /** Rebuild a snapshot from its row (walking delta parents) and check every row's digest. */
  private async resolve(r: LedgerReader, row: SnapshotRow): Promise<Resolved> {
    const rows: SnapshotRow[] = [row];
    if (row.parent_seq !== null && r.snapshotAncestors) rows.push(...(await r.snapshotAncestors(row)));
    let cursor = rows.at(-1) as SnapshotRow;
    while (cursor.parent_seq !== null) {
      const parent = await r.snapshotBySeq(cursor.parent_seq);
      if (parent === undefined) throw damaged(row, `its parent snapshot #${cursor.parent_seq} is missing`);
      rows.push(parent);
      cursor = parent;
    }
    for (let i = 1; i < rows.length; i += 1) {
      const x = rows[i] as SnapshotRow;
      if (x.proposition_id !== row.proposition_id || x.seq !== rows[i - 1]?.parent_seq)
        throw damaged(row, `its parent snapshot #${rows[i - 1]?.parent_seq} is missing`);
    }
    const own: MemberRef[][] = rows.map((x) => {
      try {
        return JSON.parse(x.members) as MemberRef[];
      } catch {
        throw damaged(x, 'unreadable member list');
      }
    });
    // Each member's key is built once (a 1,000-record read spent a visible share rebuilding them).
    const ownKeys = own.map((list) => list.map(memberKey));
    const requests = new Map<string, BindingRequest>();
    own.forEach((list, i) => {
      list.forEach((m, j) => {
        const key = (ownKeys[i] as string[])[j] as string;
        if (!requests.has(key)) requests.set(key, { kind: MEMBER_KIND[m[0]], id: m[1] });
      });
    });
    const bodies = await r.bindings(row.proposition_id, [...requests.values()]);
    const ownRecords = rows.map((x, i) => {
      const list = own[i] as MemberRef[];
      const keys = ownKeys[i] as string[];
      const texts = new Array<string>(list.length);
      for (let j = 0; j < list.length; j += 1) {
        const b = bodies.get(keys[j] as string);
        if (b === undefined) throw damaged(row, `record ${JSON.stringify((list[j] as MemberRef)[1])} is missing`);
        texts[j] = b.body;
      }
      return { texts, records: parseRecords(texts, () => where(x)) };
    });
    // The sources the records name: usually already in the map (a large read scans the proposition).
    const sources = new Map<string, string>();
    const missing = new Set<string>();
    for (const { records } of ownRecords) {
      for (const rec of records) {
        const id = rec.source_id;
        if (sources.has(id)) continue;
        const b = bodies.get(bindingKey('source', id));
        if (b === undefined) missing.add(id);
        else sources.set(id, b.body);
      }
    }
    if (missing.size > 0) {
      const more = await r.bindings(
        row.proposition_id,
        [...missing].map((id): BindingRequest => ({ kind: 'source', id })),
      );
      for (const id of missing) {
        const b = more.get(bindingKey('source', id));
        if (b === undefined) throw damaged(row, `source ${JSON.stringify(id)} is missing`);
        sources.set(id, b.body);
      }
    }
    rows.forEach((x, i) => {
      const { texts, records } = ownRecords[i] as { texts: string[]; records: StoredRecord[] };
      const sourceTexts = distinctSources(records.map((rec) => rec.source_id)).map((id) => sources.get(id) as string);
      if (contentDigest(x.head, x.members, texts, sourceTexts) !== x.content_digest) throw damaged(x, 'stored content differs from its digest');
    });
    const members = [...own].reverse().flat();
    const records = ownRecords.reverse().flatMap((o) => o.records);
    const view = assembleView(row.proposition_id, row.view_id, row.head, members, records, sources);
    return { view, members, bodies };
  }

  /**
   * Write one decoded view as a snapshot inside the caller's transaction. `unused`: the backend said
   * the proposition has nothing stored (no snapshot, no binding), so there is nothing to look up.
   */
  private async commit(w: LedgerWriter, view: EvidenceView, parent: ParentInfo | undefined, cursor: ChainCursor, unused = false): Promise<PutResult> {
    const pid = view.proposition_id;
    const vid = view.view_id;
    // The ids go into the event log, whose events must be EBCJ-1 (no unpaired surrogate): refuse them
    // before the backend sees them, so every store refuses the same way (PostgreSQL would otherwise
    // fail first on a NUL beside the surrogate, as an unavailable ledger).
    // A well-formed string always is; only the rare other case is written, to refuse it with its path.
    if (!isWellFormed(pid) || !isWellFormed(vid)) ebcj1String({ proposition_id: pid, view_id: vid });
    const existing = unused ? undefined : await w.findSnapshot(pid, vid);
    if (existing !== undefined) {
      // Same content (docs/spec/protocol.md §8 canonical text, record order aside) under the same id is a no-op. The
      // canonical text is computed only here, on the rare re-put, not on every commit.
      const stored = (await this.resolve(w, existing)).view;
      if (canonicalViewText(stored) === canonicalViewText(view)) return { status: 'unchanged', proposition_id: pid, view_id: vid };
      throw new ImmutableRecordError(pid, 'snapshot', vid);
    }
    const layout = layoutView(view);
    const stored: ReadonlyMap<string, StoredBinding> = unused ? NOTHING_STORED : await w.bindings(pid, layout.bindings);
    // With nothing stored (a new proposition), every binding is fresh and every member is the view's own.
    let fresh = layout.bindings;
    let allBodies = layout.memberBodies;
    let allMembers = layout.members;
    if (stored.size > 0) {
      fresh = [];
      for (const b of layout.bindings) {
        const s = stored.get(bindingKey(b.kind, b.id));
        if (s === undefined) fresh.push(b);
        else if (s.body !== b.body && identityText(b.kind, s.body) !== b.identity) throw new ImmutableRecordError(pid, b.kind, b.id, b.path);
      }
      // A member's body is the stored one when its id is already bound (a check may keep other subject
      // order there), else the view's own. Member refs point at the stored body; a check keeps its own
      // subject order as an override.
      const checksById = new Map(view.checks.map((c) => [c.check_id, c]));
      allBodies = layout.members.map((m, i) => stored.get(memberKey(m))?.body ?? (layout.memberBodies[i] as string));
      allMembers = layout.members.map((m) => {
        if (m[0] !== 'c') return m;
        const s = stored.get(memberKey(m));
        return s === undefined ? m : checkMember(checksById.get(m[1]) as VerificationCheck, s.body);
      });
    }
    let ownMembers = allMembers;
    let ownBodies = allBodies;
    let ownSources = layout.memberSources;
    let parentSeq: number | null = null;
    let depth = 0;
    if (parent !== undefined && parent.row.depth + 1 <= MAX_DELTA_DEPTH) {
      const inParent = new Set(parent.resolved.members.map(memberKey));
      const own = allMembers.map((m) => !inParent.has(memberKey(m)));
      ownMembers = allMembers.filter((_, i) => own[i]);
      ownBodies = allBodies.filter((_, i) => own[i]);
      ownSources = layout.memberSources.filter((_, i) => own[i]);
      parentSeq = parent.row.seq;
      depth = parent.row.depth + 1;
    }
    const at = new Date().toISOString();
    const membersText = JSON.stringify(ownMembers);
    const sourceTexts = distinctSources(ownSources).map((id) => layout.sourceBodies.get(id) as string);
    const content = contentDigest(layout.headText, membersText, ownBodies, sourceTexts);
    const recordCount = view.assertions.length + view.evidence.length + view.checks.length;
    const events: Record<string, unknown>[] = [];
    if (fresh.length > 0) {
      events.push({
        type: 'record_appended',
        at,
        proposition_id: pid,
        view_id: vid,
        records: fresh.map((b) => [b.kind, b.id]),
        records_digest: recordsDigest(fresh.map((b) => b.identity)),
      });
    }
    events.push({
      type: 'snapshot_committed',
      at,
      proposition_id: pid,
      view_id: vid,
      content_digest: content,
      parent_view_id: parent?.row.view_id ?? null,
      records: recordCount,
    });
    const anchor = await cursor.anchor(w);
    const chain = buildChainEntries(anchor, events);
    await w.insertBindings(pid, fresh);
    await w.insertSnapshot({
      proposition_id: pid,
      view_id: vid,
      content_digest: content,
      parent_seq: parentSeq,
      depth,
      head: layout.headText,
      members: membersText,
      record_count: recordCount,
      assertion_texts: JSON.stringify(assertionTexts(view)),
      committed_at: at,
    });
    await w.appendChain(chain.entries, chain.anchor);
    cursor.advance(chain.anchor);
    return { status: 'stored', proposition_id: pid, view_id: vid };
  }
}

/**
 * The event log's anchor within one write transaction. The first commit reads the stored anchor and
 * checks it against the log's tail (a log that disagrees with its anchor is damaged: nothing is
 * appended); later commits of the same transaction continue from the anchor the previous one wrote,
 * which no other writer can change while the transaction holds the write lock.
 */
class ChainCursor {
  private current: ChainAnchor | undefined;

  async anchor(w: LedgerWriter): Promise<ChainAnchor> {
    if (this.current !== undefined) return this.current;
    const anchor = await w.chainAnchor();
    const tail = await w.chainTail();
    const consistent = anchor.length === 0 ? tail === undefined : tail !== undefined && tail.index === anchor.length - 1 && tail.hash === anchor.head_hash;
    if (!consistent) {
      throw new StoreUnavailableError(
        'damaged',
        `the event log (${tail === undefined ? 0 : tail.index + 1} entries) disagrees with its anchor (${anchor.length}); refusing to append — run \`ewp audit verify\``,
      );
    }
    this.current = anchor;
    return anchor;
  }

  advance(anchor: ChainAnchor): void {
    this.current = anchor;
  }
}

type Failed = Extract<ChainVerification, { ok: false }>;

/** What a `snapshot_committed` event says of its snapshot row. */
interface SnapshotEvent {
  index: number;
  content_digest: string;
  parent_view_id: string | null;
  at: string;
  records: number;
}

/** The checked entries of a write's options (none when absent), before the transaction starts. */
function optionEntries(options: EntryWriteOptions | undefined): PreparedEntry[] {
  if (options === undefined || options === null) return [];
  if (typeof options !== 'object') throw new InvalidEntryError('options', 'options must be an object');
  return options.entries === undefined ? [] : prepareEntries(options.entries, 'options.entries');
}

function where(row: SnapshotRow): string {
  return `snapshot ${JSON.stringify(row.view_id)} of ${JSON.stringify(row.proposition_id)}`;
}

function damaged(row: SnapshotRow, what: string): StoreUnavailableError {
  return new StoreUnavailableError('damaged', `${where(row)}: ${what}`);
}
