/** The tool-contract suite through MCP Streamable HTTP: the HTTP server, the SDK client, a token for the ingest role. */
import { runToolContract } from '@ewp/tools/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startEwpHttpServer } from '../src/index.js';
import { mcpBinding } from './contract-caller.js';

const TOKEN = 'contract-ingest-token-0123456789abcdef';

async function httpClient(url: string, token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'ewp-contract-http', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

runToolContract({
  name: 'mcp streamable http',
  // The server decides on the system clock, as a deployed server does.
  ownClock: true,
  // The server reads JSON-RPC text strictly: a lone surrogate is a parse error (-32700), answered to the POST.
  strictJsonText: true,
  open: async ({ store }) => {
    const server = await startEwpHttpServer({ store, port: 0, ingestToken: TOKEN });
    const writer = await httpClient(server.url, TOKEN);
    const reader = await httpClient(server.url, undefined);
    return mcpBinding(writer, reader, async () => {
      await server.close();
    });
  },
});
