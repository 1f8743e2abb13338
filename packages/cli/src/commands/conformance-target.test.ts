/**
 * `ewp conformance` against a live store named by URL (the user's own deployment): the local
 * PostgreSQL server, and the local Mem0 and Zep servers reached through the same URL options a real
 * deployment uses, with the secret from a file or the environment. The run's namespace is gone afterwards.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMem0RestServer } from '@ewp/mem0-testing';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore, type PostgresEvidenceStore } from '@ewp/postgres';
import { startZepGraphServer } from '@ewp/zep-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { runConformanceCommand } from './conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-conformance-target-'));
// A ledger of the test's own, for its connection to the server (the schema listing below).
let probe: PostgresEvidenceStore;
beforeAll(async () => {
  probe = await openPostgresStore({ schema: `ewp_ctprobe_${process.pid}_${Date.now()}`, maxConnections: 1 });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await probe.close();
  await dropPostgresLedger(probe.schema);
});

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCaptured((io) => runConformanceCommand(args, io), { cwd: dir, env });

function secretFile(name: string, secret: string): string {
  const path = join(dir, name);
  writeFileSync(path, `${secret}\n`);
  chmodSync(path, 0o600);
  return path;
}

async function conformanceSchemas(): Promise<string[]> {
  const rows = (await probe.pool.query("SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'ewp_conformance_%' ORDER BY 1")).rows;
  return rows.map((r: { schema_name: string }) => r.schema_name);
}

describe('ewp conformance against a live store', () => {
  it('--pg: runs the pack in schemas of its own on the server, drops them, and writes the deployment report', async () => {
    const before = await conformanceSchemas();
    const report = join(dir, 'pg', 'loss-report.md');
    const url = new URL(defaultConnectionString());
    const r = await run(['--pg', `postgres://${url.username}@${url.host}${url.pathname}`, '--report', report]);
    expect(r.stderr).toMatch(/^postgres@\S+: 52 fixtures; 0 loss\(es\) \(0 listed, 0 unexpected\); 0 stale list entries; 0 error\(s\);.*: pass$/m);
    expect(r.code).toBe(0);
    expect(readFileSync(report, 'utf8')).toMatch(/\| postgres@\S+ \| 52 \|/);
    expect(JSON.parse(readFileSync(join(dir, 'pg', 'loss-report.json'), 'utf8')).adapters[0].ok).toBe(true);
    expect(await conformanceSchemas()).toEqual(before);
  }, 300_000);

  it('--mem0: the hosted client against the server the URL names, API key from a file; the run users are emptied', async () => {
    const server = await startMem0RestServer({ processingDelayMs: 1, apiKey: 'm0-deployment-key' });
    try {
      const r = await run(['--mem0', server.url, '--secret-file', secretFile('mem0.key', server.apiKey), '--json']);
      expect(r.stderr).toMatch(/^mem0-hosted@127\.0\.0\.1:\d+: 52 fixtures; .*: pass$/m);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).adapters[0].adapter).toMatch(/^mem0-hosted@/);
      expect(server.requests.some((q) => JSON.stringify(q.body ?? '').includes('ewp-conformance-'))).toBe(true);
      expect(server.memories.size).toBe(0);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('--zep: the official client against the base URL, API key from ZEP_API_KEY; the run graphs are deleted', async () => {
    // The deployment's own extraction: a fact from each claim's text episode.
    const server = await startZepGraphServer({
      processingDelayMs: 0,
      extractor: (episode) => (episode.metadata.ewp_part === 0 ? [{ fact: episode.content, name: 'ASSERTS' }] : []),
    });
    try {
      const r = await run(['--zep', server.baseUrl], { ZEP_API_KEY: server.apiKey });
      expect(r.stderr).toMatch(/^zep@127\.0\.0\.1:\d+: 52 fixtures; .*: pass$/m);
      expect(r.code).toBe(0);
      expect(server.requests.filter((q) => q.method === 'DELETE' && /^\/api\/v2\/graph\/ewp-conformance-/.test(q.path)).length).toBeGreaterThan(0);
      expect(server.episodes.size).toBe(0);
      expect(server.edges.size).toBe(0);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('refuses a password on the command line, a missing key, two stores, and mixing with --adapter (exit 2, nothing run)', async () => {
    const withPassword = await run(['--pg', 'postgres://postgres:hunter2@127.0.0.1:5432/test']);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain('the URL holds a password');
    expect(withPassword.stderr).not.toContain('hunter2');
    const noKey = await run(['--mem0', 'https://api.mem0.ai']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('MEM0_API_KEY');
    expect((await run(['--zep', 'https://api.getzep.com/api/v2', '--pg', 'postgres://postgres@127.0.0.1/test'])).code).toBe(2);
    expect((await run(['--pg', 'postgres://postgres@127.0.0.1/test', '--adapter', 'zep'])).code).toBe(2);
    expect((await run(['--pg', 'postgres://postgres@127.0.0.1/test?schema=mine'])).stderr).toContain('no ?schema= here');
    expect((await run(['--secret-file', 'x'])).code).toBe(2);
    const missing = await run(['--zep', 'https://api.getzep.com/api/v2', '--secret-file', 'no-such-file']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read no-such-file');
    expect(existsSync(join(dir, 'no-such-file'))).toBe(false);
  });
});
