import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance } from '@ewp/conformance/store-suite';
import { afterAll } from 'vitest';
import { mem0Adapter, mem0HostedAdapter, type OssMemoryLike } from '@ewp/mem0';
import { offlineMemory, startMem0RestServer } from './index.js';

// The shared EvidenceStore suite on both Mem0 clients; one entity per store, reopening is a second
// client on the same entity (as another process would be).
const dir = mkdtempSync(join(tmpdir(), 'ewp-mem0-standard-'));
const memory: OssMemoryLike = await offlineMemory(join(dir, 'mem'));
const server = await startMem0RestServer({ processingDelayMs: 0 });
process.env.MEM0_TELEMETRY = 'false';
const { MemoryClient } = await import('mem0ai');
const client = new MemoryClient({ apiKey: server.apiKey, host: server.url });
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
let n = 0;

const clients = [
  ['open-source Memory', (userId: string, readOnly: boolean) => mem0Adapter(memory, { userId, readOnly })],
  ['hosted MemoryClient', (userId: string, readOnly: boolean) => mem0HostedAdapter(client, { userId, readOnly })],
] as const;

for (const [label, make] of clients) {
  const open = (userId: string, readOnly = false) => Object.assign(make(userId, readOnly), { userId });
  runStoreConformance({
    name: `mem0 ${label}`,
    create: () => open(`std-${++n}`),
    capabilities: open('caps').capabilities,
    reopen: async (store) => {
      await store.close();
      return open(store.userId);
    },
    openReadOnly: async (store) => open(store.userId, true),
  });
}
