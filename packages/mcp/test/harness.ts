/** Connecting the SDK's own client to the server, and reading tool results. */

import type { EvidenceStore } from '@ewp/ledger';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { createEwpMcpServer } from '../src/index.js';
import { SERVER_NOW } from './views.js';

export interface Connected {
  client: Client;
  store: EvidenceStore;
  close(): Promise<void>;
}

/** An SDK client connected in memory to a server over `store` (default: a fresh MemoryEvidenceStore). */
export async function connect(options: { ingest: boolean; store?: EvidenceStore; clock?: () => Date }): Promise<Connected> {
  const store = options.store ?? new MemoryEvidenceStore();
  const server = createEwpMcpServer({ store, roles: { ingest: options.ingest }, clock: options.clock ?? (() => SERVER_NOW) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'ewp-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    store,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export type ToolOutcome = { ok: true; value: Record<string, unknown> } | { ok: false; code: string; message: string };

/** Read a tool result: the structured value, or the refusal code (checked against the text form too). */
export function outcome(result: unknown): ToolOutcome {
  const r = result as CallToolResult & { error?: { code: string; message: string } };
  if (r.isError) {
    const text = (r.content[0] as { text: string }).text;
    const parsed = JSON.parse(text) as { error: string; message: string };
    expect(r.error?.code).toBe(parsed.error);
    return { ok: false, code: parsed.error, message: parsed.message };
  }
  expect(r.structuredContent).toBeDefined();
  expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
  return { ok: true, value: r.structuredContent as Record<string, unknown> };
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  return outcome(await client.callTool({ name, arguments: args }));
}

/** Call and expect success. */
export async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(client, name, args);
  if (!result.ok) throw new Error(`${name} refused: ${result.code} ${result.message}`);
  return result.value;
}

/** Call and expect a refusal; returns the code. */
export async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args);
  if (result.ok) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.value)}`);
  return result.code;
}
