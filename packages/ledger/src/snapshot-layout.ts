/**
 * How every store lays a snapshot out: a *head* (the fields that belong to the snapshot: conflicts,
 * lineage, completeness, freshness, subjects, adapter_meta), an ordered *member* list naming ledger
 * records, and the ledger *bindings* (record id → content) that docs/spec/store-contract.md §1.5 keeps stable per
 * proposition. Texts are deterministic JSON built in a fixed field order, so equal content is equal text.
 */
import { createHash } from 'node:crypto';
import {
  type Assertion,
  type Conflict,
  type EvidenceItem,
  type EvidenceView,
  type LineageEdge,
  type SourceRef,
  sourceRefOf,
  type VerificationCheck,
} from '@ewp/core';
import { jsonString, sortedByCodePoint } from '@ewp/core';
import { sha256Hex } from '@ewp/canonical';
import { StoreUnavailableError } from './errors.js';

/** Kinds of ledger bindings. */
export type BindingKind = 'source' | 'assertion' | 'evidence' | 'check' | 'conflict';

/** One id bound to one content within a proposition. */
export interface Binding {
  kind: BindingKind;
  id: string;
  /** Stored text of the record (for a conflict: its sorted participant list). */
  body: string;
  /**
   * The record's identity text: the body, except for a check, whose subjects count as a set (sorted).
   * Two records may share an id only when their identity texts are equal.
   */
  identity: string;
  /** JSON path of the first record in the view that carries this binding. */
  path: string;
}

/** Member kinds: assertion, evidence, check. */
export type MemberKind = 'a' | 'e' | 'c';
/** A member: `[kind, id]`, or for a check whose subjects are ordered differently from its body, `[kind, id, subjects]`. */
export type MemberRef = [MemberKind, string] | [MemberKind, string, string[]];

/** The fields that belong to a snapshot rather than to the ledger. */
interface SnapshotHead {
  conflicts: Conflict[];
  lineage: LineageEdge[];
  omitted_sources: string[];
  retrieval_scope: string;
  degraded: boolean;
  freshness_policy_seconds: number;
  subjects: string[];
  adapter_meta: Record<string, unknown>;
}

/** A view split into what a store writes. */
export interface SnapshotLayout {
  headText: string;
  members: MemberRef[];
  /** Every binding the view needs, in view order: one per kind and id (a shared source once). */
  bindings: Binding[];
  /** The body of each member, index for index with `members` (content digest without a store round trip). */
  memberBodies: string[];
  /** The source id each member names, index for index with `members`. */
  memberSources: string[];
  /** Stored text of every source the view cites, by source id. */
  sourceBodies: Map<string, string>;
}

export const MEMBER_KIND: Record<MemberKind, 'assertion' | 'evidence' | 'check'> = { a: 'assertion', e: 'evidence', c: 'check' };

/** `kind\0id`: the key of a binding in maps. */
export function bindingKey(kind: BindingKind, id: string): string {
  return `${kind}\u0000${id}`;
}

// Written as templates rather than JSON.stringify of a fresh object: the same text, without building
// an object per record (a visible share of ingest time).
const q = jsonString;
const qOrNull = (s: string | null): string => (s === null ? 'null' : jsonString(s));

/** Stored text of a source: bound once per proposition, referenced by id from the records that cite it. Its members are core's SOURCE_REF_FIELDS in order (tested). */
export function sourceText(s: SourceRef): string {
  // JSON.stringify(sourceObject(s)) without the object: one source per record made it a visible cost.
  return (
    `{"source_id":${q(s.source_id)},"lineage_id":${q(s.lineage_id)},"origin_type":${q(s.origin_type)},` +
    `"origin_locator":${q(s.origin_locator)},"snapshot_id":${q(s.snapshot_id)},"content_hash":${q(s.content_hash)},` +
    `"observed_at":${q(s.observed_at)},"extractor_id":${qOrNull(s.extractor_id)},"parent_source_id":${qOrNull(s.parent_source_id)}}`
  );
}

/*
 * Record bodies name their source by id (the source is its own binding), so a source shared by a
 * thousand records is stored once, not a thousand times. A record's identity is its body plus the
 * binding of the source it names.
 */

export function assertionText(a: Assertion): string {
  return (
    `{"assertion_id":${q(a.assertion_id)},"proposition_id":${q(a.proposition_id)},"text":${q(a.text)},` +
    `"asserted_by":${q(a.asserted_by)},"assertion_confidence":${JSON.stringify(a.assertion_confidence)},` +
    `"source_id":${q(a.source.source_id)},"asserted_at":${q(a.asserted_at)}}`
  );
}

export function evidenceText(e: EvidenceItem): string {
  return (
    `{"evidence_id":${q(e.evidence_id)},"proposition_id":${q(e.proposition_id)},"polarity":${q(e.polarity)},` +
    `"source_id":${q(e.source.source_id)},"content":${q(e.content)},"observed_at":${q(e.observed_at)}}`
  );
}

export function checkText(c: VerificationCheck, subjects: readonly string[] = c.subjects): string {
  return JSON.stringify({
    check_id: c.check_id,
    method: c.method,
    scope: c.scope,
    source_id: c.source.source_id,
    observed_at: c.observed_at,
    result: c.result,
    subjects,
  });
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function headText(view: EvidenceView): string {
  const head: SnapshotHead = {
    conflicts: view.conflicts.map((c) => ({ conflict_id: c.conflict_id, proposition_ids: c.proposition_ids, status: c.status, note: c.note })),
    lineage: view.lineage.map((l) => ({ from_id: l.from_id, to_id: l.to_id, kind: l.kind })),
    omitted_sources: view.omitted_sources,
    retrieval_scope: view.retrieval_scope,
    degraded: view.degraded,
    freshness_policy_seconds: view.freshness_policy_seconds,
    subjects: view.subjects,
    adapter_meta: view.adapter_meta,
  };
  return JSON.stringify(head);
}

/** Split a decoded view (only: its ids are taken as unique per kind) into head, members and bindings. */
export function layoutView(view: EvidenceView): SnapshotLayout {
  // A decoded view has unique ids within each kind (I1-I4) and one content per source id (I5), and
  // sources are deduplicated below: every binding is pushed once, in view order, with no map of keys.
  const bindings: Binding[] = [];
  const memberBodies: string[] = [];
  const memberSources: string[] = [];
  const sourceBodies = new Map<string, string>();
  const members: MemberRef[] = [];
  const bind = (kind: BindingKind, id: string, body: string, identity: string, path: string) => {
    bindings.push({ kind, id, body, identity, path });
  };
  const bindSource = (s: SourceRef, path: string) => {
    memberSources.push(s.source_id);
    // Many records share a source: skip the serialization when it is already bound.
    if (sourceBodies.has(s.source_id)) return;
    const text = sourceText(s);
    sourceBodies.set(s.source_id, text);
    bind('source', s.source_id, text, text, `${path}.source`);
  };
  view.assertions.forEach((a, i) => {
    const path = `$.assertions[${i}]`;
    bindSource(a.source, path);
    const body = assertionText(a);
    bind('assertion', a.assertion_id, body, body, path);
    memberBodies.push(body);
    members.push(['a', a.assertion_id]);
  });
  view.evidence.forEach((e, i) => {
    const path = `$.evidence[${i}]`;
    bindSource(e.source, path);
    const body = evidenceText(e);
    bind('evidence', e.evidence_id, body, body, path);
    memberBodies.push(body);
    members.push(['e', e.evidence_id]);
  });
  view.checks.forEach((c, i) => {
    const path = `$.checks[${i}]`;
    bindSource(c.source, path);
    const body = checkText(c);
    bind('check', c.check_id, body, checkText(c, sortedByCodePoint(c.subjects)), path);
    memberBodies.push(body);
    members.push(['c', c.check_id]);
  });
  view.conflicts.forEach((c, i) => {
    const text = JSON.stringify(sortedByCodePoint(c.proposition_ids));
    bind('conflict', c.conflict_id, text, text, `$.conflicts[${i}]`);
  });
  return { headText: headText(view), members, bindings, memberBodies, memberSources, sourceBodies };
}

/**
 * The member ref a snapshot stores for a check whose ledger body may list subjects in another order:
 * the snapshot keeps its own order (we go past the reference, which sorts them).
 */
export function checkMember(check: VerificationCheck, storedBody: string): MemberRef {
  const stored = (JSON.parse(storedBody) as VerificationCheck).subjects;
  return sameList(stored, check.subjects) ? ['c', check.check_id] : ['c', check.check_id, [...check.subjects]];
}

/** Up to this many parts, a digest's text is joined and hashed in one shot rather than fed part by part. */
const ONE_SHOT_PARTS = 64;

/**
 * Digest of a snapshot's stored content: SHA-256 of `head \n membersText \n bodies joined by "," \n
 * source bodies joined by ","` (the sources the members name, in order of first use). Any flipped
 * byte in any row that makes up the snapshot changes it.
 */
export function contentDigest(head: string, membersText: string, bodies: readonly string[], sources: readonly string[]): string {
  // A small snapshot is joined and hashed in one shot (a Hash object and its update() calls cost more
  // than the join). A large one is fed piece by piece: joining a thousand bodies into one string and
  // hashing that costs several times more than one update() per body. Same bytes, same digest.
  if (bodies.length + sources.length <= ONE_SHOT_PARTS) return sha256Hex(`${head}\n${membersText}\n${bodies.join(',')}\n${sources.join(',')}`);
  const h = createHash('sha256');
  h.update(head);
  h.update('\n');
  h.update(membersText);
  h.update('\n');
  for (let i = 0; i < bodies.length; i += 1) {
    if (i > 0) h.update(',');
    h.update(bodies[i] as string);
  }
  h.update('\n');
  for (let i = 0; i < sources.length; i += 1) {
    if (i > 0) h.update(',');
    h.update(sources[i] as string);
  }
  return h.digest('hex');
}

/** Distinct source ids in order of first use. */
export function distinctSources(sourceIds: readonly string[]): string[] {
  return [...new Set(sourceIds)];
}

/** A stored record body, parsed: the record with `source_id` in place of its source. */
export type StoredRecord = Record<string, unknown> & { source_id: string };

/** Parse stored record bodies (one parse per body; cheaper than parsing them joined into one array). */
export function parseRecords(bodies: readonly string[], where: () => string): StoredRecord[] {
  const records = new Array<StoredRecord>(bodies.length);
  for (let i = 0; i < bodies.length; i += 1) {
    try {
      records[i] = JSON.parse(bodies[i] as string) as StoredRecord;
    } catch (cause) {
      throw new StoreUnavailableError('damaged', `${where()}: unreadable record`, { cause });
    }
    if (typeof records[i]?.source_id !== 'string') throw new StoreUnavailableError('damaged', `${where()}: record without a source id`);
  }
  return records;
}

/** Rebuild a view from its stored parts (no validation: the content digests vouch for them). */
export function assembleView(
  propositionId: string,
  viewId: string,
  head: string,
  members: readonly MemberRef[],
  /** The parsed stored bodies of `members`, in order. */
  records: readonly StoredRecord[],
  /** Stored source texts by source id: every source the records name. */
  sources: ReadonlyMap<string, string>,
): EvidenceView {
  const where = `snapshot ${JSON.stringify(viewId)} of ${JSON.stringify(propositionId)}`;
  let h: SnapshotHead;
  try {
    h = JSON.parse(head) as SnapshotHead;
  } catch (cause) {
    throw new StoreUnavailableError('damaged', `${where}: unreadable head`, { cause });
  }
  if (records.length !== members.length) {
    throw new StoreUnavailableError('damaged', `${where}: record count differs from its member list`);
  }
  const parsedSources = new Map<string, SourceRef>();
  // Every record gets its own source object (callers may mutate what they read).
  const sourceOf = (id: string): SourceRef => {
    let s = parsedSources.get(id);
    if (s === undefined) {
      const text = sources.get(id);
      if (text === undefined) throw new StoreUnavailableError('damaged', `${where}: source ${JSON.stringify(id)} is missing`);
      try {
        s = JSON.parse(text) as SourceRef;
      } catch (cause) {
        throw new StoreUnavailableError('damaged', `${where}: unreadable source`, { cause });
      }
      parsedSources.set(id, s);
    }
    return sourceRefOf(s);
  };
  const assertions: Assertion[] = [];
  const evidence: EvidenceItem[] = [];
  const checks: VerificationCheck[] = [];
  for (let i = 0; i < members.length; i += 1) {
    const m = members[i] as MemberRef;
    // The content digest vouched for these bodies; their fields are what the writer stored.
    const r = records[i] as unknown as Omit<Assertion & EvidenceItem & VerificationCheck, 'source'> & { source_id: string };
    const source = sourceOf(r.source_id);
    if (m[0] === 'a') {
      assertions.push({
        assertion_id: r.assertion_id,
        proposition_id: r.proposition_id,
        text: r.text,
        asserted_by: r.asserted_by,
        assertion_confidence: r.assertion_confidence,
        source,
        asserted_at: r.asserted_at,
      });
    } else if (m[0] === 'e') {
      evidence.push({
        evidence_id: r.evidence_id,
        proposition_id: r.proposition_id,
        polarity: r.polarity,
        source,
        content: r.content,
        observed_at: r.observed_at,
      });
    } else {
      checks.push({
        check_id: r.check_id,
        method: r.method,
        scope: r.scope,
        source,
        observed_at: r.observed_at,
        result: r.result,
        subjects: m.length === 3 ? [...m[2]] : r.subjects,
      });
    }
  }
  return {
    proposition_id: propositionId,
    view_id: viewId,
    assertions,
    evidence,
    lineage: h.lineage,
    conflicts: h.conflicts,
    checks,
    omitted_sources: h.omitted_sources,
    retrieval_scope: h.retrieval_scope,
    degraded: h.degraded,
    freshness_policy_seconds: h.freshness_policy_seconds,
    adapter_meta: h.adapter_meta,
    subjects: h.subjects,
  };
}

/** First five distinct assertion texts, in view order (for proposition listings). */
export function assertionTexts(view: EvidenceView): string[] {
  const out: string[] = [];
  for (const a of view.assertions) {
    if (!out.includes(a.text)) out.push(a.text);
    if (out.length === 5) break;
  }
  return out;
}

/** The identity text of a stored binding's body (see {@link Binding.identity}). */
export function identityText(kind: BindingKind, body: string): string {
  if (kind !== 'check') return body;
  // The body in its stored field order, with the subjects as a set: exactly checkText(c, sorted).
  const check = JSON.parse(body) as { subjects: string[] };
  return JSON.stringify({ ...check, subjects: sortedByCodePoint(check.subjects) });
}

/**
 * Digest of the records one `record_appended` event adds: SHA-256 of their identity texts, in event
 * order, joined by newlines (JSON text never holds a raw newline, so the join is unambiguous).
 */
export function recordsDigest(identities: Iterable<string>): string {
  if (Array.isArray(identities) && identities.length <= ONE_SHOT_PARTS) return sha256Hex(identities.join('\n'));
  const h = createHash('sha256');
  let first = true;
  for (const text of identities) {
    if (!first) h.update('\n');
    h.update(text);
    first = false;
  }
  return h.digest('hex');
}
