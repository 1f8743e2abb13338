import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An episode as Zep's v2 API returns it (snake_case). */
export interface ZepEpisodeRecord {
  uuid: string;
  graph_id: string;
  content: string;
  source: 'text' | 'json' | 'message';
  source_description: string;
  created_at: string;
  metadata: Record<string, unknown>;
  processed: boolean;
}

/** An entity edge (a fact) as Zep's v2 API returns it. */
export interface ZepEdgeRecord {
  uuid: string;
  graph_id: string;
  name: string;
  fact: string;
  source_node_uuid: string;
  target_node_uuid: string;
  source_node_name: string;
  target_node_name: string;
  created_at: string;
  valid_at?: string;
  invalid_at?: string;
  expired_at?: string;
  episodes: string[];
  attributes: Record<string, unknown>;
}

/** Zep's documented limits, enforced by the local server. */
export interface ZepLimits {
  /** Episode metadata: at most this many keys (10). */
  maxMetadataKeys: number;
  /** Graph search `limit` (50). */
  maxSearchLimit: number;
  /** Episode `data` length in characters (10 000). */
  maxEpisodeChars: number;
  /** An explicit list `limit` is clamped to this (50); 100 when omitted. */
  maxListLimit: number;
}

export const ZEP_LIMITS: ZepLimits = { maxMetadataKeys: 10, maxSearchLimit: 50, maxEpisodeChars: 10_000, maxListLimit: 50 };

/** A running local Zep graph API. */
export interface ZepGraphServer {
  /** Pass as `baseUrl` to `ZepClient` (includes `/api/v2`). */
  baseUrl: string;
  apiKey: string;
  episodes: Map<string, ZepEpisodeRecord>;
  edges: Map<string, ZepEdgeRecord>;
  requests: { method: string; path: string; body: unknown }[];
  /** Resolves when every queued episode is processed. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Turns a processed episode into facts, standing in for Zep's LLM extraction (identical facts are merged). */
export type FactExtractor = (episode: ZepEpisodeRecord) => { fact: string; name: string; valid_at?: string }[];

/** The wire form: `graph_id` is the server's bookkeeping; Zep's GraphEpisode and EntityEdge do not carry it. */
function wire<T extends { graph_id: string }>(record: T): Omit<T, 'graph_id'> {
  const { graph_id: _graph, ...rest } = record;
  return rest;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function isScalar(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

function checkMetadata(metadata: unknown, limits: ZepLimits): Record<string, unknown> {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw new HttpError(400, 'metadata must be an object');
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > limits.maxMetadataKeys) throw new HttpError(400, `metadata: maximum ${limits.maxMetadataKeys} keys`);
  for (const [k, v] of entries) {
    if (!(isScalar(v) || (Array.isArray(v) && v.every(isScalar)))) {
      throw new HttpError(400, `metadata.${k}: values must be strings, numbers, booleans, or arrays of scalars`);
    }
  }
  return structuredClone(metadata as Record<string, unknown>);
}

function compareValues(actual: unknown, op: string, expected: unknown): boolean {
  switch (op) {
    case '=':
      return actual === expected;
    case '<>':
      return actual !== expected;
    case '>':
      return (actual as number) > (expected as number);
    case '<':
      return (actual as number) < (expected as number);
    case '>=':
      return (actual as number) >= (expected as number);
    case '<=':
      return (actual as number) <= (expected as number);
    case 'IS NULL':
    case 'is_null':
      return actual === undefined || actual === null;
    case 'IS NOT NULL':
      return actual !== undefined && actual !== null;
    case 'IN':
      return Array.isArray(expected) && expected.includes(actual);
    case 'CONTAINS':
      return Array.isArray(actual) ? actual.includes(expected) : String(actual).includes(String(expected));
    default:
      throw new HttpError(400, `unknown comparison_operator ${op}`);
  }
}

function metadataMatches(metadata: Record<string, unknown>, group: unknown): boolean {
  if (group === undefined || group === null) return true;
  const g = group as { type?: string; filters?: Record<string, unknown>[]; groups?: unknown[] };
  if (g.type !== 'and' && g.type !== 'or') throw new HttpError(400, 'episode_metadata_filters.type must be "and" or "or"');
  const results = [
    ...(g.filters ?? []).map((f) => {
      if (typeof f.property_name !== 'string' || typeof f.comparison_operator !== 'string') {
        throw new HttpError(400, 'a metadata filter needs property_name and comparison_operator');
      }
      return compareValues(metadata[f.property_name], f.comparison_operator, f.property_value);
    }),
    ...(g.groups ?? []).map((sub) => metadataMatches(metadata, sub)),
  ];
  return g.type === 'and' ? results.every(Boolean) : results.some(Boolean);
}

function tokens(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

function relevance(query: string, text: string): number {
  const q = tokens(query);
  const t = tokens(text);
  if (q.size === 0 || t.size === 0) return 0;
  let common = 0;
  for (const w of q) if (t.has(w)) common++;
  return common / Math.sqrt(q.size * t.size);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'body is not JSON');
  }
}

function obj(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'body must be a JSON object');
  return body as Record<string, unknown>;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function page<T>(items: T[], body: Record<string, unknown>, key: (item: T) => string, limits: ZepLimits): { items: T[]; next?: string } {
  const explicit = body.limit;
  if (explicit !== undefined && (!Number.isInteger(explicit) || (explicit as number) < 1)) throw new HttpError(400, 'limit must be a positive integer');
  const limit = explicit === undefined ? 100 : Math.min(explicit as number, limits.maxListLimit);
  const direction = body.direction ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') throw new HttpError(400, 'direction must be asc or desc');
  const sorted = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (direction === 'desc') sorted.reverse();
  let start = 0;
  if (typeof body.cursor === 'string') {
    const after = Buffer.from(body.cursor, 'base64url').toString('utf8');
    start = sorted.findIndex((item) => (direction === 'asc' ? key(item) > after : key(item) < after));
    if (start < 0) start = sorted.length;
  }
  const slice = sorted.slice(start, start + limit);
  const more = start + limit < sorted.length;
  return { items: slice, next: more ? Buffer.from(key(slice[slice.length - 1]!), 'utf8').toString('base64url') : undefined };
}

/**
 * A local stand-in for Zep Cloud's v2 graph API, covering the paths `@getzep/zep-cloud` 3.x calls
 * for graphs, episodes, facts and search. It enforces Zep's documented limits (episode metadata:
 * at most 10 keys with scalar or scalar-array values; search limit at most 50; list limit clamped
 * to 50; episode data at most 10 000 characters) and processes episodes asynchronously, one graph
 * at a time, as Zep does. Shapes are recorded in `__fixtures__/`.
 */
export async function startZepGraphServer(
  options: { apiKey?: string; processingDelayMs?: number; limits?: Partial<ZepLimits>; extractor?: FactExtractor } = {},
): Promise<ZepGraphServer> {
  const apiKey = options.apiKey ?? 'z-local-test-key';
  const limits = { ...ZEP_LIMITS, ...options.limits };
  const delay = options.processingDelayMs ?? 2;
  const graphs = new Map<string, Record<string, unknown>>();
  const episodes = new Map<string, ZepEpisodeRecord>();
  const edges = new Map<string, ZepEdgeRecord>();
  const requests: ZepGraphServer['requests'] = [];
  const queues = new Map<string, Promise<void>>();
  let tick = 0;
  const now = () => new Date(Date.now() + tick++).toISOString();

  const requireGraph = (b: Record<string, unknown>): string => {
    if (b.user_id !== undefined) throw new HttpError(400, 'user graphs are not served by the local server; use graph_id');
    if (typeof b.graph_id !== 'string' || !graphs.has(b.graph_id)) throw new HttpError(404, 'graph not found');
    return b.graph_id;
  };

  const addEdge = (graphId: string, fields: Partial<ZepEdgeRecord> & { fact: string; name: string }): ZepEdgeRecord => {
    const edge: ZepEdgeRecord = {
      uuid: randomUUID(),
      graph_id: graphId,
      source_node_uuid: randomUUID(),
      target_node_uuid: randomUUID(),
      source_node_name: 'source',
      target_node_name: 'target',
      created_at: now(),
      episodes: [],
      attributes: {},
      ...fields,
    };
    edges.set(edge.uuid, edge);
    return edge;
  };

  const addEpisode = (b: Record<string, unknown>): ZepEpisodeRecord => {
    const graphId = requireGraph(b);
    if (typeof b.data !== 'string') throw new HttpError(400, 'data is required');
    if (!['text', 'json', 'message'].includes(b.type as string)) throw new HttpError(400, 'type must be text, json or message');
    if (b.data.length > limits.maxEpisodeChars) throw new HttpError(400, `data exceeds ${limits.maxEpisodeChars} characters`);
    if (b.type === 'json') {
      try {
        JSON.parse(b.data);
      } catch {
        throw new HttpError(400, 'data is not valid JSON');
      }
    }
    if (b.created_at !== undefined && (typeof b.created_at !== 'string' || !RFC3339.test(b.created_at))) {
      throw new HttpError(400, 'created_at must be an RFC 3339 timestamp');
    }
    const episode: ZepEpisodeRecord = {
      uuid: randomUUID(),
      graph_id: graphId,
      content: b.data,
      source: b.type as ZepEpisodeRecord['source'],
      source_description: typeof b.source_description === 'string' ? b.source_description : '',
      created_at: (b.created_at as string | undefined) ?? now(),
      metadata: checkMetadata(b.metadata, limits),
      processed: false,
    };
    episodes.set(episode.uuid, episode);
    // Zep processes the episodes of one graph sequentially, in the background.
    const queue = (queues.get(graphId) ?? Promise.resolve()).then(async () => {
      await new Promise((r) => setTimeout(r, delay));
      if (!episodes.has(episode.uuid)) return;
      for (const f of options.extractor?.(episode) ?? []) {
        // Like Graphiti, an extracted fact that already exists is merged, not duplicated: the
        // existing edge gains the episode. Identical claims collapse into one fact.
        const same = [...edges.values()].find((e) => e.graph_id === graphId && e.fact === f.fact && e.name === f.name);
        if (same) same.episodes.push(episode.uuid);
        else addEdge(graphId, { ...f, episodes: [episode.uuid] });
      }
      episode.processed = true;
    });
    queues.set(graphId, queue);
    return episode;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<[number, unknown]> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = await readBody(req);
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, body });
    if (req.headers.authorization !== `Api-Key ${apiKey}`) throw new HttpError(401, 'unauthorized');
    if (!url.pathname.startsWith('/api/v2/')) throw new HttpError(404, 'not found');
    const path = url.pathname.slice('/api/v2'.length);
    const method = req.method ?? 'GET';
    const graphEpisodes = /^\/graph\/episodes\/graph\/([^/]+)$/.exec(path);
    const oneEpisode = /^\/graph\/episodes\/([^/]+)$/.exec(path);
    const graphEdges = /^\/graph\/edge\/graph\/([^/]+)$/.exec(path);
    const oneEdge = /^\/graph\/edge\/([^/]+)$/.exec(path);
    const oneGraph = /^\/graph\/([^/]+)$/.exec(path);

    if (method === 'POST' && path === '/graph/create') {
      const b = obj(body);
      if (typeof b.graph_id !== 'string' || b.graph_id === '') throw new HttpError(400, 'graph_id is required');
      if (graphs.has(b.graph_id)) throw new HttpError(400, 'graph already exists');
      const graph = { graph_id: b.graph_id, uuid: randomUUID(), name: b.name ?? b.graph_id, description: b.description ?? '', created_at: now() };
      graphs.set(b.graph_id, graph);
      return [201, graph];
    }
    if (method === 'POST' && path === '/graph') return [202, wire(addEpisode(obj(body)))];
    if (method === 'POST' && path === '/graph-batch') {
      const b = obj(body);
      if (!Array.isArray(b.episodes)) throw new HttpError(400, 'episodes is required');
      return [202, (b.episodes as unknown[]).map((e) => wire(addEpisode({ ...obj(e), graph_id: b.graph_id, user_id: b.user_id })))];
    }
    if (method === 'POST' && path === '/graph/search') {
      const b = obj(body);
      const graphId = requireGraph(b);
      if (typeof b.query !== 'string' || b.query === '') throw new HttpError(400, 'query is required');
      const limit = b.limit ?? 10;
      if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > limits.maxSearchLimit) {
        throw new HttpError(400, `limit must be between 1 and ${limits.maxSearchLimit}`);
      }
      const scope = b.scope ?? 'edges';
      const filter = (b.search_filters as Record<string, unknown> | undefined)?.episode_metadata_filters;
      const visible = [...episodes.values()].filter((e) => e.graph_id === graphId && e.processed && metadataMatches(e.metadata, filter));
      if (scope === 'episodes') {
        const hits = visible
          .map((e) => ({ ...wire(e), score: relevance(b.query as string, e.content) }))
          .sort((x, y) => y.score - x.score || (x.uuid < y.uuid ? -1 : 1))
          .slice(0, limit as number);
        return [200, { episodes: hits }];
      }
      if (scope === 'edges') {
        const allowed = new Set(visible.map((e) => e.uuid));
        const hits = [...edges.values()]
          .filter((e) => e.graph_id === graphId && (filter === undefined || e.episodes.some((u) => allowed.has(u))))
          .map((e) => ({ ...wire(e), score: relevance(b.query as string, e.fact) }))
          .sort((x, y) => y.score - x.score || (x.uuid < y.uuid ? -1 : 1))
          .slice(0, limit as number);
        return [200, { edges: hits }];
      }
      if (scope === 'nodes') return [200, { nodes: [] }];
      throw new HttpError(400, `unsupported scope ${String(scope)}`);
    }
    if (method === 'POST' && path === '/graph/add-fact-triple') {
      const b = obj(body);
      const graphId = requireGraph(b);
      if (typeof b.fact !== 'string' || typeof b.fact_name !== 'string') throw new HttpError(400, 'fact and fact_name are required');
      for (const k of ['valid_at', 'invalid_at', 'expired_at', 'created_at']) {
        if (b[k] !== undefined && (typeof b[k] !== 'string' || !RFC3339.test(b[k] as string))) throw new HttpError(400, `${k} must be RFC 3339`);
      }
      const edge = addEdge(graphId, {
        fact: b.fact,
        name: b.fact_name,
        source_node_name: (b.source_node_name as string) ?? 'source',
        target_node_name: (b.target_node_name as string) ?? 'target',
        ...(b.created_at ? { created_at: b.created_at as string } : {}),
        ...(b.valid_at ? { valid_at: b.valid_at as string } : {}),
        ...(b.invalid_at ? { invalid_at: b.invalid_at as string } : {}),
        ...(b.expired_at ? { expired_at: b.expired_at as string } : {}),
      });
      return [200, { edge: wire(edge), task_id: randomUUID() }];
    }
    if (graphEpisodes) {
      const graphId = decodeURIComponent(graphEpisodes[1]!);
      if (!graphs.has(graphId)) throw new HttpError(404, 'graph not found');
      const all = [...episodes.values()].filter((e) => e.graph_id === graphId);
      if (method === 'GET') {
        const lastn = url.searchParams.get('lastn');
        const sorted = all.sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
        return [200, { episodes: (lastn === null ? sorted : sorted.slice(-Number(lastn))).map(wire) }];
      }
      if (method === 'POST') {
        const b = obj(body ?? {});
        const orderBy = (b.order_by as string | undefined) ?? 'uuid';
        if (orderBy !== 'uuid' && orderBy !== 'created_at') throw new HttpError(400, 'order_by must be uuid or created_at');
        const filtered = all.filter((e) => metadataMatches(e.metadata, b.episode_metadata_filters));
        const p = page(filtered, b, (e) => (orderBy === 'uuid' ? e.uuid : `${e.created_at}\u0000${e.uuid}`), limits);
        if (p.next !== undefined) res.setHeader('Zep-Next-Cursor', p.next);
        return [200, p.items.map(wire)];
      }
    }
    if (oneEpisode) {
      const uuid = decodeURIComponent(oneEpisode[1]!);
      const episode = episodes.get(uuid);
      if (!episode) throw new HttpError(404, 'episode not found');
      if (method === 'GET') return [200, wire(episode)];
      if (method === 'DELETE') {
        episodes.delete(uuid);
        return [200, { message: 'Episode deleted' }];
      }
      if (method === 'PATCH') {
        const b = obj(body);
        const merged: Record<string, unknown> = { ...episode.metadata };
        for (const [k, v] of Object.entries(obj(b.metadata))) {
          if (v === null) delete merged[k];
          else merged[k] = v;
        }
        episode.metadata = checkMetadata(merged, limits);
        return [200, wire(episode)];
      }
    }
    if (method === 'POST' && graphEdges) {
      const graphId = decodeURIComponent(graphEdges[1]!);
      if (!graphs.has(graphId)) throw new HttpError(404, 'graph not found');
      const b = obj(body ?? {});
      const filters = (b.filters as Record<string, unknown> | undefined) ?? {};
      const wanted = Array.isArray(filters.episode_uuids) ? new Set(filters.episode_uuids as string[]) : undefined;
      const all = [...edges.values()].filter((e) => e.graph_id === graphId && (!wanted || e.episodes.some((u) => wanted.has(u))));
      const p = page(all, b, (e) => e.uuid, limits);
      if (p.next !== undefined) res.setHeader('Zep-Next-Cursor', p.next);
      return [200, p.items.map(wire)];
    }
    if (oneEdge) {
      const edge = edges.get(decodeURIComponent(oneEdge[1]!));
      if (!edge) throw new HttpError(404, 'edge not found');
      if (method === 'GET') return [200, wire(edge)];
      if (method === 'DELETE') {
        edges.delete(edge.uuid);
        return [200, { message: 'Edge deleted' }];
      }
      if (method === 'PATCH') {
        const b = obj(body);
        for (const k of ['valid_at', 'invalid_at', 'expired_at'] as const) {
          if (b[k] === undefined) continue;
          if (typeof b[k] !== 'string' || !RFC3339.test(b[k] as string)) throw new HttpError(400, `${k} must be RFC 3339`);
          edge[k] = b[k] as string;
        }
        if (typeof b.fact === 'string') edge.fact = b.fact;
        if (typeof b.name === 'string') edge.name = b.name;
        if (b.attributes !== undefined) edge.attributes = obj(b.attributes);
        return [200, wire(edge)];
      }
    }
    if (method === 'GET' && oneGraph) {
      const graph = graphs.get(decodeURIComponent(oneGraph[1]!));
      if (!graph) throw new HttpError(404, 'graph not found');
      return [200, graph];
    }
    if (method === 'DELETE' && oneGraph) {
      // Zep deletes a graph with everything in it.
      const graphId = decodeURIComponent(oneGraph[1]!);
      if (!graphs.delete(graphId)) throw new HttpError(404, 'graph not found');
      for (const [uuid, e] of episodes) if (e.graph_id === graphId) episodes.delete(uuid);
      for (const [uuid, e] of edges) if (e.graph_id === graphId) edges.delete(uuid);
      return [200, { message: 'Graph deleted' }];
    }
    throw new HttpError(404, `no route ${method} ${path}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).then(
      ([status, payload]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      },
      (error: unknown) => {
        res.writeHead(error instanceof HttpError ? error.status : 500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: error instanceof Error ? error.message : String(error) }));
      },
    );
  });
  // Node closes idle keep-alive sockets after 5 s; on a loaded machine a client can reuse one just as
  // it closes and get ECONNRESET. Tests close every connection at the end, so keep them open.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v2`,
    apiKey,
    episodes,
    edges,
    requests,
    drain: async () => {
      await Promise.all(queues.values());
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
