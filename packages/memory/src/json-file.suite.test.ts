import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonFileEvidenceStore } from '@ewp/ledger';
import { afterAll } from 'vitest';
import { runMemoryConformance } from './testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-memory-json-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runMemoryConformance({
  name: 'json-files',
  create: () => new JsonFileEvidenceStore(join(dir, `ledger-${++n}`)),
  reopen: async (store) => {
    await store.close();
    return new JsonFileEvidenceStore(store.root);
  },
  // One byte of the entry's line in entries.jsonl: its decision, blocked -> blockee.
  tamperEntry: async (store, _kind, id) => {
    const file = join(store.root, 'entries.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes(JSON.stringify(id).slice(1, -1)));
    lines[i] = lines[i]!.replace('blocked', 'blockee');
    writeFileSync(file, lines.join('\n'));
  },
});
