/**
 * The Mem0 stores as subjects of the shared loss-report suite (`@ewp/conformance/adapter-suite`),
 * used by this package's tests and by `ewp conformance`. Both run offline: the open-source `Memory`
 * on a temp dir, the hosted `MemoryClient` against the local REST server.
 * @packageDocumentation
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdapterSubject, EvidenceView, ExpectedLossFile, MemoryAdapter } from '@ewp/core';
import { mem0Adapter, mem0HostedAdapter } from './index.js';
import type { Mem0EvidenceStore } from './mem0-adapter.js';
import { isLedgerMemory } from './mem0-record-store.js';
import type { OssMemoryLike } from './oss-backend.js';
import { type Mem0RestServer, startMem0RestServer } from './testing/mem0-rest-server.js';

function expectedLoss(name: string): ExpectedLossFile {
  return JSON.parse(readFileSync(new URL(`../expected-loss/${name}.json`, import.meta.url), 'utf8')) as ExpectedLossFile;
}

async function plantNative(adapter: MemoryAdapter): Promise<void> {
  const backend = (adapter as Mem0EvidenceStore).mem0;
  // What Mem0's own pipeline leaves behind: plain memories, no EWP metadata; one already expired.
  await backend.add('The deploy pipeline uses blue-green releases', {});
  await backend.add('The staging database was migrated', {}, { expirationDate: '2020-01-01' });
  // Hosted adds are processed in the background: wait until both are listed.
  for (let i = 0; i < 200 && (await backend.list({})).length < 2; i++) await new Promise((r) => setTimeout(r, 10));
}

/** Mem0's own expiry on one member (what a TTL policy or a dashboard edit does), outside the adapter. */
function expireOneMember(update: (adapter: Mem0EvidenceStore, id: string) => Promise<unknown>) {
  return async (adapter: MemoryAdapter, view: EvidenceView): Promise<void> => {
    const mem0 = adapter as Mem0EvidenceStore;
    const member = (await mem0.rawRecords(view.proposition_id)).find((m) => isLedgerMemory(m) && m.metadata.ewp_searchable === true);
    if (member) await update(mem0, member.id);
  };
}

const capabilities = { search: true, nativeRecords: true, snapshots: true, metaNamespace: '@ewp/mem0' };

/** The open-source `Memory` (mem0ai/oss), real and offline; one Memory per run, one user per fixture. */
export function mem0OssSubject(): AdapterSubject {
  let dir: string | undefined;
  let memory: Promise<OssMemoryLike> | undefined;
  let n = 0;
  return {
    name: 'mem0-oss',
    capabilities,
    expectedLoss: expectedLoss('mem0-oss'),
    plantNative,
    maintain: expireOneMember(async (_adapter, id) => {
      const real = (await memory!) as OssMemoryLike & { update(id: string, c: { expirationDate: string }): Promise<unknown> };
      return real.update(id, { expirationDate: '2020-01-01' });
    }),
    async create() {
      dir ??= mkdtempSync(join(tmpdir(), 'ewp-mem0-conformance-'));
      const { offlineMemory } = await import('./testing/offline-memory.js');
      memory ??= offlineMemory(dir);
      return mem0Adapter(await memory, { userId: `conformance-${++n}` });
    },
    async dispose() {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A Mem0 deployment to run the suite against (the Mem0 platform or a self-hosted Mem0 server), for
 * the loss report of that deployment (`ewp conformance --mem0 URL`).
 */
export interface Mem0Target {
  /** The API key; read from a file or the environment by the caller, never a command-line argument. */
  apiKey: string;
  /** `MemoryClient`'s `host`, e.g. `https://api.mem0.ai`. */
  host: string;
  /** Prefix of the users the run creates (one per fixture); their memories are deleted by `dispose()`. */
  namespace: string;
}

type HostedClient = { update(id: string, c: { expirationDate: string }): Promise<unknown>; delete(id: string): Promise<unknown> };

/**
 * The hosted `MemoryClient` (mem0ai), one user per fixture: against the local REST server, or against
 * `target` (whose users and memories the run removes again in `dispose()`).
 */
export function mem0HostedSubject(target?: Mem0Target): AdapterSubject {
  let server: Promise<Mem0RestServer> | undefined;
  let n = 0;
  const clients = new WeakMap<Mem0EvidenceStore, HostedClient>();
  const created: Mem0EvidenceStore[] = [];
  return {
    name: target === undefined ? 'mem0-hosted' : `mem0-hosted@${new URL(target.host).host}`,
    capabilities,
    expectedLoss: expectedLoss('mem0-hosted'),
    plantNative,
    maintain: expireOneMember((adapter, id) => clients.get(adapter)!.update(id, { expirationDate: '2020-01-01' })),
    async create() {
      let connection = target;
      if (connection === undefined) {
        server ??= startMem0RestServer({ processingDelayMs: 1 });
        const s = await server;
        connection = { apiKey: s.apiKey, host: s.url, namespace: 'conformance' };
      }
      process.env.MEM0_TELEMETRY ??= 'false';
      const { MemoryClient } = await import('mem0ai');
      const client = new MemoryClient({ apiKey: connection.apiKey, host: connection.host });
      const adapter = mem0HostedAdapter(client, { userId: `${connection.namespace}-${++n}` });
      clients.set(adapter, client);
      created.push(adapter);
      return adapter;
    },
    async dispose() {
      if (server) await (await server).close();
      // A deployment's users are removed memory by memory (what every Mem0 server can do).
      if (target !== undefined) {
        for (const adapter of created) for (const m of await adapter.mem0.list({})) await clients.get(adapter)?.delete(m.id);
      }
    },
  };
}

/** Every Mem0 subject, for `ewp conformance`. */
export function conformanceSubjects(): AdapterSubject[] {
  return [mem0OssSubject(), mem0HostedSubject()];
}
