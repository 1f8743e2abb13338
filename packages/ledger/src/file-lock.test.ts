/**
 * The lock held until released (`tryFileLock`): taken without waiting, live while another worker thread
 * of this process holds it, broken when it names this pid from an earlier process, and never released
 * from under another holder. The other thread is a real worker running the lock from the sources.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processStartTime, tryFileLock, withFileLock } from './file-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-file-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fresh = () => join(dir, `l-${++files}.lock`);

/** A worker thread that takes the lock at `workerData`, says whether it holds it, and releases it when told. */
let workerFile: string;
beforeAll(async () => {
  workerFile = join(dir, 'lock-thread.mjs');
  await build({
    stdin: {
      contents: `import { parentPort, workerData } from 'node:worker_threads';
        import { tryFileLock } from './file-lock.ts';
        const taken = tryFileLock(workerData);
        parentPort.postMessage('lock' in taken);
        parentPort.on('message', () => {
          if ('lock' in taken) taken.lock.release();
          parentPort.postMessage('released');
        });`,
      resolveDir: import.meta.dirname,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    conditions: ['@ewp/source'],
    outfile: workerFile,
    logLevel: 'silent',
  });
});

function next(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('tryFileLock', () => {
  it('takes a free lock at once; a second try of this thread finds it held, naming this pid and thread; release frees it', () => {
    const path = fresh();
    const first = tryFileLock(path);
    if (!('lock' in first)) throw new Error('not taken');
    expect(first.lock.held()).toBe(true);
    const second = tryFileLock(path);
    expect(second).toEqual({ owner: expect.objectContaining({ pid: process.pid, host: hostname(), thread: 0 }) });
    first.lock.release();
    expect(first.lock.held()).toBe(false);
    expect(existsSync(path)).toBe(false);
    const third = tryFileLock(path);
    expect('lock' in third).toBe(true);
    if ('lock' in third) third.lock.release();
  });

  it('a lock another worker thread of this process holds is live: neither taken nor broken, and free once it lets go', async () => {
    const path = fresh();
    const worker = new Worker(workerFile, { workerData: path });
    try {
      expect(await next(worker)).toBe(true);
      const held = readFileSync(path, 'utf8');
      const tried = tryFileLock(path);
      expect(tried).toEqual({ owner: expect.objectContaining({ pid: process.pid, thread: worker.threadId }) });
      // withFileLock (the JSON-file store's) judges it the same way: busy, not stale.
      await expect(withFileLock(path, 50, () => 'taken')).rejects.toMatchObject({ reason: 'busy' });
      expect(readFileSync(path, 'utf8')).toBe(held);
      worker.postMessage('release');
      expect(await next(worker)).toBe('released');
      const after = tryFileLock(path);
      expect('lock' in after).toBe(true);
      if ('lock' in after) after.lock.release();
    } finally {
      await worker.terminate();
    }
  });

  it('a lock naming this pid and another thread from an earlier process (another start time) is broken; this process start time keeps it', () => {
    const path = fresh();
    const own = processStartTime(process.pid);
    if (own === undefined) return; // no /proc: the start time cannot tell processes apart here
    const lockOf = (start_time: string) =>
      JSON.stringify({ pid: process.pid, host: hostname(), acquired_at: 'T0', start_time, token: 'e'.repeat(32), thread: 7 });
    writeFileSync(path, lockOf(own));
    expect(tryFileLock(path)).toEqual({ owner: expect.objectContaining({ thread: 7 }) });
    writeFileSync(path, lockOf(`${own}1`));
    const taken = tryFileLock(path);
    expect('lock' in taken).toBe(true);
    if ('lock' in taken) taken.lock.release();
  });

  it('a holder whose lock was broken and taken by another is told so, and its release leaves the new holder lock in place', () => {
    const path = fresh();
    const taken = tryFileLock(path);
    if (!('lock' in taken)) throw new Error('not taken');
    const other = JSON.stringify({ pid: process.pid + 1, host: `not-${hostname()}`, acquired_at: 'T1', token: 'f'.repeat(32) });
    writeFileSync(path, other);
    expect(taken.lock.held()).toBe(false);
    taken.lock.release();
    expect(readFileSync(path, 'utf8')).toBe(other);
    // Another host's lock is never broken.
    expect(tryFileLock(path)).toEqual({ owner: expect.objectContaining({ host: `not-${hostname()}` }) });
  });
});
