/**
 * THE list of stores every framework entry point runs over (see `framework-suite.ts`). Each entry is
 * the store factory `runStoreConformance` (`@ewp/conformance/store-suite`) and `runToolContract`
 * (`@ewp/tools/testing`) take: a name, capability flags, `create` (a new, empty ledger) and
 * `destroy`. Each store also runs `runStoreConformance` in its own package's `*.standard.test.ts`.
 *
 * To add a store, append one entry here. A store that needs a local server starts it on first use
 * ({@link lazily}); the suite's test file calls {@link closeStoreFactories} at the end.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreConformanceOptions } from '@ewp/conformance/store-suite';
import { BaseStoreLedger } from '@ewp/langchain';
import { type EvidenceStore, JsonFileEvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { type HostedClientLike, mem0Adapter, mem0HostedAdapter, type OssMemoryLike } from '@ewp/mem0';
import { offlineMemory, startMem0RestServer } from '@ewp/mem0-testing';
import { dropPostgresLedger, openPostgresStore, PostgresEvidenceStore } from '@ewp/postgres';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { ZepAdapter } from '@ewp/zep';
import { startZepGraphServer } from '@ewp/zep-testing';
import { ZepClient } from '@getzep/zep-cloud';
import { InMemoryStore } from '@langchain/langgraph';

export type StoreFactory = StoreConformanceOptions<EvidenceStore>;

const run = randomBytes(4).toString('hex');
let n = 0;
/** A fresh directory per store; removed by `destroy`. */
const scratch = (prefix: string) => mkdtempSync(join(tmpdir(), `ewp-fw-${prefix}-`));

const closers: (() => Promise<void>)[] = [];

/** A shared resource (a local server, an offline Mem0) made on first use and closed by {@link closeStoreFactories}. */
function lazily<T>(make: () => Promise<{ value: T; close: () => Promise<void> }>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().then(({ value, close }) => {
      closers.push(close);
      return value;
    });
    return made;
  };
}

/** Close every shared resource the factories made. */
export async function closeStoreFactories(): Promise<void> {
  for (const close of closers.splice(0)) await close();
}

const ossMemory = lazily<OssMemoryLike>(async () => {
  const dir = scratch('mem0');
  return { value: await offlineMemory(join(dir, 'mem')), close: async () => rmSync(dir, { recursive: true, force: true }) };
});
const hostedMem0 = lazily<HostedClientLike>(async () => {
  const server = await startMem0RestServer({ processingDelayMs: 0 });
  process.env.MEM0_TELEMETRY = 'false';
  const { MemoryClient } = await import('mem0ai');
  return { value: new MemoryClient({ apiKey: server.apiKey, host: server.url }) as unknown as HostedClientLike, close: () => server.close() };
});
const zep = lazily<ZepClient>(async () => {
  const server = await startZepGraphServer({ processingDelayMs: 0 });
  return { value: new ZepClient({ apiKey: server.apiKey, baseUrl: server.baseUrl }), close: () => server.close() };
});

/**
 * What the stores on the commit-record protocol declare (Mem0, Zep): their instances need a client,
 * which exists only once a local server runs. The suites read each opened store's own flags too.
 */
const COMMIT_RECORD_CAPABILITIES = Object.freeze({ persistent: true, multiProcess: true, keepsAdapterMeta: true, transactional: false });

export const STORE_FACTORIES: readonly StoreFactory[] = [
  {
    name: 'memory',
    capabilities: MemoryEvidenceStore.CAPABILITIES,
    create: () => new MemoryEvidenceStore(),
  },
  {
    name: 'json-files',
    capabilities: JsonFileEvidenceStore.CAPABILITIES,
    create: () => new JsonFileEvidenceStore(join(scratch('json'), 'ledger')),
    destroy: async (store) => rmSync(join((store as JsonFileEvidenceStore).root, '..'), { recursive: true, force: true }),
  },
  {
    name: 'sqlite',
    capabilities: SqliteEvidenceStore.CAPABILITIES,
    create: () => new SqliteEvidenceStore(join(scratch('sqlite'), 'ewp.sqlite')),
    destroy: async (store) => rmSync(join((store as SqliteEvidenceStore).path, '..'), { recursive: true, force: true }),
  },
  {
    name: 'postgres',
    capabilities: PostgresEvidenceStore.CAPABILITIES,
    create: () => openPostgresStore({ schema: `ewp_fw_${run}_${++n}`, maxConnections: 2 }),
    destroy: (store) => dropPostgresLedger((store as PostgresEvidenceStore).schema),
  },
  {
    name: 'langgraph-basestore',
    capabilities: new BaseStoreLedger(new InMemoryStore()).capabilities,
    create: () => new BaseStoreLedger(new InMemoryStore()),
  },
  {
    name: 'mem0-oss',
    capabilities: COMMIT_RECORD_CAPABILITIES,
    create: async () => mem0Adapter(await ossMemory(), { userId: `fw-${run}-${++n}` }),
  },
  {
    name: 'mem0-hosted',
    capabilities: COMMIT_RECORD_CAPABILITIES,
    create: async () => mem0HostedAdapter(await hostedMem0(), { userId: `fw-${run}-${++n}` }),
  },
  {
    name: 'zep',
    capabilities: COMMIT_RECORD_CAPABILITIES,
    create: async () => {
      const client = await zep();
      const graphId = `fw-${run}-${++n}`;
      await client.graph.create({ graphId });
      return new ZepAdapter({ client, graphId });
    },
  },
];
