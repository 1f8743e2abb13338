/** Every framework entry point over every store of the one list. */
import { runFrameworkConformance } from './framework-suite.js';
import { STORE_FACTORIES } from './store-factories.js';

for (const factory of STORE_FACTORIES) runFrameworkConformance(factory);
