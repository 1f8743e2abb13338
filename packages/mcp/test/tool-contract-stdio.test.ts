/** The tool-contract suite through MCP stdio: spawned server processes on one SQLite ledger, the SDK client. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToolContract } from '@ewp/tools/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll } from 'vitest';
import { bundleEntry } from './bundle-entry.js';
import { mcpBinding } from './contract-caller.js';

let entry: string;
beforeAll(async () => {
  entry = await bundleEntry(fileURLToPath(new URL('./fixtures/contract-stdio-server.ts', import.meta.url)));
}, 60_000);

async function spawnClient(args: string[]): Promise<Client> {
  const client = new Client({ name: 'ewp-contract-stdio', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, ...args], stderr: 'inherit' }));
  return client;
}

runToolContract({
  name: 'mcp stdio',
  open: async ({ now }) => {
    const db = join(mkdtempSync(join(tmpdir(), 'ewp-contract-stdio-')), 'ewp.sqlite');
    const common = ['--db', db, '--now', now().toISOString()];
    const writer = await spawnClient([...common, '--allow-ingest']);
    const reader = await spawnClient(common);
    return mcpBinding(writer, reader);
  },
});
