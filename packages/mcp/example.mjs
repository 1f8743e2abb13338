import { MemoryEvidenceStore } from '@ewp/ledger';
import { startEwpHttpServer } from '@ewp/mcp';

const store = new MemoryEvidenceStore(); // or new SqliteEvidenceStore('./ewp.sqlite') from @ewp/sqlite
// Streamable HTTP on 127.0.0.1 (port 0: any free one); requests bearing the token may write.
const server = await startEwpHttpServer({ store, port: 0, ingestToken: 'a-long-random-token-for-this-example-only' });
console.log(`MCP endpoint: ${server.url}`); // point Claude, Codex or any MCP client at it; serveStdio({ store }) for stdio
await server.close();
