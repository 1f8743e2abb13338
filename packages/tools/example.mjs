import { MemoryEvidenceStore } from '@ewp/ledger';
import { runTool, toolContext } from '@ewp/tools';

const context = toolContext({ store: new MemoryEvidenceStore(), ingest: true });
const outcome = await runTool('ewp_memory_context', { proposition_id: 'P-os' }, context);
console.log(outcome.ok ? outcome.output : `${outcome.refusal.code} at ${outcome.refusal.path}`);
