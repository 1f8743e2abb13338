/**
 * The guarded server over real sockets on 127.0.0.1: malformed and oversized requests get their
 * status, idle and dripping connections cannot lock others out, and a client that pipelines
 * without reading holds a bounded amount of the server's work and memory.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuardedServer, type GuardedServer, type HttpLimits } from '../src/index.js';

const servers: GuardedServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await s.close();
});

interface Started {
  server: GuardedServer;
  port: number;
  /** Handler calls so far. */
  calls: () => number;
}

/** A server whose `/health` answers `{"ok":true}`, `/big` 64 KiB, `/hang` never, `/echo` its body. */
async function start(limits: Partial<HttpLimits> = {}): Promise<Started> {
  let calls = 0;
  const big = Buffer.alloc(64 * 1024, 'x');
  const server = await createGuardedServer(
    { bindHost: '127.0.0.1', limits, errorBody: (status, message) => ({ status, message }) },
    async (_req, res, request) => {
      calls += 1;
      const path = request.target.path;
      if (path === '/hang') return new Promise<void>(() => {});
      if (path === '/boom') throw new Error('secret /etc/path');
      if (path === '/echo') {
        const body = await request.readBody();
        if (body === undefined) return;
        res.end(body);
        return;
      }
      if (path === '/big') {
        res.writeHead(200, { 'content-length': big.length });
        res.end(big);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, path }));
    },
  );
  servers.push(server);
  const { port } = await server.listen(0);
  return { server, port, calls: () => calls };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** Send raw bytes and collect everything until the server closes or `ms` pass. */
async function exchange(port: number, bytes: string | Buffer, ms = 3000): Promise<string> {
  const socket = await open(port);
  socket.removeAllListeners('error');
  return new Promise((resolve) => {
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(data);
    }, ms);
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.write(bytes);
  });
}

const statusOf = (reply: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0);

/** GET /health on a fresh connection: the status, or 0 when refused or not answered within 3 s. */
async function probe(port: number): Promise<number> {
  return statusOf(await exchange(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
}

describe('malformed and oversized requests', () => {
  it('each gets its status, never a reset or a 500', async () => {
    const { port } = await start({ maxBodyBytes: 1024 });
    const get = (target: string, headers = 'Host: 127.0.0.1\r\n') => `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`;
    const cases: [string, string, number][] = [
      ['a good request', get('/health'), 200],
      ['%ff', get('/%ff'), 400],
      ['a lone %', get('/%'), 400],
      ['overlong UTF-8 dots', get('/%c0%ae%c0%ae/..'), 400],
      ['%zz in the query', get('/health?a=%zz'), 400],
      ['%ff in the query', get('/health?id=%ff'), 400],
      ['a good query', get('/health?q=a+b%20c%E2%82%AC'), 200],
      ['an absolute-form target', get('http://127.0.0.1/health'), 400],
      ['no Host, HTTP/1.1', get('/health', ''), 400],
      ['no Host, HTTP/1.0', 'GET /health HTTP/1.0\r\n\r\n', 400],
      ['a foreign Host', get('/health', 'Host: evil.example\r\n'), 403],
      ['a foreign Origin', get('/health', 'Host: 127.0.0.1\r\nOrigin: http://evil.example\r\n'), 403],
      ['a URL of 20 KiB', get(`/${'a'.repeat(20 * 1024)}`), 431],
      ['a header of 20 KiB', get('/health', `Host: 127.0.0.1\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\n`), 431],
      ['a garbage request line', 'HELLO\r\n\r\n', 400],
      ['a bad Content-Length', 'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1x\r\n\r\n', 400],
      ['a declared body over the limit', 'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\n', 413],
      [
        'a chunked body over the limit',
        `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n${'c'.repeat(2048)}\r\n0\r\n\r\n`,
        413,
      ],
      ['a handler that throws', get('/boom'), 500],
    ];
    const seen: string[] = [];
    for (const [name, bytes, expected] of cases) {
      const reply = await exchange(port, bytes);
      seen.push(`${name}: ${statusOf(reply)}`);
      expect(statusOf(reply), `${name}: ${reply.slice(0, 200)}`).toBe(expected);
      if (expected >= 400) expect(reply).toMatch(/\r\n\r\n\{"status":\d{3},"message":"[^"]+"\}$/);
      expect(reply).not.toContain('secret');
    }
    // The server still serves after all of them.
    expect(await probe(port)).toBe(200);
  });

  it('answers 408 to a client that does not finish its headers in time', async () => {
    const { port } = await start({ headersTimeoutMs: 700, requestTimeoutMs: 1500 });
    const reply = await exchange(port, 'GET /health HTTP/1.1\r\nHost: 127', 5000);
    expect(statusOf(reply)).toBe(408);
  });
});

describe('fair connections', () => {
  it('200 idle or dripping sockets held past the cap: new clients are still answered', async () => {
    const { server, port } = await start();
    expect(server.limits.maxConnections).toBe(128);
    const held: Socket[] = [];
    for (let i = 0; i < 200; i++) {
      const socket = await open(port).catch(() => undefined);
      if (socket === undefined) continue;
      socket.on('error', () => {});
      socket.resume();
      // Half say nothing; half drip a header a byte at a time.
      if (i % 2 === 1) socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: ');
      held.push(socket);
    }
    const drip = setInterval(() => {
      for (const socket of held) if (!socket.destroyed) socket.write('a');
    }, 200);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push(await probe(port));
      const answered = statuses.filter((s) => s === 200).length;
      console.log(`fair connections: ${answered}/20 probes answered with 200 while 200 sockets were held`);
      expect(answered).toBe(20);
    } finally {
      clearInterval(drip);
    }
  });

  it('past the cap with nothing idle: 503 with Retry-After', async () => {
    const { port } = await start({ maxConnections: 4, retryAfterSeconds: 3 });
    for (let i = 0; i < 4; i++) (await open(port)).write('GET /hang HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise((r) => setTimeout(r, 200));
    const reply = await exchange(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(statusOf(reply)).toBe(503);
    expect(reply).toMatch(/\r\nretry-after: 3\r\n/i);
  });
});

describe('slow request bodies', () => {
  it('200 sockets sending a body at 1 byte/s (reopened when closed): normal clients are answered throughout, the slow ones get 408 within seconds', async () => {
    const { server, port } = await start();
    const slow: { socket: Socket; reply: string; closed: boolean }[] = [];
    let attacking = true;
    /** One slow sender; when the server closes it, the attacker opens another while the attack lasts. */
    const sendSlowly = async (): Promise<void> => {
      const socket = await open(port).catch(() => undefined);
      if (socket === undefined) return;
      const held = { socket, reply: '', closed: false };
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => {
        held.reply += chunk.toString('latin1');
      });
      socket.on('close', () => {
        held.closed = true;
        if (attacking) setTimeout(() => void sendSlowly(), 50);
      });
      socket.write('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n');
      slow.push(held);
    };
    for (let i = 0; i < 200; i++) await sendSlowly();
    const drip = setInterval(() => {
      for (const { socket } of slow) if (!socket.destroyed) socket.write('a');
    }, 1000);
    const began = Date.now();
    try {
      const statuses: number[] = [];
      while (Date.now() - began < 3000) {
        statuses.push(await probe(port));
        await new Promise((r) => setTimeout(r, 50));
      }
      const echoed = await exchange(port, 'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello');
      console.log(`slow bodies: ${statuses.filter((s) => s === 200).length}/${statuses.length} probes answered with 200`);
      expect(statuses.length).toBeGreaterThan(3);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(statusOf(echoed)).toBe(200);
      expect(echoed.endsWith('hello')).toBe(true);
      // A slow body is dropped once it has run below the floor past its first second (or evicted sooner): none holds a slot for long.
      const first = slow.slice(0, 100);
      await expect.poll(() => first.filter((s) => s.closed).length, { timeout: 3000, interval: 100 }).toBe(first.length);
      expect(slow.some((s) => statusOf(s.reply) === 408)).toBe(true);
      expect(slow.every((s) => s.reply === '' || statusOf(s.reply) === 408 || statusOf(s.reply) === 503)).toBe(true);
      expect(server.http.listening).toBe(true);
    } finally {
      attacking = false;
      clearInterval(drip);
    }
  }, 20_000);

  it('a body that keeps above the floor but does not finish within the body timeout gets 408', async () => {
    const { port } = await start({ bodyTimeoutMs: 1000, bodyRateFloorBytesPerSecond: 100 });
    const socket = await open(port);
    let reply = '';
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
    });
    socket.write('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n');
    const feed = setInterval(() => {
      if (!socket.destroyed) socket.write('b'.repeat(500));
    }, 100);
    try {
      await expect.poll(() => statusOf(reply), { timeout: 4000, interval: 100 }).toBe(408);
      expect(reply).toContain('request body not received in time');
    } finally {
      clearInterval(feed);
    }
  });
});

describe('bounded work for clients that pipeline and never read', () => {
  it('one connection: the server stops reading its requests, then answers every one in order once it reads', async () => {
    const { server, port, calls } = await start();
    const socket = await open(port);
    socket.pause();
    const count = 300;
    let requests = '';
    for (let i = 0; i < count; i++) requests += `GET /big?i=${i} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    socket.write(requests);
    await new Promise((r) => setTimeout(r, 1500));
    // 300 × 64 KiB would be 19 MiB of replies; only the kernel's socket buffers and one budget are used.
    expect(calls()).toBeLessThan(count / 2);
    expect(server.pendingReplyBytes()).toBeLessThan(server.limits.connectionReplyBudgetBytes + 2 * 64 * 1024);
    let received = 0;
    const all = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= count * 64 * 1024) resolve();
      });
    });
    socket.resume();
    await all;
    await expect.poll(calls, { timeout: 10_000 }).toBe(count);
  });

  it('many connections over the total budget: the stalled ones are closed, others are served', async () => {
    const { server, port } = await start({ totalReplyBudgetBytes: 2 * 1024 * 1024, connectionReplyBudgetBytes: 128 * 1024 });
    let requests = '';
    for (let i = 0; i < 500; i++) requests += 'GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const stalled: Socket[] = [];
    for (let i = 0; i < 40; i++) {
      const socket = await open(port);
      socket.on('error', () => {});
      socket.pause();
      socket.write(requests);
      stalled.push(socket);
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(await probe(port)).toBe(200);
    const openCount = await new Promise<number>((resolve, reject) => server.http.getConnections((error, n) => (error ? reject(error) : resolve(n))));
    expect(openCount).toBeLessThan(40);
    expect(server.pendingReplyBytes()).toBeLessThanOrEqual(server.limits.totalReplyBudgetBytes + 64 * 1024);
  });
});
