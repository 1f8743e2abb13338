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
