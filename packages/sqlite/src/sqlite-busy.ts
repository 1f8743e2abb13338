const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** SQLite answered busy (SQLITE_BUSY or SQLITE_BUSY_SNAPSHOT) and the deadline has not passed. */
function retryable(error: unknown, deadline: number): boolean {
  return busy(error) && Date.now() < deadline;
}

/**
 * SQLITE_BUSY or one of its extended codes: better-sqlite3 names it in `code`; node:sqlite puts
 * `ERR_SQLITE_ERROR` there and SQLite's number in `errcode` (extended codes keep 5 in the low byte).
 */
function busy(error: unknown): boolean {
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT') return true;
  return typeof errcode === 'number' && (errcode & 0xff) === 5;
}

/**
 * Run `step` again, every millisecond, while SQLite answers SQLITE_BUSY (or SQLITE_BUSY_SNAPSHOT),
 * until `timeoutMs` has passed; then its last error is thrown. Short polls rather than SQLite's own
 * busy handler, which backs off to 100 ms sleeps (waiters miss most free windows) and is not called
 * at all for some locks, such as switching a file to WAL while another connection does the same.
 */
export function whileBusy<T>(step: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (!retryable(error, deadline)) throw error;
      Atomics.wait(SLEEP, 0, 0, 1);
    }
  }
}

/**
 * {@link whileBusy} for a step the event loop may wait on: between tries it yields (a 1 ms timer)
 * instead of blocking the thread. The lock's holder may be another handle of this same process in
 * the middle of an asynchronous transaction; a waiter that blocked the thread would hold it up until
 * the deadline.
 */
export async function whileBusyYielding<T>(step: () => T, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (!retryable(error, deadline)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}
