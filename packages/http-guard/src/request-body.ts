/** Reading a request body within the server's limits of size and time. */
import type { IncomingMessage } from 'node:http';

/** How often a body in progress is checked against its deadline and the rate floor. */
const CHECK_MS = 250;

/** The limits {@link readRequestBody} keeps. */
export interface BodyReadOptions {
  /** Most bytes; past it the read stops with `'too-large'`. */
  maxBytes: number;
  /** The whole body must have arrived within this many milliseconds of the read's start. */
  deadlineMs: number;
  /** Whether the body arrives too slowly to go on waiting for it (checked a few times a second). */
  tooSlow?: () => boolean;
  /** Told the size of every chunk as it arrives. */
  progress?: (bytes: number) => void;
}

/**
 * The body's bytes, or `'too-large'` as soon as more than `maxBytes` arrived, or `'too-slow'` when
 * it has not all arrived by the deadline or arrives slower than the caller's floor (the rest is never
 * read: the guarded server answers 413 or 408 and closes the connection). A declared
 * `Content-Length` over the limit is refused before the handler runs. `'aborted'` when the client
 * closes the request before its body ended; rejects on a stream error.
 */
export function readRequestBody(req: IncomingMessage, options: BodyReadOptions): Promise<Buffer | 'too-large' | 'too-slow' | 'aborted'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const started = Date.now();
    let size = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      options.progress?.(chunk.length);
      if (size > options.maxBytes) return settle(() => resolve('too-large'));
      chunks.push(chunk);
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks)));
    const onError = (error: Error) => settle(() => reject(error));
    // The client went away mid-body: nobody is left to answer, which the caller is told as a value.
    const onClose = () => settle(() => resolve('aborted'));
    const timer = setInterval(() => {
      if (Date.now() - started > options.deadlineMs || options.tooSlow?.() === true) settle(() => resolve('too-slow'));
    }, CHECK_MS);
    timer.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    if (req.readableEnded) onEnd();
  });
}
