/**
 * A cross-process exclusive lock in plain Node (no native addon): an exclusive-create lock file.
 *
 * `link(tmp, path)` is atomic on every local file system: exactly one process creates the lock, whose
 * content `{pid, host, acquired_at}` was written to `tmp` before; it deletes the lock on release. Waiters poll.
 * If the holder dies without releasing (SIGKILL), the file stays: a waiter that finds a lock whose
 * `pid` is on this host and no longer alive (`process.kill(pid, 0)` → ESRCH) breaks it by renaming it
 * away (only one breaker's rename can succeed) and checking it renamed the same stale file. A lock held
 * by another host is never broken: it times out as "busy". Unlike `flock`, the OS does not release it
 * for us, which is why stale detection exists.
 */
import { closeSync, linkSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
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

/**
 * Try once; true when this process now holds the lock. The owner is written to a private temp file
 * first and then hard-linked into place (`link` fails if the lock exists), so a lock file never
 * exists without its owner: a writer killed at any step leaves either no lock, or a lock naming a
 * dead pid that the next writer breaks. A killed writer's temp file is not a lock and is ignored.
 */
function tryAcquire(path: string): boolean {
  const tmp = `${path}.owner-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const fd = openSync(tmp, 'wx');
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), acquired_at: new Date().toISOString() }));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(tmp);
  }
}

/** How old an ownerless lock must be before it is broken (only an older writer could leave one). */
const OWNERLESS_GRACE_MS = 2_000;

/** The lock file's inode and modification time, or undefined when it is gone. */
function lockStat(path: string): { ino: number; mtimeMs: number } | undefined {
  try {
    const st = statSync(path);
    return { ino: st.ino, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Break the lock if its holder is a dead process on this host, or if it names no owner and is older
 * than a grace period (locks are linked into place with their owner, so an ownerless one is left
 * over by an older writer killed between create and write, or is damage: no live holder has one).
 */
function breakIfStale(path: string): void {
  const before = lockStat(path);
  if (before === undefined) return;
  const owner = readOwner(path);
  if (owner === undefined) {
    if (Date.now() - before.mtimeMs < OWNERLESS_GRACE_MS) return;
  } else if (owner.host !== hostname() || owner.pid === process.pid || isAlive(owner.pid)) {
    return;
  }
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke or released it first
  }
  // The same file (inode) we judged stale: delete it. Otherwise a new holder's lock replaced it in
  // between: put that back. link() fails if the slot was taken again meanwhile, so we never
  // overwrite a third holder's lock.
  if (lockStat(aside)?.ino === before.ino) {
    unlinkSync(aside);
    return;
  }
  try {
    linkSync(aside, path);
  } catch {
    // the slot is taken: that holder's lock stands; the moved one's holder will find its file gone on release
  }
  unlinkSync(aside);
}

/**
 * Remove owner files that writers killed between writing and linking them left behind (their pid,
 * in the name, is dead). Called by the lock holder, so no live writer of this host is between those
 * steps with a dead pid.
 */
function removeDeadOwnerFiles(path: string): void {
  const prefix = `${basename(path)}.owner-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (!Number.isSafeInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      // another holder removed it first
    }
  }
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
    removeDeadOwnerFiles(path);
    return await fn();
  } finally {
    try {
      unlinkSync(path);
    } catch {
      // already gone: nothing to release
    }
  }
}
