/** The ingest token over a real socket: a non-ASCII token sent as UTF-8 gives the role. */
import { connect as netConnect } from 'node:net';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { expect, it } from 'vitest';
import { startEwpHttpServer } from '../src/index.js';
import { verifiedView } from './views.js';

function put(port: number, token: Buffer): Promise<string> {
  const body = Buffer.from(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ewp_evidence_view_put', arguments: { view: verifiedView(), ingest_attestation: true } },
    }),
  );
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1', () => {
      socket.write(
        Buffer.concat([
          Buffer.from('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\nAuthorization: Bearer '),
          token,
          Buffer.from(`\r\nContent-Length: ${body.length}\r\n\r\n`),
          body,
        ]),
      );
    });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('close', () => resolve(data));
  });
}

it('a non-ASCII ingest token, sent as UTF-8, gives the ingest role; its look-alike does not', async () => {
  const token = 'jeton-d’ingestion-€-0123456789';
  const server = await startEwpHttpServer({ store: new MemoryEvidenceStore(), port: 0, ingestToken: token });
  try {
    expect(await put(server.port, Buffer.from(token, 'utf8'))).toContain('"stored":true');
    expect(await put(server.port, Buffer.from(token.replace('€', 'E'), 'utf8'))).toContain('EWP_REFUSE_INGEST_ROLE');
  } finally {
    await server.close();
  }
});
