import type { EvidenceStore } from '@ewp/ledger';
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
}

/** Serve one MCP session over stdio; resolves when the input ends. */
export async function serveStdio(options: EwpStdioOptions): Promise<void> {
  const server = createEwpMcpServer({
    store: options.store,
    roles: { ingest: options.allowIngest },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const transport = new LineDelimitedServerTransport(options.input ?? process.stdin, options.output ?? process.stdout, { direct: directCallsOf(server) });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
