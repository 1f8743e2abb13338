/**
 * The seam for extra JSON routes on the MCP HTTP server: a trivial echo route of each role, served
 * behind the same guard, body limit, token and error mapping as `/mcp`.
 */
import { EwpError } from '@ewp/core';
import { MemoryEvidenceStore, MissingViewError } from '@ewp/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EwpHttpServer, type RestRoute, RestRouteError, startEwpHttpServer } from '../src/index.js';

const TOKEN = 'a-token-of-at-least-thirty-two-bytes-0123';
let server: EwpHttpServer;
let base: string;

const routes: RestRoute[] = [
  { method: 'POST', path: '/v1/echo', role: 'ingest', handler: async (body, _params, ctx) => ({ body, role: ctx.role }) },
  {
    method: 'GET',
    path: '/v1/things/:hash',
    role: 'reader',
    handler: async (_body, params, ctx) => {
      if (params.hash === 'missing') throw new MissingViewError(params.hash);
      if (params.hash === 'bad') throw new EwpError('EWP_REFUSE_INVALID_ARGUMENTS', 'not a hash', { path: '$.hash' });
      if (params.hash === 'boom') throw new Error('secret internals');
      return { hash: params.hash, role: ctx.role, q: ctx.query.get('q') };
    },
  },
];

beforeAll(async () => {
  server = await startEwpHttpServer({ store: new MemoryEvidenceStore(), port: 0, ingestToken: TOKEN, routes, maxBodyBytes: 1024 });
  base = server.url.replace(/\/mcp$/, '');
});
afterAll(async () => {
  await server.close();
});

async function call(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(base + path, { method, headers: init.headers, body: init.body });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}
const json = { 'content-type': 'application/json' };
const bearer = { ...json, authorization: `Bearer ${TOKEN}` };

describe('extra JSON routes on the MCP HTTP server', () => {
  it('serves a route with its parameters, query and role', async () => {
    expect(await call('GET', '/v1/things/ab%2Fc?q=1')).toMatchObject({ status: 200, json: { hash: 'ab/c', role: 'reader', q: '1' } });
    expect(await call('GET', '/v1/things/x', { headers: bearer })).toMatchObject({ status: 200, json: { role: 'ingest' } });
    expect(await call('POST', '/v1/echo', { headers: bearer, body: '{"a":[1,2]}' })).toMatchObject({
      status: 200,
      json: { body: { a: [1, 2] }, role: 'ingest' },
    });
  });

  it('an ingest route needs the token: 401 without, 403 with a wrong one', async () => {
    const none = await call('POST', '/v1/echo', { headers: json, body: '{}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(none.json).toMatchObject({ error: { code: 'EWP_REFUSE_INGEST_ROLE' } });
    const wrong = await call('POST', '/v1/echo', { headers: { ...json, authorization: `Bearer ${TOKEN}x` }, body: '{}' });
    expect(wrong).toMatchObject({ status: 403, json: { error: { code: 'EWP_REFUSE_INGEST_ROLE' } } });
  });

  it('refuses bad bodies as /mcp does: 415, 400 empty or not JSON or not UTF-8, 413 past the limit', async () => {
    expect((await call('POST', '/v1/echo', { headers: { authorization: `Bearer ${TOKEN}` }, body: '{}' })).status).toBe(415);
    expect((await call('POST', '/v1/echo', { headers: bearer, body: '' })).status).toBe(400);
    expect(await call('POST', '/v1/echo', { headers: bearer, body: '{"a":' })).toMatchObject({ status: 400, json: { error: { code: 'JSON_SYNTAX' } } });
    const res = await fetch(`${base}/v1/echo`, { method: 'POST', headers: bearer, body: Buffer.from([0x22, 0xff, 0x22]) });
    expect(res.status).toBe(400);
    expect((await call('POST', '/v1/echo', { headers: bearer, body: `"${'x'.repeat(2000)}"` })).status).toBe(413);
  });

  it('refuses a body nested past the depth limit as bad JSON, never reaching the handler', async () => {
    // 500 levels fit this server's 1 KiB body limit; /mcp gets 100,000 (test/http.test.ts).
    const deep = `{"a":${'['.repeat(500)}${']'.repeat(500)}}`;
    const reply = await call('POST', '/v1/echo', { headers: bearer, body: deep });
    expect(reply).toMatchObject({ status: 400, json: { error: { code: 'JSON_SYNTAX' } } });
    expect(String((reply.json.error as { message: string }).message)).toContain('nested deeper than 128 levels');
  });

  it('maps what a handler throws: 404 nothing stored, 400 a refusal with its path, 500 naming no internals', async () => {
    expect(await call('GET', '/v1/things/missing')).toMatchObject({ status: 404, json: { error: { code: 'EWP_REFUSE_MISSING_VIEW' } } });
    expect(await call('GET', '/v1/things/bad')).toMatchObject({ status: 400, json: { error: { code: 'EWP_REFUSE_INVALID_ARGUMENTS', path: '$.hash' } } });
    const boom = await call('GET', '/v1/things/boom');
    expect(boom).toMatchObject({ status: 500, json: { error: { code: 'INTERNAL', message: 'internal error' } } });
    expect(JSON.stringify(boom.json)).not.toContain('secret');
  });

  it('answers 405 with Allow for another method, 404 for no route, 400 for bad percent-encoding', async () => {
    const wrongMethod = await call('GET', '/v1/echo');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect((await call('GET', '/v1/nothing')).status).toBe(404);
    expect((await call('GET', '/v1/things/')).status).toBe(404);
    expect((await call('GET', '/v1/things/%ff')).status).toBe(400);
    // /mcp and /health stay the server's own.
    expect((await call('GET', '/health')).json).toMatchObject({ server: 'ewp-mcp' });
  });

  it('goes through the Host/Origin guard', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/v1/things/x`, { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('refuses a route the server cannot serve, before listening', async () => {
    const handler = async () => null;
    const bad: RestRoute[][] = [
      [{ method: 'GET', path: 'v1/x', role: 'reader', handler }],
      [{ method: 'GET', path: '/mcp', role: 'reader', handler }],
      [{ method: 'GET', path: '/v1/:a/:a', role: 'reader', handler }],
      [{ method: 'PUT' as 'GET', path: '/v1/x', role: 'reader', handler }],
      [{ method: 'GET', path: '/v1/x', role: 'admin' as 'reader', handler }],
      [
        { method: 'GET', path: '/v1/:a', role: 'reader', handler },
        { method: 'GET', path: '/v1/:b', role: 'reader', handler },
      ],
    ];
    for (const routeList of bad) {
      await expect(startEwpHttpServer({ store: new MemoryEvidenceStore(), port: 0, routes: routeList })).rejects.toSatisfy((e) => RestRouteError.isInstance(e));
    }
  });
});
