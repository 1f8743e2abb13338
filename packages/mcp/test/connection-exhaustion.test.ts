/**
 * One client holding 300 idle connections against a server limited to 256 descriptors
 * (`ulimit -n 256`, in a child process): other clients are served or refused at once, never left
 * hanging, and everything is served again when the holder goes.
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from './bundle-entry.js';

let entry: string;
beforeAll(async () => {
  entry = await bundleEntry(fileURLToPath(new URL('./fixtures/http-server-entry.ts', import.meta.url)));
}, 60_000);

const children: Array<ReturnType<typeof spawn>> = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

async function startLimited(): Promise<number> {
  const child = spawn('bash', ['-c', `ulimit -n 256 && exec "${process.execPath}" "${entry}"`], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

/** A ping over a fresh connection: `served`, `refused` (reset or closed), or `hung` after 5 s. */
function ping(port: number): Promise<'served' | 'refused' | 'hung'> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ),
    );
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('hung');
    }, 5000);
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(/^HTTP\/1\.1 200/.test(data) ? 'served' : 'refused');
    });
  });
}

describe('connection exhaustion', () => {
  it('300 held connections under ulimit -n 256: others served or refused at once; recovery after', async () => {
    const port = await startLimited();
    expect(await ping(port)).toBe('served');
    const held: Socket[] = [];
    await Promise.all(
      Array.from(
        { length: 300 },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect(port, '127.0.0.1', () => resolve());
            socket.on('error', () => resolve());
            held.push(socket);
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 200));
    const during = await Promise.all(Array.from({ length: 5 }, () => ping(port)));
    expect(during).not.toContain('hung');
    for (const socket of held) socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect(await ping(port)).toBe('served');
  }, 60_000);
});
