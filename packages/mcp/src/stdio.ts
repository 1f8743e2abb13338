import type { EvidenceStore } from '@ewp/ledger';
import type { SalienceStore } from '@ewp/memory';
import { createEwpMcpServer, directCallsOf } from './server.js';
import { LineDelimitedServerTransport } from './stdio-transport.js';

export interface EwpStdioOptions {
  store: EvidenceStore;
  /** Set only when the process was started by the operator with `--allow-ingest`. */
  allowIngest: boolean;
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

/** Serve one MCP session over stdio; resolves when the input ends. */
export async function serveStdio(options: EwpStdioOptions): Promise<void> {
  const server = createEwpMcpServer({
    store: options.store,
    roles: { ingest: options.allowIngest },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.salience ? { salience: options.salience } : {}),
  });
  const transport = new LineDelimitedServerTransport(options.input ?? process.stdin, options.output ?? process.stdout, { direct: directCallsOf(server) });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
