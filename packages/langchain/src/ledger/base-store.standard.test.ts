import { runStoreConformance } from '@ewp/conformance/store-suite';
import { type BaseStore, InMemoryStore } from '@langchain/langgraph';
import { inMemoryStoreKind, type InnerStoreKind, postgresStoreKind } from '../conformance.js';
import { BaseStoreLedger } from './base-store-ledger.js';

// The shared EvidenceStore suite on BaseStoreLedger (the engine on the commit-record protocol, one
// item per record): InMemoryStore, and the official PostgresStore when EWP_LANGGRAPH_PG_URL is set.
// Reopening is a second ledger on the same inner store, as another process would be.
const kinds: InnerStoreKind[] = [inMemoryStoreKind, ...(process.env.EWP_LANGGRAPH_PG_URL ? [postgresStoreKind(process.env.EWP_LANGGRAPH_PG_URL)] : [])];
const inners = new WeakMap<BaseStoreLedger, { inner: BaseStore; dispose: () => Promise<void> }>();

for (const kind of kinds) {
  const open = (inner: BaseStore, readOnly = false) => new BaseStoreLedger(inner, { persistent: kind.persistent, protocol: { readOnly } });
  runStoreConformance({
    name: `BaseStoreLedger over ${kind.name}`,
    create: async () => {
      const { store, dispose } = await kind.create();
      const ledger = open(store);
      inners.set(ledger, { inner: store, dispose });
      return ledger;
    },
    capabilities: open(new InMemoryStore()).capabilities,
    reopen: async (ledger) => {
      await ledger.close();
      const held = inners.get(ledger)!;
      const again = open(held.inner);
      inners.set(again, held);
      return again;
    },
    openReadOnly: async (ledger) => open(inners.get(ledger)!.inner, true),
    destroy: async (ledger) => {
      await inners.get(ledger)?.dispose();
    },
  });
}
