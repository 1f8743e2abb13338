/**
 * Worker for the interchange test (run as a child process under another Node, so on another SQLite
 * driver): `write <file> <proposition>` appends a view and an entry, `read <file>` opens read-only;
 * both print what the ledger holds, as the store reads it, and its audit.
 */
import { seedView } from '../../ledger/test-support/fault-views.js';
import { SqliteEvidenceStore } from '../src/sqlite-store.js';

const [mode, file, proposition] = process.argv.slice(2);
const store = new SqliteEvidenceStore(file as string, { readOnly: mode === 'read' });
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
await store.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
