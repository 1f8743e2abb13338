import { MemoryEvidenceStore } from '@ewp/ledger';
import { MemoryLedger } from '@ewp/memory';

// Any EvidenceStore: MemoryEvidenceStore, SqliteEvidenceStore, PostgresEvidenceStore, a Mem0 or Zep adapter...
const memory = new MemoryLedger(new MemoryEvidenceStore());

const guess = await memory.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis' });
for (let i = 0; i < 100; i += 1) await memory.recall({ query: 'scheduler' });
console.log((await memory.show(guess.hash)).confidence); // 0: recall is salience, not evidence

await memory.store({ text: 'NTP reports a 10 minute drift on host eu-3', class: 'observation', source: 'ntp', supports: [guess.hash] });
const { confidence, distinct_sources, warrant } = await memory.show(guess.hash);
console.log(confidence, distinct_sources, warrant.acceptance); // 48 1 TENTATIVE
console.log(await memory.gateStats()); // the refused promotion, read from the hash chain
