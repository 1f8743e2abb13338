/**
 * Bundled by the bench (workspace sources, like the tests): the server side of every scenario.
 * Run as `node bundle.mjs stdio` or `node bundle.mjs http` it serves one stored, tool-verified
 * proposition; imported, it exposes the pieces for the in-process baselines.
 */
import { decodeView, REFERENCE_V2, warrantNow } from '@ewp/core';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { createEwpMcpServer, serveStdio, startEwpHttpServer } from '../src/index.js';
import { verifiedView } from '../test/views.js';

export { createEwpMcpServer, decodeView, REFERENCE_V2, verifiedView, warrantNow };

/** A store holding `P-win` (ACCEPTED / EXTERNAL at the bench's T). */
export async function seededStore(): Promise<MemoryEvidenceStore> {
  const store = new MemoryEvidenceStore();
  await store.put(verifiedView());
  return store;
}

const mode = process.argv[2];
if (mode === 'stdio') {
  const store = await seededStore();
  await serveStdio({ store, allowIngest: false });
} else if (mode === 'http') {
  const store = await seededStore();
  const server = await startEwpHttpServer({ store, port: 0 });
  process.stdout.write(`${server.url}\n`);
}
