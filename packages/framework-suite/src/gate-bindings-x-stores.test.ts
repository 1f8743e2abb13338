/** The warrant-gate bindings (LangChain middleware, Claude Code) over every store of the one list. */
import { afterAll } from 'vitest';
import { runGateBindingConformance } from './gate-bindings.js';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES) runGateBindingConformance(factory);
