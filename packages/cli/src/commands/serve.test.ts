/** `ewp serve` in process: real SQLite ledgers, real streams, raw MCP JSON-RPC lines. */
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../cli-io.js';
import { UsageError } from '../errors.js';
import { parseListenAddress, serveCommand } from './serve.js';
import { NOTE_T, noteView } from '../testing/note-view.js';

const T = NOTE_T;
const view = noteView;

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'ewp-serve-'));
}

interface Session {
  io: CliIO;
  stdin: PassThrough;
  stderr: () => string;
  /** Send one JSON-RPC request line and wait for its reply. */
  request(method: string, params?: unknown): Promise<Record<string, unknown>>;
  tool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

function session(env: NodeJS.ProcessEnv = {}, cwd = tmpdir()): Session {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errText = '';
  stderr.on('data', (chunk) => {
    errText += chunk;
  });
  let buffer = '';
  const waiting = new Map<number, (reply: Record<string, unknown>) => void>();
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const reply = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
      buffer = buffer.slice(nl + 1);
      waiting.get(reply.id as number)?.(reply);
    }
  });
  let nextId = 1;
  const request = (method: string, params: unknown = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  return {
    io: { stdin, stdout, stderr, env, cwd },
    stdin,
    stderr: () => errText,
    request,
    async tool(name, args) {
      const reply = await request('tools/call', { name, arguments: args });
      return reply.result as Record<string, unknown>;
    },
  };
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stderr: string }> {
  const s = session(env);
  s.stdin.end();
  const code = await serveCommand(args, s.io);
  return { code, stderr: s.stderr() };
}

describe('ewp serve: startup rules', () => {
  it('without a write role, a ledger option is required', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--db is required');
  });

  it('without a write role, a missing ledger is refused and nothing is created', async () => {
    const file = join(tempDir(), 'sub', 'missing.sqlite');
    const r = await run(['--db', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not found|does not exist/i);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(file, '..'))).toBe(false);
  });

  it('without a write role, a file that is not a ledger is refused, not initialised', async () => {
    const file = join(tempDir(), 'empty.sqlite');
    writeFileSync(file, '');
    expect((await run(['--db', file])).code).toBe(2);
  });

  it('refuses --allow-ingest with --http, and a token file on stdio', async () => {
    const both = await run(['--http', '127.0.0.1:0', '--allow-ingest']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--allow-ingest is stdio only');
    const tokenFile = join(tempDir(), 'token');
    writeFileSync(tokenFile, 'secret\n');
    expect((await run(['--ingest-token-file', tokenFile, '--allow-ingest'])).code).toBe(2);
    expect((await run(['--http', '127.0.0.1:0', '--ingest-token-file', join(tempDir(), 'none')])).code).toBe(2);
    expect((await run(['--http', 'nonsense'])).code).toBe(2);
    expect((await run(['--db', 'a', '--pg', 'postgres://x'])).code).toBe(2);
  });

  it('parses listen addresses, loopback by default', () => {
    expect(parseListenAddress('8765')).toEqual({ host: '127.0.0.1', port: 8765 });
    expect(parseListenAddress('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(parseListenAddress('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
    expect(() => parseListenAddress('host:70000')).toThrow(/PORT/);
    // The one usage error of the CLI, with its code.
    expect(() => parseListenAddress('host:70000')).toThrow(UsageError);
    expect(() => parseListenAddress('x:y')).toThrow(expect.objectContaining({ code: 'USAGE', name: 'UsageError' }));
  });

  it('prints help', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (c) => {
      out += c;
    });
    const io: CliIO = { stdin: new PassThrough(), stdout, stderr: new PassThrough(), env: {}, cwd: tmpdir() };
    expect(await serveCommand(['--help'], io)).toBe(0);
    expect(out).toContain('--allow-ingest');
  });
});

describe('ewp serve on stdio', () => {
  it('writes with --allow-ingest, then serves the same file read-only', async () => {
    const file = join(tempDir(), 'nested', 'ewp.sqlite');
    const writer = session();
    const done = serveCommand(['--db', file, '--allow-ingest'], writer.io);
    const init = await writer.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } });
    expect((init.result as { serverInfo: { name: string } }).serverInfo.name).toBe('ewp-mcp');
    const put = await writer.tool('ewp_evidence_view_put', { view });
    expect(put.structuredContent).toMatchObject({ stored: true, view_id: 'v1' });
    writer.stdin.end();
    expect(await done).toBe(0);
    expect(existsSync(file)).toBe(true);

    const reader = session();
    const readerDone = serveCommand(['--db', file], reader.io);
    const w = await reader.tool('ewp_warrant_now', { proposition_id: 'P-note', evaluated_at: T });
    expect((w.structuredContent as { warrant: { acceptance: string } }).warrant.acceptance).toBe('TENTATIVE');
    const refused = await reader.tool('ewp_evidence_view_put', { view: { ...view, view_id: 'v2' } });
    expect(refused.isError).toBe(true);
    expect((refused.error as { code: string }).code).toBe('EWP_REFUSE_INGEST_ROLE');
    expect(reader.stderr()).toContain('read-only');
    reader.stdin.end();
    expect(await readerDone).toBe(0);
  });

  it("keeps the memory tools' recall counts in <db>.salience.jsonl, so they survive a restart", async () => {
    const file = join(tempDir(), 'ewp.sqlite');
    const first = session();
    const done = serveCommand(['--db', file, '--allow-ingest', '--observer', 'agent=scheduler'], first.io);
    const stored = await first.tool('memory_store', { text: 'The backup job starts at 06:00', epistemic_class: 'observation', source: 'scheduler' });
    const hash = (stored.structuredContent as { hash: string }).hash;
    for (let i = 0; i < 3; i += 1) expect((await first.tool('memory_recall', { query: 'backup job' })).isError).toBeFalsy();
    first.stdin.end();
    expect(await done).toBe(0);
    expect(existsSync(`${file}.salience.jsonl`)).toBe(true);

    const again = session();
    const againDone = serveCommand(['--db', file], again.io);
    const shown = await again.tool('memory_evidence_show', { hash });
    expect(shown.structuredContent).toMatchObject({ hash, salience: { recall_count: 3, energy: 3 } });
    again.stdin.end();
    expect(await againDone).toBe(0);
  });

  it('stdio writes as the principal the operator names; observations and sources only as --observer grants them', async () => {
    const s = session();
    const done = serveCommand(['--allow-ingest', '--principal', 'runner', '--observer', 'runner=tool:http'], s.io);
    const inferred = await s.tool('memory_store', { text: 'The cache is cold after a deploy', epistemic_class: 'inference' });
    expect(inferred.structuredContent).toMatchObject({ source: 'runner', class: 'inference' });
    const observed = await s.tool('memory_store', { text: 'GET /health took 900 ms', epistemic_class: 'observation', source: 'tool:http' });
    expect(observed.structuredContent).toMatchObject({ source: 'runner/tool:http', class: 'observation' });
    const own = await s.tool('memory_store', { text: 'The deploy finished', epistemic_class: 'observation' });
    expect(own).toMatchObject({ isError: true, error: { code: 'EWP_REFUSE_CLASS_NOT_ALLOWED', path: '$.epistemic_class' } });
    const other = await s.tool('memory_store', { text: 'The deploy finished', epistemic_class: 'inference', source: 'sensor:ntp' });
    expect(other).toMatchObject({ isError: true, error: { code: 'EWP_REFUSE_SOURCE_NOT_ALLOWED', path: '$.source' } });
    s.stdin.end();
    expect(await done).toBe(0);
  });

  it('refuses a bad --principal, --token-file or --observer with a usage error', async () => {
    expect((await run(['--allow-ingest', '--principal', 'a/b'])).code).toBe(2);
    expect((await run(['--http', '127.0.0.1:0', '--principal', 'agent'])).code).toBe(2);
    expect((await run(['--allow-ingest', '--token-file', `agent=${join(tempDir(), 'none')}`])).code).toBe(2);
    expect((await run(['--http', '127.0.0.1:0', '--token-file', 'no-equals-sign'])).code).toBe(2);
    expect((await run(['--allow-ingest', '--observer', 'agent=bad source'])).code).toBe(2);
    const short = join(tempDir(), 'short');
    writeFileSync(short, 'too-short', { mode: 0o600 });
    expect((await run(['--http', '127.0.0.1:0', '--token-file', `agent=${short}`])).code).toBe(2);
  });

  it('without a ledger option and with --allow-ingest, serves an in-memory ledger', async () => {
    const s = session();
    const done = serveCommand(['--allow-ingest'], s.io);
    expect((await s.tool('ewp_evidence_view_put', { view })).isError).toBeUndefined();
    s.stdin.end();
    expect(await done).toBe(0);
    expect(s.stderr()).toContain('in memory');
  });
});

describe('ewp serve over PostgreSQL', () => {
  const user = process.env.PGUSER ?? 'postgres';
  const url = (schema: string) => `postgres://${user}@127.0.0.1:5432/test?schema=${schema}`;

  it('writes with --allow-ingest, then serves the same schema read-only; a missing schema is refused', async () => {
    const schema = `ewp_serve_${process.pid}_${Date.now()}`;
    const writer = session();
    const done = serveCommand(['--pg', url(schema), '--allow-ingest'], writer.io);
    expect((await writer.tool('ewp_evidence_view_put', { view })).structuredContent).toMatchObject({ stored: true });
    writer.stdin.end();
    expect(await done).toBe(0);

    const reader = session();
    const readerDone = serveCommand(['--pg', url(schema)], reader.io);
    const got = await reader.tool('ewp_evidence_view_get', { proposition_id: 'P-note' });
    expect((got.structuredContent as { view_id: string }).view_id).toBe('v1');
    expect(((await reader.tool('ewp_evidence_view_put', { view })).error as { code: string }).code).toBe('EWP_REFUSE_INGEST_ROLE');
    reader.stdin.end();
    expect(await readerDone).toBe(0);

    expect((await run(['--pg', url(`${schema}_missing`)])).code).toBe(2);
  });
});

describe('ewp serve --http', () => {
  async function startHttp(args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => Promise<number> }> {
    const s = session(env);
    const done = serveCommand(['--http', '127.0.0.1:0', ...args], s.io);
    for (let i = 0; i < 200 && !s.stderr().includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (\S+)/.exec(s.stderr())?.[1];
    if (!url) throw new Error(`server did not start: ${s.stderr()}`);
    return {
      url,
      stop: async () => {
        process.emit('SIGTERM', 'SIGTERM');
        return done;
      },
    };
  }

  async function callTool(url: string, name: string, args: Record<string, unknown>, token?: string): Promise<Record<string, unknown>> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    return ((await response.json()) as { result: Record<string, unknown> }).result;
  }

  const TOKEN_ENV = 'tok-env-0123456789abcdef0123456789abcdef';
  const TOKEN_FILE = 'tok-file-0123456789abcdef0123456789abcdef';

  it('refuses an ingest token under 32 bytes with one line, on loopback too', async () => {
    const dir = tempDir();
    for (const env of [{ EWP_INGEST_TOKEN: 'x'.repeat(31) }, {}]) {
      const args = ['--http', '127.0.0.1:0', '--db', join(dir, 'short.sqlite')];
      if (!('EWP_INGEST_TOKEN' in env)) {
        writeFileSync(join(dir, 'short-token'), 'tok-5\n', { mode: 0o600 });
        args.push('--ingest-token-file', join(dir, 'short-token'));
      }
      const s = session(env);
      expect(await serveCommand(args, s.io)).toBe(2);
      expect(s.stderr()).toMatch(/^ewp serve: the ingest token is \d+ bytes; it must be at least 32 \(make one with: openssl rand -hex 32\)/);
      expect(s.stderr().trim().split('\n')).toHaveLength(1);
    }
  });

  it('warns, in one line, when the token file is readable by group or others', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'token'), TOKEN_FILE, { mode: 0o644 });
    chmodSync(join(dir, 'token'), 0o644);
    const s = session({});
    const done = serveCommand(['--http', '127.0.0.1:0', '--db', join(dir, 'w.sqlite'), '--ingest-token-file', join(dir, 'token')], s.io);
    for (let i = 0; i < 200 && !s.stderr().includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
    const warnings = s
      .stderr()
      .split('\n')
      .filter((line) => line.includes('warning'));
    expect(warnings).toEqual([`ewp serve: warning: the token file ${join(dir, 'token')} is readable by others (mode 644): chmod 600 it`]);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await done).toBe(0);
  });

  it('takes the ingest token from EWP_INGEST_TOKEN', async () => {
    const file = join(tempDir(), 'http.sqlite');
    const server = await startHttp(['--db', file], { EWP_INGEST_TOKEN: TOKEN_ENV });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(((await callTool(server.url, 'ewp_evidence_view_put', { view })).error as { code: string }).code).toBe('EWP_REFUSE_INGEST_ROLE');
    expect((await callTool(server.url, 'ewp_evidence_view_put', { view }, TOKEN_ENV)).structuredContent).toMatchObject({ stored: true });
    expect(await server.stop()).toBe(0);
  });

  it('takes the ingest token from --ingest-token-file (trimmed)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'token'), `  ${TOKEN_FILE}\n`, { mode: 0o600 });
    const server = await startHttp(['--db', join(dir, 'l.sqlite'), '--ingest-token-file', join(dir, 'token')], {});
    expect((await callTool(server.url, 'ewp_evidence_view_put', { view }, TOKEN_FILE)).structuredContent).toMatchObject({ stored: true });
    expect(await server.stop()).toBe(0);
  });

  it('beyond loopback: requires --allowed-host, a 32-byte token, warns of clear text and keeps the Host check', async () => {
    const dir = tempDir();
    const noHosts = session({ EWP_INGEST_TOKEN: 'x'.repeat(40) });
    expect(await serveCommand(['--http', '0.0.0.0:0', '--db', join(dir, 'a.sqlite')], noHosts.io)).toBe(2);
    expect(noHosts.stderr()).toContain('--allowed-host');
    const shortToken = session({ EWP_INGEST_TOKEN: 'short' });
    expect(await serveCommand(['--http', '0.0.0.0:0', '--allowed-host', 'ewp.test', '--db', join(dir, 'b.sqlite')], shortToken.io)).toBe(2);
    expect(shortToken.stderr()).toContain('at least 32');
    const token = 'x'.repeat(40);
    const s = session({ EWP_INGEST_TOKEN: token });
    const done = serveCommand(['--http', '0.0.0.0:0', '--allowed-host', 'ewp.test', '--db', join(dir, 'c.sqlite')], s.io);
    for (let i = 0; i < 200 && !s.stderr().includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(s.stderr()).toContain('travels in clear');
    const port = Number(/:(\d+)\/mcp/.exec(s.stderr())?.[1]);
    const { request } = await import('node:http');
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
        const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/mcp', headers: { host, 'content-type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(body);
      });
    expect(await status('evil.com')).toBe(403);
    expect(await status('[::1].evil.com')).toBe(403);
    expect(await status('ewp.test:80')).toBe(200);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await done).toBe(0);
  });
});
