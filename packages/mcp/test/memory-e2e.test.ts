/**
 * The evidence layer end to end (docs/spec/evidence-layer.md, tests 12 and 13): the REST routes over
 * real HTTP on `ewp serve --http`'s server, and the memory tools through the official MCP client,
 * over the stores this package can open (memory, commit records, SQLite file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitRecordEvidenceStore, type EvidenceStore, MemoryCommitRecordStore, MemoryEvidenceStore } from '@ewp/ledger';
import type { MemoryLedger, RecallRow, StoreMemoryResult } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { type EwpHttpServer, MEMORY_REST_ROUTES, startEwpHttpServer } from '../src/index.js';
import { call, connect, ok } from './harness.js';

type Shown = Awaited<ReturnType<MemoryLedger['show']>>;

const TOKEN = 'a-token-of-at-least-thirty-two-bytes-0123';
const AGENT_TOKEN = 'the-agent-token-of-at-least-thirty-two-bytes';
const dir = mkdtempSync(join(tmpdir(), 'ewp-mcp-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const STORES: [string, () => EvidenceStore][] = [
  ['memory', () => new MemoryEvidenceStore()],
  ['commit-records', () => new CommitRecordEvidenceStore(new MemoryCommitRecordStore())],
  ['sqlite', () => new SqliteEvidenceStore(join(dir, `l-${++n}.sqlite`))],
];

describe.each(STORES)('evidence layer end to end: %s', (_name, create) => {
  it('12. POST /v1/store {class: hypothesis} -> 100 x /v1/recall -> confidence 0, support 0; then an observation supporting it -> confidence > 0, and the audit shows PROMO_GATE', async () => {
    const store = create();
    // Two principals: the operator (whose ntp sensor may observe) and the agent (whose writes are its own inferences and hypotheses).
    const server: EwpHttpServer = await startEwpHttpServer({
      store,
      port: 0,
      ingestToken: TOKEN,
      principals: [{ principal: 'agent', token: AGENT_TOKEN }],
      observers: { operator: { sources: ['ntp'] } },
      routes: MEMORY_REST_ROUTES,
    });
    const base = server.url.replace(/\/mcp$/, '');
    const post = async (path: string, body: unknown, token: boolean | string = true) => {
      const bearer = token === true ? TOKEN : token;
      const res = await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as StoreMemoryResult & { rows: RecallRow[]; error?: unknown } };
    };
    try {
      const claim = await post('/v1/store', { text: 'The scheduler is misconfigured on every host', class: 'hypothesis' }, AGENT_TOKEN);
      expect(claim).toMatchObject({ status: 200, json: { class: 'hypothesis', confidence: 0, source: 'agent' } });
      const hash = claim.json.hash as string;
      for (let i = 0; i < 100; i += 1) {
        const r = await post('/v1/recall', { query: 'scheduler misconfigured' }, false);
        expect(r.status).toBe(200);
        expect(r.json.rows[0]).toMatchObject({ hash, class: 'hypothesis', confidence: 0 });
      }
      const before = (await (await fetch(`${base}/v1/evidence/${hash}`)).json()) as Shown;
      expect(before).toMatchObject({
        class: 'hypothesis',
        confidence: 0,
        support_count: 0,
        refute_count: 0,
        distinct_sources: 0,
        salience: { recall_count: 100, importance: 0 },
      });
      expect(before.first_seen).toEqual(expect.any(String));
      const obs = await post('/v1/store', { text: 'Host eu-3 scheduler drifts by 10 minutes', class: 'observation', source: 'ntp', supports: [hash] });
      expect(obs).toMatchObject({ status: 200, json: { class: 'observation', source: 'operator/ntp', links: [{ target: hash, echo: false }] } });
      expect(obs.json.links[0]?.target_confidence).toBeGreaterThan(0);
      const after = (await (await fetch(`${base}/v1/evidence/${hash}`)).json()) as Shown;
      expect(after).toMatchObject({ support_count: 1, distinct_sources: 1 });
      expect(after.confidence).toBeGreaterThan(0);
      expect(after.events.map((e) => e.kind)).toContain('memory.promo_gate');
      // Writes need the token; a refusal names its code.
      expect((await post('/v1/store', { text: 'x', class: 'observation' }, false)).status).toBe(401);
      const bad = await post('/v1/store', { text: 'x', class: 'belief' });
      expect(bad).toMatchObject({ status: 400, json: { error: { code: 'EWP_REFUSE_INVALID_ARGUMENTS', path: '$.class' } } });
      expect((await fetch(`${base}/v1/evidence/${'0'.repeat(32)}`)).status).toBe(400);
      // The agent cannot observe, nor name a source; a misspelt field is refused by name, not dropped.
      const observed = await post(
        '/v1/store',
        { text: 'Every machine has a broken scheduler configuration', class: 'observation', supports: [hash] },
        AGENT_TOKEN,
      );
      expect(observed).toMatchObject({ status: 403, json: { error: { code: 'EWP_REFUSE_CLASS_NOT_ALLOWED', path: '$.class' } } });
      expect(JSON.stringify(observed.json)).toContain('--observer agent');
      const named = await post('/v1/store', { text: 'The cron daemon is stuck', class: 'inference', source: 'ntp' }, AGENT_TOKEN);
      expect(named).toMatchObject({ status: 403, json: { error: { code: 'EWP_REFUSE_SOURCE_NOT_ALLOWED', path: '$.source' } } });
      const typo = await post('/v1/store', { text: 'The cron daemon is stuck', class: 'inference', sorce: 'ntp' }, AGENT_TOKEN);
      expect(typo).toMatchObject({ status: 400, json: { error: { code: 'EWP_REFUSE_UNKNOWN_FIELD', path: '$.sorce' } } });
      expect((await post('/v1/recall', { query: 'scheduler', limt: 5 }, false)).json).toMatchObject({
        error: { code: 'EWP_REFUSE_UNKNOWN_FIELD', path: '$.limt' },
      });
      const unshown = (await (await fetch(`${base}/v1/evidence/${hash}`)).json()) as Shown;
      expect(unshown).toMatchObject({ support_count: 1, distinct_sources: 1 });
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('13. MCP memory_evidence_audit verifies; memory_evidence_gates returns the number of blocked promotions', async () => {
    const store = create();
    const writer = await connect({ ingest: true, store });
    const reader = await connect({ ingest: false, store });
    try {
      const hashes = [];
      for (const text of ['guess one about the scheduler', 'guess two about the scheduler']) {
        hashes.push((await ok(writer.client, 'memory_store', { text, epistemic_class: 'hypothesis' })).hash as string);
      }
      for (let i = 0; i < 5; i += 1) await ok(reader.client, 'memory_recall', { query: 'scheduler' });
      const audit = await ok(reader.client, 'memory_evidence_audit', {});
      expect(audit.chain).toMatchObject({ ok: true });
      expect(await ok(reader.client, 'memory_evidence_gates', {})).toMatchObject({ blocked: 2, allowed: 0 });
      const context = await ok(reader.client, 'memory_auto_context', {});
      expect(context).toMatchObject({ hot: { rows: [{ class: 'hypothesis', confidence: 0 }, { class: 'hypothesis' }] }, confirmed: { rows: [] } });
      // Reader role reads only; an inference as support is refused naming it.
      expect(await call(reader.client, 'memory_store', { text: 'x', epistemic_class: 'observation' })).toMatchObject({
        ok: false,
        code: 'EWP_REFUSE_INGEST_ROLE',
      });
      const inference = (await ok(writer.client, 'memory_store', { text: 'So every host fails', epistemic_class: 'inference' })).hash as string;
      const refused = await call(writer.client, 'memory_evidence_link', { support: inference, target: hashes[0] });
      expect(refused).toMatchObject({ ok: false, code: 'EWP_REFUSE_MEMORY_SUPPORT_CLASS' });
      expect(refused.ok === false && refused.message).toContain(inference);
      const shown = await ok(reader.client, 'memory_evidence_show', { hash: hashes[0] });
      expect(shown).toMatchObject({ class: 'hypothesis', confidence: 0, warrant: { acceptance: 'TENTATIVE' } });
    } finally {
      await reader.close();
      await writer.close();
      await store.close();
    }
  });
});
