import { MemoryEvidenceStore } from '@ewp/ledger';
import { runMemoryConformance } from './testing/index.js';

runMemoryConformance({ name: 'memory', create: () => new MemoryEvidenceStore() });
