import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EvaluatedLines } from './eval-lines.js';

/**
 * Worker threads for `ewp eval --jsonl`: the main thread reads and writes, the workers parse and
 * evaluate. A worker answers its batches in the order it got them, so each batch's promise settles
 * with its own results; the caller keeps the promises in input order.
 */
export class EvalPool {
  private readonly workers: Worker[] = [];
  private readonly waiting: { resolve: (r: EvaluatedLines) => void; reject: (e: unknown) => void }[][] = [];
  private next = 0;
  private failure: unknown;

  constructor(size: number, script: URL) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(script);
      const queue: (typeof this.waiting)[number] = [];
      worker.on('message', (r: EvaluatedLines) => queue.shift()?.resolve(r));
      const fail = (error: unknown) => {
        this.failure ??= error;
        for (const w of queue.splice(0)) w.reject(error);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (queue.length > 0) fail(new Error(`an eval worker thread stopped (exit ${code}) with ${queue.length} batches unanswered`));
      });
      this.workers.push(worker);
      this.waiting.push(queue);
    }
  }

  /** Evaluate a batch on the next worker in turn. */
  evaluate(lines: string[]): Promise<EvaluatedLines> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const i = this.next;
    this.next = (i + 1) % this.workers.length;
    return new Promise((resolve, reject) => {
      this.waiting[i]!.push({ resolve, reject });
      this.workers[i]!.postMessage(lines);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/**
 * The worker script beside this module in the built package (`dist/eval-worker.js`); undefined when
 * running from the TypeScript sources, where batches are evaluated on the main thread.
 */
export function evalWorkerScript(): URL | undefined {
  const url = new URL('./eval-worker.js', import.meta.url);
  return url.protocol === 'file:' && import.meta.url.endsWith('.js') && existsSync(fileURLToPath(url)) ? url : undefined;
}
