/** A tool-contract caller over the official MCP SDK client, whatever the transport. */
import type { ContractOutcome, OpenedBinding, ToolBinding, ToolCaller } from '@ewp/tools/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createEwpMcpServer } from '../src/index.js';
import { outcome } from './harness.js';

/** Calls tools through `client`; a refusal is read from the MCP result (`isError` and its code). */
export function mcpCaller(client: Client): ToolCaller {
  return {
    call: async (name, args): Promise<ContractOutcome> => {
      const result = outcome(await client.callTool({ name, arguments: args }));
      return result.ok ? { ok: true, value: result.value } : { ok: false, code: result.code };
    },
  };
}

/** The two callers of a contract binding (one client with the ingest role, one without), closed together. */
export function mcpBinding(writer: Client, reader: Client, after: () => Promise<void> = async () => undefined): OpenedBinding {
  return {
    ingest: mcpCaller(writer),
    reader: mcpCaller(reader),
    close: async () => {
      await writer.close();
      await reader.close();
      await after();
    },
  };
}

/**
 * The MCP server over the suite's store, reached by the official SDK client through the SDK's
 * in-memory transport: one server and client per role.
 */
export const mcpInMemoryContractBinding: ToolBinding = {
  name: 'mcp in-memory',
  open: async ({ now, store }) => {
    const connect = async (ingest: boolean) => {
      const server = createEwpMcpServer({ store, roles: { ingest }, clock: now });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'ewp-contract-in-memory', version: '1.0.0' });
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      return { client, server };
    };
    const writer = await connect(true);
    const reader = await connect(false);
    return mcpBinding(writer.client, reader.client, async () => {
      await writer.server.close();
      await reader.server.close();
    });
  },
};
