/**
 * The kept warrant replies: `ewp_warrant_now` on a stored snapshot answered from the text of its piece
 * with T spliced in must be the bytes the SDK road writes for the same call (real SQLite ledger, real
 * servers and transports), at every T inside and outside the kept pieces, and must follow every commit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { EvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { warrantTableFor } from '@ewp/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { source, T, verifiedView } from '../test/views.js';
import { createEwpMcpServer } from './server.js';
import { LineDelimitedServerTransport } from './stdio-transport.js';
import { fastToolCall } from './tool-call-seam.js';
import { storedWarrantCall, WarrantReplies } from './warrant-replies.js';

const dirs: string[] = [];
const stores: EvidenceStore[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function ledgerFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ewp-warrant-replies-'));
  dirs.push(dir);
  return join(dir, 'ledger.sqlite');
}

function open(file: string): SqliteEvidenceStore {
  const s = new SqliteEvidenceStore(file);
  stores.push(s);
  return s;
}

let nextId = 0;
const call = (args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method: 'tools/call', params: { name: 'ewp_warrant_now', arguments: args } });

/** Send `lines` down one road (the seam on or off) to a server of its own over `store`; its replies in order of id. */
async function road(store: EvidenceStore, seam: boolean, lines: readonly string[]): Promise<string[]> {
  const server = createEwpMcpServer({ store, roles: { ingest: false } });
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineDelimitedServerTransport(input, output, { answer: seam ? (message) => fastToolCall(server, message) : undefined });
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
  const replies = text.split('\n').filter((l) => l !== '');
  const id = (reply: string) => (JSON.parse(reply) as { id: number }).id;
  return replies.sort((a, b) => id(a) - id(b));
}

/** Both roads on the same lines: the same bytes, line for line. */
async function sameOnBothRoads(store: EvidenceStore, lines: readonly string[]): Promise<string[]> {
  const sdk = await road(store, false, lines);
  const fast = await road(store, true, lines);
  expect(fast).toEqual(sdk);
  expect(fast).toHaveLength(lines.length);
  return fast;
}

// verifiedView's check is observed at 2026-09-21T18:31Z with a 7-day window: pieces end there and at +7 days.
const TIMES = [
  T,
  '2026-09-21T21:00:00Z',
  '2026-09-22T00:00:00.5Z',
  '2026-09-21T18:30:59.999999Z',
  '2026-09-21T18:31:00Z',
  '2026-09-28T18:30:59.999999Z',
  '2026-09-28T18:31:00Z',
  '2027-01-01T00:00:00-05:00',
  '2026-09-01T00:00:00Z',
  '2025-01-01T00:00:00Z',
];

describe('WarrantReplies: ewp_warrant_now from the kept text of its piece', () => {
  it('answers every T, inside and outside the kept pieces, with the SDK road bytes, from kept texts once computed', async () => {
    const store = open(ledgerFile());
    await store.putMany([verifiedView('P-win'), verifiedView('P-two', 'v-2'), verifiedView('P-"q"\\n', 'v-q')]);
    const replies = WarrantReplies.of(store) as WarrantReplies;
    const lines: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      for (const t of TIMES) {
        lines.push(call({ proposition_id: 'P-win', evaluated_at: t }));
        lines.push(call({ evaluated_at: t, proposition_id: 'P-two' }));
        lines.push(call({ proposition_id: 'P-win', view_id: 'v-ver', evaluated_at: t }));
        lines.push(call({ proposition_id: 'P-"q"\\n', evaluated_at: t }));
      }
    }
    // Refused T's, on a proposition with kept texts: the tool's refusals on both roads.
    for (const t of ['not a time', '2026-09-21', '0000-12-31T23:00:00-05:00', 'x'.repeat(100)]) lines.push(call({ proposition_id: 'P-win', evaluated_at: t }));
    // Not the plain stored form: left to the tool (and its cache) on the fast road.
    lines.push(call({ proposition_id: 'P-win', evaluated_at: T, policy_id: 'reference-v2' }));
    lines.push(call({ proposition_id: 'P-none', evaluated_at: T }));
    lines.push(call({ proposition_id: 'P-win', view_id: 'v-none', evaluated_at: T }));
    const answered = await sameOnBothRoads(store, lines);
    expect(answered[0]).toContain('"acceptance":"ACCEPTED"');
    // Rounds two and three are answered from kept texts (but where T leaves the four pieces kept per proposition).
    expect(replies.hits).toBeGreaterThan(TIMES.length * 4);
    expect(replies.size).toBe(4);
    // Every kept text was computed from a kept piece of the table, under the revision the replies read.
    expect(warrantTableFor(store).size).toBeGreaterThanOrEqual(4);
  });

  it('follows a commit in this connection and in another one on the same file', async () => {
    const file = ledgerFile();
    const store = open(file);
    await store.put(verifiedView('P-win'));
    const twice = [call({ proposition_id: 'P-win', evaluated_at: T }), call({ proposition_id: 'P-win', evaluated_at: T })];
    const before = await sameOnBothRoads(store, twice);
    expect(before[1]).toContain('\\"view_id\\": \\"v-ver\\"');
    // This connection commits a new snapshot that opposes the claim.
    await store.put({
      ...verifiedView('P-win', 'v-2'),
      evidence: [{ evidence_id: 'e2', polarity: 'opposes', source: source('probe', 'tool'), content: 'no', observed_at: '2026-09-02T00:00:00+00:00' }],
    });
    const mine = await sameOnBothRoads(store, twice);
    expect(mine[0]).toContain('\\"view_id\\": \\"v-2\\"');
    // Another connection on the same file commits: the next call answers from its snapshot.
    const other = open(file);
    await other.put(verifiedView('P-win', 'v-3'));
    const theirs = await sameOnBothRoads(store, twice);
    expect(theirs[0]).toContain('\\"view_id\\": \\"v-3\\"');
    expect(theirs[0]).not.toEqual(mine[0]);
  });

  it('is bounded by bytes, the least recently used first', async () => {
    const store = open(ledgerFile());
    const ids = Array.from({ length: 20 }, (_, i) => `P-${i}`);
    await store.putMany(ids.map((p) => verifiedView(p)));
    const table = warrantTableFor(store);
    const replies = new WarrantReplies(table, () => store.revision(), 8 * 1024);
    const compute = (p: string) => async () => {
      const lines = await road(store, false, [call({ proposition_id: p, evaluated_at: T })]);
      return JSON.stringify((JSON.parse(lines[0] as string) as { result: unknown }).result);
    };
    for (const p of ids) {
      // The table holds the piece the text is kept with (the tool's read put it there).
      await table.warrantAt(p, undefined, T);
      await replies.text({ propositionId: p, viewId: undefined, evaluatedAt: T }, compute(p));
    }
    expect(replies.keptBytes).toBeLessThanOrEqual(8 * 1024);
    expect(replies.size).toBeGreaterThan(1);
    expect(replies.size).toBeLessThan(ids.length);
    // The newest is kept, the oldest is not.
    const hits = replies.hits;
    await replies.text({ propositionId: 'P-19', viewId: undefined, evaluatedAt: T }, compute('P-19'));
    expect(replies.hits).toBe(hits + 1);
    await replies.text({ propositionId: 'P-0', viewId: undefined, evaluatedAt: T }, compute('P-0'));
    expect(replies.hits).toBe(hits + 1);
  });

  it('takes only the plain stored form of the arguments', () => {
    expect(storedWarrantCall({ proposition_id: 'P', evaluated_at: T })).toEqual({ propositionId: 'P', viewId: undefined, evaluatedAt: T });
    expect(storedWarrantCall({ proposition_id: 'P', view_id: 'v', evaluated_at: T })).toEqual({ propositionId: 'P', viewId: 'v', evaluatedAt: T });
    for (const args of [
      undefined,
      {},
      { proposition_id: 'P' },
      { proposition_id: '', evaluated_at: T },
      { proposition_id: 5, evaluated_at: T },
      { proposition_id: 'P', evaluated_at: 5 },
      { proposition_id: 'P', evaluated_at: '' },
      { proposition_id: 'P', view_id: '', evaluated_at: T },
      { proposition_id: 'P', view_id: null, evaluated_at: T },
      { proposition_id: 'P', evaluated_at: T, policy_id: 'reference-v2' },
      { proposition_id: 'P', evaluated_at: T, view: {} },
      JSON.parse(`{"proposition_id":"P","evaluated_at":"${T}","__proto__":{}}`) as Record<string, unknown>,
    ]) {
      expect(storedWarrantCall(args), JSON.stringify(args)).toBeUndefined();
    }
  });
});
