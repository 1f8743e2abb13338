import { join } from 'node:path';
import { jsonShape, loadRecordedExchanges } from '@ewp/conformance/adapter-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZepGraphServer, type ZepGraphServer } from './zep-graph-server.js';

const shape = (value: unknown) => jsonShape(value, (k) => (k === 'metadata' || k === 'attributes' ? 'opaque' : undefined));

const recorded = loadRecordedExchanges(join(import.meta.dirname, '__fixtures__'));

describe('local Zep graph server replays the recorded v2 API shapes and limits', () => {
  let server: ZepGraphServer;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(server.baseUrl + path, {
      method,
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  beforeAll(async () => {
    server = await startZepGraphServer({ processingDelayMs: 0 });
    await call('POST', '/graph/create', { graph_id: 'g' });
  });
  afterAll(() => server.close());

  for (const [file, fx] of recorded) {
    it(file, async () => {
      const seed = (await (await call('POST', '/graph', { graph_id: 'g', type: 'json', data: '{"ewp":"record"}' })).json()) as { uuid: string };
      await server.drain();
      const fill = (v: unknown): unknown =>
        v === undefined ? undefined : JSON.parse(JSON.stringify(v).replaceAll('{graph}', 'g').replaceAll('{episode}', seed.uuid));
      const res = await call(fx.request.method, fill(fx.request.path) as string, fill(fx.request.body));
      expect(res.status).toBe(fx.response.status);
      const body = await res.json();
      if (fx.response.status < 300) expect(shape(body)).toEqual(shape(fx.response.body));
      else expect(body).toEqual(fx.response.body);
    });
  }

  it('refuses episode data over 10 000 characters and non-JSON json episodes', async () => {
    expect((await call('POST', '/graph', { graph_id: 'g', type: 'text', data: 'x'.repeat(10_001) })).status).toBe(400);
    expect((await call('POST', '/graph', { graph_id: 'g', type: 'json', data: '{nope' })).status).toBe(400);
  });

  it('processes episodes asynchronously and pages lists through Zep-Next-Cursor', async () => {
    await call('POST', '/graph/create', { graph_id: 'pages' });
    const added = [];
    for (let i = 0; i < 7; i++)
      added.push((await (await call('POST', '/graph', { graph_id: 'pages', type: 'text', data: `e${i}` })).json()) as { processed: boolean });
    expect(added.every((e) => e.processed === false)).toBe(true);
    await server.drain();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await call('POST', '/graph/episodes/graph/pages', { limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...((await res.json()) as { uuid: string; processed: boolean }[]).map((e) => e.uuid));
      cursor = res.headers.get('zep-next-cursor') ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(7);
  });
});
