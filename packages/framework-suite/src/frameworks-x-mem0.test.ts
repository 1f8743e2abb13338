/** Every framework entry point over the Mem0 stores of the one list (OSS and hosted, through local servers). */
import { afterAll } from 'vitest';
import { runFrameworkConformance } from './framework-suite.js';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES.filter((f) => f.name.startsWith('mem0'))) runFrameworkConformance(factory);
