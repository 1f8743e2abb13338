import { runStoreConformance } from '@ewp/conformance/store-suite';
import { MemoryEvidenceStore } from './memory-store.js';

runStoreConformance({ name: 'memory', create: () => new MemoryEvidenceStore(), capabilities: MemoryEvidenceStore.CAPABILITIES });
