import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { build } from 'esbuild';
import { MemoryError } from './errors.js';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryLedger } from './memory-ledger.js';
import { memoryLedgerFor } from './shared-ledger.js';
import { emptySalience, InMemorySalienceStore, JsonlSalienceStore, openSalienceStore, SALIENCE_FLUSH_DELAY_MS, saliencePathFor } from './salience-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-salience-'));
const T = '2026-12-01T12:00:00Z';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('JsonlSalienceStore', () => {
  it('keeps salience across reopening, skips a torn last line and compacts superseded lines', () => {
    const path = join(dir, 'a.jsonl');
    const s = new JsonlSalienceStore(path);
    // One line per flush: 200 superseded lines of h1.
    for (let n = 1; n <= 200; n += 1) {
      s.set('h1', { ...emptySalience(), recall_count: n, energy: n });
      s.flush();
    }
    s.set('h2', { ...emptySalience(), importance: 1, promoted: true });
    s.close();
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
    first.close();
    const second = new MemoryLedger(store, { salience: new JsonlSalienceStore(path) });
    expect((await second.show(m.hash)).salience.recall_count).toBe(2);
  });

  it('buffers the bumps of a burst into one write, written after the delay, by flush or by close', async () => {
    const path = join(dir, 'c.jsonl');
    const s = new JsonlSalienceStore(path);
    for (let n = 1; n <= 10; n += 1) s.set(`h${n}`, { ...emptySalience(), recall_count: n });
    // Nothing written yet: the hot path does no I/O.
    expect(existsSync(path)).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(path)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, SALIENCE_FLUSH_DELAY_MS + 20));
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(10);
    // Bumps of one memory between writes become one line.
    s.set('h1', { ...emptySalience(), recall_count: 11 });
    s.set('h1', { ...emptySalience(), recall_count: 12, last_recalled_at: T, blocked_at_state: 'hypothesis:v"1' });
    s.flush();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(11);
    expect(new JsonlSalienceStore(path).get('h1')).toEqual({ ...emptySalience(), recall_count: 12, last_recalled_at: T, blocked_at_state: 'hypothesis:v"1' });
    s.set('h2', { ...emptySalience(), recall_count: 13 });
    s.close();
    expect(new JsonlSalienceStore(path).get('h2')).toMatchObject({ recall_count: 13 });
    expect(() => s.set('h3', emptySalience())).toThrow(MemoryError);
  });

  it('a process that ends with bumps still pending writes them as it exits (the delay never keeps it alive)', async () => {
    const driver = join(dir, 'exit-driver.mjs');
    const path = join(dir, 'exit.jsonl');
    await build({
      stdin: {
        contents: `import { JsonlSalienceStore, emptySalience } from './salience-store.ts';
          const s = new JsonlSalienceStore(process.argv[2]);
          for (let n = 1; n <= 3; n += 1) s.set('h' + n, { ...emptySalience(), recall_count: n });`,
        resolveDir: import.meta.dirname,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['@ewp/source'],
      outfile: driver,
      logLevel: 'silent',
    });
    const run = spawnSync(process.execPath, [driver, path], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(new JsonlSalienceStore(path).get('h3')).toMatchObject({ recall_count: 3 });
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('a write that fails in the background is thrown by the next flush, and salience stays in memory', () => {
    const s = new JsonlSalienceStore(join(dir, 'no-such-dir', 'd.jsonl'));
    s.set('h1', { ...emptySalience(), recall_count: 1 });
    expect(() => s.flush()).toThrow(/ENOENT/);
    expect(s.get('h1')).toMatchObject({ recall_count: 1 });
    s.close();
  });
});

describe('where a ledger keeps salience', () => {
  it('beside a SQLite file or a JSON-file directory; an explicit file wins; in memory for PostgreSQL and for no location', () => {
    expect(saliencePathFor({ db: 'ewp.sqlite', cwd: '/data' })).toBe('/data/ewp.sqlite.salience.jsonl');
    expect(saliencePathFor({ jsonDir: 'ledger/', cwd: '/data' })).toBe('/data/ledger.salience.jsonl');
    expect(saliencePathFor({ db: '/x/ewp.sqlite', salience: 's.jsonl', cwd: '/data' })).toBe('/data/s.jsonl');
    expect(saliencePathFor({ pg: 'postgres://127.0.0.1/test' })).toBeUndefined();
    expect(openSalienceStore({ pg: 'postgres://127.0.0.1/test' })).toBeInstanceOf(InMemorySalienceStore);
    const file = openSalienceStore({ db: join(dir, 'e.sqlite') });
    expect(file).toBeInstanceOf(JsonlSalienceStore);
    expect((file as JsonlSalienceStore).path).toBe(join(dir, 'e.sqlite.salience.jsonl'));
  });

  it('the shared layer of a store takes the salience store of its first caller and refuses another one later', () => {
    const store = new MemoryEvidenceStore();
    const salience = new InMemorySalienceStore();
    const memory = memoryLedgerFor(store, undefined, { salience });
    expect(memory.salience).toBe(salience);
    expect(memoryLedgerFor(store)).toBe(memory);
    expect(memoryLedgerFor(store, undefined, { salience })).toBe(memory);
    expect(() => memoryLedgerFor(store, undefined, { salience: new InMemorySalienceStore() })).toThrow(expect.objectContaining({ path: 'salience' }));
  });
});
