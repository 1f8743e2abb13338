/**
 * The Zep adapter as a subject of the shared conformance suite, for `ewp conformance --zep URL` and
 * for tests: the official `ZepClient` against a Zep deployment the caller names (base URL and API
 * key), in graphs of the run's own that it deletes afterwards.
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { type AdapterSubject, type ExpectedLossFile, InvalidArgumentError, type MemoryAdapter } from '@ewp/core';
import { ZepAdapter } from './zep-adapter.js';

function expectedLoss(): ExpectedLossFile {
  return JSON.parse(readFileSync(new URL('../expected-loss/zep.json', import.meta.url), 'utf8')) as ExpectedLossFile;
}

/** Facts the way Zep's pipeline leaves them: no EWP episode; one already invalidated and expired by Zep. */
export async function plantZepFacts(adapter: MemoryAdapter): Promise<void> {
  const zep = adapter as ZepAdapter;
  await zep.client.graph.addFactTriple({
    graphId: zep.graphId,
    fact: 'The deploy pipeline uses blue-green releases',
    factName: 'USES',
    sourceNodeName: 'deploy pipeline',
    targetNodeName: 'blue-green releases',
    validAt: '2026-01-01T00:00:00Z',
  });
  await zep.client.graph.addFactTriple({
    graphId: zep.graphId,
    fact: 'The staging database runs PostgreSQL 14',
    factName: 'RUNS',
    sourceNodeName: 'staging database',
    targetNodeName: 'PostgreSQL 14',
    validAt: '2025-01-01T00:00:00Z',
    invalidAt: '2026-03-01T00:00:00Z',
    expiredAt: '2026-03-02T00:00:00Z',
  });
}

/** Graphiti's maintenance, through the official client: every fact of the graph invalidated and expired. */
async function invalidateDerivedFacts(adapter: MemoryAdapter): Promise<void> {
  const zep = adapter as ZepAdapter;
  for (const edge of await zep.client.graph.edge.getByGraphId(zep.graphId, { limit: 50 })) {
    await zep.client.graph.edge.update(edge.uuid, { invalidAt: '2026-01-01T00:00:00Z', expiredAt: '2026-01-02T00:00:00Z' });
  }
}

/**
 * A Zep deployment to run the suite against (Zep cloud or a Zep-compatible Graphiti gateway), for the
 * loss report of that deployment (`ewp conformance --zep URL`).
 */
export interface ZepTarget {
  /** The API key; read from a file or the environment by the caller, never a command-line argument. */
  apiKey: string;
  /** `ZepClient`'s `baseUrl`, e.g. `https://api.getzep.com/api/v2`. */
  baseUrl: string;
  /** Prefix of the graphs the run creates (one per fixture); `dispose()` deletes them. */
  namespace: string;
  /** Called by `dispose()` last, e.g. to stop a server started for the run. */
  close?: () => Promise<void>;
}

function checkTarget(target: ZepTarget): ZepTarget {
  if (typeof target?.apiKey !== 'string' || target.apiKey === '') throw new InvalidArgumentError('target.apiKey', 'target.apiKey must be a non-empty string');
  if (typeof target.baseUrl !== 'string' || !URL.canParse(target.baseUrl)) {
    throw new InvalidArgumentError('target.baseUrl', `target.baseUrl must be a URL (ZepClient's baseUrl), got ${JSON.stringify(target.baseUrl)}`);
  }
  if (typeof target.namespace !== 'string' || target.namespace === '') {
    throw new InvalidArgumentError('target.namespace', 'target.namespace must be a non-empty string (the prefix of the graphs the run creates)');
  }
  return target;
}

/**
 * The Zep adapter over `@getzep/zep-cloud` against `target`, one graph per fixture; `dispose()` deletes
 * the run's graphs again. `target` may be a function that opens the deployment when the first fixture
 * starts (a server started for the run); the subject is then named `zep`, else `zep@<host>`.
 * @throws {InvalidArgumentError} when a field of `target` is missing or `baseUrl` is not a URL.
 */
export function zepSubject(target: ZepTarget | (() => Promise<ZepTarget>)): AdapterSubject {
  const given = typeof target === 'function' ? undefined : checkTarget(target);
  let connection: Promise<ZepTarget> | undefined;
  const open = () => (connection ??= given ? Promise.resolve(given) : (target as () => Promise<ZepTarget>)().then(checkTarget));
  const created: ZepAdapter[] = [];
  return {
    name: given === undefined ? 'zep' : `zep@${new URL(given.baseUrl).host}`,
    capabilities: { search: true, nativeRecords: true, snapshots: true, metaNamespace: '@ewp/zep' },
    expectedLoss: expectedLoss(),
    plantNative: plantZepFacts,
    maintain: invalidateDerivedFacts,
    async create() {
      const { apiKey, baseUrl, namespace } = await open();
      const { ZepClient } = await import('@getzep/zep-cloud');
      const client = new ZepClient({ apiKey, baseUrl });
      const graphId = `${namespace}-${created.length + 1}`;
      await client.graph.create({ graphId });
      const adapter = new ZepAdapter({ client, graphId });
      created.push(adapter);
      return adapter;
    },
    async dispose() {
      if (connection === undefined) return;
      const { close } = await connection;
      try {
        for (const adapter of created) await adapter.client.graph.delete(adapter.graphId);
      } finally {
        await close?.();
      }
    },
  };
}
