/**
 * Child process for the JSON-store tests: `<root> append <worker> <count> <props>` or
 * `<root> ingest <views> <records>` (see fault-worker-modes).
 */
import { JsonFileEvidenceStore } from '../src/json-file-store.js';
import { runFaultWorkerMode } from '../test-support/fault-worker-modes.js';

const [root, mode, ...rest] = process.argv.slice(2);
const store = new JsonFileEvidenceStore(root as string);
await runFaultWorkerMode(store, mode, rest);
await store.close();
