import { WarrantedStore } from '@ewp/langchain';
import { InMemoryStore } from '@langchain/langgraph';

const store = new WarrantedStore(new InMemoryStore()); // or a PostgresStore
await store.put(['memories', 'u1'], 'os', { text: 'server01 runs Windows 2022', proposition_id: 'P-win' });
const item = await store.get(['memories', 'u1'], 'os');
console.log(item?.warrant.warrant.acceptance, item?.warrant.warrant.verification); // TENTATIVE NONE: a turn, never verified
const hits = await store.search(['memories', 'u1'], { limit: 1 });
console.log(hits.length, hits[0]?.warrant.warrant.sufficiency); // use it wherever LangGraph takes a store
