import { runAdapterConformance } from '@ewp/conformance/adapter-suite';
import { inMemory, postgres } from '../../test/inner-stores.js';
import { warrantedStoreSubject } from '../conformance.js';

await runAdapterConformance(warrantedStoreSubject(inMemory));
await runAdapterConformance(warrantedStoreSubject(postgres));
