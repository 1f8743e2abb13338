/**
 * Every write bounded and authorised, over real HTTP with the official MCP SDK client (Streamable
 * HTTP) on a SQLite ledger file: an anonymous `ewp_may_act` is answered and recorded nowhere (the
 * ledger's bytes and chain length unchanged), a token holder's is recorded; a memory's source is the
 * token's principal; every field beyond the field-limits table is refused by its path.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELD_LIMITS } from '@ewp/core';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EwpHttpServer, startEwpHttpServer } from '../src/index.js';
import { call, ok } from './harness.js';
import { SERVER_NOW, verifiedView } from './views.js';

const OPERATOR_TOKEN = 'operator-token-of-at-least-thirty-two-bytes';
const AGENT_TOKEN = 'agent-token-of-at-least-thirty-two-bytes-0';
const dir = mkdtempSync(join(tmpdir(), 'ewp-mcp-write-bounds-'));
const file = join(dir, 'ledger.sqlite');
let store: SqliteEvidenceStore;
let server: EwpHttpServer;
const clients: Client[] = [];

async function client(token?: string): Promise<Client> {
  const c = new Client({ name: 'ewp-test', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  clients.push(c);
  return c;
}

/** The ledger's bytes on disk: the database and its write-ahead log. */
function ledgerBytes(): number {
  return [file, `${file}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
}

beforeAll(async () => {
  store = new SqliteEvidenceStore(file);
  await store.put(verifiedView());
  server = await startEwpHttpServer({
    store,
    port: 0,
    ingestToken: OPERATOR_TOKEN,
    principals: [{ principal: 'agent', token: AGENT_TOKEN }],
    observers: { operator: { self: true } },
    clock: () => SERVER_NOW,
  });
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ewp_may_act records for the writer role only', () => {
  it('N anonymous calls leave the ledger file and chain unchanged; a token holder records', async () => {
    const anonymous = await client();
    const N = 60;
    const bytesBefore = ledgerBytes();
    const chainBefore = (await store.verifyChain()).length;
    const action = { action_id: 'a'.repeat(FIELD_LIMITS.id), kind: 'k'.repeat(FIELD_LIMITS.kind), risk: 'low', reversible: true };
    for (let i = 0; i < N - 1; i += 1) {
      const r = await ok(anonymous, 'ewp_may_act', { proposition_id: 'P-win', action });
      expect(r).toMatchObject({ decision: 'MAY_ACT', decision_id: null, recorded: false, why: expect.stringContaining('anonymous caller') });
    }
    // The attack of the issue: a 900,000-character action_id, refused by its path before anything is decided.
    const huge = await call(anonymous, 'ewp_may_act', { proposition_id: 'P-win', action: { ...action, action_id: 'x'.repeat(900_000) } });
    expect(huge).toMatchObject({ ok: false, code: 'EWP_REFUSE_FIELD_TOO_LARGE' });
    expect(huge.ok === false && huge.message).toContain('$.action.action_id');
    const bytesAfter = ledgerBytes();
    const chainAfter = (await store.verifyChain()).length;
    console.log(
      `write-bounds: ${N} anonymous ewp_may_act: ledger ${bytesBefore} -> ${bytesAfter} bytes (${(bytesAfter - bytesBefore) / N} per request), chain ${chainBefore} -> ${chainAfter}`,
    );
    expect(bytesAfter).toBe(bytesBefore);
    expect(chainAfter).toBe(chainBefore);

    const holder = await client(AGENT_TOKEN);
    const recorded = await ok(holder, 'ewp_may_act', { proposition_id: 'P-win', action });
    expect(recorded).toMatchObject({ decision: 'MAY_ACT', decision_id: expect.stringMatching(/^dec_[0-9a-f]{32}$/), recorded: true });
    expect(recorded).not.toHaveProperty('why');
    // The decision, and (a MAY_ACT claims its call) the execution claim and the call claim.
    expect(recorded).toMatchObject({ claimed: true });
    expect((await store.verifyChain()).length).toBe(chainAfter + 3);
    console.log(`write-bounds: one token holder's ewp_may_act: ledger ${bytesAfter} -> ${ledgerBytes()} bytes`);
    expect(ledgerBytes()).toBeGreaterThan(bytesAfter);
  });
});

describe("a memory's source is its writer's principal", () => {
  it('each token writes as its principal; observations need the observer grant; a source argument needs a granted sub-source', async () => {
    const agent = await client(AGENT_TOKEN);
    const operator = await client(OPERATOR_TOKEN);
    const hypothesis = await ok(agent, 'memory_store', { text: 'The scheduler is misconfigured on every host', epistemic_class: 'hypothesis' });
    expect(hypothesis).toMatchObject({ class: 'hypothesis', source: 'agent' });
    // The paraphrase attack: the agent cannot store its own conclusion as an observation supporting it.
    const paraphrase = await call(agent, 'memory_store', {
      text: 'Every machine has a broken scheduler configuration',
      epistemic_class: 'observation',
      supports: [hypothesis.hash],
    });
    expect(paraphrase).toMatchObject({ ok: false, code: 'EWP_REFUSE_CLASS_NOT_ALLOWED' });
    expect(paraphrase.ok === false && paraphrase.message).toMatch(/class observation.*--observer agent/);
    const named = await call(agent, 'memory_store', { text: 'The scheduler drifts', epistemic_class: 'inference', source: 'ntp-sensor' });
    expect(named).toMatchObject({ ok: false, code: 'EWP_REFUSE_SOURCE_NOT_ALLOWED' });
    const shown = await ok(agent, 'memory_evidence_show', { hash: hypothesis.hash });
    expect(shown).toMatchObject({ support_count: 0, distinct_sources: 0, confidence: 0 });
    // The operator holds the observer grant for its own name, and no sub-source.
    expect(await ok(operator, 'memory_store', { text: 'Host eu-3 scheduler drifts by 10 minutes', epistemic_class: 'observation' })).toMatchObject({
      class: 'observation',
      source: 'operator',
    });
    expect(await call(operator, 'memory_store', { text: 'x', epistemic_class: 'observation', source: 'ntp' })).toMatchObject({
      ok: false,
      code: 'EWP_REFUSE_SOURCE_NOT_ALLOWED',
    });
    // Without a token, no memory write at all.
    const anonymous = await client();
    expect(await call(anonymous, 'memory_store', { text: 'x', epistemic_class: 'inference' })).toMatchObject({ ok: false, code: 'EWP_REFUSE_INGEST_ROLE' });
  });
});

describe('the field-limits table at every tool decoder', () => {
  it('refuses each over-limit field by its path, and writes nothing', async () => {
    const operator = await client(OPERATOR_TOKEN);
    const chain = (await store.verifyChain()).length;
    const cases: [string, Record<string, unknown>, string][] = [
      ['memory_store', { text: 't'.repeat(FIELD_LIMITS.text + 1), epistemic_class: 'inference' }, '$.text'],
      ['memory_store', { text: 'fine', epistemic_class: 'inference', supports: new Array(FIELD_LIMITS.array + 1).fill('h') }, '$.supports'],
      ['memory_store', { text: 'fine', epistemic_class: 'inference', project: 'p'.repeat(FIELD_LIMITS.kind + 1) }, '$.project'],
      ['memory_evidence_link', { support: 's'.repeat(FIELD_LIMITS.id + 1), target: 't' }, '$.support'],
      ['ewp_may_act', { proposition_id: 'P-win', action: { risk: 'low', reversible: true, kind: 'k'.repeat(FIELD_LIMITS.kind + 1) } }, '$.action.kind'],
      ['ewp_may_act', { proposition_id: 'p'.repeat(FIELD_LIMITS.id + 1), action: { risk: 'low', reversible: true } }, '$.proposition_id'],
      [
        'ewp_evidence_view_put',
        { view: { ...verifiedView(), proposition_id: 'p'.repeat(FIELD_LIMITS.id + 1) }, ingest_attestation: true },
        '$.view.proposition_id',
      ],
      [
        'ewp_warrant_now',
        { evaluated_at: SERVER_NOW.toISOString(), proposition_id: 'P-win', extra: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) },
        '$.extra',
      ],
    ];
    for (const [name, args, path] of cases) {
      const r = await call(operator, name, args);
      expect(r, `${name} ${path}`).toMatchObject({ ok: false, code: 'EWP_REFUSE_FIELD_TOO_LARGE' });
      expect(r.ok === false && r.message, `${name} ${path}`).toContain(path);
    }
    expect((await store.verifyChain()).length).toBe(chain);
  });
});
