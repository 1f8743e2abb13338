/**
 * The rules of ledger entries (docs/spec/store-contract.md, ledger entries): what an entry may hold,
 * its stored texts, the `entry_appended` event that chains it, what a query may ask, and how the audit
 * checks a stored entry row against its event. Pure functions; the engine calls them.
 */
import { CanonicalizationError, domainDigest, ebcj1String, isWellFormed, readJsonExact } from '@ewp/canonical';
import { InvalidEntryError } from './errors.js';
import type { EntryQuery, LedgerEntry, LedgerEntryInput } from './evidence-store.js';
import type { EntryRowQuery, EntrySubjectRow, StoredEntryRow } from './ledger-backend.js';

/** The kind grammar: dot-separated lowercase segments. */
const KIND = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
export const MAX_ENTRY_KIND_LENGTH = 64;
export const MAX_ENTRY_ID_LENGTH = 256;
export const DEFAULT_ENTRY_LIMIT = 1000;
export const MAX_ENTRY_LIMIT = 100_000;
/** Domain of an entry's `body_digest` (its own, so it can never equal another ledger digest). */
export const ENTRY_DIGEST_DOMAIN = 'ewp-ledger-entry';

/** An entry checked and turned into the texts a row stores. */
export interface PreparedEntry {
  kind: string;
  id: string;
  subjects: string[];
  /** EBCJ-1 text of `subjects`. */
  subjectsText: string;
  /** EBCJ-1 text of the body. */
  bodyText: string;
  bodyDigest: string;
  /** Where the entry was given (`entries[2]`), for refusals. */
  path: string;
}

/** Key of an entry in a map: its `(kind, id)`. */
export function entryKey(kind: string, id: string): string {
  return `${kind}\u0000${id}`;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

function checkKind(kind: unknown, path: string): string {
  if (typeof kind !== 'string') throw new InvalidEntryError(path, 'the kind must be a string');
  if (kind.length > MAX_ENTRY_KIND_LENGTH) throw new InvalidEntryError(path, `the kind is longer than ${MAX_ENTRY_KIND_LENGTH} characters`);
  if (!KIND.test(kind)) throw new InvalidEntryError(path, `the kind ${JSON.stringify(kind)} is not lowercase dot-separated words (e.g. "memory.store")`);
  return kind;
}

/** A string field: non-empty, well-formed UTF-16, at most `max` characters when given. */
function checkText(value: unknown, path: string, what: string, max?: number): string {
  if (typeof value !== 'string') throw new InvalidEntryError(path, `${what} must be a string`);
  if (value.length === 0) throw new InvalidEntryError(path, `${what} must not be empty`);
  if (max !== undefined && value.length > max) throw new InvalidEntryError(path, `${what} is longer than ${max} characters`);
  if (!isWellFormed(value)) throw new InvalidEntryError(path, `${what} holds an unpaired UTF-16 surrogate`);
  return value;
}

/** The EBCJ-1 text of a value, a refusal naming the field under `path` when it has none. */
function canonicalText(value: unknown, path: string): string {
  try {
    return ebcj1String(value);
  } catch (error) {
    if (!CanonicalizationError.isInstance(error)) throw error;
    const own = error.message.startsWith(`${error.path}: `) ? error.message.slice(error.path.length + 2) : error.message;
    throw new InvalidEntryError(`${path}${error.path.slice(1)}`, `${error.code}: ${own}`, { cause: error });
  }
}

/**
 * Check a batch of entries and compute their stored texts and digests, before any write.
 * @param at how the batch is named in refusals (`entries`, `options.entries`).
 * @throws {InvalidEntryError} naming the first bad field.
 */
export function prepareEntries(entries: unknown, at: string): PreparedEntry[] {
  if (!Array.isArray(entries)) throw new InvalidEntryError(at, 'entries must be an array of {kind, id, subjects?, body}');
  const out: PreparedEntry[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const path = `${at}[${i}]`;
    const entry = entries[i] as Partial<LedgerEntryInput> | undefined;
    if (!isPlainObject(entry)) throw new InvalidEntryError(path, 'an entry must be an object {kind, id, subjects?, body}');
    const kind = checkKind(entry.kind, `${path}.kind`);
    const id = checkText(entry.id, `${path}.id`, 'the id', MAX_ENTRY_ID_LENGTH);
    const given = entry.subjects ?? [];
    if (!Array.isArray(given)) throw new InvalidEntryError(`${path}.subjects`, 'subjects must be an array of proposition ids');
    const subjects = given.map((s, j) => checkText(s, `${path}.subjects[${j}]`, 'a subject'));
    if (!isPlainObject(entry.body)) throw new InvalidEntryError(`${path}.body`, 'the body must be a JSON object');
    const bodyText = canonicalText(entry.body, `${path}.body`);
    const subjectsText = ebcj1String(subjects);
    out.push({ kind, id, subjects, subjectsText, bodyText, bodyDigest: entryDigest(kind, id, subjectsText, bodyText), path });
  }
  return out;
}

/**
 * `body_digest` of an entry: the domain digest of the EBCJ-1 text of `{kind, id, subjects, body}`,
 * from the stored texts (parsed exactly, so a stored row is digested as the value it holds).
 */
function entryDigest(kind: string, id: string, subjectsText: string, bodyText: string): string {
  return domainDigest(ENTRY_DIGEST_DOMAIN, { kind, id, subjects: readJsonExact(subjectsText), body: readJsonExact(bodyText) });
}

/**
 * The chain event that appends an entry (the chain adds `seq`). `at` is the row's commit time, so the
 * audit covers it like a snapshot's (it is not part of `body_digest`).
 */
export function entryEvent(e: PreparedEntry, at: string): Record<string, unknown> {
  return { type: 'entry_appended', at, kind: e.kind, id: e.id, subjects: e.subjects, body_digest: e.bodyDigest };
}

/** The row of a prepared entry appended at `chainIndex`. */
export function entryRow(e: PreparedEntry, chainIndex: number, committedAt: string): StoredEntryRow {
  return { chain_index: chainIndex, kind: e.kind, id: e.id, subjects: e.subjectsText, body: e.bodyText, committed_at: committedAt };
}

/** True when a stored row holds exactly the entry (its re-append is a no-op). */
export function sameEntry(row: StoredEntryRow, e: PreparedEntry): boolean {
  return row.subjects === e.subjectsText && row.body === e.bodyText;
}

/** A stored row as the caller reads it: fresh objects, integers beyond the safe range as bigints. */
export function entryFromRow(row: StoredEntryRow): LedgerEntry {
  return {
    kind: row.kind,
    id: row.id,
    subjects: JSON.parse(row.subjects) as string[],
    body: readJsonExact(row.body) as Record<string, unknown>,
    chain_index: row.chain_index,
    committed_at: row.committed_at,
  };
}

/**
 * Check a query and put it in the form backends take.
 * @throws {InvalidEntryError} naming the bad field (`query.limit`).
 */
export function entryRowQuery(query: EntryQuery | undefined): EntryRowQuery {
  if (query !== undefined && !isPlainObject(query)) throw new InvalidEntryError('query', 'the query must be an object');
  const q = query ?? {};
  const out: EntryRowQuery = { limit: DEFAULT_ENTRY_LIMIT };
  if (q.kind !== undefined) {
    const list = typeof q.kind === 'string' ? [q.kind] : q.kind;
    if (!Array.isArray(list)) throw new InvalidEntryError('query.kind', 'kind must be a string or an array of strings');
    const kinds: string[] = [];
    const prefixes: string[] = [];
    list.forEach((k: unknown, i) => {
      const path = typeof q.kind === 'string' ? 'query.kind' : `query.kind[${i}]`;
      if (typeof k === 'string' && k.endsWith('.*')) prefixes.push(`${checkKind(k.slice(0, -2), path)}.`);
      else kinds.push(checkKind(k, path));
    });
    out.kinds = kinds;
    out.prefixes = prefixes;
  }
  if (q.subject !== undefined) out.subject = checkText(q.subject, 'query.subject', 'the subject');
  if (q.id !== undefined) out.id = checkText(q.id, 'query.id', 'the id', MAX_ENTRY_ID_LENGTH);
  const { afterIndex, beforeIndex, newestFirst, limit } = q as { afterIndex?: unknown; beforeIndex?: unknown; newestFirst?: unknown; limit?: unknown };
  if (afterIndex !== undefined) {
    if (typeof afterIndex !== 'number' || !Number.isSafeInteger(afterIndex)) throw new InvalidEntryError('query.afterIndex', 'afterIndex must be an integer');
    out.afterIndex = afterIndex;
  }
  if (beforeIndex !== undefined) {
    if (typeof beforeIndex !== 'number' || !Number.isSafeInteger(beforeIndex))
      throw new InvalidEntryError('query.beforeIndex', 'beforeIndex must be an integer');
    out.beforeIndex = beforeIndex;
  }
  if (newestFirst !== undefined) {
    if (typeof newestFirst !== 'boolean') throw new InvalidEntryError('query.newestFirst', 'newestFirst must be a boolean');
    if (newestFirst) out.newestFirst = true;
  }
  if (limit !== undefined) {
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0 || limit > MAX_ENTRY_LIMIT) {
      throw new InvalidEntryError('query.limit', `limit must be an integer from 0 to ${MAX_ENTRY_LIMIT}`);
    }
    out.limit = limit;
  }
  return out;
}

/** True when a row matches a query (for backends that filter rows in memory). */
export function entryMatches(row: StoredEntryRow, q: EntryRowQuery, subjects?: readonly string[]): boolean {
  if (q.afterIndex !== undefined && row.chain_index <= q.afterIndex) return false;
  if (q.beforeIndex !== undefined && row.chain_index >= q.beforeIndex) return false;
  if (q.id !== undefined && row.id !== q.id) return false;
  if (q.kinds !== undefined && !q.kinds.includes(row.kind) && !(q.prefixes ?? []).some((p) => row.kind.startsWith(p))) return false;
  if (q.subject !== undefined && !(subjects ?? (JSON.parse(row.subjects) as string[])).includes(q.subject)) return false;
  return true;
}

/** Rows matching a query in its order (oldest first unless `newestFirst`), cut at its limit (for backends that filter rows in memory). */
export function selectEntries(rows: Iterable<StoredEntryRow>, q: EntryRowQuery): StoredEntryRow[] {
  const out: StoredEntryRow[] = [];
  for (const row of rows) if (entryMatches(row, q)) out.push(row);
  const order = q.newestFirst === true ? -1 : 1;
  return out.sort((a, b) => order * (a.chain_index - b.chain_index)).slice(0, q.limit);
}

/** What an `entry_appended` event says of its row. */
export interface EntryEvent {
  index: number;
  at: string;
  subjectsText: string;
  bodyDigest: string;
}

/** The `(kind, id)` key and what the audit compares, of a parsed `entry_appended` event. */
export function entryEventOf(event: Record<string, unknown>, index: number): { key: string; event: EntryEvent } {
  return {
    key: entryKey(String(event.kind), String(event.id)),
    event: { index, at: String(event.at), subjectsText: ebcj1String(event.subjects ?? []), bodyDigest: String(event.body_digest) },
  };
}

/** The first fault the audit found in the entry rows: the index it is reported at, why, and what. */
export interface EntryRowFault {
  index: number;
  reason: 'row_mismatch' | 'missing_row' | 'extra_row';
  detail: string;
}

/**
 * Check every stored entry row (and, when the backend keeps one apart, the subject index) against the
 * `entry_appended` events of the log; the fault at the lowest index, or undefined. A row no event
 * appended is reported at `logLength` (a row whose kind or id was changed is also a missing one, at
 * its event, which then wins).
 * @param events the log's `entry_appended` events by {@link entryKey}, in log order.
 */
export async function entryRowFault(
  rows: Iterable<StoredEntryRow> | AsyncIterable<StoredEntryRow>,
  subjectIndex: Iterable<EntrySubjectRow> | AsyncIterable<EntrySubjectRow> | undefined,
  events: ReadonlyMap<string, EntryEvent>,
  logLength: number,
): Promise<EntryRowFault | undefined> {
  let worst: EntryRowFault | undefined;
  const note = (index: number, reason: EntryRowFault['reason'], detail: string) => {
    if (worst === undefined || index < worst.index) worst = { index, reason, detail };
  };
  const seen = new Set<string>();
  // Rows are kept only to check a subject index against them.
  const kept: StoredEntryRow[] = [];
  for await (const row of rows) {
    if (subjectIndex !== undefined) kept.push(row);
    const key = entryKey(row.kind, row.id);
    const event = events.get(key);
    if (event === undefined || seen.has(key)) {
      note(logLength, 'extra_row', `${entryLabel(row.kind, row.id)} has no entry_appended event`);
      continue;
    }
    seen.add(key);
    const mismatch = entryRowMismatch(row, event);
    if (mismatch !== undefined) note(event.index, 'row_mismatch', mismatch);
  }
  if (subjectIndex !== undefined) {
    // The index must list exactly the rows' subjects (a dropped pair hides an entry from
    // `readEntries({ subject })`, an added one shows it under another proposition).
    const expected = new Map<string, number>();
    const eventIndex = new Map<number, number>();
    for (const row of kept) {
      const event = events.get(entryKey(row.kind, row.id));
      if (event !== undefined) eventIndex.set(row.chain_index, event.index);
      let subjects: unknown;
      try {
        subjects = JSON.parse(row.subjects);
      } catch {
        continue; // the row check above reports it
      }
      if (Array.isArray(subjects)) for (const s of subjects) expected.set(`${row.chain_index}\u0000${String(s)}`, row.chain_index);
    }
    const indexed = new Set<string>();
    for await (const pair of subjectIndex) {
      const key = `${pair.chain_index}\u0000${pair.subject}`;
      indexed.add(key);
      if (!expected.has(key)) {
        note(
          eventIndex.get(pair.chain_index) ?? logLength,
          'extra_row',
          `the entry subject index lists ${JSON.stringify(pair.subject)} at chain index ${pair.chain_index}, which no entry row names`,
        );
      }
    }
    for (const [key, chainIndex] of expected) {
      if (!indexed.has(key)) {
        const subject = key.slice(key.indexOf('\u0000') + 1);
        note(
          eventIndex.get(chainIndex) ?? logLength,
          'missing_row',
          `the entry subject index misses ${JSON.stringify(subject)} of the entry at chain index ${chainIndex}`,
        );
      }
    }
  }
  for (const [key, event] of events) {
    if (!seen.has(key)) {
      const sep = key.indexOf('\u0000');
      note(event.index, 'missing_row', `${entryLabel(key.slice(0, sep), key.slice(sep + 1))}: an appended entry is missing from the tables`);
      break; // events are in log order: the first missing one is the lowest
    }
  }
  return worst;
}

function entryLabel(kind: string, id: string): string {
  return `entry ${JSON.stringify(id)} of kind ${JSON.stringify(kind)}`;
}

/**
 * Why a stored row differs from the event that appended it, or undefined when it matches (kind and id
 * match by construction: the row was found under the event's key).
 */
function entryRowMismatch(row: StoredEntryRow, event: EntryEvent): string | undefined {
  const label = entryLabel(row.kind, row.id);
  if (row.chain_index !== event.index) return `${label}: stored chain index ${row.chain_index} differs from its event's ${event.index}`;
  if (row.subjects !== event.subjectsText) return `${label}: stored subjects differ from its event`;
  if (row.committed_at !== event.at) return `${label}: stored commit time differs from its event`;
  let digest: string;
  try {
    digest = entryDigest(row.kind, row.id, row.subjects, row.body);
  } catch {
    return `${label}: stored body is unreadable`;
  }
  if (digest !== event.bodyDigest) return `${label}: stored body differs from its event`;
  return undefined;
}
