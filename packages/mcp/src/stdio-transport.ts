/**
 * MCP stdio framing (newline-delimited JSON-RPC) that answers malformed lines instead of dropping
 * them: the SDK's `StdioServerTransport` skips bad JSON without a reply and closes the transport
 * once 10 MB accumulate without a newline, which would let one bad client line end the server.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { decodeJsonBytes, errorReply, guardMessage, INVALID_REQUEST, PARSE_ERROR, parseJsonText } from './jsonrpc-guard.js';

/** Longest accepted line (one message), in bytes. */
export const MAX_STDIO_MESSAGE_BYTES = 1024 * 1024;

/** Requests answered by {@link LineTransportOptions.answer} started together, by default; the lines after them wait their turn. */
const ANSWER_BATCH = 32;

/**
 * Answers one request itself: the JSON text of its reply (never rejects), or `undefined` to hand the
 * message to `onmessage` (the SDK's Protocol). Typed with the SDK's message type only: the transport
 * knows no server. The EWP server plugs in its tool-call seam (`tool-call-seam.ts`) here.
 */
export type RequestAnswerer = (message: JSONRPCMessage) => Promise<string> | undefined;

export interface LineTransportOptions {
  maxMessageBytes?: number;
  /** Answers the requests it can before the Protocol sees them (see {@link RequestAnswerer}). */
  answer?: RequestAnswerer | undefined;
  /** Most requests in flight through `answer` at once (default {@link ANSWER_BATCH}). */
  answerBatch?: number;
}

/**
 * Only whitespace as `String.prototype.trim` sees it in Latin-1 (tab, LF, VT, FF, CR, space, NBSP):
 * such a line is skipped without a reply. Checked on the bytes, which a request fails at its first.
 */
function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte !== 0x20 && byte !== 0xa0 && (byte < 0x09 || byte > 0x0d)) return false;
  }
  return true;
}

/** A line refused before parsing (not UTF-8, nested too deep), as {@link decodeJsonBytes} refused it. */
type RefusedLine = Extract<ReturnType<typeof decodeJsonBytes>, { ok: false }>;

/** Queued output written at once when it reaches this many characters (a Linux pipe holds 64 KiB). */
const FLUSH_AT_CHARS = 64 * 1024;

/** A server-side {@link Transport} over a readable and a writable byte stream. */
export class LineDelimitedServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private pending = 0;
  /** Inside an over-long line: drop bytes until its newline. */
  private discarding = false;
  private closed = false;
  /** The input ended: close once every request read so far is answered. */
  private ended = false;
  /** Ids of requests handed to the server and not yet answered. */
  private readonly inFlight = new Set<string | number>();
  /** Resolves when the output drains; one for all writers, so no listener piles up per message. */
  private draining: Promise<void> | undefined;
  /** Messages queued this turn, written together by `flush`. */
  private outgoing = '';
  private flushScheduled = false;
  private readonly maxBytes: number;
  private readonly answer: RequestAnswerer | undefined;
  private readonly answerBatch: number;
  /** Requests started through `answer` and not yet answered. */
  private answerInFlight = 0;
  /** Ids of requests started through `answer` and not yet answered. */
  private readonly answering = new Set<string | number>();
  /**
   * Ids of requests started through `answer` that the client cancelled: their reply is dropped, as the
   * SDK's Protocol drops the reply of a handler it aborted, so both roads answer a cancel alike.
   */
  private readonly cancelled = new Set<string | number>();
  /**
   * Complete lines read while a batch of answered requests is in flight, handled in order once it is
   * answered. A pipelined client writes thousands of calls at once; started together, each would hold
   * its state until the last is answered, and that state would outlive the young generation of the
   * heap (slow collections, a heap grown to hold it). Input is paused while lines wait. A line waits
   * as its decoded text, not as bytes: the read buffer may be reused by the next read (see `receive`),
   * and a slice would keep a whole chunk alive.
   */
  private waiting: (string | RefusedLine)[] = [];
  private waitingAt = 0;
  /** Input paused because lines wait (see `waiting`), as opposed to a lagging reader (see `draining`). */
  private heldBack = false;
  private readonly onData = (chunk: Buffer | string) => this.receive(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => {
    this.ended = true;
    this.closeWhenAnswered();
  };
  private readonly onStreamError = (error: Error) => this.onerror?.(error);
  // A reader that went away (EPIPE) can be answered no more.
  private readonly onOutputError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    options: LineTransportOptions = {},
  ) {
    this.maxBytes = options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
    this.answer = options.answer;
    this.answerBatch = Math.max(1, options.answerBatch ?? ANSWER_BATCH);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onOutputError);
  }

  private closeWhenAnswered(): void {
    if (this.ended && this.inFlight.size === 0 && this.waitingAt === this.waiting.length) void this.close();
  }

  /**
   * Decode every complete line of `chunk` into `waiting`, then handle what may start. Nothing keeps a
   * view of `chunk` past this call (a complete line is decoded at once, the rest copied): the stdio
   * entry reuses one read buffer.
   */
  private receive(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.append(Buffer.from(chunk.subarray(start)));
    if (this.answerInFlight < this.answerBatch) this.handleWaiting();
  }

  private append(part: Buffer): void {
    if (this.discarding || part.length === 0) return;
    if (this.pending + part.length > this.maxBytes) {
      this.chunks = [];
      this.pending = 0;
      this.discarding = true;
      return;
    }
    this.chunks.push(part);
    this.pending += part.length;
  }

  private endLine(): void {
    if (this.discarding) {
      this.discarding = false;
      this.reply(errorReply(null, INVALID_REQUEST, `invalid request: message larger than ${this.maxBytes} bytes`));
      return;
    }
    let line = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    this.chunks = [];
    this.pending = 0;
    if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
    if (isBlank(line)) return;
    const decoded = decodeJsonBytes(line);
    // A line refused before parsing (not UTF-8, nested too deep) waits too: its reply keeps its turn.
    this.waiting.push(decoded.ok ? decoded.text : decoded);
  }

  /** Handle the lines that wait, in order, until a batch of answered requests is in flight again. */
  private handleWaiting(): void {
    while (this.waitingAt < this.waiting.length && this.answerInFlight < this.answerBatch && this.draining === undefined && !this.closed) {
      const line = this.waiting[this.waitingAt] as string | RefusedLine;
      this.waiting[this.waitingAt++] = '';
      this.handleLine(line);
    }
    if (this.waitingAt < this.waiting.length) {
      if (!this.heldBack && !this.closed) {
        this.heldBack = true;
        this.input.pause();
      }
      return;
    }
    this.waiting = [];
    this.waitingAt = 0;
    if (this.heldBack) {
      this.heldBack = false;
      if (!this.closed && this.draining === undefined) this.input.resume();
    }
    this.closeWhenAnswered();
  }

  private handleLine(line: string | RefusedLine): void {
    const parsed = typeof line === 'string' ? parseJsonText(line) : line;
    if (!parsed.ok) {
      this.reply(errorReply(null, PARSE_ERROR, parsed.reason));
      return;
    }
    const guarded = guardMessage(parsed.value);
    if (!guarded.ok) {
      if (guarded.reply) this.reply(guarded.reply);
      return;
    }
    const message = guarded.message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number')) {
      this.inFlight.add(message.id);
      // A new request under the id of a cancelled one: the new one is answered.
      this.cancelled.delete(message.id);
    } else if (message.method === 'notifications/cancelled') this.cancel(message.params?.requestId);
    const answer = this.answer?.(guarded.message);
    if (answer !== undefined) {
      const id = message.id as string | number;
      this.answerInFlight += 1;
      this.answering.add(id);
      const settle = (text: string | undefined) => {
        this.answerInFlight -= 1;
        this.answering.delete(id);
        if (this.cancelled.delete(id) || text === undefined) this.answered(id);
        else this.deliver(id, text);
        // The next batch starts once this one is answered, all in one run: its lookups share one revision read.
        if (this.answerInFlight === 0 && this.waitingAt < this.waiting.length) this.handleWaiting();
      };
      void answer.then(settle, (error: unknown) => {
        this.onerror?.(error instanceof Error ? error : new McpError(ErrorCode.InternalError, String(error)));
        settle(undefined);
      });
      return;
    }
    this.onmessage?.(guarded.message);
  }

  /**
   * The client cancelled request `id` (`notifications/cancelled`): it is no longer waited for (the
   * Protocol aborts its handler and sends nothing), and an answer still in flight is dropped. The
   * notification goes on to the Protocol all the same.
   */
  private cancel(id: unknown): void {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    if (this.answering.has(id)) this.cancelled.add(id);
    this.inFlight.delete(id);
    this.closeWhenAnswered();
  }

  private reply(message: unknown): void {
    if (!this.closed) this.write(message);
  }

  /**
   * Queue one message. Messages queued in the same turn of the event loop go out in one write (a
   * pipelined client gets its replies in a few writes, not one system call each). When the reader
   * lags, stop reading requests until it catches up, so a client that never reads its replies cannot
   * make the server buffer them without bound.
   */
  private write(message: unknown): Promise<void> | undefined {
    return this.writeText(JSON.stringify(message));
  }

  private writeText(text: string): Promise<void> | undefined {
    this.outgoing += `${text}\n`;
    // A long run of answers (a pipelined client's thousands of calls) goes out as it fills a pipe's
    // worth, instead of piling up in the heap until the run ends.
    if (this.outgoing.length >= FLUSH_AT_CHARS) {
      this.writeOutgoing();
      return this.draining;
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(this.flush);
    }
    return this.draining;
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    this.writeOutgoing();
  };

  private writeOutgoing(): void {
    if (this.outgoing === '') return;
    const text = this.outgoing;
    this.outgoing = '';
    if (this.output.write(text) || this.draining !== undefined) return;
    this.input.pause();
    this.draining = new Promise<void>((resolve) => {
      this.output.once('drain', () => {
        this.draining = undefined;
        if (!this.closed && !this.heldBack) this.input.resume();
        resolve();
        // Lines held back while the reader lagged (see handleWaiting) go on.
        if (this.answerInFlight === 0 && this.waitingAt < this.waiting.length) this.handleWaiting();
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const pending = this.write(message);
    const answered = message as { id?: unknown; method?: unknown };
    if (answered.method === undefined && (typeof answered.id === 'string' || typeof answered.id === 'number')) this.answered(answered.id);
    if (pending !== undefined) await pending;
  }

  /** Send the reply text (one JSON-RPC response) to request `id`; the reader's backpressure pauses input (see `write`). */
  private deliver(id: string | number, text: string): void {
    if (this.closed) return;
    this.writeText(text);
    this.answered(id);
  }

  private answered(id: string | number): void {
    this.inFlight.delete(id);
    this.closeWhenAnswered();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Replies queued this turn go out before the transport closes.
    this.flush();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onStreamError);
    this.output.off('error', this.onOutputError);
    this.chunks = [];
    this.waiting = [];
    this.waitingAt = 0;
    this.inFlight.clear();
    this.answering.clear();
    this.cancelled.clear();
    this.onclose?.();
  }
}
