/**
 * Clients that pipeline list requests and never read, against the real `ewp serve --http` and
 * `ewp inspect` processes over a real SQLite ledger of 10,000 recorded decisions (each with a
 * 1,000-character action id, as a hostile writer leaves them) and 300 long memories: 25 sockets
 * with a 4 KiB receive buffer each send `ewp_decisions {"limit":1000}`, `GET /api/decisions?limit=1000`
 * or `POST /v1/recall {"limit":1000}` over and over and read nothing. Each reply is a bounded page
 * and a connection's next request waits for its unsent replies, so the server's resident memory
 * must stay within 64 MB of its idle figure, and a well-behaved client must be answered every time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryLedgerFor } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { appendDecisions } from '@ewp/tools/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from './bundle-entry.js';
import { SERVER_NOW, verifiedView } from './views.js';

const DECISIONS = 10_000;
const MEMORIES = 300;
const SOCKETS = 25;
const CALLS_PER_SOCKET = 2_000;
const ATTACK_MS = 5_000;
const SAMPLE_MS = 100;
/** The goal: peak resident memory under attack within this much of the idle figure. */
const BUDGET_MB = 64;

const dir = mkdtempSync(join(tmpdir(), 'ewp-hostile-replies-'));
const db = join(dir, 'ledger.sqlite');
const running: ChildProcess[] = [];
const tokenFile = join(dir, 'token');
let serveEntry: string;
let inspectEntry: string;

beforeAll(async () => {
  const store = new SqliteEvidenceStore(db);
  await store.put(verifiedView());
  await appendDecisions(store, { count: DECISIONS, proposition: 'P-win', evaluatedAt: SERVER_NOW.toISOString(), actionIdChars: 1000 });
  const memory = memoryLedgerFor(store, () => SERVER_NOW);
  for (let i = 0; i < MEMORIES; i++) await memory.store({ text: `queue depth note ${i} ${'backlog '.repeat(250)}`, class: 'observation', source: 'sensor' });
  await store.close();
  writeFileSync(tokenFile, 'a'.repeat(64), { mode: 0o600 });
  const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
  [serveEntry, inspectEntry] = await Promise.all([bundleEntry(fixture('ewp-serve-entry.ts')), bundleEntry(fixture('ewp-inspect-entry.ts'))]);
  // `ewp inspect` serves the page's assets from beside its module: the built ones of @ewp/inspect.
  const assets = fileURLToPath(new URL('../../inspect/dist/web/', import.meta.url));
  if (!existsSync(join(assets, 'index.html'))) throw new Error(`build @ewp/inspect first: ${assets} has no index.html`);
  symlinkSync(assets, join(dirname(inspectEntry), 'web'));
}, 60_000);

afterAll(() => {
  for (const p of running) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Start a server process; resolves with its port once it says where it listens (on stderr). */
async function start(entry: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  running.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(said);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${said}`)));
  });
  return { child, port };
}

/** The process's resident set, in MB. */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

interface Target {
  name: string;
  server: 'serve' | 'inspect';
  /** The raw request the attackers pipeline. */
  attack: (port: number) => string;
  /** One well-behaved request on a fresh connection: whether it was answered in full within 10 s. */
  probe: (port: number) => Promise<boolean>;
}

const post = (port: number, path: string, body: unknown) => {
  const text = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
};

async function fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    const res = await fetch(url, { ...init, headers: { ...init.headers, connection: 'close' }, signal: controller.signal });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const decisionsCall = (limit: number) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ewp_decisions', arguments: { limit } } });

const TARGETS: Target[] = [
  {
    name: 'ewp serve --http: ewp_decisions {"limit":1000}',
    server: 'serve',
    attack: (port) => post(port, '/mcp', decisionsCall(1000)),
    probe: async (port) => {
      const r = await fetchJson(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(decisionsCall(5)),
      });
      const result = r?.body.result as { structuredContent?: { decisions?: unknown[] } } | undefined;
      return r?.status === 200 && result?.structuredContent?.decisions?.length === 5;
    },
  },
  {
    name: 'ewp serve --http: POST /v1/recall {"limit":1000}',
    server: 'serve',
    attack: (port) => post(port, '/v1/recall', { query: 'queue depth note', limit: 1000 }),
    probe: async (port) => {
      const r = await fetchJson(`http://127.0.0.1:${port}/v1/recall`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'queue depth note', limit: 3 }),
      });
      return r?.status === 200 && (r.body.rows as unknown[] | undefined)?.length === 3;
    },
  },
  {
    name: 'ewp inspect: GET /api/decisions?limit=1000',
    server: 'inspect',
    attack: (port) => `GET /api/decisions?limit=1000 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
    probe: async (port) => {
      const r = await fetchJson(`http://127.0.0.1:${port}/api/decisions?limit=5`);
      return r?.status === 200 && (r.body.items as unknown[] | undefined)?.length === 5;
    },
  },
];

describe(`${SOCKETS} clients that pipeline list requests and never read, over ${DECISIONS.toLocaleString('en')} decisions`, () => {
  it.each(TARGETS)(
    '$name: RSS within idle + 64 MB, a normal client answered every time',
    async (target) => {
      const { child, port } =
        target.server === 'serve'
          ? // A writable ledger: recalls may record promotion attempts (a read-only one would refuse them).
            await start(serveEntry, ['--http', '127.0.0.1:0', '--db', db, '--ingest-token-file', tokenFile])
          : await start(inspectEntry, ['--db', db, '--port', '0']);
      const pid = child.pid as number;
      // Warm up: the first calls load the code and fill the caches; idle is measured after them.
      for (let i = 0; i < 3; i++) expect(await target.probe(port)).toBe(true);
      const idle = rssMb(pid);
      const requestFile = join(dir, `request-${port}`);
      writeFileSync(requestFile, target.attack(port));
      const helper = fileURLToPath(new URL('./fixtures/pipelining-clients.py', import.meta.url));
      const clients = spawn('python3', [helper, String(port), String(SOCKETS), String(CALLS_PER_SOCKET), requestFile], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      running.push(clients);
      await new Promise<void>((resolve, reject) => {
        clients.stdout?.once('data', () => resolve());
        clients.once('exit', (code) => reject(new Error(`clients exited ${code}`)));
      });
      let peak = idle;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
      }, SAMPLE_MS);
      let probes = 0;
      let answered = 0;
      try {
        const began = Date.now();
        // At least two calls: the first meets the attack's opening burst, the next the steady state.
        while (Date.now() - began < ATTACK_MS || probes < 2) {
          probes += 1;
          if (await target.probe(port)) answered += 1;
          await new Promise((r) => setTimeout(r, 200));
        }
      } finally {
        clearInterval(sampler);
        clients.kill('SIGKILL');
        child.kill('SIGKILL');
      }
      console.log(
        `${target.name}: RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (+${(peak - idle).toFixed(0)}); ${answered}/${probes} probes answered`,
      );
      expect(peak - idle).toBeLessThanOrEqual(BUDGET_MB);
      expect(probes).toBeGreaterThanOrEqual(2);
      expect(answered).toBe(probes);
    },
    60_000,
  );
});
