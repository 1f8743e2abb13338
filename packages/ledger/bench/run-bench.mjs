// Bundles bench/store-bench.ts from the TypeScript sources and runs it (see test-support/run-store-bench.mjs).
import { runStoreBench } from '../test-support/run-store-bench.mjs';

await runStoreBench(import.meta.dirname, 'json-file-store.json');
