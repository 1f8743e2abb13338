/**
 * A worker thread of `ewp eval --jsonl --jobs N`: batches of input lines in, their result lines out
 * (see eval-pool.ts). Built as its own entry, `dist/eval-worker.js`.
 */
import { parentPort } from 'node:worker_threads';
import { evaluateLines } from './eval-lines.js';

const port = parentPort;
if (port === null) throw new Error('eval-worker.js runs as a worker thread of `ewp eval --jsonl`');
port.on('message', (lines: string[]) => port.postMessage(evaluateLines(lines)));
