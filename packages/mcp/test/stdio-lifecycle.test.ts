/** stdio when the client stops: requests in flight at end of input, and a client that never reads. */
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveStdio } from '../src/index.js';
import { bundleEntry } from './bundle-entry.js';

let entry: string;
beforeAll(async () => {
  entry = await bundleEntry(fileURLToPath(new URL('./fixtures/ewp-serve-entry.ts', import.meta.url)));
}, 60_000);

const line = (id: number, method: string, params: unknown = {}) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

describe('stdio lifecycle', () => {
  it('answers every request in flight when stdin closes (as with `echo ... | ewp serve --pg`), then exits', async () => {
    // A ledger that answers asynchronously (PostgreSQL) keeps requests in flight past the end of input.
    const pg = `postgres://${process.env.PGUSER ?? 'postgres'}@127.0.0.1:5432/test?schema=ewp_mcp_stdio_${process.pid}_${Date.now()}`;
    const child = spawn(process.execPath, [entry, '--pg', pg, '--allow-ingest'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let input = line(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    for (let id = 1; id <= 40; id++) {
      input += line(id, 'tools/call', { name: 'ewp_memory_context', arguments: { proposition_id: `P-${id}` } });
    }
    input += line(41, 'ping');
    // Everything at once, then end of input: the replies must not be dropped.
    child.stdin.end(input);
    expect(await exited).toBe(0);
    const ids = out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: number }).id)
      .sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 42 }, (_, i) => i));
  });

  it('a client that never reads its replies stops the server reading, instead of growing its buffers', async () => {
    const input = new PassThrough();
    const output = new PassThrough({ highWaterMark: 1024 });
    const store = new MemoryEvidenceStore();
    const served = serveStdio({ store, allowIngest: false, input, output });
    const count = 3000;
    for (let id = 1; id <= count; id += 10) {
      for (let k = id; k < id + 10; k++) input.write(line(k, 'ping'));
      await tick();
    }
    await new Promise((r) => setTimeout(r, 100));
    // Without backpressure every reply sits in the buffer and each waits with its own 'drain' listener.
    expect(output.listenerCount('drain')).toBeLessThanOrEqual(2);
    expect(output.writableLength).toBeLessThan(16 * 1024);
    // Once the client reads, every request is answered.
    let answered = 0;
    let rest = '';
    output.setEncoding('utf8').on('data', (chunk: string) => {
      rest += chunk;
      const lines = rest.split('\n');
      rest = lines.pop() as string;
      answered += lines.length;
    });
    input.end();
    await served;
    expect(answered).toBe(count);
    await store.close();
  });
});
