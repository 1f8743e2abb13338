/**
 * THE list of stores every framework entry point runs over (see `framework-suite.ts`). Each entry is
 * the store factory `runStoreConformance` (`@ewp/conformance/store-suite`) and `runToolContract`
 * (`@ewp/tools/testing`) take: a name, capability flags, `create` (a new, empty ledger) and
 * `destroy`. Each store also runs `runStoreConformance` in its own package's `*.standard.test.ts`.
 *
 * To add a store (the Mem0 OSS, Mem0 hosted and Zep stores are next), append one entry here.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreConformanceOptions } from '@ewp/conformance/store-suite';
import { BaseStoreLedger } from '@ewp/langchain';
import { type EvidenceStore, JsonFileEvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { dropPostgresLedger, openPostgresStore, PostgresEvidenceStore } from '@ewp/postgres';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { InMemoryStore } from '@langchain/langgraph';

export type StoreFactory = StoreConformanceOptions<EvidenceStore>;

const run = randomBytes(4).toString('hex');
let n = 0;
/** A fresh directory per store; removed by `destroy`. */
const scratch = (prefix: string) => mkdtempSync(join(tmpdir(), `ewp-fw-${prefix}-`));

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
];
