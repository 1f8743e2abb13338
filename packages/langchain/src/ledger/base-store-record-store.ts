/**
 * Ledger records (the commit-record protocol of @ewp/ledger) kept as items of a LangGraph BaseStore:
 * one item per record under `[R, "records"]` (R: the reserved namespace root, default `ewp`), keyed by
 * the record key, its fields as the item value so the store's own filter selects them.
 */
import type { CommitRecord, CommitRecordQuery, CommitRecordStore } from '@ewp/ledger';
import type { BaseStore } from '@langchain/langgraph';

const PAGE = 100;

/** A {@link CommitRecordStore} over any LangGraph BaseStore (InMemoryStore, PostgresStore, …). */
export class BaseStoreRecordStore implements CommitRecordStore {
  readonly #inner: BaseStore;
  readonly #namespace: string[];

  constructor(inner: BaseStore, namespaceRoot: string) {
    this.#inner = inner;
    this.#namespace = [namespaceRoot, 'records'];
  }

  async put(record: CommitRecord): Promise<void> {
    const value: Record<string, unknown> = { key: record.key, family: record.family, ingest: record.ingest, body: record.body };
    if (record.position !== undefined) value.position = record.position;
    if (record.proposition !== undefined) value.proposition = record.proposition;
    if (record.text !== undefined) value.text = record.text;
    await this.#inner.put(this.#namespace, record.key, value, false);
  }

  /** Every matching record, page by page until a short page. */
  async list(query: CommitRecordQuery): Promise<CommitRecord[]> {
    const filter: Record<string, unknown> = {};
    for (const field of ['family', 'ingest', 'position', 'proposition'] as const) if (query[field] !== undefined) filter[field] = query[field];
    const out: CommitRecord[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#inner.search(this.#namespace, { filter, limit: PAGE, offset });
      for (const item of page) {
        // Only direct children: a prefix search would also match deeper namespaces.
        if (item.namespace.length === this.#namespace.length) out.push({ ...(item.value as unknown as CommitRecord) });
      }
      if (page.length < PAGE) return out;
    }
  }
}
