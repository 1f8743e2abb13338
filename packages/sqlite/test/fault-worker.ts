/**
 * Worker for the fault tests (run as a child process), on the SQLite file `<file>`:
 * `append <file> <worker> <count> <props>` or `ingest <file> <views> <records>` (see
 * ledger/test-support/fault-worker-modes.ts).
 */
import { runFaultWorkerMode } from '../../ledger/test-support/fault-worker-modes.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';

const [mode, file, ...rest] = process.argv.slice(2);
const store = new SqliteEvidenceStore(file as string);
await runFaultWorkerMode(store, mode, rest);
await store.close();
