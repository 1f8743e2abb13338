/**
 * Worker for the fault tests (run as a child process):
 * - `append <schema> <worker> <count> <props>`: `count` extends, round robin over `props` shared propositions;
 * - `ingest <schema> <views> <records>`: puts `views` snapshots of `records` records each, printing `stored <i>`.
 */
import { openPostgresStore } from '../src/postgres-store.js';
import { bigView, evidenceRecord } from '../../ledger/test-support/fault-views.js';

const [mode, schema, ...rest] = process.argv.slice(2);
const store = await openPostgresStore({ schema: schema as string, maxConnections: 1 });
if (mode === 'append') {
  const [worker, count, props] = rest.map(Number) as [number, number, number];
  for (let i = 0; i < count; i += 1) {
    await store.extend(`P-${i % props}`, [{ kind: 'evidence', record: evidenceRecord(`w${worker}-${i}`) }]);
  }
} else if (mode === 'ingest') {
  const [views, records] = rest.map(Number) as [number, number];
  process.stdout.write('ready\n');
  for (let i = 0; i < views; i += 1) {
    await store.put(bigView(`P-big-${i}`, records));
    process.stdout.write(`stored ${i}\n`);
  }
}
await store.close();
