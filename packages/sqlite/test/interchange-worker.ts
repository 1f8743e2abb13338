/**
 * Worker for the interchange test (run as a child process under another Node, so on another SQLite
 * driver): `write <file> <proposition>` appends a view and an entry, `read <file>` opens read-only;
 * both print what the ledger holds, as the store reads it, and its audit. `warn <file>` also emits a
 * warning of its own after opening (the filter on node:sqlite's warning must let it through).
 */
import { seedView } from '../../ledger/test-support/fault-views.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';

const [mode, file, proposition] = process.argv.slice(2);
const store = new SqliteEvidenceStore(file as string, { readOnly: mode === 'read' });
// Let the warning queue drain before the process ends.
if (mode === 'warn') await new Promise((resolve) => setTimeout(resolve, 50));
if (mode === 'write') {
  await store.put(seedView(proposition as string));
  await store.appendEntries([{ kind: 'note', id: `note-${proposition}`, subjects: [proposition as string], body: { by: store.driver } }]);
}
const out = {
  driver: store.driver,
  node: process.version,
  propositions: (await store.listPropositions({ limit: 100 })).map((p) => p.proposition_id).sort(),
  entries: (await store.readEntries({ limit: 100 })).map((e) => `${e.id} by ${(e.body as { by: string }).by}`),
  verify: await store.verifyChain(),
};
if (mode === 'warn') process.emitWarning('a warning of the application', 'ExperimentalWarning');
await store.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
