/**
 * The audit chain's status for the inspector: verified off the event loop when the caller says how
 * to open the ledger in a worker thread, reused while the ledger's revision is unchanged, and never
 * verified twice at once.
 */
import { EwpError } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import type { ChainStatus } from './wire.js';

/** What {@link EvidenceStore.verifyChain} reports. */
export type ChainVerification = Awaited<ReturnType<EvidenceStore['verifyChain']>>;

/**
 * How a worker thread opens its own read-only handle on the ledger: an ES module (an absolute
 * `file:` URL, or a specifier the worker can resolve), the export to call, and its arguments (plain
 * data). With `construct`, the export is a class and is called with `new`.
 */
export interface StoreOpener {
  module: string;
  export: string;
  args: unknown[];
  construct?: boolean;
}

/**
 * The worker's code, plain JavaScript so it runs without a build step: open the store, verify its
 * chain, close it, post the result.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const mod = await import(workerData.module);
  const open = mod[workerData.export];
  const store = workerData.construct ? new open(...workerData.args) : await open(...workerData.args);
  try {
    parentPort.postMessage({ ok: true, result: await store.verifyChain() });
  } finally {
    await store.close();
  }
})().catch((error) => parentPort.postMessage({ ok: false, message: String(error && error.message ? error.message : error) }));
`;

/** The chain could not be verified in the worker (the ledger could not be opened or read). */
export class ChainVerificationError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.ChainVerificationError');
  constructor(message: string) {
    super('EWP_REFUSE_LEDGER_UNAVAILABLE', `the audit chain could not be verified: ${message}`);
    this.name = 'ChainVerificationError';
  }
}

/**
 * Verify the ledger's chain in a worker thread: the event loop keeps serving while a large ledger
 * is read. The worker opens its own read-only handle with `opener` and ends when done.
 */
export async function verifyChainInWorker(opener: StoreOpener): Promise<ChainVerification> {
  const { Worker } = await import('node:worker_threads');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: opener });
    let settled = false;
    worker.once('message', (message: { ok: true; result: ChainVerification } | { ok: false; message: string }) => {
      settled = true;
      if (message.ok) resolve(message.result);
      else reject(new ChainVerificationError(message.message));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(new ChainVerificationError(error.message));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new ChainVerificationError(`the chain verification worker exited with code ${code}`));
    });
  });
}

/**
 * One audit-chain status per ledger revision. A request gets the last result while
 * `store.revision()` is unchanged (a store without revisions is verified on each request); a
 * request during a verification shares it, `fresh` included, so no client can start verifications
 * side by side; a request that finds the revision moved during a verification waits for it and
 * then verifies the new revision once for everyone waiting.
 */
export class ChainStatusCache {
  private last: { revision: string; status: ChainStatus } | undefined;
  private running: { revision: string | undefined; result: Promise<ChainStatus> } | undefined;
  private next: Promise<ChainStatus> | undefined;

  constructor(
    private readonly store: EvidenceStore,
    private readonly verify: () => Promise<ChainVerification>,
    private readonly now: () => Date,
  ) {}

  async get(fresh: boolean): Promise<ChainStatus> {
    const revision = this.store.revision === undefined ? undefined : await this.store.revision();
    if (!fresh && revision !== undefined && this.last?.revision === revision) return this.last.status;
    const running = this.running;
    if (running === undefined) return this.start(revision);
    if (fresh || running.revision === revision) return running.result;
    // The ledger moved while a verification ran: one more verification, after it, for every such request.
    this.next ??= running.result
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.get(false);
      });
    return this.next;
  }

  private start(revision: string | undefined): Promise<ChainStatus> {
    const verifiedAt = this.now().toISOString();
    const result = this.verify().then((r): ChainStatus => ({ ...r, verified_at: verifiedAt }));
    const running = { revision, result };
    this.running = running;
    result.then(
      (status) => {
        if (revision !== undefined) this.last = { revision, status };
      },
      () => {},
    );
    // A failed verification (store closed, unreachable) is not kept.
    result
      .finally(() => {
        if (this.running === running) this.running = undefined;
      })
      .catch(() => {});
    return result;
  }
}
