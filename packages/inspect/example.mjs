import { serveInspector } from '@ewp/inspect';
import { MemoryEvidenceStore } from '@ewp/ledger';

const store = new MemoryEvidenceStore(); // any EvidenceStore: SQLite, PostgreSQL, Mem0, Zep, LangGraph through its adapter
const inspector = await serveInspector({ store, port: 0, riskPolicy: { high_requires_accepted: true } });
console.log(`open ${inspector.url}`); // a local, read-only page: why the evidence warrants what it does
console.log((await fetch(inspector.url)).status); // 200
await inspector.close();
