/**
 * The tool-call seam answers exactly as the SDK road would: the same lines go down both roads (the
 * line transport with and without the seam, each to its own server over one ledger) and every reply
 * must be byte for byte the same, over stdio and over HTTP.
 */
import { PassThrough } from 'node:stream';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T, verifiedView } from '../test/views.js';
import { type EwpHttpServer, startEwpHttpServer } from './http-server.js';
import { createEwpMcpServer } from './server.js';
import { LineDelimitedServerTransport } from './stdio-transport.js';
import { fastToolCall } from './tool-call-seam.js';

const NOW = new Date('2026-09-21T21:00:00Z');
const WARRANT = { proposition_id: 'P-win', evaluated_at: T };
const call = (id: unknown, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });

/** Requests, each a line: what the fast road takes and what it must leave to the Protocol. */
const LINES: { line: string; fast: boolean }[] = [
  // Taken by the fast road.
  { line: call(1, { name: 'ewp_warrant_now', arguments: WARRANT }), fast: true },
  { line: call(2, { name: 'ewp_warrant_now', arguments: WARRANT }), fast: true },
  // The third of one key is answered from the result cache.
  { line: call(3, { name: 'ewp_warrant_now', arguments: WARRANT }), fast: true },
  { line: call('s-4', { name: 'ewp_warrant_now', arguments: WARRANT }), fast: true },
  { line: call(5, { name: 'ewp_no_such_tool', arguments: {} }), fast: true },
  { line: call(6, { name: 'ewp_warrant_now' }), fast: true },
  { line: call(7, { name: 'ewp_warrant_now', arguments: { proposition_id: 5, evaluated_at: T } }), fast: true },
  { line: call(8, { name: 'ewp_warrant_now', arguments: { ...WARRANT, surplus: true } }), fast: true },
  // A key the schema does not know is dropped by it, on both roads.
  { line: call(9, { name: 'ewp_warrant_now', arguments: WARRANT, surplus: 1 }), fast: true },
  { line: call(10, { name: 'ewp_list_propositions', arguments: {} }), fast: true },
  { line: call(11, { name: 'ewp_evidence_view_put', arguments: { view: verifiedView('P-new'), ingest_attestation: true } }), fast: true },
  { line: call(12, { name: 'ewp_may_act', arguments: { proposition_id: 'P-win', action: 'deploy' } }), fast: true },
  // Failing `CallToolRequestSchema`, or the Protocol's own business: left to the Protocol.
  { line: call(20, { name: 'ewp_warrant_now', arguments: [] }), fast: false },
  { line: call(21, { name: 'ewp_warrant_now', arguments: 'P-win' }), fast: false },
  { line: call(22, { arguments: WARRANT }), fast: false },
  { line: JSON.stringify({ jsonrpc: '2.0', id: 23, method: 'tools/call' }), fast: false },
  { line: call(24, { name: 'ewp_warrant_now', arguments: WARRANT, _meta: { progressToken: 'p' } }), fast: false },
  { line: call(25, { name: 'ewp_warrant_now', arguments: WARRANT, task: { ttl: 1000 } }), fast: false },
  { line: call(26, { name: 'ewp_warrant_now', arguments: { proposition_id: 'P-win', evaluated_at: T }, _meta: 'x' }), fast: false },
  // Refused before either road (the transport's JSON-RPC guard): the same on both.
  { line: call(30, { name: 7, arguments: WARRANT }), fast: false },
  { line: call(1.5, { name: 'ewp_warrant_now', arguments: WARRANT }), fast: false },
  { line: call(null, { name: 'ewp_warrant_now', arguments: WARRANT }), fast: false },
  { line: `[${call(31, { name: 'ewp_warrant_now', arguments: WARRANT })}]`, fast: false },
  { line: JSON.stringify({ jsonrpc: '2.0', id: 32, method: 'tools/call', params: [] }), fast: false },
  { line: '{"jsonrpc":"2.0","id":33,"method":"tools/call","params":{', fast: false },
  // A notification is never answered; a call cancelled at once is not answered either.
  { line: JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'ewp_warrant_now', arguments: WARRANT } }), fast: false },
  { line: call(40, { name: 'ewp_warrant_now', arguments: WARRANT }), fast: true },
  { line: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 40, reason: 'changed my mind' } }), fast: false },
  // Behind everything, a request of another method: the Protocol's on both roads.
  { line: JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'ping' }), fast: false },
];

async function seededStore(): Promise<MemoryEvidenceStore> {
  const store = new MemoryEvidenceStore();
  await store.put(verifiedView());
  return store;
}

/** Send `lines` down one road (the seam on or off) and return its output lines and how many the seam answered. */
async function road(store: MemoryEvidenceStore, seam: boolean, lines: readonly string[]): Promise<{ replies: string[]; fast: number }> {
  const server = createEwpMcpServer({ store, roles: { ingest: false }, clock: () => NOW });
  let fast = 0;
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineDelimitedServerTransport(input, output, {
    answer: seam
      ? (message) => {
          const answer = fastToolCall(server, message);
          if (answer !== undefined) fast += 1;
          return answer;
        }
      : undefined,
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  let text = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  await server.connect(transport);
  input.end(`${lines.join('\n')}\n`);
  await closed;
  return { replies: text.split('\n').filter((l) => l !== ''), fast };
}

/** Replies by the JSON of their id (`null` ids, the guard's, keep their order under one key). */
function byId(replies: readonly string[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const reply of replies) {
    const key = JSON.stringify((JSON.parse(reply) as { id?: unknown }).id ?? null);
    map.set(key, [...(map.get(key) ?? []), reply]);
  }
  return map;
}

describe('tool-call seam: the fast road answers byte for byte as the SDK road', () => {
  it('over stdio: every request, valid or not, gets the same reply bytes (or none) on both roads', async () => {
    const store = await seededStore();
    const lines = LINES.map((l) => l.line);
    const sdk = await road(store, false, lines);
    const seam = await road(store, true, lines);
    expect(sdk.fast).toBe(0);
    expect(seam.fast).toBe(LINES.filter((l) => l.fast).length);
    expect(byId(seam.replies)).toEqual(byId(sdk.replies));
    // Every request with an id is answered but the cancelled one; notifications are not.
    const sdkIds = byId(sdk.replies);
    expect(sdkIds.has('40')).toBe(false);
    expect(sdkIds.get('1')?.[0]).toContain('"acceptance":"ACCEPTED"');
    // What fails CallToolRequestSchema gets the SDK's own error (the Protocol's parse throws first,
    // so the SDK answers it as an internal error, naming the schema's complaint).
    expect(JSON.parse(sdkIds.get('20')?.[0] as string)).toMatchObject({ error: { code: -32603, message: expect.stringContaining('arguments') } });
    expect(sdkIds.get('"last"')).toEqual(['{"result":{},"jsonrpc":"2.0","id":"last"}']);
  });

  it('over stdio: a handler that throws is answered alike on both roads', async () => {
    const store = await seededStore();
    // A ledger that cannot be read: the tool's defect reaches the client as a JSON-RPC error.
    store.get = async () => {
      throw new RangeError('the ledger is gone');
    };
    const lines = [call(1, { name: 'ewp_warrant_now', arguments: WARRANT }), call(2, { name: 'ewp_list_propositions', arguments: {} })];
    const sdk = await road(store, false, lines);
    const seam = await road(store, true, lines);
    expect(seam.fast).toBe(2);
    expect(byId(seam.replies)).toEqual(byId(sdk.replies));
  });

  describe('over HTTP, against the stdio SDK road', () => {
    let http: EwpHttpServer;
    let store: MemoryEvidenceStore;
    beforeAll(async () => {
      store = await seededStore();
      http = await startEwpHttpServer({ store, port: 0, clock: () => NOW });
    });
    afterAll(async () => {
      await http.close();
    });

    it('answers each request with the bytes the SDK road writes', async () => {
      const requests = LINES.filter((l) => {
        const m = JSON.parse(l.line.endsWith('{') ? '{}' : l.line) as { id?: unknown };
        // Requests with an id the guard accepts, one per POST (a cancel has no POST of its own to race).
        return (typeof m.id === 'string' || Number.isSafeInteger(m.id)) && m.id !== 40 && !l.line.includes('"name":7') && !l.line.includes('"params":[]');
      }).map((l) => l.line);
      const sdk = byId((await road(store, false, requests)).replies);
      for (const line of requests) {
        const response = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: line });
        const body = await response.text();
        expect([body], line).toEqual(sdk.get(JSON.stringify((JSON.parse(line) as { id: unknown }).id)));
      }
    });
  });
});
