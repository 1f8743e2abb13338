/**
 * Every list reply of `ewp serve --http` is a bounded page with a cursor: `ewp_decisions` over a real
 * SQLite ledger whose decisions carry long action ids (as a hostile writer leaves them), and
 * `POST /v1/recall` over long memories. Paging with each reply's `next_cursor` must visit every
 * record exactly once, each reply within the page bound, and a record larger than a page must come
 * back shortened and flagged, never dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryLedgerFor } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { MAX_PAGE_BYTES, recordRetraction } from '@ewp/tools';
import { appendDecisions } from '@ewp/tools/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EwpHttpServer, MEMORY_REST_ROUTES, startEwpHttpServer } from '../src/index.js';
import { SERVER_NOW, verifiedView } from './views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-mcp-pages-'));
let store: SqliteEvidenceStore;
let server: EwpHttpServer;
let base: string;
let ids: string[];
let hugeId: string;

/** A reply's JSON text is within the page bound plus the envelope: the result travels as text and as structured content. */
const REPLY_BOUND = 2 * MAX_PAGE_BYTES + 64 * 1024;

beforeAll(async () => {
  store = new SqliteEvidenceStore(join(dir, 'l.sqlite'));
  await store.put(verifiedView());
  const at = SERVER_NOW.toISOString();
  ids = await appendDecisions(store, { count: 1200, proposition: 'P-win', evaluatedAt: at, actionIdChars: 600 });
  [hugeId] = (await appendDecisions(store, { count: 1, proposition: 'P-win', evaluatedAt: at, actionIdChars: 400_000 })) as [string];
  ids.push(hugeId);
  server = await startEwpHttpServer({ store, port: 0, clock: () => SERVER_NOW, routes: MEMORY_REST_ROUTES });
  base = server.url.replace(/\/mcp$/, '');
}, 60_000);

afterAll(async () => {
  await server?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function tool(name: string, args: Record<string, unknown>): Promise<{ bytes: number; value: Record<string, unknown> }> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    // A fresh connection each call: the tests work the ledger in this process between calls, long enough for
    // a kept-alive connection to time out just as it is reused.
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', connection: 'close' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  expect(res.status).toBe(200);
  const reply = JSON.parse(text) as { result: { structuredContent: Record<string, unknown>; isError?: boolean } };
  expect(reply.result.isError ?? false).toBe(false);
  return { bytes: Buffer.byteLength(text), value: reply.result.structuredContent };
}

describe('bounded list replies', () => {
  it('ewp_decisions pages through 1,201 decisions with after_index = next_cursor, each reply bounded, the oversized one flagged', async () => {
    const seen: string[] = [];
    let cursor: number | undefined;
    let pages = 0;
    let largest = 0;
    let lastIndex = -1;
    for (;;) {
      const { bytes, value } = await tool('ewp_decisions', { limit: 1000, ...(cursor === undefined ? {} : { after_index: cursor }) });
      largest = Math.max(largest, bytes);
      const decisions = value.decisions as { decision_id: string; chain_index: number; action_id: string; truncated?: boolean }[];
      expect(decisions.length).toBeGreaterThan(0);
      for (const d of decisions) {
        seen.push(d.decision_id);
        lastIndex = d.chain_index;
        if (d.decision_id === hugeId) {
          expect(d.truncated).toBe(true);
          expect(d.action_id.startsWith('fill-0-')).toBe(true);
        } else expect(d.truncated).toBeUndefined();
      }
      pages += 1;
      if (value.next_cursor === null) break;
      expect(value.next_cursor).toBe(decisions[decisions.length - 1]?.chain_index);
      cursor = value.next_cursor as number;
    }
    expect(seen).toEqual(ids);
    // 1,000 listing lines of 600-character action ids are over twice the page bound: the byte bound cut the pages, not the limit.
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(largest).toBeLessThanOrEqual(REPLY_BOUND);
    const after = await tool('ewp_decisions', { limit: 1, after_index: lastIndex });
    expect(after.value).toEqual({ decisions: [], next_cursor: null, truncated: 0 });
  });

  it('ewp_decisions with decision_id bounds one oversized record: shortened and flagged', async () => {
    const { bytes, value } = await tool('ewp_decisions', { decision_id: hugeId });
    expect(bytes).toBeLessThanOrEqual(REPLY_BOUND);
    expect(value).toMatchObject({ truncated: true, decision: { decision_id: hugeId } });
  });

  it('POST /v1/recall answers pages of rows with next_cursor (the cursor goes in the body), within the page bound', async () => {
    const memory = memoryLedgerFor(store, () => SERVER_NOW);
    const texts = new Set<string>();
    for (let i = 0; i < 120; i++) {
      const text = `disk pressure note ${i} ${'detail '.repeat(600)}`;
      texts.add(text);
      await memory.store({ text, class: 'observation', source: 'sensor' });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await fetch(`${base}/v1/recall`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'disk pressure note', limit: 1000, ...(cursor === undefined ? {} : { cursor }) }),
      });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PAGE_BYTES + 1024);
      const body = JSON.parse(text) as { rows: { text: string }[]; next_cursor: string | null };
      expect(body.rows.length).toBeGreaterThan(0);
      seen.push(...body.rows.map((r) => r.text));
      pages += 1;
      if (body.next_cursor === null) break;
      cursor = body.next_cursor;
    }
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(new Set(seen)).toEqual(texts);
    expect(seen.length).toBe(texts.size);
    // The MCP tool answers the same pages.
    const viaTool: string[] = [];
    let toolCursor: string | undefined;
    for (;;) {
      const { bytes, value } = await tool('memory_recall', {
        query: 'disk pressure note',
        limit: 1000,
        ...(toolCursor === undefined ? {} : { cursor: toolCursor }),
      });
      expect(bytes).toBeLessThanOrEqual(REPLY_BOUND);
      viaTool.push(...(value.rows as { text: string }[]).map((r) => r.text));
      if (value.next_cursor === null) break;
      toolCursor = value.next_cursor as string;
    }
    expect(new Set(viaTool)).toEqual(texts);
    const bad = await fetch(`${base}/v1/recall`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cursor: 'x' }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { path: string } }).error.path).toBe('$.cursor');
  }, 60_000);

  it('ewp_recovery_plan pages its held actions with cursor/next_cursor once a retraction holds all 1,201 decisions', async () => {
    await recordRetraction(store, { proposition_id: 'P-win', records: ['check:k1'] });
    const held: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const { bytes, value } = await tool('ewp_recovery_plan', cursor === undefined ? {} : { cursor });
      expect(bytes).toBeLessThanOrEqual(REPLY_BOUND);
      expect(value.held_total).toBe(ids.length);
      held.push(...(value.held as { decision_id: string }[]).map((h) => h.decision_id));
      pages += 1;
      if (value.next_cursor === null) break;
      cursor = value.next_cursor as string;
    }
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(held).toEqual(ids);
  });

  it('memory_evidence_show and GET /v1/evidence/:hash answer a page of events with events_next_cursor', async () => {
    const memory = memoryLedgerFor(store, () => SERVER_NOW);
    const target = await memory.store({ text: 'the nightly backup job fails on host 7', class: 'hypothesis', source: 'agent' });
    for (let i = 0; i < 300; i++) {
      const seen = await memory.store({
        text: `backup log line ${i}: job exited 1 on host 7 ${'trace '.repeat(40)}`,
        class: 'observation',
        source: `sensor-${i}`,
      });
      await memory.link(seen.hash, target.hash);
    }
    for (const via of ['rest', 'tool'] as const) {
      const kinds: string[] = [];
      let after: number | undefined;
      let pages = 0;
      let total = 0;
      for (;;) {
        let value: Record<string, unknown>;
        if (via === 'tool') {
          const answer = await tool('memory_evidence_show', { hash: target.hash, ...(after === undefined ? {} : { events_after: after }) });
          expect(answer.bytes).toBeLessThanOrEqual(REPLY_BOUND);
          value = answer.value;
        } else {
          const res = await fetch(`${base}/v1/evidence/${target.hash}${after === undefined ? '' : `?events_after=${after}`}`, {
            headers: { connection: 'close' },
          });
          const text = await res.text();
          expect(res.status).toBe(200);
          expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PAGE_BYTES + 16 * 1024);
          value = JSON.parse(text) as Record<string, unknown>;
        }
        const events = value.events as { kind: string; chain_index: number }[];
        expect(events.length).toBeGreaterThan(0);
        kinds.push(...events.map((e) => e.kind));
        total = value.events_total as number;
        pages += 1;
        if (value.events_next_cursor === null) break;
        expect(value.events_next_cursor).toBe(events[events.length - 1]?.chain_index);
        after = value.events_next_cursor as number;
      }
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(kinds.length).toBe(total);
      expect(total).toBeGreaterThan(300);
    }
    const bad = await fetch(`${base}/v1/evidence/${target.hash}?events_after=x`);
    expect(bad.status).toBe(400);
  }, 60_000);
});
