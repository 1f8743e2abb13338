/**
 * The Mem0 stores as subjects of the shared loss-report suite (`@ewp/conformance/adapter-suite`),
 * for `ewp conformance --mem0 URL` and for tests: each runs against a store the caller names (an
 * open-source `Memory` it gives, or a Mem0 deployment by host and API key) and removes the run's
 * memories afterwards.
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { type AdapterSubject, type EvidenceView, type ExpectedLossFile, InvalidArgumentError, type MemoryAdapter } from '@ewp/core';
import { mem0Adapter, mem0HostedAdapter } from './index.js';
import type { Mem0EvidenceStore } from './mem0-adapter.js';
import { isLedgerMemory } from './mem0-record-store.js';
import type { OssMemoryLike } from './oss-backend.js';

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

function checkNamespace(namespace: unknown, field: string): void {
  if (typeof namespace !== 'string' || namespace === '')
    throw new InvalidArgumentError(field, `${field} must be a non-empty string (the prefix of the users the run creates)`);
}

/** The open-source `Memory` the run writes into, given by the caller. */
export interface Mem0OssTarget {
  /** The `Memory` (from `mem0ai/oss`), or a function that builds it when the first fixture starts (called once). */
  memory: OssMemoryLike | (() => Promise<OssMemoryLike>);
  /** Prefix of the users the run creates (one per fixture); their memories are deleted by `dispose()`. */
  namespace: string;
  /** Called by `dispose()` last, e.g. to remove the files of a `Memory` built for the run. */
  close?: () => Promise<void>;
}

/** The `Memory` methods the subject calls besides the adapter's: Mem0's own expiry, and the clean-up. */
type RealOssMemory = OssMemoryLike & { update(id: string, c: { expirationDate: string }): Promise<unknown>; delete(id: string): Promise<unknown> };

/**
 * The open-source `Memory` (mem0ai/oss) of `target`, one user per fixture.
 * @throws {InvalidArgumentError} when `target.memory` or `target.namespace` is missing.
 */
export function mem0OssSubject(target: Mem0OssTarget): AdapterSubject {
  if (typeof target?.memory !== 'object' && typeof target?.memory !== 'function') {
    throw new InvalidArgumentError('target.memory', 'target.memory must be an open-source Mem0 Memory, or a function that builds one');
  }
  checkNamespace(target.namespace, 'target.namespace');
  let memory: Promise<RealOssMemory> | undefined;
  const open = () => (memory ??= Promise.resolve(typeof target.memory === 'function' ? target.memory() : target.memory) as Promise<RealOssMemory>);
  const created: Mem0EvidenceStore[] = [];
  return {
    name: 'mem0-oss',
    capabilities,
    expectedLoss: expectedLoss('mem0-oss'),
    plantNative,
    maintain: expireOneMember(async (_adapter, id) => (await open()).update(id, { expirationDate: '2020-01-01' })),
    async create() {
      const adapter = mem0Adapter(await open(), { userId: `${target.namespace}-${created.length + 1}` });
      created.push(adapter);
      return adapter;
    },
    async dispose() {
      try {
        if (memory) {
          const real = await memory;
          for (const adapter of created) for (const m of await adapter.mem0.list({})) await real.delete(m.id);
        }
      } finally {
        await target.close?.();
      }
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
  /** Called by `dispose()` last, e.g. to stop a server started for the run. */
  close?: () => Promise<void>;
}

function checkTarget(target: Mem0Target): Mem0Target {
  if (typeof target?.apiKey !== 'string' || target.apiKey === '') throw new InvalidArgumentError('target.apiKey', 'target.apiKey must be a non-empty string');
  if (typeof target.host !== 'string' || !URL.canParse(target.host)) {
    throw new InvalidArgumentError('target.host', `target.host must be a URL (MemoryClient's host), got ${JSON.stringify(target.host)}`);
  }
  checkNamespace(target.namespace, 'target.namespace');
  return target;
}

type HostedClient = { update(id: string, c: { expirationDate: string }): Promise<unknown>; delete(id: string): Promise<unknown> };

/**
 * The hosted `MemoryClient` (mem0ai) against `target`, one user per fixture; `dispose()` removes the
 * run's memories again. `target` may be a function that opens the deployment when the first fixture
 * starts (a server started for the run); the subject is then named `mem0-hosted`, else
 * `mem0-hosted@<host>`.
 * @throws {InvalidArgumentError} when a field of `target` is missing or `host` is not a URL.
 */
export function mem0HostedSubject(target: Mem0Target | (() => Promise<Mem0Target>)): AdapterSubject {
  const given = typeof target === 'function' ? undefined : checkTarget(target);
  let connection: Promise<Mem0Target> | undefined;
  const open = () => (connection ??= given ? Promise.resolve(given) : (target as () => Promise<Mem0Target>)().then(checkTarget));
  const clients = new WeakMap<Mem0EvidenceStore, HostedClient>();
  const created: Mem0EvidenceStore[] = [];
  return {
    name: given === undefined ? 'mem0-hosted' : `mem0-hosted@${new URL(given.host).host}`,
    capabilities,
    expectedLoss: expectedLoss('mem0-hosted'),
    plantNative,
    maintain: expireOneMember((adapter, id) => clients.get(adapter)!.update(id, { expirationDate: '2020-01-01' })),
    async create() {
      const { apiKey, host, namespace } = await open();
      process.env.MEM0_TELEMETRY ??= 'false';
      const { MemoryClient } = await import('mem0ai');
      const client = new MemoryClient({ apiKey, host });
      const adapter = mem0HostedAdapter(client, { userId: `${namespace}-${created.length + 1}` });
      clients.set(adapter, client);
      created.push(adapter);
      return adapter;
    },
    async dispose() {
      if (connection === undefined) return;
      const { close } = await connection;
      try {
        // A deployment's users are removed memory by memory (what every Mem0 server can do).
        for (const adapter of created) for (const m of await adapter.mem0.list({})) await clients.get(adapter)?.delete(m.id);
      } finally {
        await close?.();
      }
    },
  };
}
