/**
 * In-process write queues for memory items (the ledger itself runs on the commit-record protocol).
 * A BaseStore has no transactions, so an item and its evidence are written one inner store at a time.
 */
export type WriteLock = <T>(owner: object, work: () => Promise<T>) => Promise<T>;

function createWriteLock(): WriteLock {
  const queues = new WeakMap<object, Promise<unknown>>();
  return <T>(owner: object, work: () => Promise<T>): Promise<T> => {
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
  };
}

/** Memory-item writes (item + its evidence) on one inner store. */
export const itemWriteLock: WriteLock = createWriteLock();
