/** A tool-contract caller over the official MCP SDK client, whatever the transport. */
import type { ContractOutcome, OpenedBinding, ToolCaller } from '@ewp/tools/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
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
