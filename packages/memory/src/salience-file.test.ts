/**
 * The salience side file's mechanics: one writer per file (a lock, taken over when its process is gone),
 * compaction while running, a bounded line, and unreadable lines skipped with one warning. A second
 * process holding the file is a real child process running the store from the sources.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryError } from './errors.js';
import { JsonlSalienceStore } from './salience-file.js';
import { SALIENCE_LINE_MAX } from './salience-lines.js';
import { emptySalience } from './salience-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-salience-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The n-th memory hash (32 hex digits, as a memory's). */
const H = (n: number) => n.toString(16).padStart(32, '0');
const T = '2026-12-01T12:00:00Z';
let files = 0;
const fresh = () => join(dir, `s-${++files}.jsonl`);
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1;
const warnings = () => {
  const seen: string[] = [];
  return { seen, onWarning: (m: string) => seen.push(m) };
};

/**
 * A child process holding a store on `path`: it prints whether it holds the lock, then bumps memories
 * 0..299 (`memories`) 50 at a time every 5 ms, flushing each time, until it reads `stop` (then closes the
 * store) or is killed.
 */
let driver: string;
beforeAll(async () => {
  driver = join(dir, 'holder.mjs');
  await build({
    stdin: {
      contents: `import { JsonlSalienceStore } from './salience-file.ts';
        import { emptySalience } from './salience-store.ts';
        const s = new JsonlSalienceStore(process.argv[2]);
        const memories = Number(process.argv[3]);
        process.stdout.write(JSON.stringify({ owner: s.owner }) + '\\n');
        let n = 0;
        const timer = setInterval(() => {
          for (let i = 0; i < 50; i += 1) {
            n += 1;
            s.set((n % memories).toString(16).padStart(32, '0'), { ...emptySalience(), recall_count: n, energy: n });
          }
          s.flush();
        }, 5);
        process.stdin.setEncoding('utf8').on('data', (d) => {
          if (!d.includes('stop')) return;
          clearInterval(timer);
          s.close();
          process.stdout.write('closed\\n');
          process.exit(0);
        });`,
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
});

async function holder(path: string, memories = 300): Promise<{ child: ChildProcessWithoutNullStreams; owner: boolean; out: () => string }> {
  const child = spawn(process.execPath, [driver, path, String(memories)]);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  while (!out.includes('\n')) {
    if (child.exitCode !== null) throw new Error(`the holder ended: ${out}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { child, owner: JSON.parse(out.split('\n')[0] as string).owner, out: () => out };
}

/** Wait until the file at `path` changes (a holder wrote or rewrote it) from what `stamp` saw. */
async function changed(path: string, stamp = ''): Promise<string> {
  for (;;) {
    const stat = statSync(path, { throwIfNoEntry: false });
    const now = stat === undefined ? '' : `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    if (now !== stamp && now !== '') return now;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function stop(h: { child: ChildProcessWithoutNullStreams; out: () => string }): Promise<void> {
  h.child.stdin.write('stop\n');
  await once(h.child, 'exit');
  expect(h.out()).toContain('closed');
}

describe('one writer per side file', () => {
  it('a store beside a running holder reads the file, never writes, compacts or renames it, and says its changes are not saved', async () => {
    const path = fresh();
    const h = await holder(path);
    try {
      expect(h.owner).toBe(true);
      const stamp = await changed(path, await changed(path));
      const w = warnings();
      const beside = new JsonlSalienceStore(path, w);
      expect(beside.owner).toBe(false);
      // It read what the holder wrote.
      expect(beside.get(H(1))?.recall_count).toBeGreaterThan(0);
      beside.set(H(999), { ...emptySalience(), recall_count: 1, last_recalled_at: T });
      beside.flush();
      beside.close();
      expect(readFileSync(path, 'utf8')).not.toContain(H(999));
      expect(existsSync(`${path}.${process.pid}.tmp`)).toBe(false);
      expect(w.seen).toHaveLength(1);
      expect(w.seen[0]).toMatch(new RegExp(`^the salience of 1 memory changed here is not saved: ${path} is kept by process ${h.child.pid} \\(since `));
      // The holder goes on writing the file.
      await changed(path, await changed(path, stamp));
      await stop(h);
      expect(existsSync(`${path}.lock`)).toBe(false);
      const after = new JsonlSalienceStore(path, { readOnly: true });
      expect(after.get(H(999))).toBeUndefined();
      const most = (store: JsonlSalienceStore) => Math.max(...[...store.entries()].map(([, r]) => r.recall_count));
      expect(most(after)).toBeGreaterThan(most(beside));
    } finally {
      h.child.kill('SIGKILL');
    }
  });

  it('the holder compacts while running (rename of a complete file): the file stays within 2 × memories + 256 lines', async () => {
    const path = fresh();
    const h = await holder(path);
    try {
      // A rewrite shows as the file getting shorter; 50 changes every 5 ms would otherwise append thousands of lines.
      let rewrites = 0;
      let most = 0;
      let last = 0;
      const until = Date.now() + 15_000;
      while (rewrites < 3 && Date.now() < until) {
        const now = existsSync(path) ? lines(path) : 0;
        if (now < last) rewrites += 1;
        most = Math.max(most, now);
        last = now;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(rewrites).toBe(3);
      expect(most).toBeGreaterThan(300);
      expect(most).toBeLessThanOrEqual(2 * 300 + 256);
      await stop(h);
      expect(lines(path)).toBeLessThanOrEqual(2 * 300 + 256);
      expect([...new JsonlSalienceStore(path, { readOnly: true }).entries()]).toHaveLength(300);
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      h.child.kill('SIGKILL');
    }
  });

  it('a store that waited takes over once the holder lets go: it reads the file again, lays its own changes over it and rewrites it', async () => {
    const path = fresh();
    const h = await holder(path, 20);
    let stamp = '';
    while (!existsSync(path) || lines(path) < 20) stamp = await changed(path, stamp);
    const w = warnings();
    const waiting = new JsonlSalienceStore(path, w);
    expect(waiting.owner).toBe(false);
    waiting.set(H(999), { ...emptySalience(), recall_count: 7 });
    waiting.set(H(3), { ...emptySalience(), recall_count: 1_000_000 });
    waiting.flush();
    expect(waiting.owner).toBe(false);
    await stop(h);
    const held = new JsonlSalienceStore(path, { readOnly: true });
    waiting.flush();
    expect(waiting.owner).toBe(true);
    // The holder's records it never changed come from the file; its own changes win over the file's.
    expect(waiting.get(H(5))).toEqual(held.get(H(5)));
    expect(waiting.get(H(3))?.recall_count).toBe(1_000_000);
    expect(lines(path)).toBe(21);
    waiting.set(H(998), { ...emptySalience(), recall_count: 1 });
    waiting.close();
    expect(w.seen).toEqual([]);
    const reread = new JsonlSalienceStore(path, { readOnly: true });
    expect(reread.get(H(999))?.recall_count).toBe(7);
    expect(reread.get(H(998))?.recall_count).toBe(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a lock whose process was killed is stale and taken over; so is this pid without this thread holding it (a restarted container)', async () => {
    const path = fresh();
    const h = await holder(path, 20);
    await new Promise((resolve) => setTimeout(resolve, 100));
    h.child.kill('SIGKILL');
    await once(h.child, 'exit');
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(h.child.pid);
    const next = new JsonlSalienceStore(path);
    expect(next.owner).toBe(true);
    expect(next.get(H(3))?.recall_count).toBeGreaterThan(0);
    next.close();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), thread: 0, token: 'an earlier run', since: T }));
    const again = new JsonlSalienceStore(path);
    expect(again.owner).toBe(true);
    // A second store of this very thread while the first holds it is not the owner.
    const second = new JsonlSalienceStore(path);
    expect(second.owner).toBe(false);
    second.close();
    again.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a lock of another host is never broken; an unreadable lock is live while it may still be being written, stale after', () => {
    const path = fresh();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, host: `not-${hostname()}`, thread: 0, token: 't', since: T }));
    const w = warnings();
    const other = new JsonlSalienceStore(path, w);
    expect(other.owner).toBe(false);
    other.set(H(1), emptySalience());
    other.close();
    expect(w.seen[0]).toContain(`kept by process 1 on not-${hostname()}`);
    expect(existsSync(path)).toBe(false);
    writeFileSync(`${path}.lock`, '');
    expect(new JsonlSalienceStore(path).owner).toBe(false);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    const taken = new JsonlSalienceStore(path);
    expect(taken.owner).toBe(true);
    taken.close();
  });

  it('a read-only store takes no lock and never writes, whatever is set on it', () => {
    const path = fresh();
    const owner = new JsonlSalienceStore(path);
    owner.set(H(1), { ...emptySalience(), recall_count: 1 });
    owner.close();
    const before = readFileSync(path);
    const ro = new JsonlSalienceStore(path, { readOnly: true });
    expect(ro.owner).toBe(false);
    ro.set(H(2), { ...emptySalience(), recall_count: 2 });
    ro.flush();
    expect(ro.get(H(2))).toMatchObject({ recall_count: 2 });
    ro.close();
    expect(readFileSync(path)).toEqual(before);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});

describe('bounded lines', () => {
  it('a record longer than the line bound, or under a key that is no memory hash, is refused by the flush and kept in memory', () => {
    const path = fresh();
    const s = new JsonlSalienceStore(path);
    s.set(H(1), { ...emptySalience(), last_recalled_at: 'x'.repeat(SALIENCE_LINE_MAX) });
    expect(() => s.flush()).toThrow(MemoryError);
    s.set('not-a-hash', emptySalience());
    expect(() => s.flush()).toThrow(expect.objectContaining({ path: 'salience' }));
    expect(s.get(H(1))?.last_recalled_at).toHaveLength(SALIENCE_LINE_MAX);
    s.set(H(2), { ...emptySalience(), recall_count: 1 });
    s.close();
    expect(readFileSync(path, 'utf8')).toBe(`{"h":"${H(2)}","r":{"recall_count":1,"energy":0,"importance":0,"last_recalled_at":null}}\n`);
  });
});

describe('unreadable lines', () => {
  const good = (n: number, count: number) => `{"h":"${H(n)}","r":{"recall_count":${count},"energy":${count},"importance":0,"last_recalled_at":"${T}"}}\n`;
  const corrupt: [string, string | Buffer][] = [
    ['bad JSON', '{"h":\n'],
    ['null', 'null\n'],
    ['an array', '[1,2]\n'],
    ['a number', '42\n'],
    ['no r', `{"h":"${H(7)}"}\n`],
    ['r null', `{"h":"${H(7)}","r":null}\n`],
    ['a count as text', `{"h":"${H(7)}","r":{"recall_count":"3"}}\n`],
    ['a negative count', `{"h":"${H(7)}","r":{"recall_count":-1}}\n`],
    ['a fractional count', `{"h":"${H(7)}","r":{"recall_count":1.5}}\n`],
    ['energy null', `{"h":"${H(7)}","r":{"energy":null}}\n`],
    ['importance as text', `{"h":"${H(7)}","r":{"importance":"high"}}\n`],
    ['a time that is no instant', `{"h":"${H(7)}","r":{"last_recalled_at":"yesterday"}}\n`],
    ['a hash that is no memory hash', '{"h":"h7","r":{"recall_count":1}}\n'],
    ['an upper-case hash', `{"h":"${H(7).toUpperCase().replace(/0/g, 'A')}","r":{"recall_count":1}}\n`],
    ['a line past the bound', `{"h":"${H(7)}","r":{"recall_count":1},"pad":"${'x'.repeat(SALIENCE_LINE_MAX)}"}\n`],
    ['invalid UTF-8', Buffer.concat([Buffer.from(`{"h":"${H(7)}","r":{"recall_count":1,"x":"`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}}\n')])],
  ];

  function corruptFile(path: string): void {
    writeFileSync(path, good(1, 4));
    for (const [, line] of corrupt) appendFileSync(path, line);
    appendFileSync(path, good(2, 9));
    // An older file's fields that are no salience are ignored, not refused.
    appendFileSync(path, `{"h":"${H(3)}","r":{"recall_count":2,"energy":2,"importance":0,"last_recalled_at":null,"promoted":true,"blocked_at_state":"x"}}\n`);
    // Truncated last line: a crash mid-write.
    appendFileSync(path, `{"h":"${H(4)}","r":{"recall_co`);
  }

  it('are skipped with one warning for the whole file; the holder rewrites the file without them', () => {
    const path = fresh();
    corruptFile(path);
    const w = warnings();
    const s = new JsonlSalienceStore(path, w);
    expect(s.owner).toBe(true);
    expect(w.seen).toHaveLength(1);
    expect(w.seen[0]).toMatch(
      new RegExp(`^skipped ${corrupt.length + 1} unreadable lines of .* \\(line 2: not JSON\\); salience is advisory, so they are dropped$`),
    );
    expect([...s.entries()].map(([h, r]) => [h, r.recall_count]).sort()).toEqual([
      [H(1), 4],
      [H(2), 9],
      [H(3), 2],
    ]);
    expect(s.get(H(3))).toEqual({ recall_count: 2, energy: 2, importance: 0, last_recalled_at: null });
    expect(s.get(H(7))).toBeUndefined();
    expect(lines(path)).toBe(3);
    s.close();
    const w2 = warnings();
    new JsonlSalienceStore(path, { ...w2, readOnly: true });
    expect(w2.seen).toEqual([]);
  });

  it('a read-only store skips them with one warning and leaves the file as it is; a last line still being written is skipped silently', () => {
    const path = fresh();
    corruptFile(path);
    const before = readFileSync(path);
    const w = warnings();
    const s = new JsonlSalienceStore(path, { ...w, readOnly: true });
    expect(w.seen).toHaveLength(1);
    // The unterminated last line may be a write under way in the holder: not counted.
    expect(w.seen[0]).toMatch(new RegExp(`^skipped ${corrupt.length} unreadable lines of .*; salience is advisory$`));
    expect(s.get(H(2))).toMatchObject({ recall_count: 9 });
    expect(readFileSync(path)).toEqual(before);
    writeFileSync(path, good(1, 1) + good(2, 2).slice(0, 20));
    const w2 = warnings();
    expect(new JsonlSalienceStore(path, { ...w2, readOnly: true }).get(H(1))).toMatchObject({ recall_count: 1 });
    expect(w2.seen).toEqual([]);
  });

  it('a file of one line of several megabytes is read through a bounded buffer and skipped', () => {
    const path = fresh();
    writeFileSync(path, `${'x'.repeat(8 * 1024 * 1024)}\n${good(1, 3)}${'y'.repeat(3 * 65_536 + 7)}`);
    const w = warnings();
    const s = new JsonlSalienceStore(path, w);
    expect(s.get(H(1))).toMatchObject({ recall_count: 3 });
    expect(w.seen).toEqual([expect.stringMatching(/^skipped 2 unreadable lines .*\(line 1: longer than 1024 bytes\)/)]);
    s.close();
    expect(readFileSync(path, 'utf8')).toBe(good(1, 3));
  });
});
