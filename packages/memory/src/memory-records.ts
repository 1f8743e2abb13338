/**
 * How a memory is written as EWP records (docs/spec/evidence-layer.md, mapping). A memory is one
 * proposition `mem:<hash>`:
 * - a claim (inference, hypothesis) holds one assertion of an endogenous origin, with `derived_from`
 *   lineage to the memories it was derived from;
 * - an observation (or evidence) holds one supporting evidence item of an exogenous origin: its own
 *   support, from its own source.
 * Linking adds a supporting or opposing evidence item, carrying the linked observation's text and source,
 * to the target's proposition; an echo also gets a `derived_from` edge to the record it echoes and joins
 * that record's lineage. Ids are content-derived, so a re-write is an identical no-op.
 */
import { domainDigest, sha256Hex } from '@ewp/canonical';
import { ENDOGENOUS_ORIGINS, type EvidenceItem, type LineageEdge, type SourceRef } from '@ewp/core';
import { type EpistemicClass, isClaimClass } from './epistemic-class.js';

/** Domain of a memory's hash. */
const MEMORY_DOMAIN = 'ewp-memory';

/** What names a memory: the same text from the same source in the same project is the same memory. */
export interface MemoryIdentity {
  text: string;
  /** The project scope; `null` for a global memory. */
  project: string | null;
  /** Who or what the memory came from (a tool, a document, the agent). */
  source: string;
}

/** A stored memory, as the STORE event records it. */
export interface MemoryFacts extends MemoryIdentity {
  hash: string;
  /** The class at store time (a later reclass is its own event). */
  class: EpistemicClass;
  /** The EWP origin_type of its record. */
  origin_type: string;
  /** When it was observed or asserted. */
  observed_at: string;
  /** Hashes of the memories it was derived from. */
  derived_from: string[];
}

/** The hash of a memory: 32 hex digits of the domain digest of `{project, source, text}`. */
export function memoryHash(identity: MemoryIdentity): string {
  return domainDigest(MEMORY_DOMAIN, { project: identity.project, source: identity.source, text: identity.text }).slice(0, 32);
}

/** The proposition a memory is stored as. */
export function propositionOf(hash: string): string {
  return `mem:${hash}`;
}

/** The memory hash a proposition id names, or `undefined` for a proposition that is no memory. */
export function hashOfProposition(propositionId: string): string | undefined {
  return /^mem:[0-9a-f]{32}$/.test(propositionId) ? propositionId.slice(4) : undefined;
}

/** The lineage of a claim: its own (a conclusion is one derivation). */
function claimLineage(hash: string): string {
  return `claim:${hash}`;
}

/** The lineage of an observation: its declared source, so observations of one source are one independent source. */
export function sourceLineage(source: string): string {
  return `source:${source}`;
}

/** Memories followed back through `derived_from` at most, for {@link ownLineageOf}: a bound on work, not on ledgers. */
export const MAX_LINEAGE_MEMORIES = 1024;

/** The sources and lineages a memory speaks with: its own, and those of everything it was derived from. */
export interface OwnLineage {
  /** Source names (`origin_locator` of its records). */
  sources: ReadonlySet<string>;
  /** Lineage ids. */
  lineages: ReadonlySet<string>;
}

/**
 * The own lineage of memory `hash`: its source and lineages and those of every memory it was derived
 * from, followed transitively breadth first over at most {@link MAX_LINEAGE_MEMORIES} memories. Read
 * from the STORE facts only (immutable), so it is the same on every replay.
 */
export function ownLineageOf(hash: string, factsOf: (hash: string) => MemoryFacts | undefined): OwnLineage {
  const sources = new Set<string>();
  const lineages = new Set<string>();
  const seen = new Set<string>([hash]);
  const queue = [hash];
  for (let i = 0; i < queue.length; i += 1) {
    const m = factsOf(queue[i]!);
    if (m === undefined) continue;
    sources.add(m.source);
    lineages.add(claimLineage(m.hash));
    lineages.add(sourceLineage(m.source));
    for (const parent of m.derived_from) {
      if (seen.size >= MAX_LINEAGE_MEMORIES) break;
      if (!seen.has(parent)) {
        seen.add(parent);
        queue.push(parent);
      }
    }
  }
  return { sources, lineages };
}

/**
 * Whether `record` in the view of memory `target` is a self-support: a support or refutation from the
 * target's own source or lineage, or that of anything it was derived from ({@link ownLineageOf}). Such a
 * record is never independent, whatever its wording. The target's own record is not one: it is the
 * memory itself.
 */
export function isSelfSupport(target: string, own: OwnLineage, record: Pick<EvidenceItem, 'evidence_id' | 'source'>): boolean {
  if (memoryOfRecord(record.evidence_id) === target) return false;
  return own.sources.has(record.source.origin_locator) || own.lineages.has(record.source.lineage_id);
}

/** The origin a memory of this class is written with, when the caller names none. */
export function defaultOrigin(cls: EpistemicClass): string {
  if (cls === 'inference') return 'derived';
  if (cls === 'hypothesis') return 'model_introspection';
  return 'observation';
}

/** True when the origin is endogenous (the agent's own making) by the protocol's table. */
export function isEndogenousOrigin(origin: string): boolean {
  return ENDOGENOUS_ORIGINS.has(origin);
}

/**
 * The SourceRef of a memory's records in `lineage`, with `origin`. The lineage is part of the source id:
 * records that share a source id must carry the same SourceRef (protocol rule I5), and an echo or a
 * reclassified memory is written in another lineage or origin than its first record.
 */
function memorySourceRef(m: MemoryFacts, lineage: string, origin: string = m.origin_type): SourceRef {
  return {
    source_id: `src:${m.hash}@${lineage}`,
    lineage_id: lineage,
    origin_type: origin,
    origin_locator: m.source,
    snapshot_id: m.hash,
    content_hash: `sha256:${sha256Hex(m.text)}`,
    observed_at: m.observed_at,
    extractor_id: null,
    parent_source_id: null,
  };
}

/**
 * The origin of a memory's records as evidence: its own when it was stored as an observation; the
 * default exogenous origin when it was stored as a claim and later reclassified.
 */
function evidenceOrigin(m: MemoryFacts): string {
  return isClaimClass(m.class) ? defaultOrigin('observation') : m.origin_type;
}

/** The memory hash behind a record id this layer writes (`obs:`, `sup:`, `ref:`, `claim:`), if it is one. */
export function memoryOfRecord(recordId: string): string | undefined {
  const m = /^(?:obs|sup|ref|claim):([0-9a-f]{32})$/.exec(recordId);
  return m?.[1];
}

/** The id of the record a memory is stored as in its own view. */
function ownRecordId(m: Pick<MemoryFacts, 'hash' | 'class'>): string {
  return isClaimClass(m.class) ? `claim:${m.hash}` : `obs:${m.hash}`;
}

/** The id of the record a link adds to the target's view. */
export function linkRecordId(supportHash: string, polarity: 'supports' | 'opposes'): string {
  return `${polarity === 'supports' ? 'sup' : 'ref'}:${supportHash}`;
}

/** The view a memory is first stored as (its `view_id` is derived by the store). */
export function memoryView(m: MemoryFacts): Record<string, unknown> {
  const lineage: LineageEdge[] = m.derived_from.map((h) => ({ from_id: propositionOf(m.hash), to_id: propositionOf(h), kind: 'derived_from' }));
  const proposition_id = propositionOf(m.hash);
  if (isClaimClass(m.class)) {
    return {
      proposition_id,
      assertions: [
        {
          assertion_id: ownRecordId(m),
          text: m.text,
          asserted_by: m.source,
          // Never read by evaluation; 0 so nobody mistakes it for the layer's confidence.
          assertion_confidence: 0,
          source: memorySourceRef(m, claimLineage(m.hash)),
          asserted_at: m.observed_at,
        },
      ],
      lineage,
    };
  }
  const own = ownEvidence(m);
  return { proposition_id, evidence: [own], lineage };
}

/** An observation's own supporting record: its own support, from its own source. */
export function ownEvidence(m: MemoryFacts): EvidenceItem {
  return {
    evidence_id: `obs:${m.hash}`,
    proposition_id: propositionOf(m.hash),
    polarity: 'supports',
    source: memorySourceRef(m, sourceLineage(m.source), evidenceOrigin(m)),
    content: m.text,
    observed_at: m.observed_at,
  };
}

/** The record a link adds: the support's text and source, in its own lineage or, for an echo, the lineage of what it echoes. */
export function linkEvidence(support: MemoryFacts, targetHash: string, polarity: 'supports' | 'opposes', lineage: string): EvidenceItem {
  return {
    evidence_id: linkRecordId(support.hash, polarity),
    proposition_id: propositionOf(targetHash),
    polarity,
    source: memorySourceRef(support, lineage, evidenceOrigin(support)),
    content: support.text,
    observed_at: support.observed_at,
  };
}
