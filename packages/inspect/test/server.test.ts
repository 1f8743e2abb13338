/** The inspector's HTTP surface over a real SQLite ledger: read-only, guarded, paged. */
import { request } from 'node:http';
import { connect } from 'node:net';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, type Inspector, InspectorAssetsMissingError, serveInspector } from '../src/index.js';
import { quickstartViews, sqliteLedger } from './ledgers.js';

/** A raw request: Node's fetch would drop a custom Host header. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Raw bytes on a socket; resolves with the status line's code (0 when reset or closed without one). */
function rawStatus(port: number, bytes: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
  });
}

let store: SqliteEvidenceStore;
let inspector: Inspector;

beforeAll(async () => {
  ({ store } = await sqliteLedger(quickstartViews()));
  inspector = await serveInspector({ store, port: 0, clock: () => new Date('2026-09-23T12:00:00Z'), label: 'quickstart' });
});
afterAll(async () => {
  await inspector?.close();
  await store?.close();
});

describe('serveInspector', () => {
  it('listens on loopback by default and serves the page with a strict CSP', async () => {
    expect(inspector.host).toBe('127.0.0.1');
    const page = await raw(inspector.url);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    // No inline script, and nothing loaded from another origin.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding)', async () => {
    expect((await raw(`${inspector.url}api/meta`, { headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await raw(`${inspector.url}api/meta`, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await raw(`${inspector.url}api/meta`, { headers: { host: `localhost:${inspector.port}` } })).status).toBe(200);
  });

  it('answers malformed requests with 400 or 431 through the shared guard, never 500 or a reset', async () => {
    const get = (target: string, headers = 'Host: 127.0.0.1\r\n') => `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`;
    const cases: [string, number][] = [
      [get('/%ff'), 400],
      [get('/%'), 400],
      [get('/%c0%ae%c0%ae/..'), 400],
      [get('/api/proposition?id=%ff'), 400],
      [get('/', ''), 400],
      ['GET / HTTP/1.0\r\n\r\n', 400],
      [get(`/${'a'.repeat(20_000)}`), 431],
      [get('/', `Host: 127.0.0.1\r\nX-Big: ${'b'.repeat(20_000)}\r\n`), 431],
      [get('/'), 200],
    ];
    for (const [bytes, expected] of cases) expect(await rawStatus(inspector.port, bytes), bytes.slice(0, 60)).toBe(expected);
  });

  it('has no write endpoint: anything but GET and HEAD is 405', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of ['', 'api/propositions', 'api/proposition?id=P-deploys-from-main']) {
        const r = await raw(`${inspector.url}${path}`, { method });
        expect(r.status, `${method} /${path}`).toBe(405);
        expect(r.headers.allow).toBe('GET, HEAD');
      }
    }
    const head = await raw(`${inspector.url}api/meta`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('pages propositions newest first, with their axes at T', async () => {
    const all = JSON.parse((await raw(`${inspector.url}api/propositions`)).body);
    // Stored in file order, listed newest first.
    const stored = quickstartViews().map((v) => (v as { proposition_id: string }).proposition_id);
    expect(all.items.map((p: { proposition_id: string }) => p.proposition_id)).toEqual(stored.slice().reverse());
    const deploys = (page: { items: { proposition_id: string; warrant: unknown }[] }) =>
      page.items.find((p) => p.proposition_id === 'P-deploys-from-main')?.warrant;
    expect(deploys(all)).toMatchObject({ acceptance: 'ACCEPTED', currency: 'CURRENT' });
    const first = JSON.parse((await raw(`${inspector.url}api/propositions?limit=1`)).body);
    expect(first).toMatchObject({ offset: 0, limit: 1, has_more: true });
    const last = JSON.parse((await raw(`${inspector.url}api/propositions?limit=1&offset=${stored.length - 1}`)).body);
    expect(last.items[0].proposition_id).toBe(stored[0]);
    expect(last.has_more).toBe(false);
    const later = JSON.parse((await raw(`${inspector.url}api/propositions?at=2027-10-01T00:00:00Z`)).body);
    expect(deploys(later)).toMatchObject({ currency: 'STALE' });
    const found = JSON.parse((await raw(`${inspector.url}api/propositions?q=postgresql`)).body);
    expect(found.items.map((p: { proposition_id: string }) => p.proposition_id)).toEqual(['P-prod-db-version']);
  });

  it('answers one proposition with its snapshots and the trust of its origins', async () => {
    const detail = JSON.parse((await raw(`${inspector.url}api/proposition?id=P-prod-db-version`)).body);
    expect(detail.view.view_id).toBe('quickstart-db-1');
    expect(detail.snapshots).toEqual([{ view_id: 'quickstart-db-1', seq: 0 }]);
    expect(detail.origin_trust).toEqual({ turn: 'endogenous', tool: 'trusted' });
  });

  it('refuses bad parameters with a status and a message naming the parameter', async () => {
    const missing = await raw(`${inspector.url}api/proposition?id=P-none`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error).toContain('P-none');
    const badAt = await raw(`${inspector.url}api/propositions?at=yesterday`);
    expect(badAt.status).toBe(400);
    expect(JSON.parse(badAt.body).error).toMatch(/^at: /);
    const badLimit = await raw(`${inspector.url}api/propositions?limit=-3`);
    expect(badLimit.status).toBe(400);
    expect(JSON.parse(badLimit.body).error).toMatch(/^limit /);
    expect((await raw(`${inspector.url}api/nothing`)).status).toBe(404);
    expect((await raw(`${inspector.url}..%2f..%2fpackage.json`)).status).toBe(404);
  });

  it('reports the audit chain, and verifies again when the ledger changes, without waiting for a timer', async () => {
    const chain = JSON.parse((await raw(`${inspector.url}api/chain`)).body);
    expect(chain).toMatchObject({ ok: true, length: expect.any(Number), verified_at: '2026-09-23T12:00:00.000Z' });
    const ledger = await sqliteLedger(quickstartViews());
    const own = await serveInspector({ store: ledger.store, port: 0 });
    try {
      expect(JSON.parse((await raw(`${own.url}api/chain`)).body).ok).toBe(true);
      // Someone edits the ledger behind the writer's back.
      const writer = new SqliteEvidenceStore(ledger.file);
      const { event } = writer.db.prepare('SELECT event FROM ewp_chain WHERE idx = 1').get() as { event: string };
      writer.db.prepare('UPDATE ewp_chain SET event = ? WHERE idx = 1').run(event.replace('quickstart', 'quickstarT'));
      await writer.close();
      // The edit moved the ledger's revision: the next request verifies again, no fresh=1 needed.
      expect(JSON.parse((await raw(`${own.url}api/chain`)).body)).toMatchObject({ ok: false, firstBadIndex: 1 });
      expect(JSON.parse((await raw(`${own.url}api/chain?fresh=1`)).body)).toMatchObject({ ok: false, firstBadIndex: 1 });
    } finally {
      await own.close();
      await ledger.store.close();
    }
  });

  it('shows the measured loss report of a named adapter, and says when it has none', async () => {
    const mem0 = await serveInspector({ store, port: 0, adapter: 'mem0-oss' });
    try {
      const meta = JSON.parse((await raw(`${mem0.url}api/meta`)).body);
      expect(meta.loss.adapter).toBe('mem0-oss');
      expect(meta.loss.report).toMatchObject({ adapter: 'mem0-oss', ok: true });
      expect(meta.loss.covered).toContain('zep');
    } finally {
      await mem0.close();
    }
    const native = JSON.parse((await raw(`${inspector.url}api/meta`)).body);
    expect(native.loss).toMatchObject({ adapter: null, report: null });
  });

  it('refuses to bind beyond loopback without allowed host names, and a missing page', async () => {
    await expect(serveInspector({ store, port: 0, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'UNSAFE_BIND' });
    await expect(serveInspector({ store, port: 0, assetsDir: '/nonexistent' })).rejects.toSatisfy((e: unknown) => InspectorAssetsMissingError.isInstance(e));
  });
});
