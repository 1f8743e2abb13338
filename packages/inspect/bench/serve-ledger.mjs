// The bench's server process: `ewp inspect` runs the server apart from the browser, and so does the
// bench (a server sharing a process with the browser driver would delay what the driver sees).
import { serveInspector } from '@ewp/inspect';
import { SqliteEvidenceStore } from '@ewp/sqlite';

const store = new SqliteEvidenceStore(process.argv[2], { readOnly: true });
const inspector = await serveInspector({ store, port: 0, clock: () => new Date(process.argv[3]) });
process.stdout.write(`${inspector.url}\n`);
process.on('SIGTERM', () =>
  inspector
    .close()
    .then(() => store.close())
    .then(() => process.exit(0)),
);
