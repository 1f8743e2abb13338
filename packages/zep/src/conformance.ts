/**
 * The Zep adapter as a subject of the shared conformance suite, used by this package's tests and
 * by `ewp conformance`: the official `ZepClient` against the local Zep graph server, offline.
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import type { AdapterSubject, ExpectedLossFile, MemoryAdapter } from '@ewp/core';
import { ZepAdapter } from './zep-adapter.js';
import { startZepGraphServer, type ZepEpisodeRecord, type ZepGraphServer } from './testing/zep-graph-server.js';

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

/** Zep's extraction, standing in for Graphiti's LLM: a fact from each claim's text episode. */
function extractAssertionFacts(episode: ZepEpisodeRecord): { fact: string; name: string }[] {
  return episode.metadata.ewp_part === 0 ? [{ fact: episode.content, name: 'ASSERTS' }] : [];
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
}

/**
 * The Zep adapter over `@getzep/zep-cloud`, one graph per fixture: against the local graph server, or
 * against `target` (whose graphs the run deletes again in `dispose()`).
 */
export function zepSubject(target?: ZepTarget): AdapterSubject {
  let server: Promise<ZepGraphServer> | undefined;
  let n = 0;
  const created: ZepAdapter[] = [];
  return {
    name: target === undefined ? 'zep' : `zep@${new URL(target.baseUrl).host}`,
    capabilities: { search: true, nativeRecords: true, snapshots: true, metaNamespace: '@ewp/zep' },
    expectedLoss: expectedLoss(),
    plantNative: plantZepFacts,
    maintain: invalidateDerivedFacts,
    async create() {
      let connection = target;
      if (connection === undefined) {
        // Zep extracts a fact from each assertion episode (identical facts merge, as in Graphiti).
        server ??= startZepGraphServer({ processingDelayMs: 0, extractor: extractAssertionFacts });
        const s = await server;
        connection = { apiKey: s.apiKey, baseUrl: s.baseUrl, namespace: 'conformance' };
      }
      const { ZepClient } = await import('@getzep/zep-cloud');
      const client = new ZepClient({ apiKey: connection.apiKey, baseUrl: connection.baseUrl });
      const graphId = `${connection.namespace}-${++n}`;
      await client.graph.create({ graphId });
      const adapter = new ZepAdapter({ client, graphId });
      created.push(adapter);
      return adapter;
    },
    async dispose() {
      if (server) await (await server).close();
      if (target !== undefined) for (const adapter of created) await adapter.client.graph.delete(adapter.graphId);
    },
  };
}

/** Every Zep subject, for `ewp conformance`. */
export function conformanceSubjects(): AdapterSubject[] {
  return [zepSubject()];
}
