/**
 * Clients that pipeline and never read, against the MCP HTTP server in its own process over a real
 * SQLite ledger of 10,000 propositions: 120 sockets with a 4 KiB receive buffer (opened by a
 * Python helper: Node cannot set it) each send 3,000 `tools/call` of
 * `ewp_list_propositions {"limit":500}` and read nothing. The server's resident memory must level
 * off (the replies it computes wait within its budgets), and once the attackers' connections are
 * accepted, a well-behaved client must be answered every time while they hold them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from './bundle-entry.js';
import { extractedView } from './views.js';

const PROPOSITIONS = 10_000;
const SOCKETS = 120;
const CALLS_PER_SOCKET = 3_000;
const SAMPLE_MS = 500;
const RUN_MS = 15_000;

let child: ChildProcess;
let clients: ChildProcess | undefined;
let port: number;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ewp-hostile-'));
  const file = join(dir, 'ewp.sqlite');
  const store = new SqliteEvidenceStore(file);
  for (let at = 0; at < PROPOSITIONS; at += 1000) {
    await store.putMany(Array.from({ length: 1000 }, (_, i) => extractedView(`P-${at + i}`, 'v1')));
  }
  await store.close();
  const entry = await bundleEntry(fileURLToPath(new URL('./fixtures/sqlite-http-server-entry.ts', import.meta.url)));
  child = spawn(process.execPath, [entry, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  port = await new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}, 180_000);

afterAll(() => {
  clients?.kill('SIGKILL');
  child?.kill('SIGKILL');
});

/** The server's resident set, in MB. */
function rssMb(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

const call = (id: number, limit: number) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ewp_list_propositions', arguments: { limit } } });
  return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

/** One well-behaved call on a fresh connection: whether it got its 200 with 5 items within 10 s. */
async function probe(id: number): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ewp_list_propositions', arguments: { limit: 5 } } }),
      signal: controller.signal,
    });
    const reply = (await response.json()) as { result?: { structuredContent?: { propositions?: unknown[] } } };
    return response.status === 200 && reply.result?.structuredContent?.propositions?.length === 5;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

describe('clients that pipeline and never read', () => {
  it(`${SOCKETS} sockets × ${CALLS_PER_SOCKET} pipelined calls, never read: the server's memory levels off and others are served`, async () => {
    // Warm up: the first calls load the tool code and fill the caches.
    for (let i = 0; i < 5; i++) expect(await probe(i)).toBe(true);
    const start = rssMb();
    writeFileSync(join(dir, 'request'), call(7, 500));
    const helper = fileURLToPath(new URL('./fixtures/pipelining-clients.py', import.meta.url));
    clients = spawn('python3', [helper, String(port), String(SOCKETS), String(CALLS_PER_SOCKET), join(dir, 'request')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      clients?.stdout?.once('data', () => resolve());
      clients?.once('exit', (code) => reject(new Error(`clients exited ${code}`)));
    });
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMb()), SAMPLE_MS);
    let answered = 0;
    let probes = 0;
    try {
      // The server accepts one pending connection per turn of its event loop, so a fresh client
      // first waits for the attackers' connections to be accepted (longer on a loaded machine).
      const settled = Date.now();
      while (!(await probe(999)) && Date.now() - settled < 60_000);
      const began = Date.now();
      while (Date.now() - began < RUN_MS) {
        probes += 1;
        if (await probe(1000 + probes)) answered += 1;
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      clearInterval(sampler);
    }
    const peak = Math.max(...samples);
    const third = Math.floor(samples.length / 3);
    const middle = Math.max(...samples.slice(third, 2 * third));
    const last = Math.max(...samples.slice(2 * third));
    console.log(
      `hostile clients: RSS ${start.toFixed(0)} MB at start, peak ${peak.toFixed(0)} MB, middle third max ${middle.toFixed(0)} MB, last third max ${last.toFixed(0)} MB; ${answered}/${probes} probes answered`,
    );
    // Bounded: well under what 120 × 3,000 replies of 500 propositions would take (gigabytes).
    expect(peak - start).toBeLessThan(300);
    // Level: the last third grows little past the middle third.
    expect(last - middle).toBeLessThan(Math.max(40, middle * 0.15));
    expect(probes).toBeGreaterThan(0);
    expect(answered).toBe(probes);
  }, 120_000);
});
