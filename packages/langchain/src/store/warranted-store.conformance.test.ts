import { runAdapterConformance } from '@ewp/conformance/adapter-suite';
import { inMemory, postgres } from '../../test/inner-stores.js';
import { warrantedStoreSubject } from '../../test/conformance-subject.js';

await runAdapterConformance(warrantedStoreSubject(inMemory, 'langgraph-inmemory'));
await runAdapterConformance(warrantedStoreSubject(postgres, 'langgraph-postgres'));
