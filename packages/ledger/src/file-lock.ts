/**
 * A cross-process exclusive lock in plain Node (no native addon): an exclusive-create lock file. Held
 * for the length of a call ({@link withFileLock}: the JSON-file store) or until released
 * ({@link tryFileLock}: a side file with one writer, such as @ewp/memory's salience file).
 *
 * `link(tmp, path)` is atomic on every local file system: exactly one process creates the lock, whose
 * owner (pid, host, boot id, the process's start time, a random token) was written to `tmp` before; it
 * deletes the lock on release. Waiters poll. If the holder dies without releasing (SIGKILL), the file
 * stays: a waiter breaks it when it is stale, by renaming it away (only one breaker's rename can
 * succeed) and checking it renamed the same stale file. A lock is stale when:
 * - its owner is on this host and no process has its pid, or the process with that pid started at
 *   another time (the pid was reused: after a restart, or PID 1 of a restarted container), or the host
 *   has booted since (its boot id differs);
 * - it names this process but none of this process's holders (no token, or one this process does not
 *   hold), and no other worker thread of it (a lock records its thread: another thread's holders are
 *   kept by that thread's copy of this module, so it is alive unless its start time proves it is of
 *   an earlier process with this pid);
 * - its content is not an owner at all (empty, `{}`, `null`, torn or foreign text) and it is older than
 *   {@link UNREADABLE_LEASE_MS}: locks are linked into place with their owner, so no live holder has one.
 * A lock held by another host is never broken: it times out as "busy". Where the start time cannot be
 * read (no `/proc`, or a lock of an older writer, which records none), liveness falls back to the pid alone. Unlike `flock`, the OS does not release it
 * for us, which is why stale detection exists.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { StoreUnavailableError } from './errors.js';

/** What a lock file says about its holder. `boot_id`, `start_time`, `token` and `thread` are absent in locks of older writers. */
export interface FileLockOwner {
  pid: number;
  host: string;
  /** When it was taken (ISO 8601), or `?` in a lock that does not say. */
  acquired_at: string;
  boot_id?: string;
  start_time?: string;
  token?: string;
  /** The worker thread that took it (0: the main thread). */
  thread?: number;
}

/**
 * Tokens of the locks this thread holds now (several stores of one process may lock several ledgers).
 * On `globalThis`, so two copies of this module in one thread (two bundles) agree on which locks are live.
 */
const heldTokens: Set<string> = (() => {
  const shared = globalThis as { [key: symbol]: Set<string> | undefined };
  const key = Symbol.for('ewp.ledger.file-lock-tokens');
  shared[key] ??= new Set();
  return shared[key];
})();

function readProcText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** This boot of the host (Linux), so a lock from before a reboot is never taken for a live one. */
const BOOT_ID = readProcText('/proc/sys/kernel/random/boot_id');

/**
 * When the process `pid` started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`), or
 * undefined where it cannot be read. The command name (field 2) may hold spaces and parentheses, so
 * fields are counted after its last `)`.
 */
export function processStartTime(pid: number): string | undefined {
  const stat = readProcText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

const OWN_START_TIME = processStartTime(process.pid);

function isOptionalString(x: unknown): boolean {
  return x === undefined || typeof x === 'string';
}

/** The owner a lock file names, or undefined when its content is not one (empty, torn, `null`, `{}`, foreign). */
function readOwner(path: string): FileLockOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o.pid !== 'number' || !Number.isSafeInteger(o.pid) || o.pid <= 0 || typeof o.host !== 'string') return undefined;
  if (!isOptionalString(o.boot_id) || !isOptionalString(o.start_time) || !isOptionalString(o.token)) return undefined;
  if (o.thread !== undefined && !(Number.isSafeInteger(o.thread) && (o.thread as number) >= 0)) return undefined;
  return {
    pid: o.pid,
    host: o.host,
    acquired_at: typeof o.acquired_at === 'string' ? o.acquired_at : '?',
    ...(o.boot_id === undefined ? {} : { boot_id: o.boot_id as string }),
    ...(o.start_time === undefined ? {} : { start_time: o.start_time as string }),
    ...(o.token === undefined ? {} : { token: o.token as string }),
    ...(o.thread === undefined ? {} : { thread: o.thread as number }),
  };
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the owner a lock names may still hold it: false only when it provably does not. */
function ownerMayBeAlive(owner: FileLockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.boot_id !== undefined && BOOT_ID !== undefined && owner.boot_id !== BOOT_ID) return false;
  // This thread: alive only if one of its holders took it (every holder writes a token); a lock
  // naming this pid from an earlier process (a reboot, PID 1 of a restarted container) is not ours.
  // Another thread's holders are not in this thread's set: its lock stands unless its start time
  // shows an earlier process.
  if (owner.pid === process.pid) {
    if (owner.token !== undefined && heldTokens.has(owner.token)) return true;
    if (owner.thread === undefined || owner.thread === threadId) return false;
    return owner.start_time === undefined || OWN_START_TIME === undefined || owner.start_time === OWN_START_TIME;
  }
  if (!pidExists(owner.pid)) return false;
  if (owner.start_time === undefined) return true;
  const now = processStartTime(owner.pid);
  return now === undefined || now === owner.start_time;
}

/**
 * Try once; the lock's token when this process now holds it. The owner is written to a private temp
 * file first and then hard-linked into place (`link` fails if the lock exists), so a lock file never
 * exists without its owner: a writer killed at any step leaves either no lock, or a lock naming a
 * dead process that the next writer breaks. A killed writer's temp file is not a lock and is ignored.
 */
function tryAcquire(path: string): string | undefined {
  const token = randomBytes(16).toString('hex');
  const tmp = `${path}.owner-${process.pid}-${token.slice(0, 8)}`;
  const owner: FileLockOwner = {
    pid: process.pid,
    host: hostname(),
    acquired_at: new Date().toISOString(),
    ...(BOOT_ID === undefined ? {} : { boot_id: BOOT_ID }),
    ...(OWN_START_TIME === undefined ? {} : { start_time: OWN_START_TIME }),
    token,
    thread: threadId,
  };
  const fd = openSync(tmp, 'wx');
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  try {
    // Held before it is visible, so this process never judges its own fresh lock stale.
    heldTokens.add(token);
    linkSync(tmp, path);
    return token;
  } catch (error) {
    heldTokens.delete(token);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  } finally {
    unlinkSync(tmp);
  }
}

/** How old a lock whose content names no owner must be before it is broken (only damage or an older writer leaves one). */
const UNREADABLE_LEASE_MS = 2_000;

/** The lock file's inode and modification time, or undefined when it is gone. */
function lockStat(path: string): { ino: number; mtimeMs: number } | undefined {
  try {
    const st = statSync(path);
    return { ino: st.ino, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

/** Break the lock if it is stale (see the module comment). */
function breakIfStale(path: string): void {
  const before = lockStat(path);
  if (before === undefined) return;
  const owner = readOwner(path);
  if (owner === undefined) {
    if (Date.now() - before.mtimeMs < UNREADABLE_LEASE_MS) return;
  } else if (ownerMayBeAlive(owner)) {
    return;
  }
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
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
    if (!Number.isSafeInteger(pid) || pid === process.pid || pidExists(pid)) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      // another holder removed it first
    }
  }
}

/** Release the lock this process holds under `token`, unless it was broken and taken by another holder meanwhile. */
function release(path: string, token: string): void {
  heldTokens.delete(token);
  if (readOwner(path)?.token !== token) return;
  try {
    unlinkSync(path);
  } catch {
    // already gone: nothing to release
  }
}

/** A lock held until {@link HeldFileLock.release}. */
export interface HeldFileLock {
  readonly path: string;
  /**
   * Whether the lock file still names this holding: false once released, or once another process
   * judged it stale, broke it and took it (a holder that finds so stops writing what the lock guards).
   */
  held(): boolean;
  /** Release it, unless it was broken and taken by another holder meanwhile. Idempotent. */
  release(): void;
}

/** Attempts at taking a lock without waiting: a stale lock broken in between may be taken by another opener first. */
const TRY_ATTEMPTS = 3;

/**
 * Take the lock at `path` now, without waiting (synchronous): a stale lock is broken first. Returns the
 * held lock, or the owner its file names while another holder keeps it (`undefined`: its content names
 * none, or it changed hands while read). For a lock held as long as its holder lives, where a caller
 * that cannot get it goes on without it and asks again later.
 */
export function tryFileLock(path: string): { lock: HeldFileLock } | { owner: FileLockOwner | undefined } {
  for (let attempt = 0; attempt < TRY_ATTEMPTS; attempt += 1) {
    const token = tryAcquire(path);
    if (token !== undefined) {
      removeDeadOwnerFiles(path);
      let released = false;
      return {
        lock: {
          path,
          held: () => !released && readOwner(path)?.token === token,
          release: () => {
            if (released) return;
            released = true;
            release(path, token);
          },
        },
      };
    }
    breakIfStale(path);
  }
  return { owner: readOwner(path) };
}

/** Hold the lock at `path` while `fn` runs. Waits up to `timeoutMs`, then `StoreUnavailableError('busy')`. */
export async function withFileLock<T>(path: string, timeoutMs: number, fn: () => Promise<T> | T): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = 1;
  let token: string | undefined;
  for (;;) {
    token = tryAcquire(path);
    if (token !== undefined) break;
    breakIfStale(path);
    if (Date.now() >= deadline) {
      const owner = readOwner(path);
      throw new StoreUnavailableError(
        'busy',
        `store busy: lock ${path} held${owner ? ` by pid ${owner.pid} on ${owner.host} since ${owner.acquired_at}` : ' (its content names no owner)'} for more than ${timeoutMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 20);
  }
  try {
    removeDeadOwnerFiles(path);
    return await fn();
  } finally {
    release(path, token);
  }
}
