import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from './memory-ledger.js';
import { emptySalience, JsonlSalienceStore } from './salience-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-salience-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('JsonlSalienceStore', () => {
  it('keeps salience across reopening, skips a torn last line and compacts superseded lines', () => {
    const path = join(dir, 'a.jsonl');
    const s = new JsonlSalienceStore(path);
    for (let n = 1; n <= 200; n += 1) s.set('h1', { ...emptySalience(), recall_count: n, energy: n });
    s.set('h2', { ...emptySalience(), importance: 1, promoted: true });
    appendFileSync(path, '{"h":"h3","r":{"ener');
    const again = new JsonlSalienceStore(path);
    expect(again.get('h1')).toMatchObject({ recall_count: 200, energy: 200 });
    expect(again.get('h2')).toMatchObject({ importance: 1, promoted: true });
    expect(again.get('h3')).toBeUndefined();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('is where a MemoryLedger keeps recall counts between processes, while the ledger is untouched by them', async () => {
    const path = join(dir, 'b.jsonl');
    const store = new MemoryEvidenceStore();
    const first = new MemoryLedger(store, { salience: new JsonlSalienceStore(path) });
    const m = await first.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
    await first.recall({ query: 'backup' });
    await first.recall({ query: 'backup' });
    const second = new MemoryLedger(store, { salience: new JsonlSalienceStore(path) });
    expect((await second.show(m.hash)).salience.recall_count).toBe(2);
  });
});
