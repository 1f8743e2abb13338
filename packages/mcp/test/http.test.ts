/** Streamable HTTP: the SDK client, the token role, and malformed HTTP / JSON-RPC requests. */
import { connect as netConnect } from 'node:net';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EwpHttpServer, startEwpHttpServer } from '../src/index.js';
import { ok, refused } from './harness.js';
import { extractedView, T, verifiedView } from './views.js';

const TOKEN = 'correct horse battery staple, stapled twice';
let server: EwpHttpServer;
const store = new MemoryEvidenceStore();

beforeAll(async () => {
  server = await startEwpHttpServer({ store, port: 0, ingestToken: TOKEN });
});
afterAll(async () => {
  await server.close();
});

async function httpClient(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'ewp-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  return client;
}

describe('Streamable HTTP with the SDK client', () => {
  it('binds to loopback by default', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('the token gives the ingest role; no token or a wrong one does not', async () => {
    const writer = await httpClient({ authorization: `Bearer ${TOKEN}` });
    await ok(writer, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
    const anonymous = await httpClient();
    expect(await refused(anonymous, 'ewp_evidence_view_put', { view: extractedView() })).toBe('EWP_REFUSE_INGEST_ROLE');
    const wrong = await httpClient({ authorization: `Bearer ${TOKEN}x` });
    expect(await refused(wrong, 'ewp_evidence_view_put', { view: extractedView() })).toBe('EWP_REFUSE_INGEST_ROLE');
    expect((await ok(anonymous, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T })).warrant).toMatchObject({
      acceptance: 'ACCEPTED',
    });
    await Promise.all([writer.close(), anonymous.close(), wrong.close()]);
  });

  it('accepts the token as a lowercase bearer, bare, or in X-EWP-Ingest-Token', async () => {
    const variants: Array<Record<string, string>> = [{ authorization: `bearer ${TOKEN}` }, { authorization: TOKEN }, { 'x-ewp-ingest-token': TOKEN }];
    for (const headers of variants) {
      const client = await httpClient(headers);
      await ok(client, 'ewp_evidence_view_put', { view: extractedView(), ingest_attestation: false });
      await client.close();
    }
  });

  it('two clients on one ledger see each other’s writes', async () => {
    const a = await httpClient({ authorization: `Bearer ${TOKEN}` });
    const b = await httpClient({ authorization: `Bearer ${TOKEN}` });
    await ok(a, 'ewp_evidence_view_put', { view: extractedView('P-a') });
    await ok(b, 'ewp_evidence_view_put', { view: extractedView('P-b') });
    expect((await ok(b, 'ewp_evidence_view_get', { proposition_id: 'P-a' })).proposition_id).toBe('P-a');
    expect((await ok(a, 'ewp_evidence_view_get', { proposition_id: 'P-b' })).proposition_id).toBe('P-b');
    const source = { content_hash: 'h', observed_at: T };
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ok(i % 2 ? a : b, 'ewp_evidence_record', {
          proposition_id: 'P-a',
          evidence: { evidence_id: `ex${i}`, polarity: 'supports', content: 'c', observed_at: T, source },
        }),
      ),
    );
    const view = await ok(a, 'ewp_evidence_view_get', { proposition_id: 'P-a' });
    expect((view.evidence as unknown[]).length).toBe(11);
    await Promise.all([a.close(), b.close()]);
  });

  it('serves resources', async () => {
    const client = await httpClient();
    const { resources } = await client.listResources();
    expect(resources[0]?.uri).toBe('ewp://protocol');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('ewp://proposition/{proposition_id}');
    await client.close();
  });
});

interface RawReply {
  status: number;
  headers: Headers;
  body: string;
}

async function post(body: string | Uint8Array, headers: Record<string, string> = {}, path = '/mcp'): Promise<RawReply> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function rpcError(reply: RawReply): { code: number; id: unknown } {
  const parsed = JSON.parse(reply.body) as { id: unknown; error: { code: number } };
  return { code: parsed.error.code, id: parsed.id };
}

async function stillServing(): Promise<void> {
  const reply = await post(JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' }));
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
}

describe('plain JSON-RPC POST /mcp (the reference’s clients)', () => {
  it('answers tools/call without initialize, Accept or session', async () => {
    const reply = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'ewp_warrant_now', arguments: { proposition_id: 'P-win', evaluated_at: T } },
      }),
    );
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('application/json');
    const result = JSON.parse(reply.body).result;
    expect(result.structuredContent.warrant.acceptance).toBe('ACCEPTED');
  });

  it('also answers on / and /mcp/, and a notification gets 202 with no body', async () => {
    for (const path of ['/', '/mcp/']) expect((await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), {}, path)).status).toBe(200);
    const note = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(note.status).toBe(202);
    expect(note.body).toBe('');
  });
});

describe('malformed HTTP requests', () => {
  const jsonRpcCases: Array<[string, string | Uint8Array, number, number, unknown]> = [
    ['bad JSON', '{"jsonrpc":', 400, -32700, null],
    ['not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 400, -32700, null],
    ['empty body', '', 400, -32600, null],
    ['a JSON number', '42', 400, -32600, null],
    ['a batch', JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), 400, -32600, null],
    ['an empty batch', '[]', 400, -32600, null],
    ['a batch of 10 000', JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))), 400, -32600, null],
    ['no method', JSON.stringify({ jsonrpc: '2.0', id: 3 }), 400, -32600, 3],
    ['id null', JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' }), 400, -32600, null],
    ['id array', JSON.stringify({ jsonrpc: '2.0', id: [1], method: 'ping' }), 400, -32600, null],
    [
      'tool arguments nested 100,000 levels',
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ewp_warrant_now","arguments":{"proposition_id":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`,
      400,
      -32700,
      null,
    ],
    ['params a string', JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: 'x' }), 400, -32602, 4],
    ['unknown method', JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'nope' }), 200, -32601, 5],
  ];
  for (const [label, body, status, code, id] of jsonRpcCases) {
    it(`${label} → ${status} / ${code}`, async () => {
      const reply = await post(body);
      expect(reply.status).toBe(status);
      expect(rpcError(reply)).toEqual({ code, id });
      await stillServing();
    });
  }

  it('wrong content type → 415', async () => {
    const reply = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'content-type': 'text/plain' });
    expect(reply.status).toBe(415);
    await stillServing();
  });

  it('wrong methods → 405 with Allow; unknown paths → 404; health → 200', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await fetch(server.url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, POST');
    }
    expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(405);
    expect((await fetch(server.url)).status).toBe(405);
    expect((await post('{}', {}, '/elsewhere')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/nothing`)).status).toBe(404);
    const health = await fetch(`http://127.0.0.1:${server.port}/health`);
    expect(await health.json()).toEqual({ server: 'ewp-mcp', protocol: 'EWP-0.2.0' });
    await stillServing();
  });

  it('a body over 1 MiB → 413 (streamed, without Content-Length)', async () => {
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","pad":"${'x'.repeat(1_100_000)}"}`;
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    await stillServing();
  });

  it('a Content-Length over 1 MiB → 413 from the header alone, body never sent', async () => {
    const head = await new Promise<string>((resolve, reject) => {
      const socket = netConnect(server.port, '127.0.0.1', () => {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`);
      });
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        data += chunk;
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`no answer: ${data}`)), 5000);
    });
    expect(head).toMatch(/^HTTP\/1\.1 413/);
    await stillServing();
  });

  it('garbage on the socket → 400, and the server keeps serving', async () => {
    const reply = await new Promise<string>((resolve) => {
      const socket = netConnect(server.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk;
      });
      socket.on('close', () => resolve(data));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    await stillServing();
  });

  it('foreign Host and Origin headers are refused on a loopback server (DNS rebinding)', async () => {
    expect((await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { origin: 'https://evil.example' })).status).toBe(403);
    const viaHost = await new Promise<string>((resolve) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const socket = netConnect(server.port, '127.0.0.1', () =>
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        ),
      );
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk;
      });
      socket.on('close', () => resolve(data));
    });
    expect(viaHost).toMatch(/^HTTP\/1\.1 403/);
    expect((await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { origin: `http://localhost:${server.port}` })).status).toBe(200);
  });

  it('about 300 random malformed requests each get a specific answer', async () => {
    let s = 7;
    const next = () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31;
    };
    const fragments = [
      '{',
      '}',
      '[',
      ']',
      '"jsonrpc"',
      ':',
      '"2.0"',
      ',',
      '"id"',
      '1',
      'null',
      '"method"',
      '"tools/call"',
      '"params"',
      '{}',
      '"\\u0000"',
      'true',
      '1e999',
    ];
    for (let i = 0; i < 300; i++) {
      const body = Array.from({ length: 1 + Math.floor(next() * 12) }, () => fragments[Math.floor(next() * fragments.length)]).join('');
      const reply = await post(body);
      expect([200, 202, 400]).toContain(reply.status);
      if (reply.status !== 202) {
        const code = rpcError(reply).code;
        expect([-32700, -32600, -32601, -32602]).toContain(code);
      }
    }
    await stillServing();
  });
});
