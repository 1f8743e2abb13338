/** The tool-contract suite through MCP stdio: spawned server processes on one SQLite ledger, the SDK client. */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import { runToolContract } from '@ewp/tools/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll } from 'vitest';
import { bundleEntry } from './bundle-entry.js';
import { type ErrorReply, mcpBinding, type UnpairedReplies } from './contract-caller.js';

let entry: string;
beforeAll(async () => {
  entry = await bundleEntry(fileURLToPath(new URL('./fixtures/contract-stdio-server.ts', import.meta.url)));
}, 60_000);

/**
 * The error replies with `id: null` on the child's stdout. The SDK's stdio transport drops them (its
 * message schema wants a request id), so they are read beside it, from the same stream.
 */
function unpairedReplies(transport: StdioClientTransport): UnpairedReplies {
  const stdout = (transport as unknown as { _process?: ChildProcess })._process?.stdout;
  if (!stdout) throw new Error("the SDK's StdioClientTransport no longer keeps its child as _process: read its stdout another way");
  const listeners = new Set<(reply: ErrorReply) => void>();
  const decoder = new StringDecoder('utf8');
  let rest = '';
  stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      // The server writes its replies as JSON.stringify orders them: jsonrpc, id, error.
      if (!line.startsWith('{"jsonrpc":"2.0","id":null,')) continue;
      const reply = JSON.parse(line) as ErrorReply;
      for (const listener of listeners) listener(reply);
    }
  });
  return (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
}

async function spawnClient(args: string[]): Promise<{ client: Client; unpaired: UnpairedReplies }> {
  const client = new Client({ name: 'ewp-contract-stdio', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry, ...args], stderr: 'inherit' });
  await client.connect(transport);
  return { client, unpaired: unpairedReplies(transport) };
}

runToolContract({
  name: 'mcp stdio',
  // The server reads JSON-RPC lines strictly: a lone surrogate is a parse error (-32700, `id: null`).
  strictJsonText: true,
  open: async ({ now }) => {
    const db = join(mkdtempSync(join(tmpdir(), 'ewp-contract-stdio-')), 'ewp.sqlite');
    const common = ['--db', db, '--now', now().toISOString()];
    const writer = await spawnClient([...common, '--allow-ingest']);
    const reader = await spawnClient(common);
    return mcpBinding(writer.client, reader.client, undefined, { writer: writer.unpaired, reader: reader.unpaired });
  },
});
