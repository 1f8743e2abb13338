/** Every framework entry point over every store of the one list. */
import { afterAll } from 'vitest';
import { runFrameworkConformance } from './framework-suite.js';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES) runFrameworkConformance(factory);
