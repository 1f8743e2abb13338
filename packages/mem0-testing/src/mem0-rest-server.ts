import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One memory as the hosted API stores and returns it (snake_case, like the real API). */
export interface HostedMemoryRecord {
  id: string;
  memory: string;
  user_id: string | null;
  agent_id: string | null;
  app_id: string | null;
  run_id: string | null;
  hash: string;
  metadata: Record<string, unknown>;
  categories: string[];
  immutable: boolean;
  expiration_date: string | null;
  created_at: string;
  updated_at: string;
}

/** A running local Mem0 platform API. */
export interface Mem0RestServer {
  /** Base URL to pass as `host` to `MemoryClient`. */
  url: string;
  apiKey: string;
  /** The stored memories, by id (tests may inspect them; the adapter must go through the client). */
  memories: Map<string, HostedMemoryRecord>;
  /** Every request received: method, path and JSON body. */
  requests: { method: string; path: string; body: unknown }[];
  /** Resolves when no queued add is left. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const ENTITY_KEYS = ['user_id', 'agent_id', 'app_id', 'run_id'] as const;
const FILTER_FIELDS = new Set<string>([...ENTITY_KEYS, 'created_at', 'updated_at', 'metadata', 'categories', 'memory_ids']);

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

function isExpired(m: HostedMemoryRecord): boolean {
  return m.expiration_date !== null && m.expiration_date < todayUtc();
}

function compare(value: unknown, condition: unknown): boolean {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
    if (condition === '*') return value !== null && value !== undefined;
    return value === condition;
  }
  return Object.entries(condition as Record<string, unknown>).every(([op, arg]) => {
    switch (op) {
      case 'in':
        return Array.isArray(arg) && arg.includes(value);
      case 'ne':
        return value !== arg;
      case 'eq':
        return value === arg;
      case 'gte':
        return String(value) >= String(arg);
      case 'lte':
        return String(value) <= String(arg);
      case 'gt':
        return String(value) > String(arg);
      case 'lt':
        return String(value) < String(arg);
      case 'icontains':
        return String(value).toLowerCase().includes(String(arg).toLowerCase());
      default:
        throw new HttpError(400, `unsupported filter operator ${op}`);
    }
  });
}

function matches(m: HostedMemoryRecord, filter: unknown): boolean {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw new HttpError(400, 'filters must be an object');
  return Object.entries(filter as Record<string, unknown>).every(([key, cond]) => {
    if (key === 'AND' || key === 'OR' || key === 'NOT') {
      if (!Array.isArray(cond)) throw new HttpError(400, `${key} takes a list of filters`);
      if (key === 'AND') return cond.every((f) => matches(m, f));
      if (key === 'OR') return cond.some((f) => matches(m, f));
      return !cond.some((f) => matches(m, f));
    }
    if (!FILTER_FIELDS.has(key)) throw new HttpError(400, `unknown filter field ${key}`);
    if (key === 'metadata') {
      if (typeof cond !== 'object' || cond === null) throw new HttpError(400, 'metadata filter must be an object');
      return Object.entries(cond as Record<string, unknown>).every(([k, v]) => JSON.stringify(m.metadata[k]) === JSON.stringify(v));
    }
    if (key === 'memory_ids') return Array.isArray(cond) && cond.includes(m.id);
    if (key === 'categories')
      return (
        compare(m.categories, cond) ||
        (typeof cond === 'object' && cond !== null && 'in' in cond && m.categories.some((c) => (cond as { in: unknown[] }).in.includes(c)))
      );
    return compare(m[key as keyof HostedMemoryRecord], cond);
  });
}

function mentionsEntity(filter: unknown): boolean {
  if (typeof filter !== 'object' || filter === null) return false;
  return Object.entries(filter as Record<string, unknown>).some(([key, cond]) =>
    ENTITY_KEYS.includes(key as (typeof ENTITY_KEYS)[number]) ? true : Array.isArray(cond) && cond.some(mentionsEntity),
  );
}

function tokens(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

function similarity(a: string, b: string): number {
  const x = tokens(a);
  const y = tokens(b);
  if (x.size === 0 || y.size === 0) return 0;
  let common = 0;
  for (const t of x) if (y.has(t)) common++;
  return common / Math.sqrt(x.size * y.size);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'body is not JSON');
  }
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'body must be a JSON object');
  return body as Record<string, unknown>;
}

/**
 * A local stand-in for the Mem0 platform API (api.mem0.ai) covering the endpoints `MemoryClient`
 * (mem0ai 3.x) calls for memories: ping, add (async by default: PENDING events processed in the
 * background), list with v2 filters and pages, search, get, update, delete. Responses have the
 * real API's snake_case shapes (recorded in `__fixtures__/`); the client camelCases them.
 */
export async function startMem0RestServer(
  options: {
    apiKey?: string;
    processingDelayMs?: number;
    /** Fault injection: list pages silently leave out their last memory while `count` stays true (a lossy index). */
    dropOneFromEachPage?: boolean;
  } = {},
): Promise<Mem0RestServer> {
  const apiKey = options.apiKey ?? 'm0-local-test-key';
  const delay = options.processingDelayMs ?? 5;
  const memories = new Map<string, HostedMemoryRecord>();
  const requests: Mem0RestServer['requests'] = [];
  let queue: Promise<void> = Promise.resolve();
  let clock = 0;
  const now = () => new Date(Date.now() + clock++).toISOString();

  const create = (body: Record<string, unknown>, content: string): HostedMemoryRecord => {
    const at = now();
    const record: HostedMemoryRecord = {
      id: randomUUID(),
      memory: content,
      user_id: (body.user_id as string) ?? null,
      agent_id: (body.agent_id as string) ?? null,
      app_id: (body.app_id as string) ?? null,
      run_id: (body.run_id as string) ?? null,
      hash: createHash('md5').update(content).digest('hex'),
      metadata: structuredClone((body.metadata as Record<string, unknown>) ?? {}),
      categories: [],
      immutable: false,
      expiration_date: (body.expiration_date as string) ?? null,
      created_at: at,
      updated_at: at,
    };
    memories.set(record.id, record);
    return record;
  };

  const handle = async (req: IncomingMessage): Promise<[number, unknown]> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = await readBody(req);
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, body });
    if (req.headers.authorization !== `Token ${apiKey}`) throw new HttpError(401, 'Invalid API key');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/v1/ping/') {
      return [200, { status: 'ok', org_id: 'org-local', project_id: 'proj-local', user_email: 'dev@localhost' }];
    }
    if (req.method === 'POST' && path === '/v3/memories/add/') {
      const b = asObject(body);
      if (!Array.isArray(b.messages) || b.messages.length === 0) throw new HttpError(400, 'messages must be a non-empty list');
      for (const m of b.messages as unknown[]) {
        const msg = asObject(m);
        if (!['user', 'assistant', 'system'].includes(msg.role as string) || typeof msg.content !== 'string') {
          throw new HttpError(400, 'each message needs role (user|assistant|system) and string content');
        }
      }
      if (!ENTITY_KEYS.some((k) => typeof b[k] === 'string' && b[k] !== '')) throw new HttpError(400, 'one of user_id, agent_id, app_id, run_id is required');
      if (b.metadata !== undefined && (typeof b.metadata !== 'object' || b.metadata === null || Array.isArray(b.metadata))) {
        throw new HttpError(400, 'metadata must be an object');
      }
      // No LLM here: with infer the user messages stand in for extracted facts.
      const contents = (b.messages as { role: string; content: string }[]).filter((m) => b.infer === false || m.role === 'user').map((m) => m.content);
      if (b.async_mode === false) {
        const created = contents.map((c) => create(b, c));
        return [200, { results: created.map((r) => ({ id: r.id, event: 'ADD', memory: r.memory })) }];
      }
      const eventId = randomUUID();
      queue = queue.then(async () => {
        await new Promise((r) => setTimeout(r, delay));
        for (const c of contents) create(b, c);
      });
      return [200, { results: [{ message: 'Memory processing has been queued for background execution', status: 'PENDING', event_id: eventId }] }];
    }
    if (req.method === 'POST' && path === '/v3/memories/') {
      const b = asObject(body ?? {});
      if (ENTITY_KEYS.some((k) => k in b)) throw new HttpError(400, 'Entity IDs (user_id, agent_id, app_id, run_id) must be passed inside filters');
      if (!mentionsEntity(b.filters)) throw new HttpError(400, 'filters must contain at least one of user_id, agent_id, app_id, run_id');
      const page = Number(url.searchParams.get('page') ?? 1);
      const pageSize = Number(url.searchParams.get('page_size') ?? 100);
      if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageSize) || pageSize < 1) throw new HttpError(400, 'bad page or page_size');
      const all = [...memories.values()]
        .filter((m) => b.show_expired === true || !isExpired(m))
        .filter((m) => matches(m, b.filters))
        .sort((x, y) => (x.created_at < y.created_at ? 1 : x.created_at > y.created_at ? -1 : 0));
      const slice = all.slice((page - 1) * pageSize, page * pageSize);
      if (options.dropOneFromEachPage) slice.pop();
      const link = (p: number) => `${url.origin}/v3/memories/?page=${p}&page_size=${pageSize}`;
      return [
        200,
        { count: all.length, next: page * pageSize < all.length ? link(page + 1) : null, previous: page > 1 ? link(page - 1) : null, results: slice },
      ];
    }
    if (req.method === 'POST' && path === '/v3/memories/search/') {
      const b = asObject(body);
      if (typeof b.query !== 'string') throw new HttpError(400, 'query is required');
      if (!mentionsEntity(b.filters)) throw new HttpError(400, 'filters must contain at least one of user_id, agent_id, app_id, run_id');
      const topK = (b.top_k as number | undefined) ?? 10;
      const threshold = (b.threshold as number | undefined) ?? 0;
      const hits = [...memories.values()]
        .filter((m) => b.show_expired === true || !isExpired(m))
        .filter((m) => matches(m, b.filters))
        .map((m) => ({ ...m, score: similarity(b.query as string, m.memory) }))
        .filter((m) => m.score >= threshold)
        .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
        .slice(0, topK);
      return [200, { results: hits }];
    }
    const one = /^\/v1\/memories\/([^/]+)\/$/.exec(path);
    if (one) {
      const id = decodeURIComponent(one[1]!);
      const m = memories.get(id);
      if (!m) throw new HttpError(404, 'Memory not found');
      if (req.method === 'GET') return [200, m];
      if (req.method === 'DELETE') {
        memories.delete(id);
        return [200, { message: 'Memory deleted successfully!' }];
      }
      if (req.method === 'PUT') {
        const b = asObject(body);
        if (typeof b.text === 'string') {
          m.memory = b.text;
          m.hash = createHash('md5').update(b.text).digest('hex');
        }
        if (b.metadata !== undefined) m.metadata = { ...m.metadata, ...(b.metadata as object) };
        if (b.expiration_date !== undefined) m.expiration_date = b.expiration_date as string | null;
        m.updated_at = now();
        return [200, m];
      }
    }
    throw new HttpError(404, `no route ${req.method} ${path}`);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    handle(req).then(
      ([status, payload]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      },
      (error: unknown) => {
        const status = error instanceof HttpError ? error.status : 500;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
      },
    );
  });
  // Node closes idle keep-alive sockets after 5 s; on a loaded machine a client can reuse one just as
  // it closes and get ECONNRESET. Tests close every connection at the end, so keep them open.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    memories,
    requests,
    drain: () => queue,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
