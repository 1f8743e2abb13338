import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mem0RestServer, startMem0RestServer } from './mem0-rest-server.js';

interface Recorded {
  request: { method: string; path: string; body?: unknown };
  response: { status: number; body: unknown };
}

/** The shape of a JSON value: key sets and value types, arrays by their first element. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value === null) return 'null';
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        // Nullable scalars are recorded as null; compare them as "nullable".
        .map(([k, v]) => [k, v === null || k === 'metadata' ? 'nullable' : shape(v)]),
    );
  }
  return typeof value;
}

const dir = join(import.meta.dirname, '__fixtures__');
const recorded = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Recorded] as const);

describe('local Mem0 REST server replays the recorded API shapes', () => {
  let server: Mem0RestServer;
  const seed = async (): Promise<string> => {
    const res = await fetch(`${server.url}/v3/memories/add/`, {
      method: 'POST',
      headers: { authorization: `Token ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'seed' }], user_id: 'alex', metadata: { ewp_pid: 'P-x' }, infer: false, async_mode: false }),
    });
    return ((await res.json()) as { results: { id: string }[] }).results[0]!.id;
  };
  beforeAll(async () => {
    server = await startMem0RestServer({ processingDelayMs: 0 });
  });
  afterAll(() => server.close());

  for (const [file, fx] of recorded) {
    it(file, async () => {
      const id = await seed();
      const res = await fetch(server.url + fx.request.path.replace('{id}', id), {
        method: fx.request.method,
        headers: { authorization: `Token ${server.apiKey}`, 'content-type': 'application/json' },
        body: fx.request.body === undefined ? undefined : JSON.stringify(fx.request.body),
      });
      expect(res.status).toBe(fx.response.status);
      const body = await res.json();
      if (fx.response.status === 200) expect(shape(body)).toEqual(shape(fx.response.body));
      await server.drain();
    });
  }

  it('refuses a request without the API key', async () => {
    const res = await fetch(`${server.url}/v1/ping/`);
    expect(res.status).toBe(401);
  });
});
