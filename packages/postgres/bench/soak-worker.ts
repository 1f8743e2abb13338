/**
 * One process of the many-writer soak (bench/soak.ts starts, kills and restarts these):
 *
 * Each opens its store, prints `ready`, and starts on the line `go <untilMs>` from stdin, so the clock
 * of a run starts once every process is connected (process start-up is not measured).
 *
 * - `writer <schema> <writer> <generation> <propositions>`: until the deadline, writes to the
 *   shared propositions `P-0…P-<n-1>`: `extend`s (one new evidence record), `put`s of a fresh small view,
 *   `put`s carrying a ledger entry in the same transaction, and `appendEntries` of one entry of its own
 *   plus one every writer appends identically. After each write resolves it prints one acknowledgement
 *   line; a write in flight when the process is killed is never acknowledged.
 * - `reader <schema> <reader> <propositions>`: until the deadline, reads the ledger's revision
 *   and then the latest view of a random proposition, printing what it saw.
 *
 * Each ends with `done <n>`, the number of lines it printed.
 *
 * Every id carries the writer and its generation (a restart is a new generation), so no two writes
 * of the soak ever share an id by accident: a duplicate found afterwards is the store's.
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { evidenceRecord } from '../../ledger/test-support/fault-views.js';
import { openPostgresStore } from '../src/postgres-store.js';

const [mode, schema, who, ...rest] = process.argv.slice(2);
const store = await openPostgresStore({ schema: schema as string, maxConnections: 1 });
const out = (fields: (string | number)[]) => process.stdout.write(`${fields.join('\t')}\t.\n`);
out(['ready']);
const until = await new Promise<number>((resolve) => {
  const lines = createInterface({ input: process.stdin });
  lines.once('line', (line) => {
    lines.close();
    resolve(Number(line.split(' ')[1]));
  });
});
// A deadline that is not a number would end the loop before its first write and exit 0: a run that
// acknowledges nothing yet looks clean. Refuse it loudly instead.
if (!Number.isFinite(until)) {
  process.stderr.write(`soak-worker: the go line carried no deadline (${until})\n`);
  process.exit(2);
}
let done = 0;

if (mode === 'writer') {
  const [generation, propositions] = rest.map(Number) as [number, number];
  for (let i = 0; Date.now() < until; i += 1) {
    const id = `w${who}g${generation}-${i}`;
    const pid = `P-${Math.floor(Math.random() * propositions)}`;
    const pick = Math.random();
    const started = process.hrtime.bigint();
    let op: string;
    let viewId = '-';
    let entryId = '-';
    if (pick < 0.5) {
      op = 'extend';
      viewId = (await store.extend(pid, [{ kind: 'evidence', record: evidenceRecord(id) }], { newViewId: id })).view_id;
    } else if (pick < 0.7) {
      op = 'put';
      viewId = (await store.put({ proposition_id: pid, view_id: id, evidence: [evidenceRecord(id)] })).view_id;
    } else if (pick < 0.85) {
      op = 'put+entry';
      entryId = id;
      const entries = [{ kind: 'soak.with_view', id, subjects: [pid], body: { writer: Number(who), generation, i } }];
      viewId = (await store.put({ proposition_id: pid, view_id: id, evidence: [evidenceRecord(id)] }, { entries })).view_id;
    } else {
      op = 'entries';
      entryId = id;
      // The shared entry is identical in every writer: one is stored, the others are `unchanged`.
      const shared = `shared-${i % 64}`;
      await store.appendEntries([
        { kind: 'soak.own', id, subjects: [pid], body: { writer: Number(who), generation, i } },
        { kind: 'soak.shared', id: shared, body: { n: i % 64 } },
      ]);
    }
    const micros = Number((process.hrtime.bigint() - started) / 1000n);
    out(['A', op, pid, viewId, id, entryId, micros]);
    done += 1;
  }
} else if (mode === 'reader') {
  const [propositions] = rest.map(Number) as [number];
  while (Date.now() < until) {
    const revision = await store.revision();
    const pid = `P-${Math.floor(Math.random() * propositions)}`;
    const view = await store.get(pid);
    const digest = view === undefined ? '-' : createHash('sha256').update(JSON.stringify(view)).digest('hex');
    out(['R', who as string, pid, view?.view_id ?? '-', digest, revision.split(':')[0] as string]);
    done += 1;
  }
}
await store.close();
// The closing line: how many writes (or reads) this process printed, so the parent can tell a clean
// exit from one whose lines were lost, and a writer that never wrote from one that did.
out(['done', done]);
