/**
 * Worker for the fault tests (run as a child process), on the ledger schema `<schema>`:
 * `append <schema> <worker> <count> <props>` or `ingest <schema> <views> <records>` (see
 * ledger/test-support/fault-worker-modes.ts).
 */
import { runFaultWorkerMode } from '../../ledger/test-support/fault-worker-modes.js';
import { openPostgresStore } from '../src/postgres-store.js';

const [mode, schema, ...rest] = process.argv.slice(2);
const store = await openPostgresStore({ schema: schema as string, maxConnections: 1 });
await runFaultWorkerMode(store, mode, rest);
await store.close();
