/**
 * Child process for the crash tests: `<root> <step> <action>` runs one write on the JSON ledger at
 * `root` and SIGKILLs itself just before its `step`-th file-system change (counted over the lock,
 * the recovery and the commit), so the parent can stop a writer at every step in turn. Prints
 * `done <changes>` when the write finished before that step.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { bigView, evidenceRecord, seedView } from '../test-support/fault-views.js';

const [root, stepText, action] = process.argv.slice(2) as [string, string, string];
const step = Number(stepText);
let changes = 0;
const CHANGES = ['openSync', 'writeSync', 'fsyncSync', 'closeSync', 'renameSync', 'linkSync', 'unlinkSync', 'truncateSync', 'mkdirSync'] as const;
// Count only after the store is open: the test is about the write.
let armed = false;
const table = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const name of CHANGES) {
  const original = table[name] as (...args: unknown[]) => unknown;
  table[name] = (...args: unknown[]) => {
    if (armed && name === 'openSync' && (args[1] === undefined || args[1] === 'r')) return original(...args);
    if (armed) {
      changes += 1;
      if (changes === step) process.kill(process.pid, 'SIGKILL');
    }
    return original(...args);
  };
}
syncBuiltinESMExports();

const { JsonFileEvidenceStore } = await import('../src/json-file-store.js');
const { withFileLock } = await import('../src/file-lock.js');
const store = new JsonFileEvidenceStore(root, { lockTimeoutMs: 10_000 });
armed = true;
if (action === 'lock') await withFileLock(`${root}/.lock`, 10_000, () => undefined);
else if (action === 'put') await store.put(bigView('P-new', 50));
else if (action === 'putMany') await store.putMany([seedView('P-a'), bigView('P-b', 20), seedView('P-c')]);
else if (action === 'extend') await store.extend('P-1', [{ kind: 'evidence', record: evidenceRecord('e-killed') }], { newViewId: 'v-killed' });
armed = false;
process.stdout.write(`done ${changes}\n`);
