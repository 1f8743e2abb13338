/**
 * In-process write queues. A BaseStore has no transactions, so read-check-write sequences are
 * serialized per inner store; writers in other processes are not covered (the capabilities say
 * so). Each family has its own queues, so a family may call into another without deadlock.
 */
export type WriteLock = <T>(owner: object, work: () => Promise<T>) => Promise<T>;

export function createWriteLock(): WriteLock {
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

/** Ledger transactions on one inner store. */
export const ledgerWriteLock: WriteLock = createWriteLock();
/** Memory-item writes (item + its evidence) on one inner store. */
export const itemWriteLock: WriteLock = createWriteLock();
