import type { CommitRecord, CommitRecordFamily, CommitRecordHit, CommitRecordQuery, CommitRecordStore } from '@ewp/ledger';
import type { Mem0Backend, MetadataValue, StoredMemory } from './mem0-backend.js';

/**
 * Metadata keys of a ledger record kept as a Mem0 memory. Flat and prefixed, so Mem0's metadata
 * filters select them and none of Mem0's reserved keys (`data`, `hash`, `createdAt`, `updatedAt`,
 * `textLemmatized`, `attributedTo`, entity ids, `expiration_date`) can touch them.
 */
export const META = {
  key: 'ewp_key',
  family: 'ewp_family',
  ingest: 'ewp_ingest',
  position: 'ewp_position',
  pid: 'ewp_pid',
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
  const md = m.metadata;
  if (!isLedgerMemory(m) || typeof md[META.key] !== 'string' || typeof md[META.ingest] !== 'string' || typeof md[META.body] !== 'string') return undefined;
  return {
    key: md[META.key] as string,
    family: md[META.family] as CommitRecordFamily,
    ingest: md[META.ingest] as string,
    ...(typeof md[META.position] === 'number' ? { position: md[META.position] as number } : {}),
    ...(typeof md[META.pid] === 'string' ? { proposition: md[META.pid] as string } : {}),
    ...(md[META.searchable] === true ? { text: m.text } : {}),
    body: md[META.body] as string,
  };
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
    const metadata: Record<string, unknown> = {
      [META.key]: record.key,
      [META.family]: record.family,
      [META.ingest]: record.ingest,
      [META.body]: record.body,
    };
    if (record.position !== undefined) metadata[META.position] = record.position;
    if (record.proposition !== undefined) metadata[META.pid] = record.proposition;
    if (text !== undefined) metadata[META.searchable] = true;
    await this.backend.add(text ?? `[ewp ${record.family}]`, metadata);
  }

  async list(query: CommitRecordQuery): Promise<CommitRecord[]> {
    const filters: Record<string, MetadataValue> = {};
    if (query.family !== undefined) filters[META.family] = query.family;
    if (query.ingest !== undefined) filters[META.ingest] = query.ingest;
    if (query.position !== undefined) filters[META.position] = query.position;
    if (query.proposition !== undefined) filters[META.pid] = query.proposition;
    return (await this.backend.list(filters)).map(toRecord).filter((r) => r !== undefined);
  }

  async search(query: string, scope: { proposition: string; limit: number }): Promise<CommitRecordHit[]> {
    const hits = await this.backend.search(query, { [META.pid]: scope.proposition, [META.searchable]: true }, scope.limit);
    const out: CommitRecordHit[] = [];
    for (const m of hits) {
      const record = toRecord(m);
      if (record !== undefined) out.push(m.score === undefined ? { record } : { record, score: m.score });
    }
    return out;
  }
}
