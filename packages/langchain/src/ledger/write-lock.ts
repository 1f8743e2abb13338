/**
 * One write queue per inner BaseStore object. A BaseStore has no transactions, so the ledger's
 * read-check-write sequence is serialized in-process; every wrapper of the same inner store
 * shares the queue. Writers in other processes are not covered (capabilities say so).
 */
const queues = new WeakMap<object, Promise<unknown>>();

export function withWriteLock<T>(owner: object, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(owner) ?? Promise.resolve();
  const run = previous.then(work, work);
  // The queue continues whether this write succeeded or was refused.
  queues.set(
    owner,
    run.then(
      () => undefined,
      () => undefined,
    ),
  );
  return run;
}
