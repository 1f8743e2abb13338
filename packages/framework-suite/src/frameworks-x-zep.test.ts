/** Every framework entry point over the Zep store of the one list (the official client, a local server). */
import { afterAll } from 'vitest';
import { runFrameworkConformance } from './framework-suite.js';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES.filter((f) => f.name === 'zep')) runFrameworkConformance(factory);
