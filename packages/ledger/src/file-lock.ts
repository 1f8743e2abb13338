/**
 * A cross-process exclusive lock in plain Node (no native addon): an exclusive-create lock file.
 *
 * `open(path, 'wx')` is atomic on every local file system: exactly one process creates the file and
 * holds the lock; it writes `{pid, host, acquired_at}` into it and deletes it on release. Waiters poll.
 * If the holder dies without releasing (SIGKILL), the file stays: a waiter that finds a lock whose
 * `pid` is on this host and no longer alive (`process.kill(pid, 0)` → ESRCH) breaks it by renaming it
 * away (only one breaker's rename can succeed) and checking it renamed the same stale file. A lock held
 * by another host is never broken: it times out as "busy". Unlike `flock`, the OS does not release it
 * for us, which is why stale detection exists.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { StoreUnavailableError } from './errors.js';

interface LockOwner {
  pid: number;
  host: string;
  acquired_at: string;
}

function readOwner(path: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Try once; true when this process now holds the lock. */
function tryAcquire(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), acquired_at: new Date().toISOString() }));
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Break the lock if its holder is a dead process on this host. */
function breakIfStale(path: string): void {
  const owner = readOwner(path);
  // An owner not yet written (the holder is between open and write) is not stale.
  if (owner === undefined || owner.host !== hostname() || owner.pid === process.pid || isAlive(owner.pid)) return;
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke or released it first
  }
  const moved = readOwner(aside);
  if (moved !== undefined && moved.pid === owner.pid && moved.acquired_at === owner.acquired_at) {
    unlinkSync(aside);
    return;
  }
  // We moved a live lock that replaced the stale one in between: put it back. link() fails if the slot was
  // taken again meanwhile, so we never overwrite a third holder's lock.
  try {
    linkSync(aside, path);
  } catch {
    // the slot is taken: that holder's lock stands; the moved one's holder will find its file gone on release
  }
  unlinkSync(aside);
}

/** Hold the lock at `path` while `fn` runs. Waits up to `timeoutMs`, then `StoreUnavailableError('busy')`. */
export async function withFileLock<T>(path: string, timeoutMs: number, fn: () => Promise<T> | T): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = 1;
  for (;;) {
    if (tryAcquire(path)) break;
    breakIfStale(path);
    if (Date.now() >= deadline) {
      const owner = readOwner(path);
      throw new StoreUnavailableError(
        'busy',
        `store busy: lock ${path} held${owner ? ` by pid ${owner.pid} on ${owner.host} since ${owner.acquired_at}` : ''} for more than ${timeoutMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 20);
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(path);
    } catch {
      // already gone: nothing to release
    }
  }
}
