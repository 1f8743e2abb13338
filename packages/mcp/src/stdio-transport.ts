/**
 * MCP stdio framing (newline-delimited JSON-RPC) that answers malformed lines instead of dropping
 * them: the SDK's `StdioServerTransport` skips bad JSON without a reply and closes the transport
 * once 10 MB accumulate without a newline, which would let one bad client line end the server.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, guardMessage, INVALID_REQUEST, PARSE_ERROR, parseJsonBytes } from './jsonrpc-guard.js';

/** Longest accepted line (one message), in bytes. */
export const MAX_STDIO_MESSAGE_BYTES = 1024 * 1024;

export interface LineTransportOptions {
  maxMessageBytes?: number;
}

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
  private readonly maxBytes: number;
  private readonly onData = (chunk: Buffer | string) => this.receive(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => void this.close();
  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    options: LineTransportOptions = {},
  ) {
    this.maxBytes = options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
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
    if (line.toString('latin1').trim() === '') return;
    const parsed = parseJsonBytes(line);
    if (!parsed.ok) {
      this.reply(errorReply(null, PARSE_ERROR, parsed.reason));
      return;
    }
    const guarded = guardMessage(parsed.value);
    if (!guarded.ok) {
      if (guarded.reply) this.reply(guarded.reply);
      return;
    }
    this.onmessage?.(guarded.message);
  }

  private reply(message: unknown): void {
    if (!this.closed) this.output.write(`${JSON.stringify(message)}\n`);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const ok = this.output.write(`${JSON.stringify(message)}\n`);
    if (!ok) await new Promise<void>((resolve) => this.output.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onStreamError);
    this.chunks = [];
    this.onclose?.();
  }
}
