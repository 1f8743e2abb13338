/**
 * Every framework entry point over the stores of the one list that run in this process (memory, JSON
 * files, SQLite, PostgreSQL, LangGraph). The Mem0 and Zep stores have their own files, so that vitest runs
 * the slow commit-record stores beside these instead of after them.
 */
import { afterAll } from 'vitest';
import { runFrameworkConformance } from './framework-suite.js';
import { closeStoreFactories, STORE_FACTORIES } from './store-factories.js';

afterAll(() => closeStoreFactories());
for (const factory of STORE_FACTORIES.filter((f) => !f.name.startsWith('mem0') && f.name !== 'zep')) runFrameworkConformance(factory);
