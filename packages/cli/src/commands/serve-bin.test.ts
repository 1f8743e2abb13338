/**
 * The built `ewp serve` (its chunk bundles the MCP server, SDK, zod and ajv) driven by the official
 * MCP SDK client over stdio and Streamable HTTP, against a ledger written by the built `ewp ingest`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTE_T, noteView } from '../testing/note-view.js';

const bin = new URL('../../dist/bin.js', import.meta.url).pathname;
const T = NOTE_T;
const view = noteView;

const dir = mkdtempSync(join(tmpdir(), 'ewp-serve-bin-'));
const db = join(dir, 'ledger.sqlite');
beforeAll(() => {
  writeFileSync(join(dir, 'view.json'), JSON.stringify(view));
  const ingest = spawnSync(process.execPath, [bin, 'ingest', '--db', db, join(dir, 'view.json')], { encoding: 'utf8' });
  expect(ingest.status, ingest.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built ewp serve, with the official MCP client', () => {
  it('lists the tools and answers ewp_warrant_now from the ledger, and refuses writes without --allow-ingest', async () => {
    const client = new Client({ name: 'serve-bin-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'serve', '--db', db], stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['ewp_warrant_now', 'ewp_evidence_view_put']));
      const w = await client.callTool({ name: 'ewp_warrant_now', arguments: { proposition_id: 'P-note', evaluated_at: T } });
      expect(w.isError).toBeFalsy();
      expect((w.structuredContent as { warrant: { acceptance: string } }).warrant.acceptance).toBe('TENTATIVE');
      const refused = await client.callTool({ name: 'ewp_evidence_view_put', arguments: { view: { ...view, view_id: 'v2' } } });
      expect(refused.isError).toBe(true);
      // A bad argument is refused with the field named.
      const bad = await client.callTool({ name: 'ewp_warrant_now', arguments: { proposition_id: true, evaluated_at: T } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('proposition_id');
    } finally {
      await client.close();
    }
  });

  it('reads a piped standard input through its own reused buffer: `process.stdin` is never opened, and every piped call is answered', async () => {
    // A preload reports whether anything opened `process.stdin` (a second handle on descriptor 0).
    const probe = join(dir, 'stdin-probe.mjs');
    writeFileSync(
      probe,
      "const d = Object.getOwnPropertyDescriptor(process, 'stdin'); let opened = false;\n" +
        "Object.defineProperty(process, 'stdin', { configurable: true, enumerable: d.enumerable, get() { opened = true; return d.get.call(process); } });\n" +
        "process.on('exit', () => process.stderr.write('stdin opened: ' + opened + '\\n'));\n",
    );
    const lines = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...Array.from({ length: 2000 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'ewp_warrant_now', arguments: { proposition_id: 'P-note', evaluated_at: T } },
      })),
    ];
    const server = spawn(process.execPath, ['--import', probe, bin, 'serve', '--db', db], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    server.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    server.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    // Written in pieces that split lines, as a pipe delivers them.
    const text = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
    for (let at = 0; at < text.length; at += 7001) server.stdin.write(text.slice(at, at + 7001));
    server.stdin.end();
    const [code] = await once(server, 'exit');
    expect(code, err).toBe(0);
    const replies = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result?: { structuredContent?: { proposition_id?: string } } });
    expect(replies).toHaveLength(2001);
    expect(replies.filter((r) => r.result?.structuredContent?.proposition_id === 'P-note')).toHaveLength(2000);
    expect(err).toContain('stdin opened: false');
  });

  it('serves Streamable HTTP on the address it prints', async () => {
    const server = spawn(process.execPath, [bin, 'serve', '--http', '127.0.0.1:0', '--db', db], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let banner = '';
      server.stderr.setEncoding('utf8');
      while (!/listening on (\S+)/.test(banner)) banner += (await once(server.stderr, 'data'))[0];
      const url = /listening on (\S+)/.exec(banner)?.[1] as string;
      const client = new Client({ name: 'serve-bin-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const w = await client.callTool({ name: 'ewp_warrant_now', arguments: { proposition_id: 'P-note', evaluated_at: T } });
      expect((w.structuredContent as { warrant: { acceptance: string } }).warrant.acceptance).toBe('TENTATIVE');
      await client.close();
    } finally {
      server.kill();
    }
  });

  it('ships the licenses of the third-party code its chunks bundle', () => {
    const notices = readFileSync(new URL('../../dist/THIRD_PARTY_LICENSES.md', import.meta.url), 'utf8');
    for (const name of ['@modelcontextprotocol/sdk', 'zod', 'ajv']) expect(notices).toMatch(new RegExp(`^## ${name}@\\d+\\.\\d+\\.\\d+ \\(`, 'm'));
    expect(notices).toContain('Permission is hereby granted');
  });
});
