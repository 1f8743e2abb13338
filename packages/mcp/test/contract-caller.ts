/** A tool-contract caller over the official MCP SDK client, whatever the transport. */
import { type ContractOutcome, JSONRPC_PARSE_ERROR, type OpenedBinding, type ToolBinding, type ToolCaller } from '@ewp/tools/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createEwpMcpServer } from '../src/index.js';
import { PARSE_ERROR } from '../src/jsonrpc-guard.js';
import { outcome } from './harness.js';

/** A JSON-RPC error reply as the server sends it. */
export interface ErrorReply {
  id: unknown;
  error: { code: number; message: string };
}

/**
 * Where a caller hears of error replies that name no request (`id: null`): a server that cannot read
 * a message cannot name it. Returns the function that stops listening.
 */
export type UnpairedReplies = (listener: (reply: ErrorReply) => void) => () => void;

/** The server's reply behind a failed HTTP POST (the SDK puts the body in the error's message). */
function postedReply(error: unknown): ErrorReply | undefined {
  if (!(error instanceof StreamableHTTPError)) return undefined;
  const body = error.message.slice(error.message.indexOf('{'));
  try {
    return JSON.parse(body) as ErrorReply;
  } catch {
    return undefined;
  }
}

function isParseError(reply: ErrorReply | undefined): boolean {
  return reply !== undefined && reply.id === null && reply.error.code === PARSE_ERROR;
}

/**
 * Calls tools through `client`; a refusal is read from the MCP result (`isError` and its code). A
 * message the server refused as unreadable (JSON-RPC -32700, `id: null`) answers
 * {@link JSONRPC_PARSE_ERROR}: over HTTP the POST's reply, over stdio the unpaired reply `unpaired`
 * reports while this (the one outstanding) call waits.
 */
export function mcpCaller(client: Client, unpaired?: UnpairedReplies): ToolCaller {
  return {
    call: async (name, args): Promise<ContractOutcome> => {
      const abort = new AbortController();
      let heard: ErrorReply | undefined;
      const stop = unpaired?.((reply) => {
        heard = reply;
        abort.abort(new Error(`unpaired reply ${JSON.stringify(reply)}`));
      });
      try {
        const result = outcome(await client.callTool({ name, arguments: args }, undefined, { signal: abort.signal }));
        return result.ok ? { ok: true, value: result.value } : { ok: false, code: result.code };
      } catch (error) {
        if (isParseError(heard ?? postedReply(error))) return { ok: false, code: JSONRPC_PARSE_ERROR };
        throw error;
      } finally {
        stop?.();
      }
    },
  };
}

/** The two callers of a contract binding (one client with the ingest role, one without), closed together. */
export function mcpBinding(
  writer: Client,
  reader: Client,
  after: () => Promise<void> = async () => undefined,
  unpaired?: { writer: UnpairedReplies; reader: UnpairedReplies },
): OpenedBinding {
  return {
    ingest: mcpCaller(writer, unpaired?.writer),
    reader: mcpCaller(reader, unpaired?.reader),
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
