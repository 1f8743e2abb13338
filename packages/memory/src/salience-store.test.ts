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
import { JsonlSalienceStore, SALIENCE_FLUSH_DELAY_MS } from './salience-file.js';
import { openSalienceStore, saliencePathFor } from './salience-location.js';
import { emptySalience, InMemorySalienceStore, type SalienceSlot } from './salience-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-salience-'));
const T = '2026-12-01T12:00:00Z';
/** The n-th memory hash (32 hex digits, as a memory's). */
const H = (n: number) => n.toString(16).padStart(32, '0');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('JsonlSalienceStore', () => {
  it('answers a record set since the last write, in place once written, and lists both', () => {
    const path = join(dir, 'recent.jsonl');
    const s = new JsonlSalienceStore(path);
    s.set(H(1), { ...emptySalience(), recall_count: 1 });
    expect(s.get(H(1))).toMatchObject({ recall_count: 1 });
    s.flush();
    s.set(H(1), { ...emptySalience(), recall_count: 2 });
    s.set(H(2), { ...emptySalience(), energy: 3 });
    // A copy: changing what get returned changes nothing kept.
    const got = s.get(H(2))!;
    got.energy = 99;
    expect(s.get(H(2))).toMatchObject({ energy: 3 });
    expect(new Map(s.entries())).toEqual(
      new Map([
        [H(1), { ...emptySalience(), recall_count: 2 }],
        [H(2), { ...emptySalience(), energy: 3 }],
      ]),
    );
    s.close();
    const again = new JsonlSalienceStore(path);
    expect(again.get(H(1))).toMatchObject({ recall_count: 2 });
    expect(again.get(H(2))).toMatchObject({ energy: 3 });
    again.close();
  });

  it('keeps salience across reopening, skips a torn last line and compacts superseded lines', () => {
    const path = join(dir, 'a.jsonl');
    const s = new JsonlSalienceStore(path);
    // One line per flush: 200 superseded lines of h1.
    for (let n = 1; n <= 200; n += 1) {
      s.set(H(1), { ...emptySalience(), recall_count: n, energy: n });
      s.flush();
    }
    s.set(H(2), { ...emptySalience(), importance: 1 });
    s.close();
    appendFileSync(path, `{"h":"${H(3)}","r":{"ener`);
    const again = new JsonlSalienceStore(path);
    expect(again.get(H(1))).toMatchObject({ recall_count: 200, energy: 200 });
    expect(again.get(H(2))).toMatchObject({ importance: 1 });
    expect(again.get(H(3))).toBeUndefined();
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

  it('keeps what the gate decided in the chain, not in the file: a refused memory is not put to the gate again until its evidence changes', async () => {
    const path = join(dir, 'gate.jsonl');
    const store = new MemoryEvidenceStore();
    const side = new JsonlSalienceStore(path);
    const memory = new MemoryLedger(store, { now: () => T, config: { promotion_energy: 2 }, salience: side });
    const guess = await memory.store({ text: 'The nightly job fails because of the disk quota', class: 'hypothesis', source: 'agent' });
    for (let i = 0; i < 5; i += 1) await memory.recall({ query: 'nightly job disk quota' });
    // Read straight from the store: the recalls' changes reached it (applied on this read).
    expect(side.get(guess.hash)).toEqual({ recall_count: 5, energy: 5, importance: 0, last_recalled_at: T });
    expect((await memory.gateStats()).blocked).toBe(1);
    // The promotion pass sees the same refusal and asks nothing new.
    expect(await memory.promotionPass()).toMatchObject({ allowed: 0, blocked: 0 });
    memory.close();
    // A new layer over the same file starts from what the first one kept.
    const again = new MemoryLedger(store, { now: () => T, config: { promotion_energy: 2 }, salience: new JsonlSalienceStore(path) });
    await again.recall({ query: 'nightly job disk quota' });
    expect((await again.show(guess.hash)).salience).toMatchObject({ recall_count: 6 });
    expect((await again.gateStats()).blocked).toBe(1);
    again.close();
  });

  it('hands out copies: a recalled row, a replayed record or a read record changed by the caller changes nothing kept', async () => {
    const side = new JsonlSalienceStore(join(dir, 'copies.jsonl'));
    const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T, salience: side });
    const m = await memory.store({ text: 'The cache is warmed at boot', class: 'observation', source: 'ops' });
    const [row] = await memory.recall({ query: 'cache warmed' });
    row!.salience.recall_count = 100;
    side.get(m.hash)!.energy = 100;
    const [next] = await memory.recall({ query: 'cache warmed' });
    expect(next!.salience).toMatchObject({ recall_count: 2, energy: 2 * memory.config.recall_energy });
    expect(side.get(m.hash)).toMatchObject({ recall_count: 2 });
    const replayed = await memory.replay(m.hash);
    expect(replayed).toMatchObject({ recall_count: 3 });
    replayed.recall_count = 100;
    const [last] = await memory.recall({ query: 'cache warmed' });
    expect(last!.salience).toMatchObject({ recall_count: 4 });
    memory.close();
  });

  it('buffers the bumps of a burst into one write, written after the delay, by flush or by close', async () => {
    const path = join(dir, 'c.jsonl');
    const s = new JsonlSalienceStore(path);
    for (let n = 1; n <= 10; n += 1) s.set(H(n), { ...emptySalience(), recall_count: n });
    // Nothing written yet: the hot path does no I/O.
    expect(existsSync(path)).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(path)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, SALIENCE_FLUSH_DELAY_MS + 20));
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(10);
    // Bumps of one memory between writes become one line.
    s.set(H(1), { ...emptySalience(), recall_count: 11 });
    s.set(H(1), { ...emptySalience(), recall_count: 12, last_recalled_at: T });
    s.flush();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(11);
    expect(new JsonlSalienceStore(path).get(H(1))).toEqual({ ...emptySalience(), recall_count: 12, last_recalled_at: T });
    s.set(H(2), { ...emptySalience(), recall_count: 13 });
    s.close();
    expect(new JsonlSalienceStore(path).get(H(2))).toMatchObject({ recall_count: 13 });
    expect(() => s.set(H(3), emptySalience())).toThrow(MemoryError);
  });

  it('a process that ends with bumps still pending writes them as it exits (the delay never keeps it alive)', async () => {
    const driver = join(dir, 'exit-driver.mjs');
    const path = join(dir, 'exit.jsonl');
    await build({
      stdin: {
        contents: `import { JsonlSalienceStore } from './salience-file.ts';
          import { emptySalience } from './salience-store.ts';
          const s = new JsonlSalienceStore(process.argv[2]);
          for (let n = 1; n <= 3; n += 1) s.set(n.toString(16).padStart(32, '0'), { ...emptySalience(), recall_count: n });`,
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
    expect(new JsonlSalienceStore(path, { readOnly: true }).get(H(3))).toMatchObject({ recall_count: 3 });
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);
    // The exit released the lock too.
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a write that fails in the background is thrown by the next flush, and salience stays in memory', () => {
    const s = new JsonlSalienceStore(join(dir, 'no-such-dir', 'd.jsonl'));
    s.set(H(1), { ...emptySalience(), recall_count: 1 });
    expect(() => s.flush()).toThrow(/ENOENT/);
    expect(s.get(H(1))).toMatchObject({ recall_count: 1 });
    // The change is still unsaved: close tries again and says why it cannot.
    expect(() => s.close()).toThrow(/ENOENT/);
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

describe('InMemorySalienceStore', () => {
  it("keeps a memory's record in its slot, a hash without a slot apart until it gets one, and copies what it hands out", () => {
    const slots = new Map<string, SalienceSlot>([['h1', { salience: undefined }]]);
    const s = new InMemorySalienceStore(
      (h) => slots.get(h),
      () => slots,
    );
    s.set('h1', { ...emptySalience(), recall_count: 1 });
    expect(slots.get('h1')!.salience).toMatchObject({ recall_count: 1 });
    s.set('h2', { ...emptySalience(), energy: 2 });
    expect(s.get('h2')).toMatchObject({ energy: 2 });
    // h2 is indexed later: its loose record answers until a set moves it into the slot.
    slots.set('h2', { salience: undefined });
    expect(s.get('h2')).toMatchObject({ energy: 2 });
    expect([...s.entries()].map(([h]) => h).sort()).toEqual(['h1', 'h2']);
    s.set('h2', { ...emptySalience(), energy: 3 });
    expect(slots.get('h2')!.salience).toMatchObject({ energy: 3 });
    expect([...s.entries()].map(([h, r]) => [h, r.energy]).sort()).toEqual([
      ['h1', 0],
      ['h2', 3],
    ]);
    const got = s.get('h1')!;
    got.recall_count = 99;
    expect(s.get('h1')).toMatchObject({ recall_count: 1 });
  });

  it('is where a MemoryLedger keeps salience by default: recall raises it, show reads it', async () => {
    const ledger = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });
    expect(ledger.salience).toBeInstanceOf(InMemorySalienceStore);
    const m = await ledger.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
    await ledger.recall({ query: 'backup' });
    await ledger.recall({ query: 'backup' });
    await ledger.recall({ query: 'backup', touch: false });
    expect((await ledger.show(m.hash)).salience.recall_count).toBe(2);
    expect([...ledger.salience.entries()]).toEqual([[m.hash, expect.objectContaining({ recall_count: 2 })]]);
  });
});
