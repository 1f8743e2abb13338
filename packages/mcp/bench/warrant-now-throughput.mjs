#!/usr/bin/env node
/**
 * ewp_warrant_now calls per second and latency over the MCP transports, with the SDK's own client:
 * in-memory (baseline: no I/O), stdio (one server process per client, as MCP hosts run it) and
 * Streamable HTTP on loopback (one server, many clients), each with 1 and 16 concurrent clients.
 * Writes <repo>/bench/results/mcp-warrant-now.json. EWP_BENCH_SECONDS sets each scenario's
 * length (default 3).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const resultsFile = join(here, '../../../bench/results/mcp-warrant-now.json');
const SECONDS = Number(process.env.EWP_BENCH_SECONDS ?? 3);
const T = '2026-09-21T21:00:00+00:00';
const ARGS = { proposition_id: 'P-win', evaluated_at: T };

const bundle = join(mkdtempSync(join(tmpdir(), 'ewp-mcp-bench-')), 'bench-server.mjs');
await build({
  entryPoints: [join(here, 'bench-server.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@ewp/source'],
  external: ['better-sqlite3', 'pg'],
  logLevel: 'error',
  banner: { js: "import { createRequire as __ewpRequire } from 'node:module'; const require = __ewpRequire(import.meta.url);" },
});
const lib = await import(bundle);

/** CPU time (user + system, ms) a process has used so far; Linux /proc only, else undefined. */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/** Server CPU per call: load-independent, unlike wall-clock rates on a shared machine. */
function serverCpuPerCall(pids, before, calls) {
  const after = pids.map(processCpuMs);
  if (after.some((x) => x === undefined) || before.some((x) => x === undefined)) return undefined;
  return after.reduce((sum, x, i) => sum + (x - before[i]), 0) / calls;
}

function newClient() {
  return new Client({ name: 'ewp-bench', version: '1.0.0' });
}

async function checkedCall(client) {
  const result = await client.callTool({ name: 'ewp_warrant_now', arguments: ARGS });
  if (result.isError || result.structuredContent?.warrant?.acceptance !== 'ACCEPTED') {
    throw new Error(`unexpected result: ${JSON.stringify(result).slice(0, 300)}`);
  }
}

/** Each client calls in a loop for SECONDS; returns throughput and latency percentiles. */
async function drive(clients, call = checkedCall, onStart = () => {}) {
  for (const c of clients) for (let i = 0; i < 50; i++) await call(c); // warm-up (JIT, pools)
  onStart();
  const latencies = [];
  const deadline = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await call(c);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const wall = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { calls: latencies.length, calls_per_s: latencies.length / wall, p50_ms: pct(50), p99_ms: pct(99) };
}

async function inMemoryClients(n) {
  const store = await lib.seededStore();
  const clients = [];
  for (let i = 0; i < n; i++) {
    const server = lib.createEwpMcpServer({ store, roles: { ingest: false } });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = newClient();
    await Promise.all([server.connect(b), client.connect(a)]);
    clients.push(client);
  }
  return clients;
}

async function stdioClients(n) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const client = newClient();
      const transport = new StdioClientTransport({ command: process.execPath, args: [bundle, 'stdio'], stderr: 'ignore' });
      await client.connect(transport);
      client.serverPid = transport.pid;
      return client;
    }),
  );
}

async function httpServer() {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [bundle, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
  return { child, url };
}

async function httpClients(url, n) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const client = newClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
}

async function closeAll(clients) {
  await Promise.all(clients.map((c) => c.close()));
}

const scenarios = [];
async function scenario(name, transport, clientsCount, makeClients, serverPids = (clients) => clients.map((c) => c.serverPid).filter(Boolean)) {
  const clients = await makeClients(clientsCount);
  const pids = serverPids(clients);
  let before = [];
  const r = await drive(clients, checkedCall, () => {
    before = pids.map(processCpuMs);
  });
  const cpu = pids.length > 0 ? serverCpuPerCall(pids, before, r.calls) : undefined;
  await closeAll(clients);
  scenarios.push({ name, transport, clients: clientsCount, ...r, ...(cpu === undefined ? {} : { server_cpu_ms_per_call: cpu }) });
  process.stderr.write(`  ${name}: ${r.calls_per_s.toFixed(0)} calls/s\n`);
}

process.stderr.write(`mcp bench: ${SECONDS} s per scenario\n`);
// The kernel alone: what every transport adds overhead to.
{
  const view = lib.decodeView(lib.verifiedView());
  const kernel = { callTool: async () => lib.warrantNow(view, lib.REFERENCE_V2, T) };
  const r = await drive([kernel], (k) => k.callTool());
  scenarios.push({ name: 'kernel warrantNow (no MCP)', transport: 'none', clients: 1, ...r });
}
await scenario('in-memory, 1 client (baseline)', 'in-memory', 1, inMemoryClients);
await scenario('in-memory, 16 clients', 'in-memory', 16, inMemoryClients);
await scenario('stdio, 1 client', 'stdio', 1, stdioClients);
await scenario('stdio, 16 clients (16 server processes)', 'stdio', 16, stdioClients);
const http = await httpServer();
await scenario(
  'HTTP loopback, 1 client',
  'http',
  1,
  (n) => httpClients(http.url, n),
  () => [http.child.pid],
);
await scenario(
  'HTTP loopback, 16 clients (one server)',
  'http',
  16,
  (n) => httpClients(http.url, n),
  () => [http.child.pid],
);
http.child.kill();

const baseline = scenarios.find((s) => s.name.includes('baseline'));
for (const s of scenarios) s.ratio_to_baseline = s.calls_per_s / baseline.calls_per_s;

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory_gb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${platform()} ${release()}`,
  loadavg_at_end: loadavg().map((x) => Number(x.toFixed(2))),
  note: 'shared machine: other engineers run builds and tests at the same time; compare ratios, not absolutes',
};
const result = {
  benchmark: 'mcp-warrant-now',
  date: new Date().toISOString(),
  machine,
  seconds_per_scenario: SECONDS,
  tool: 'ewp_warrant_now (stored proposition, SDK Client.callTool, structured output validated by the client)',
  scenarios,
};
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(result, null, 2)}\n`);

const rows = scenarios.map((s) => [
  s.name,
  s.calls_per_s.toFixed(0),
  s.p50_ms.toFixed(3),
  s.p99_ms.toFixed(3),
  s.server_cpu_ms_per_call === undefined ? '-' : s.server_cpu_ms_per_call.toFixed(3),
  `${s.ratio_to_baseline.toFixed(2)}x`,
]);
const header = ['scenario', 'calls/s', 'p50 ms', 'p99 ms', 'server CPU ms/call', 'vs in-memory 1 client'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(`\newp_warrant_now over MCP — ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, load ${machine.loadavg_at_end.join(' ')}\n`);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
console.log(`\nwritten ${resultsFile}`);
