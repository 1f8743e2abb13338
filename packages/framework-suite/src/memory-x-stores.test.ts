/** The evidence-layer matrix (tests 1–14 of docs/spec/evidence-layer.md) over every store of the one list. */
import { runMemoryConformance } from '@ewp/memory/testing';
import { afterAll } from 'vitest';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES)
  runMemoryConformance({ name: factory.name, create: factory.create, ...(factory.destroy ? { destroy: factory.destroy } : {}) });
