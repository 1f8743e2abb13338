/**
 * @ewp/memory/testing — the evidence-layer matrix as a suite any store runs.
 * @packageDocumentation
 */
export { BACKUP, type MemorySuiteOptions, runMemoryConformance, SUITE_T } from './memory-suite.js';
