import { runStoreConformance } from '@ewp/conformance/store-suite';
import { InMemoryStore } from '@langchain/langgraph';
import { BaseStoreLedger } from './base-store-ledger.js';

runStoreConformance({ name: 'langgraph-basestore', create: () => new BaseStoreLedger(new InMemoryStore()), capabilities: new BaseStoreLedger(new InMemoryStore()).capabilities });
