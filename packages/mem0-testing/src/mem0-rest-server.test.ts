import { join } from 'node:path';
import { jsonShape, loadRecordedExchanges } from '@ewp/conformance/adapter-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mem0RestServer, startMem0RestServer } from './mem0-rest-server.js';

// Nullable scalars are recorded as null; compare them (and free-form metadata) as "nullable".
const shape = (value: unknown) => jsonShape(value, (k, v) => (v === null || k === 'metadata' ? 'nullable' : undefined));

const recorded = loadRecordedExchanges(join(import.meta.dirname, '__fixtures__'));

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
