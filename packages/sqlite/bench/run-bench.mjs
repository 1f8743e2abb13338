// Bundles bench/store-bench.ts from the TypeScript sources and runs it (see test-support/run-store-bench.mjs).
import { runStoreBench } from '../../ledger/test-support/run-store-bench.mjs';

await runStoreBench(import.meta.dirname, 'sqlite-store.json');
