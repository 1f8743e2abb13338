import { fstatSync } from 'node:fs';
import { type OnReadOpts, Socket, type SocketConstructorOpts } from 'node:net';
import type { EvidenceStore } from '@ewp/ledger';
import type { SalienceStore } from '@ewp/memory';
import { DEFAULT_STDIO_PRINCIPAL, type ObserverGrants, writerOf } from './principals.js';
import { createEwpMcpServer } from './server.js';
import { LineDelimitedServerTransport } from './stdio-transport.js';
import { fastToolCall } from './tool-call-seam.js';

export interface EwpStdioOptions {
  store: EvidenceStore;
  /** Set only when the process was started by the operator with `--allow-ingest`. */
  allowIngest: boolean;
  /**
   * The principal the operator started the server for (`ewp serve --principal`): the source of every
   * memory this client stores. Default `agent` ({@link DEFAULT_STDIO_PRINCIPAL}).
   */
  principal?: string;
  /** The operator's observer grants by principal (`ewp serve --observer`); only this server's principal's grant applies. */
  observers?: ObserverGrants;
  /**
   * The request stream. Default: the process's standard input, read through one reused buffer when it
   * is a pipe or a socket (pass `process.stdin` itself only if the process reads it elsewhere too).
   */
  input?: NodeJS.ReadableStream;
  /** The protocol channel: nothing else may be written to it (log to stderr). */
  output?: NodeJS.WritableStream;
  clock?: () => Date;
  /**
   * Where the memory tools keep salience (recall counts, energy, importance): for a ledger opened by
   * location, `openSalienceStore` of that location (its `<ledger>.salience.jsonl`), so counts survive
   * a restart. Default: in memory. The server never closes it.
   */
  salience?: SalienceStore;
}

/** Bytes of the one buffer standard input is read into (a Linux pipe's capacity). */
const READ_BUFFER_BYTES = 64 * 1024;

/**
 * Standard input read through one reused buffer, when it is a pipe or a socket (as MCP hosts start a
 * server): `process.stdin` allocates a fresh buffer for every read, and at a pipelined client's rate
 * those buffers (the whole input, megabytes) waited for a full collection before their memory was
 * returned. Its 'data' chunks are views of that buffer, valid during the event only; the line
 * transport copies what it keeps. Undefined for a terminal, a file, or on Windows: `process.stdin`.
 */
function reusedBufferStdin(): NodeJS.ReadableStream | undefined {
  if (process.platform === 'win32') return undefined;
  let stat: ReturnType<typeof fstatSync>;
  try {
    stat = fstatSync(0);
  } catch {
    return undefined;
  }
  if (!stat.isFIFO() && !stat.isSocket()) return undefined;
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  // `onread` in the constructor is Node's (12.x on); @types/node 20 declares it for `connect` only.
  const options: SocketConstructorOpts & { onread: OnReadOpts } = {
    fd: 0,
    readable: true,
    writable: false,
    onread: {
      buffer,
      callback: (bytes: number) => {
        socket.emit('data', buffer.subarray(0, bytes));
        return true;
      },
    },
  };
  const socket: Socket = new Socket(options);
  return socket;
}

/** Serve one MCP session over stdio; resolves when the input ends. */
export async function serveStdio(options: EwpStdioOptions): Promise<void> {
  const server = createEwpMcpServer({
    store: options.store,
    roles: { ingest: options.allowIngest },
    writer: writerOf(options.principal ?? DEFAULT_STDIO_PRINCIPAL, options.observers),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.salience ? { salience: options.salience } : {}),
  });
  // Without a given input, the process's standard input, through one reused buffer when it can be
  // (`process.stdin` is not touched then: it would open a second handle on the descriptor).
  const input = options.input ?? reusedBufferStdin() ?? process.stdin;
  // `tools/call` may take the fast road of the tool-call seam; every other message goes to the Protocol.
  const transport = new LineDelimitedServerTransport(input, options.output ?? process.stdout, { answer: (message) => fastToolCall(server, message) });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
