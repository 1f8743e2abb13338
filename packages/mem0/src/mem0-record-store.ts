import {
  COMMIT_RECORD_META,
  type CommitRecord,
  type CommitRecordHit,
  type CommitRecordQuery,
  type CommitRecordStore,
  commitQueryMetadata,
  commitRecordFromMetadata,
  commitRecordMetadata,
} from '@ewp/ledger';
import type { Mem0Backend, StoredMemory } from './mem0-backend.js';

/**
 * Metadata keys of a ledger record kept as a Mem0 memory: the record's fields
 * ({@link COMMIT_RECORD_META}), whether the memory text is the claim, and the body. Flat and
 * prefixed, so Mem0's metadata filters select them and none of Mem0's reserved keys (`data`,
 * `hash`, `createdAt`, `updatedAt`, `textLemmatized`, `attributedTo`, entity ids,
 * `expiration_date`) can touch them.
 */
export const META = {
  ...COMMIT_RECORD_META,
  /** `true` on memories whose text is the claim itself (what a search looks at). */
  searchable: 'ewp_searchable',
  body: 'ewp_body',
} as const;

const LONE_SURROGATE = /\p{Surrogate}/u;

/** Mem0 keeps a memory's text as given only when it is trimmed, well-formed and not too long. */
function claimText(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '' || text !== text.trim() || LONE_SURROGATE.test(text) || text.length > 4000) return undefined;
  return text;
}

/** Whether a memory was written by the ledger (Mem0's own memories have no `ewp_family`). */
export function isLedgerMemory(m: StoredMemory): boolean {
  return typeof m.metadata[META.family] === 'string';
}

function toRecord(m: StoredMemory): CommitRecord | undefined {
  const body = m.metadata[META.body];
  if (typeof body !== 'string') return undefined;
  return commitRecordFromMetadata(m.metadata, body, m.metadata[META.searchable] === true ? m.text : undefined);
}

/**
 * Ledger records as Mem0 memories, one `add` (`infer: false`) each: a record that carries a claim
 * (an assertion's text, an evidence item's content) has it as the memory text, so Mem0's own search
 * finds it; other records carry a short label. The record itself travels in the metadata.
 */
export class Mem0RecordStore implements CommitRecordStore {
  constructor(readonly backend: Mem0Backend) {}

  async put(record: CommitRecord): Promise<void> {
    const text = claimText(record.text);
    const metadata: Record<string, unknown> = { ...commitRecordMetadata(record), [META.body]: record.body };
    if (text !== undefined) metadata[META.searchable] = true;
    await this.backend.add(text ?? `[ewp ${record.family}]`, metadata);
  }

  async list(query: CommitRecordQuery): Promise<CommitRecord[]> {
    return (await this.backend.list(commitQueryMetadata(query))).map(toRecord).filter((r) => r !== undefined);
  }

  async search(query: string, scope: { proposition: string; limit: number }): Promise<CommitRecordHit[]> {
    const hits = await this.backend.search(query, { [META.proposition]: scope.proposition, [META.searchable]: true }, scope.limit);
    const out: CommitRecordHit[] = [];
    for (const m of hits) {
      const record = toRecord(m);
      if (record !== undefined) out.push(m.score === undefined ? { record } : { record, score: m.score });
    }
    return out;
  }
}
