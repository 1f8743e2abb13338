import { ewpTools } from '@ewp/ai-sdk';
import { MemoryEvidenceStore } from '@ewp/ledger';

const tools = ewpTools({ store: new MemoryEvidenceStore() }); // any EvidenceStore
console.log(Object.keys(tools)); // pass them to generateText({ model, tools, prompt }) or streamText
// What the model gets when it asks about a proposition nobody recorded:
console.log(await tools.ewp_memory_context.execute({ proposition_id: 'P-os' }, { toolCallId: 'call-1', messages: [] }));
