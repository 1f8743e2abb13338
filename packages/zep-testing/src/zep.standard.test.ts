import { runStoreConformance } from '@ewp/conformance/store-suite';
import { ZepClient } from '@getzep/zep-cloud';
import { afterAll } from 'vitest';
import { ZepAdapter } from '@ewp/zep';
import { startZepGraphServer } from './index.js';

// The shared EvidenceStore suite on a Zep graph through the official client; one graph per store,
// reopening is a second client on the same graph (as another process would be).
const server = await startZepGraphServer({ processingDelayMs: 0 });
const client = new ZepClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
afterAll(() => server.close());
let n = 0;

runStoreConformance({
  name: 'zep graph',
  create: async () => {
    const graphId = `std-${++n}`;
    await client.graph.create({ graphId });
    return new ZepAdapter({ client, graphId });
  },
  capabilities: new ZepAdapter({ client, graphId: 'caps' }).capabilities,
  reopen: async (store) => {
    await store.close();
    return new ZepAdapter({ client, graphId: store.graphId });
  },
  openReadOnly: async (store) => new ZepAdapter({ client, graphId: store.graphId, readOnly: true }),
});
