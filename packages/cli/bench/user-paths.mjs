#!/usr/bin/env node
/**
 * The user's paths, whole process: each row spawns the built `ewp` bin on generated input and
 * measures it against its physical baseline run in the same bench, on the same input:
 *
 *   ewp eval --jsonl            vs a bare node process that JSON.parses the same lines
 *   ewp eval <1M-record view>   vs a bare node process that JSON.parses the same file
 *   ewp ingest --db             vs a bare node process inserting the same records with better-sqlite3
 *   ewp serve (stdio)           vs a bare line-delimited JSON-RPC echo over stdio (pipelined, sequential)
 *   ewp serve (stdio), distinct ewp_warrant_now on distinct propositions of a 10,000-proposition ledger
 *                               (no result reused) vs the echo on the same calls; peak RSS after
 *                               100,000 calls against the idle RSS after initialize; beside it the
 *                               floor of any server that reads the ledger per call (reads and parses
 *                               the same rows, answers a fixed-shape result, evaluates nothing), and the
 *                               ceiling of any server answering ewp's reply bytes (a fixed reply, no work)
 *   ewp serve --http            vs a bare node:http keep-alive JSON echo, one keep-alive client
 *   ewp serve startup           spawn to the replies to `initialize` + `tools/list`, vs spawn to the
 *                               bare echo's replies to two lines; with idle peak RSS, and the RSS
 *                               floor of `node -e ''`
 *
 * Peak RSS of every process is read with `/usr/bin/time -v` (else /proc/<pid>/status VmHWM).
 * Sizes (env): EWP_BENCH_EVAL_LINES (20,000), EWP_BENCH_VIEW_RECORDS (1,000,000),
 * EWP_BENCH_INGEST_RECORDS (100,000; 10 records per view), EWP_BENCH_MCP_CALLS (5,000),
 * EWP_BENCH_REPEAT (3: baseline and ewp run in turn that many times; each keeps its fastest run). EWP_BENCH_ONLY=eval,view,ingest,stdio,distinct,http,startup
 * runs a subset (startup: EWP_BENCH_STARTUP_RUNS pairs, 10; distinct: EWP_BENCH_DISTINCT_PROPOSITIONS, 10,000,
 * and EWP_BENCH_DISTINCT_CALLS, 100,000; EWP_BENCH_CPU_PROF=<dir> writes the server's CPU profiles there; EWP_BENCH_NODE_FLAGS passes Node flags to the servers measured; EWP_BENCH_PREVIOUS_BIN=<bin.js> measures an earlier build in turn on that row). Writes <repo>/bench/results/user-paths.json (or EWP_BENCH_OUT).
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  createWriteStream,
  openSync,
  closeSync,
} from 'node:fs';
import { request, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { machine as machineNote } from '../../../bench/machine.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..', '..', '..');
// EWP_BENCH_BIN: another build of the bin to measure (e.g. a bundle), same arguments.
const EWP = process.env.EWP_BENCH_BIN ?? join(HERE, '..', 'dist', 'bin.js');
// EWP_BENCH_PREVIOUS_BIN: the bin of an earlier build, measured in turn with this one on the distinct row.
const PREVIOUS_BIN = process.env.EWP_BENCH_PREVIOUS_BIN;
const OUT = process.env.EWP_BENCH_OUT ?? join(REPO, 'bench', 'results', 'user-paths.json');
const EVAL_LINES = Number(process.env.EWP_BENCH_EVAL_LINES ?? 20_000);
const VIEW_RECORDS = Number(process.env.EWP_BENCH_VIEW_RECORDS ?? 1_000_000);
const INGEST_RECORDS = Number(process.env.EWP_BENCH_INGEST_RECORDS ?? 100_000);
const RECORDS_PER_INGEST_VIEW = 10;
const MCP_CALLS = Number(process.env.EWP_BENCH_MCP_CALLS ?? 5_000);
const DISTINCT_PROPOSITIONS = Number(process.env.EWP_BENCH_DISTINCT_PROPOSITIONS ?? 10_000);
const DISTINCT_CALLS = Number(process.env.EWP_BENCH_DISTINCT_CALLS ?? 100_000);
const REPEAT = Number(process.env.EWP_BENCH_REPEAT ?? 3);
const STARTUP_RUNS = Number(process.env.EWP_BENCH_STARTUP_RUNS ?? 10);
const ONLY = new Set((process.env.EWP_BENCH_ONLY ?? 'eval,view,ingest,stdio,distinct,http,startup').split(','));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
// better-sqlite3 as the CLI resolves it (the baseline uses the very same native binding).
const BETTER_SQLITE3 = join(REPO, 'packages', 'sqlite', 'node_modules', 'better-sqlite3');

if (!existsSync(EWP)) throw new Error(`build the CLI first: ${EWP} is missing (pnpm exec turbo run build)`);
const work = mkdtempSync(join(tmpdir(), 'ewp-user-paths-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// ---------------------------------------------------------------- inputs

const T = '2026-09-21T21:00:00+00:00';
const fixtureDir = join(REPO, 'conformance', 'pack', 'fixtures');
const fixtures = readdirSync(fixtureDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(fixtureDir, f), 'utf8')));

function source(id, origin = 'tool') {
  return {
    source_id: id,
    lineage_id: `L-${id}`,
    origin_type: origin,
    origin_locator: `loc:${id}`,
    snapshot_id: `snap:${id}`,
    content_hash: `sha256:${id}`,
    observed_at: '2026-09-01T00:00:00+00:00',
    extractor_id: null,
    parent_source_id: null,
  };
}

/** Write `count` lines made by `line(i)` to `file`, in chunks (bounded memory for any size). */
async function writeLines(file, count, line) {
  const out = createWriteStream(file);
  let buffer = '';
  for (let i = 0; i < count; i += 1) {
    buffer += `${line(i)}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
}

/** The pack fixtures, cycled with fresh proposition and view ids: the eval --jsonl input. */
async function evalInput(file, lines) {
  await writeLines(file, lines, (i) => {
    const f = fixtures[i % fixtures.length];
    const view = { ...f, view_id: `${f.view_id}-${i}` };
    return JSON.stringify({ view, evaluated_at: f.evaluated_at ?? T });
  });
}

/** One view of `records` records (assertions, evidence both ways, checks, lineage), written as it goes. */
async function bigViewInput(file, records) {
  const out = createWriteStream(file);
  const times = Array.from({ length: 1000 }, (_, k) => new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString());
  const lists = { assertions: [], evidence: [], checks: [], lineage: [] };
  for (let k = 0; k < records; k += 1) {
    const t = times[k % 1000];
    const s = { ...source(`s${k}`, 'turn'), lineage_id: `l${k % 97}`, observed_at: t };
    switch (k % 4) {
      case 0:
        lists.assertions.push(
          JSON.stringify({ assertion_id: `a${k}`, text: 'the server runs 1.2', asserted_by: 'agent', assertion_confidence: 0.7, source: s, asserted_at: t }),
        );
        break;
      case 1:
        lists.evidence.push(
          JSON.stringify({
            evidence_id: `e${k}`,
            polarity: k % 8 === 1 ? 'supports' : 'opposes',
            source: { ...s, origin_type: 'extract' },
            content: 'log line',
            observed_at: t,
          }),
        );
        break;
      case 2:
        lists.checks.push(
          JSON.stringify({
            check_id: `k${k}`,
            method: k % 3 ? 'tool_observation' : 'inference',
            scope: 'server01',
            source: { ...s, origin_type: 'tool' },
            observed_at: t,
            result: 'supports',
            subjects: ['SERVER01'],
          }),
        );
        break;
      default:
        lists.lineage.push(JSON.stringify({ from_id: `P-bench:${k}`, to_id: `a${k - 3}`, kind: 'derived_from' }));
    }
  }
  out.write(`{"proposition_id":"P-bench","view_id":"v-${records}","evaluated_at":"2026-02-01T00:00:00Z","subjects":["server01"],"conflicts":[]`);
  for (const [name, items] of Object.entries(lists)) {
    out.write(`,"${name}":[`);
    for (let i = 0; i < items.length; i += 10_000) {
      if (!out.write((i === 0 ? '' : ',') + items.slice(i, i + 10_000).join(','))) await once(out, 'drain');
    }
    out.write(']');
  }
  out.end('}\n');
  await once(out, 'finish');
}

/** Views of ten tool-observed evidence records each: the ingest input (JSONL). */
async function ingestInput(file, records) {
  await writeLines(file, Math.ceil(records / RECORDS_PER_INGEST_VIEW), (v) => {
    const evidence = [];
    for (let i = 0; i < RECORDS_PER_INGEST_VIEW; i += 1) {
      evidence.push({
        evidence_id: `e${i}`,
        polarity: 'supports',
        source: source(`s${(v + i) % 50}`),
        content: `observation ${i} of P-${v}`,
        observed_at: '2026-09-01T00:00:00+00:00',
      });
    }
    return JSON.stringify({ proposition_id: `P-${v}`, view_id: 'v1', evidence });
  });
}

// ---------------------------------------------------------------- baselines (bare node programs)

/**
 * A line-delimited stdio server, as a program's text: reads standard input as text, answers each
 * complete line with `answer(m)` (the parsed message; a reply line or ''), and writes a chunk's
 * answers in one write. `head` runs first; `before`/`after` around each chunk; `backpressure` pauses
 * input while the output lags.
 */
function lineServer({ head = '', before = '', after = '', backpressure = false, answer }) {
  const write = backpressure
    ? `if (out && !process.stdout.write(out)) {
    process.stdin.pause();
    process.stdout.once('drain', () => process.stdin.resume());
  }`
    : 'if (out) process.stdout.write(out);';
  return `${head}
function answer(m) {${answer}
}
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const text = rest + chunk;
  let start = 0;
  let out = '';
  ${before}
  for (let nl = text.indexOf('\\n'); nl !== -1; nl = text.indexOf('\\n', start)) {
    const m = JSON.parse(text.slice(start, nl));
    start = nl + 1;
    out += answer(m);
  }
  ${after}
  rest = text.slice(start);
  ${write}
});
`;
}

const BASELINES = {
  // Lines of stdin, each JSON.parse'd; nothing else.
  'jsonl-parse.mjs': `
let rest = '';
let n = 0;
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) {
  const text = rest + chunk;
  let start = 0;
  for (let nl = text.indexOf('\\n'); nl !== -1; nl = text.indexOf('\\n', start)) {
    if (nl > start) { JSON.parse(text.slice(start, nl)); n += 1; }
    start = nl + 1;
  }
  rest = text.slice(start);
}
if (rest.trim() !== '') { JSON.parse(rest); n += 1; }
process.stderr.write(n + ' lines\\n');
`,
  // The same, reading stdin as ewp does: a regular file synchronously in 64 KiB chunks, yielding to the event loop between them.
  'jsonl-parse-same-reader.mjs': `
import { fstatSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
if (!fstatSync(0).isFile()) throw new Error('stdin must be a regular file');
const buffer = Buffer.allocUnsafe(64 * 1024);
const decoder = new StringDecoder('utf8');
let rest = '';
let n = 0;
for (;;) {
  const got = readSync(0, buffer, 0, buffer.length, null);
  if (got === 0) break;
  const text = rest + decoder.write(buffer.subarray(0, got));
  let start = 0;
  for (let nl = text.indexOf('\\n'); nl !== -1; nl = text.indexOf('\\n', start)) {
    if (nl > start) { JSON.parse(text.slice(start, nl)); n += 1; }
    start = nl + 1;
  }
  rest = text.slice(start);
  await new Promise(setImmediate);
}
if (rest.trim() !== '') { JSON.parse(rest); n += 1; }
process.stderr.write(n + ' lines\\n');
`,
  // One file, read and JSON.parse'd whole.
  'file-parse.mjs': `
import { readFileSync } from 'node:fs';
const value = JSON.parse(readFileSync(process.argv[2], 'utf8'));
process.stderr.write(Object.keys(value).length + ' keys\\n');
`,
  // The records of a JSONL file of views, inserted with better-sqlite3 in transactions of BATCH views.
  'sqlite-insert.mjs': `
import { createRequire } from 'node:module';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
const Database = createRequire(import.meta.url)(process.env.BETTER_SQLITE3);
const db = new Database(process.argv[3]);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE r (owner TEXT, id TEXT, body TEXT, PRIMARY KEY (owner, id)) WITHOUT ROWID');
const insert = db.prepare('INSERT INTO r VALUES (?, ?, ?)');
const store = db.transaction((views) => { for (const v of views) for (const e of v.evidence) insert.run(v.proposition_id, e.evidence_id, JSON.stringify(e)); });
const BATCH = Number(process.env.BATCH);
let views = [];
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  if (line === '') continue;
  views.push(JSON.parse(line));
  if (views.length >= BATCH) { store(views); views = []; }
}
store(views);
db.close();
`,
  // Line-delimited JSON-RPC echo: each request answered with its params as a tool result.
  'stdio-echo.mjs': lineServer({
    answer: `
  if (m.id === undefined) return '';
  return JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(m.params ?? {}) }] } }) + '\\n';`,
  }),
  // The floor of a server that reads the ledger per call: the distinct row's calls answered by reading
  // the proposition's latest snapshot row and its record pages (one read transaction per input chunk,
  // as a read run of the SQLite store), parsing the member list and every body, and writing a result
  // of a warrant's shape and size (two-space JSON) with the proposition's id. No evaluation, no digest
  // check, no MCP guard; replies under the same backpressure as ewp's (input paused while output lags).
  // The echo's framing, so the difference between the two is the ledger read.
  'stdio-ledger-floor.mjs': lineServer({
    head: `
import { createRequire } from 'node:module';
const Database = createRequire(import.meta.url)(process.env.BETTER_SQLITE3);
const db = new Database(process.argv[2], { readonly: true });
const latest = db.prepare('SELECT seq, members FROM ewp_snapshots WHERE owner = ? ORDER BY seq DESC LIMIT 1').raw();
const pages = db.prepare('SELECT keys, bodies FROM ewp_records WHERE owner = ? ORDER BY page').raw();
const NOTE = 'Normative: protocol_version, proposition_id, view_id, policy_id, policy_version, evaluated_at and the five warrant axes. The rest is diagnostic. Nothing was persisted.';`,
    before: "db.exec('BEGIN');",
    after: "db.exec('COMMIT');",
    backpressure: true,
    answer: `
  if (m.id === undefined) return '';
  if (m.method !== 'tools/call') return JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }) + '\\n';
  const args = m.params.arguments;
  const row = latest.get(args.proposition_id);
  if (row === undefined) throw new Error('no such proposition: ' + args.proposition_id);
  const members = JSON.parse(row[1]);
  let records = 0;
  for (const [keys, bodies] of pages.all(args.proposition_id)) {
    JSON.parse(keys);
    for (const body of bodies.split('\\n')) records += JSON.parse(body) === null ? 0 : 1;
  }
  const result = {
    evaluated_at: args.evaluated_at, independent_lineage_count: 1, note: NOTE, omitted_sources: [], opposing_evidence_ids: [],
    policy_id: 'reference-v2', policy_version: 'reference-v2', proposition_id: args.proposition_id, protocol_version: 'EWP-0.2.0',
    rationale_codes: ['acceptance.accepted', 'verification.external'], stale: false, supporting_evidence_ids: [members.length > 0 && records > 0 ? 'e1' : ''],
    view_id: 'v-ver', warrant: { acceptance: 'ACCEPTED', conflict: 'NONE', currency: 'CURRENT', sufficiency: 'SUFFICIENT', verification: 'EXTERNAL' },
  };
  return JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }] } }) + '\\n';`,
  }),
  // The ceiling of the distinct row: the echo's framing, but each call answered with the result `ewp serve`
  // gave to a call of the row (EWP_BENCH_FIXED_RESULT, its JSON text): the client reads and parses replies
  // of the very size ewp writes, and the server does nothing else. No server answering those bytes can beat it.
  'stdio-fixed-reply.mjs': lineServer({
    head: `const RESULT = process.env.EWP_BENCH_FIXED_RESULT;`,
    answer: `
  if (m.id === undefined) return '';
  return '{"result":' + RESULT + ',"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + '}\\n';`,
  }),
  // node:http keep-alive JSON echo.
  'http-echo.mjs': `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const m = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(m.params ?? {}) }] } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stderr.write('listening on http://127.0.0.1:' + server.address().port + '/mcp\\n'));
process.on('SIGTERM', () => process.exit(0));
`,
};
for (const [name, text] of Object.entries(BASELINES)) writeFileSync(join(work, name), text);

// ---------------------------------------------------------------- process runner

/**
 * Spawn `node args` (under /usr/bin/time -v when present) with stdin from a file (or a pipe).
 * Resolves with wall seconds, exit code, peak RSS (MB), stderr text.
 */
function spawnMeasured(args, { stdinFile, stdout = 'ignore', env = {}, keepStdin = false } = {}) {
  const rssFile = join(work, `rss-${Math.random().toString(36).slice(2)}`);
  const command = TIME ?? process.execPath;
  const argv = TIME ? ['-v', '-o', rssFile, process.execPath, ...args] : args;
  const stdinFd = stdinFile === undefined ? (keepStdin ? 'pipe' : 'ignore') : openSync(stdinFile, 'r');
  const t0 = performance.now();
  const child = spawn(command, argv, { stdio: [stdinFd, stdout, 'pipe'], env: { ...process.env, ...env } });
  if (typeof stdinFd === 'number') closeSync(stdinFd);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  let hwm = 0;
  const poll = TIME
    ? undefined
    : setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) hwm = Math.max(hwm, Number(m[1]) / 1024);
        } catch {}
      }, 20);
  const done = new Promise((resolve) => {
    child.on('close', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      if (poll) clearInterval(poll);
      let rssMb = hwm;
      let cpuSeconds;
      if (TIME) {
        const report = readFileSync(rssFile, 'utf8');
        const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
        rssMb = m ? Number(m[1]) / 1024 : Number.NaN;
        const user = /User time \(seconds\): ([\d.]+)/.exec(report);
        const system = /System time \(seconds\): ([\d.]+)/.exec(report);
        if (user && system) cpuSeconds = Number(user[1]) + Number(system[1]);
      }
      resolve({ seconds, code, rss_mb: rssMb, cpu_s: cpuSeconds, stderr });
    });
  });
  return { child, done };
}

async function runMeasured(args, options) {
  const r = await spawnMeasured(args, options).done;
  if (r.code !== 0 && !(options?.allowCodes ?? []).includes(r.code)) throw new Error(`node ${args.join(' ')} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return r;
}

/**
 * The runs go in turn, `repeat` times each (so a change of load on the shared machine hits all
 * alike); each keeps its fastest run, with the largest peak RSS seen (or the median: idle
 * footprints vary by a page or two between runs).
 */
async function fastestInTurn(runs, { repeat = REPEAT, rss = 'max' } = {}) {
  const fastest = runs.map(() => undefined);
  const seen = runs.map(() => []);
  for (let i = 0; i < repeat; i += 1) {
    for (const [k, run] of runs.entries()) {
      const r = await run(i);
      seen[k].push(r.rss_mb);
      if (fastest[k] === undefined || r.seconds < fastest[k].seconds) fastest[k] = r;
    }
  }
  return fastest.map((r, k) => ({ ...r, rss_mb: rss === 'max' ? Math.max(...seen[k]) : median(seen[k]) }));
}

function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

const rows = [];
function row(name, unit, count, subject, baseline, target, extra = {}) {
  const rate = count / subject.seconds;
  const baseRate = count / baseline.seconds;
  const ratio = rate / baseRate;
  const r = {
    path: name,
    unit,
    count,
    seconds: subject.seconds,
    rate,
    peak_rss_mb: subject.rss_mb,
    baseline: {
      seconds: baseline.seconds,
      rate: baseRate,
      peak_rss_mb: baseline.rss_mb,
      what: baseline.what,
      ...(baseline.cpu_s === undefined ? {} : { cpu_s: baseline.cpu_s }),
    },
    ratio,
    // CPU seconds (user + system) of the whole process: less sensitive to the load of a shared machine.
    ...(subject.cpu_s === undefined || baseline.cpu_s === undefined ? {} : { cpu_s: subject.cpu_s, cpu_ratio: baseline.cpu_s / subject.cpu_s }),
    target,
    ...extra,
  };
  r.target_met = target.kind === 'ratio>=' ? ratio >= target.value : target.kind === 'time<=' ? subject.seconds / baseline.seconds <= target.value : undefined;
  rows.push(r);
  process.stderr.write(
    `  ${name}: ${rate.toFixed(0)} ${unit}/s vs ${baseRate.toFixed(0)} (${ratio.toFixed(2)}x${r.cpu_ratio === undefined ? '' : `, CPU ${r.cpu_ratio.toFixed(2)}x`}), peak RSS ${subject.rss_mb.toFixed(0)} MB\n`,
  );
  return r;
}

// ---------------------------------------------------------------- the paths

if (ONLY.has('eval')) {
  const file = join(work, 'eval.jsonl');
  await evalInput(file, EVAL_LINES);
  const [base, sameReader, ewp] = await fastestInTurn([
    () => runMeasured([join(work, 'jsonl-parse.mjs')], { stdinFile: file }),
    () => runMeasured([join(work, 'jsonl-parse-same-reader.mjs')], { stdinFile: file }),
    () => runMeasured([EWP, 'eval', '--jsonl'], { stdinFile: file, allowCodes: [1] }),
  ]);
  base.what = 'node: JSON.parse of every stdin line (stdin as a stream)';
  row('ewp eval --jsonl', 'lines', EVAL_LINES, ewp, base, { kind: 'ratio>=', value: 0.5 }, { input_mb: statSync(file).size / 2 ** 20 });
  // ewp reads a regular file synchronously: the same bare pass with that reader is the stricter baseline.
  sameReader.what = 'node: JSON.parse of every stdin line (stdin read synchronously, as ewp reads a file)';
  row('ewp eval --jsonl (same reader)', 'lines', EVAL_LINES, ewp, sameReader, { kind: 'ratio>=', value: 0.5 }, { input_mb: statSync(file).size / 2 ** 20 });
  rmSync(file);
}

if (ONLY.has('view')) {
  const file = join(work, 'big-view.json');
  await bigViewInput(file, VIEW_RECORDS);
  const [base, ewp] = await fastestInTurn([() => runMeasured([join(work, 'file-parse.mjs'), file]), () => runMeasured([EWP, 'eval', file, '--json'])]);
  base.what = 'node: JSON.parse(readFileSync(file))';
  const r = row(
    `ewp eval <one ${VIEW_RECORDS.toLocaleString('en-US')}-record view>`,
    'records',
    VIEW_RECORDS,
    ewp,
    base,
    { kind: 'time<=', value: 1.5 },
    { input_mb: statSync(file).size / 2 ** 20 },
  );
  r.time_ratio = ewp.seconds / base.seconds;
  rmSync(file);
}

if (ONLY.has('ingest')) {
  const file = join(work, 'ingest.jsonl');
  await ingestInput(file, INGEST_RECORDS);
  const batch = 500;
  const [base, ewp] = await fastestInTurn([
    async (i) => {
      const db = join(work, `raw-${i}.sqlite`);
      const r = await runMeasured([join(work, 'sqlite-insert.mjs'), file, db], { env: { BETTER_SQLITE3, BATCH: String(batch) } });
      for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
      return r;
    },
    async (i) => {
      const db = join(work, `ledger-${i}.sqlite`);
      const r = await runMeasured([EWP, 'ingest', file, '--db', db, '--batch', String(batch), '--evaluated-at', T, '--attest-trusted-origins']);
      rmSync(db, { force: true });
      for (const suffix of ['-wal', '-shm']) rmSync(db + suffix, { force: true });
      return r;
    },
  ]);
  base.what = `node + better-sqlite3: every record inserted, ${batch} views per transaction`;
  row(
    'ewp ingest --db (SQLite)',
    'records',
    Math.ceil(INGEST_RECORDS / RECORDS_PER_INGEST_VIEW) * RECORDS_PER_INGEST_VIEW,
    ewp,
    base,
    { kind: 'ratio>=', value: 0.5 },
    { views: Math.ceil(INGEST_RECORDS / RECORDS_PER_INGEST_VIEW), batch, input_mb: statSync(file).size / 2 ** 20 },
  );
  rmSync(file);
}

// ---------------------------------------------------------------- MCP

const CALL_ARGS = { proposition_id: 'P-win', evaluated_at: T };
function toolCall(id) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ewp_warrant_now', arguments: CALL_ARGS } };
}

/** A call on proposition `id mod DISTINCT_PROPOSITIONS` of {@link distinctLedger}: no two calls in a row share a proposition. */
function distinctCall(id) {
  const proposition_id = `P-${String(id % DISTINCT_PROPOSITIONS).padStart(5, '0')}`;
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ewp_warrant_now', arguments: { proposition_id, evaluated_at: T } } };
}

/** The JSON text of the `result` a stdio server gives to `call` after `initialize`. */
async function resultOfOneCall(args, call) {
  const { child, done } = spawnMeasured(args, { keepStdin: true, stdout: 'pipe' });
  const replies = lineReplies(child.stdout);
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n${JSON.stringify(call)}\n`,
  );
  const reply = await replies.reply(call.id);
  checkReply(reply);
  child.stdin.end();
  await done;
  return JSON.stringify(reply.result);
}

/** A SQLite ledger holding P-win (tool-verified: ACCEPTED / EXTERNAL at T), made by `ewp ingest`. */
async function servedLedger() {
  const file = join(work, 'p-win.json');
  writeFileSync(file, JSON.stringify(verifiedView('P-win')));
  const db = join(work, 'served.sqlite');
  await runMeasured([EWP, 'ingest', file, '--db', db, '--attest-trusted-origins']);
  return db;
}

/** A SQLite ledger of {@link DISTINCT_PROPOSITIONS} such propositions (P-00000, ...), made by `ewp ingest`. */
async function distinctLedger() {
  const file = join(work, 'distinct.jsonl');
  const out = createWriteStream(file);
  for (let i = 0; i < DISTINCT_PROPOSITIONS; i += 1) out.write(`${JSON.stringify(verifiedView(`P-${String(i).padStart(5, '0')}`))}\n`);
  out.end();
  await once(out, 'finish');
  const db = join(work, 'distinct.sqlite');
  const r = await runMeasured([EWP, 'ingest', file, '--db', db, '--attest-trusted-origins']);
  if (r.code !== 0) throw new Error(`ingest of the distinct ledger exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return db;
}

/** A tool-verified view (ACCEPTED / EXTERNAL at T). */
function verifiedView(propositionId) {
  const winrm = source('winrm');
  return {
    proposition_id: propositionId,
    view_id: 'v-ver',
    assertions: [
      {
        assertion_id: 'a1',
        text: 'server01 runs Windows Server 2022',
        asserted_by: 'agent',
        assertion_confidence: 0.9,
        source: winrm,
        asserted_at: '2026-09-01T00:00:00+00:00',
      },
    ],
    evidence: [{ evidence_id: 'e1', polarity: 'supports', source: winrm, content: 'Get-ComputerInfo', observed_at: '2026-09-01T00:00:00+00:00' }],
    checks: [
      {
        check_id: 'k1',
        method: 'tool_observation',
        scope: 'server01',
        source: winrm,
        observed_at: '2026-09-21T18:31:00+00:00',
        result: 'supports',
        subjects: [],
      },
    ],
    conflicts: [],
    lineage: [],
    freshness_policy_seconds: 604800,
  };
}

/** Line reader over a child's stdout: resolves replies by id. */
function lineReplies(stream) {
  const waiting = new Map();
  let rest = '';
  let count = 0;
  let onCount;
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const m = JSON.parse(text.slice(start, nl));
      start = nl + 1;
      count += 1;
      const w = waiting.get(m.id);
      if (w) {
        waiting.delete(m.id);
        w(m);
      }
      if (onCount && count >= onCount.n) onCount.resolve();
    }
    rest = text.slice(start);
  });
  return {
    reply: (id) => new Promise((resolve) => waiting.set(id, resolve)),
    count: (n) =>
      count >= n
        ? Promise.resolve()
        : new Promise((resolve) => {
            onCount = { n, resolve };
          }),
    seen: () => count,
  };
}

function checkReply(m) {
  const text = m.result?.content?.[0]?.text;
  if (typeof text !== 'string' || m.result.isError === true) throw new Error(`unexpected reply: ${JSON.stringify(m).slice(0, 300)}`);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Drive one stdio server: handshake, pipelined calls (all written at once), then sequential calls. */
async function driveStdio(args, { handshake, call = toolCall, calls = MCP_CALLS, sequentialCalls = Math.min(calls, 2000), env = {} }) {
  const { child, done } = spawnMeasured(args, { keepStdin: true, stdout: 'pipe', env });
  // A server that dies leaves its replies unanswered: say why instead of waiting on them for ever.
  void done.then((r) => {
    if (r.code !== 0) process.stderr.write(`${args.join(' ')} exited ${r.code}: ${r.stderr.slice(-2000)}\n`);
  });
  const replies = lineReplies(child.stdout);
  const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
  const t0 = performance.now();
  let id = 0;
  if (handshake) {
    send({
      jsonrpc: '2.0',
      id: ++id,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
  } else send({ jsonrpc: '2.0', id: ++id, method: 'ping', params: {} });
  await replies.reply(id);
  const startup = (performance.now() - t0) / 1000;
  if (handshake) send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // Warm-up.
  for (let i = 0; i < 200; i += 1) {
    send(call(++id));
    checkReply(await replies.reply(id));
  }
  // Pipelined: every request written at once, timed until the last reply.
  const before = replies.seen();
  const pid = serverPid(child);
  const cpu0 = cpuSecondsOf(pid);
  const p0 = performance.now();
  let batch = '';
  for (let i = 0; i < calls; i += 1) batch += `${JSON.stringify(call(++id))}\n`;
  child.stdin.write(batch);
  await replies.count(before + calls);
  const pipelined = (performance.now() - p0) / 1000;
  // The server's own CPU for the pipelined calls: less sensitive than wall time to a loaded machine.
  const cpu1 = cpuSecondsOf(pid);
  const pipelinedCpu = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
  // Sequential: one call at a time.
  const latencies = [];
  const s0 = performance.now();
  for (let i = 0; i < sequentialCalls; i += 1) {
    const c0 = performance.now();
    send(call(++id));
    checkReply(await replies.reply(id));
    latencies.push(performance.now() - c0);
  }
  const sequential = (performance.now() - s0) / 1000;
  child.stdin.end();
  const r = await done;
  latencies.sort((a, b) => a - b);
  return {
    pipelined: { seconds: pipelined, rss_mb: r.rss_mb, ...(pipelinedCpu === undefined ? {} : { cpu_s: pipelinedCpu }) },
    sequential: { seconds: sequential, rss_mb: r.rss_mb, calls: sequentialCalls, p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99) },
    startup_s: startup,
    code: r.code,
    stderr: r.stderr,
  };
}

async function httpServer(args) {
  const { child, done } = spawnMeasured(args, { stdout: 'ignore' });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    const onData = (d) => {
      text += d;
      const m = /(http:\/\/[^\s]+\/mcp)/.exec(text);
      if (m) {
        child.stderr.off('data', onData);
        resolve(m[1]);
      }
    };
    child.stderr.on('data', onData);
    child.once('exit', () => reject(new Error(`server exited: ${text}`)));
  });
  return { child, done, url: new URL(url) };
}

/** SIGTERM to the server itself: under /usr/bin/time that is time's child, which time then reports on. */
function stopServer(child) {
  process.kill(serverPid(child), 'SIGTERM');
}

/** The node process itself: under /usr/bin/time, time's child. */
function serverPid(child) {
  if (!TIME) return child.pid;
  const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
  return children === '' ? child.pid : Number(children.split(' ')[0]);
}

/** CPU seconds (user + system) `pid` has used so far, from /proc (undefined where there is none). */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime: fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** One keep-alive client, sequential POSTs. */
async function driveHttp(url, calls) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (body) =>
    new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  for (let i = 0; i < 200; i += 1) checkReply(await post(JSON.stringify(toolCall(i))));
  const latencies = [];
  const t0 = performance.now();
  for (let i = 0; i < calls; i += 1) {
    const c0 = performance.now();
    checkReply(await post(JSON.stringify(toolCall(1000 + i))));
    latencies.push(performance.now() - c0);
  }
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { seconds, p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99) };
}

let served;
/** {@link servedLedger}, made once for every MCP row. */
const servedOnce = async () => (served ??= await servedLedger());

/**
 * Spawn to the replies to `initialize` and `tools/list` (the echo: to two lines), then end the
 * input: the process exits, so its peak RSS is its idle footprint after startup.
 */
async function startStdio(args) {
  const { child, done } = spawnMeasured(args, { keepStdin: true, stdout: 'pipe' });
  const replies = lineReplies(child.stdout);
  const t0 = performance.now();
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`,
  );
  await replies.count(2);
  const seconds = (performance.now() - t0) / 1000;
  child.stdin.end();
  const r = await done;
  if (r.code !== 0) throw new Error(`node ${args.join(' ')} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return { seconds, rss_mb: r.rss_mb };
}

if (ONLY.has('startup')) {
  const db = await servedOnce();
  const [base, ewp] = await fastestInTurn([() => startStdio([join(work, 'stdio-echo.mjs')]), () => startStdio([EWP, 'serve', '--db', db])], {
    repeat: STARTUP_RUNS,
    rss: 'median',
  });
  // The floor of any Node process on this machine: it starts, and exits with nothing to do.
  const floor = [];
  for (let i = 0; i < 3; i += 1) floor.push((await runMeasured(['-e', ''])).rss_mb);
  base.what = 'node: line-delimited JSON-RPC echo, spawn to the replies to two lines';
  const r = row('ewp serve (stdio), startup', 'starts', 1, ewp, base, { kind: 'startup_s<', value: 0.3 }, { node_e_rss_mb: median(floor) });
  r.startup_s = ewp.seconds;
  r.time_ratio = ewp.seconds / base.seconds;
  r.target_met = ewp.seconds < 0.3;
  process.stderr.write(
    `    startup ${(ewp.seconds * 1000).toFixed(0)} ms vs ${(base.seconds * 1000).toFixed(0)} ms; idle RSS ${ewp.rss_mb.toFixed(0)} MB vs ${base.rss_mb.toFixed(0)} MB, node -e '' ${median(floor).toFixed(0)} MB\n`,
  );
}

if (ONLY.has('stdio') || ONLY.has('http')) {
  const db = await servedOnce();
  if (ONLY.has('stdio')) {
    const [base, ewp] = await fastestInTurn([
      () => driveStdio([join(work, 'stdio-echo.mjs')], { handshake: false }).then((r) => ({ ...r.pipelined, r })),
      () => driveStdio([EWP, 'serve', '--db', db], { handshake: true }).then((r) => ({ ...r.pipelined, r })),
    ]);
    base.what = 'node: line-delimited JSON-RPC echo';
    row('ewp serve (stdio), pipelined', 'calls', MCP_CALLS, ewp, base, { kind: 'ratio>=', value: 0.25 }, { startup_s: ewp.r.startup_s });
    const seqBase = { ...base.r.sequential, what: base.what };
    const seq = row(
      'ewp serve (stdio), sequential',
      'calls',
      ewp.r.sequential.calls,
      ewp.r.sequential,
      seqBase,
      { kind: 'p50_ms<', value: 0.3 },
      { p50_ms: ewp.r.sequential.p50_ms, p99_ms: ewp.r.sequential.p99_ms, baseline_p50_ms: base.r.sequential.p50_ms },
    );
    seq.target_met = ewp.r.sequential.p50_ms < 0.3;
  }
  if (ONLY.has('http')) {
    const measure = (args, what) => async () => {
      const server = await httpServer(args);
      const r = await driveHttp(server.url, MCP_CALLS);
      stopServer(server.child);
      const d = await server.done;
      return { ...r, rss_mb: d.rss_mb, what };
    };
    const [base, ewp] = await fastestInTurn([
      measure([join(work, 'http-echo.mjs')], 'node:http keep-alive JSON echo'),
      measure([EWP, 'serve', '--http', '127.0.0.1:0', '--db', db], undefined),
    ]);
    row(
      'ewp serve --http, one keep-alive client',
      'calls',
      MCP_CALLS,
      ewp,
      base,
      { kind: 'ratio>=', value: 0.25 },
      { p50_ms: ewp.p50_ms, p99_ms: ewp.p99_ms, baseline_p50_ms: base.p50_ms },
    );
  }
}

if (ONLY.has('distinct')) {
  const db = await distinctLedger();
  // Idle: spawn, initialize, tools/list, end of input (median of 3).
  const idle = [];
  for (let i = 0; i < 3; i += 1) idle.push((await startStdio([EWP, 'serve', '--db', db])).rss_mb);
  const options = { call: distinctCall, calls: DISTINCT_CALLS, sequentialCalls: 2000 };
  // Node flags, not NODE_OPTIONS: Node 20 refuses --cpu-prof there.
  const profile = [
    ...(process.env.EWP_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.EWP_BENCH_CPU_PROF}`] : []),
    ...(process.env.EWP_BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
  ];
  const serve = (bin) => () => driveStdio([...profile, bin, 'serve', '--db', db], { handshake: true, ...options }).then((r) => ({ ...r.pipelined, r }));
  const fixedResult = await resultOfOneCall([EWP, 'serve', '--db', db], distinctCall(1));
  const [base, floor, ceiling, ewp, previous] = await fastestInTurn([
    () => driveStdio([join(work, 'stdio-echo.mjs')], { handshake: false, ...options }).then((r) => ({ ...r.pipelined, r })),
    () =>
      driveStdio([join(work, 'stdio-ledger-floor.mjs'), db], { handshake: false, env: { BETTER_SQLITE3 }, ...options }).then((r) => ({ ...r.pipelined, r })),
    () =>
      driveStdio([join(work, 'stdio-fixed-reply.mjs')], { handshake: false, env: { EWP_BENCH_FIXED_RESULT: fixedResult }, ...options }).then((r) => ({
        ...r.pipelined,
        r,
      })),
    serve(EWP),
    ...(PREVIOUS_BIN === undefined ? [] : [serve(PREVIOUS_BIN)]),
  ]);
  // One server's row against the echo of the same run (the ceiling's and the floor's).
  const againstEcho = (what, run) => ({
    what,
    rate: DISTINCT_CALLS / run.seconds,
    ratio: base.seconds / run.seconds,
    ...(run.cpu_s === undefined ? {} : { cpu_s: run.cpu_s }),
    peak_rss_mb: run.rss_mb,
  });
  const ceilingRow = {
    ...againstEcho("node: the echo's framing answering every call with the result ewp gave to one of them (the same reply bytes, no work)", ceiling),
    reply_bytes: Buffer.byteLength(`{"result":${fixedResult},"jsonrpc":"2.0","id":100000}\n`),
    ewp_ratio_to_ceiling: ceiling.seconds / ewp.seconds,
  };
  process.stderr.write(
    `    ceiling (ewp's reply bytes, no work): ${ceilingRow.rate.toFixed(0)} calls/s (${ceilingRow.ratio.toFixed(2)}x the echo); ewp is ${ceilingRow.ewp_ratio_to_ceiling.toFixed(2)}x the ceiling\n`,
  );
  const floorRow = {
    ...againstEcho('node + better-sqlite3: reads and parses the rows of each call, answers a fixed-shape result (no evaluation)', floor),
    ewp_ratio_to_floor: floor.seconds / ewp.seconds,
  };
  process.stderr.write(
    `    floor (reads and parses the rows, no evaluation): ${floorRow.rate.toFixed(0)} calls/s (${floorRow.ratio.toFixed(2)}x the echo); ewp is ${floorRow.ewp_ratio_to_floor.toFixed(2)}x the floor\n`,
  );
  base.what = 'node: line-delimited JSON-RPC echo (same calls)';
  const idleRss = median(idle);
  let previousRow;
  if (previous !== undefined) {
    const previousIdle = [];
    for (let i = 0; i < 3; i += 1) previousIdle.push((await startStdio([PREVIOUS_BIN, 'serve', '--db', db])).rss_mb);
    previousRow = {
      bin: PREVIOUS_BIN,
      rate: DISTINCT_CALLS / previous.seconds,
      ratio: previous.seconds === 0 ? Number.NaN : base.seconds / previous.seconds,
      peak_rss_mb: previous.rss_mb,
      idle_rss_mb: median(previousIdle),
      rss_over_idle_mb: previous.rss_mb - median(previousIdle),
      ...(previous.cpu_s === undefined ? {} : { cpu_s: previous.cpu_s }),
    };
    process.stderr.write(
      `    previous build: ${previousRow.rate.toFixed(0)} calls/s (${previousRow.ratio.toFixed(2)}x the echo), peak RSS ${previous.rss_mb.toFixed(0)} MB, idle ${previousRow.idle_rss_mb.toFixed(0)} MB (+${previousRow.rss_over_idle_mb.toFixed(0)} MB)\n`,
    );
  }
  const r = row(
    `ewp serve (stdio), distinct propositions of ${DISTINCT_PROPOSITIONS}`,
    'calls',
    DISTINCT_CALLS,
    ewp,
    base,
    { kind: 'ratio>=', value: 0.5 },
    {
      idle_rss_mb: idleRss,
      rss_over_idle_mb: ewp.rss_mb - idleRss,
      rss_target_met: ewp.rss_mb - idleRss <= 64,
      sequential_p50_ms: ewp.r.sequential.p50_ms,
      sequential_p99_ms: ewp.r.sequential.p99_ms,
      baseline_sequential_p50_ms: base.r.sequential.p50_ms,
      floor: floorRow,
      ceiling: ceilingRow,
      ...(previousRow === undefined ? {} : { previous_build: previousRow }),
    },
  );
  process.stderr.write(
    `    peak RSS ${ewp.rss_mb.toFixed(0)} MB after ${DISTINCT_CALLS} calls, idle ${idleRss.toFixed(0)} MB (+${r.rss_over_idle_mb.toFixed(0)} MB, goal +64)\n`,
  );
}

// ---------------------------------------------------------------- report

const machine = {
  ...machineNote(),
  note: 'shared machine: other work runs at the same time; compare the ratios (subject and baseline run back to back), not absolutes',
};
const result = {
  benchmark: 'user-paths',
  date: new Date().toISOString(),
  machine,
  config: {
    eval_lines: EVAL_LINES,
    view_records: VIEW_RECORDS,
    ingest_records: INGEST_RECORDS,
    records_per_ingest_view: RECORDS_PER_INGEST_VIEW,
    mcp_calls: MCP_CALLS,
    repeat: REPEAT,
    rss_from: TIME ? '/usr/bin/time -v' : '/proc/<pid>/status VmHWM',
  },
  rows,
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);

const table = rows.map((r) => [
  r.path,
  `${r.rate.toFixed(0)} ${r.unit}/s`,
  `${r.baseline.rate.toFixed(0)} ${r.unit}/s`,
  `${r.ratio.toFixed(2)}x`,
  r.cpu_ratio === undefined ? '-' : `${r.cpu_ratio.toFixed(2)}x`,
  r.target.kind === 'time<='
    ? `time ${(r.seconds / r.baseline.seconds).toFixed(2)}x <= ${r.target.value}x`
    : r.target.kind === 'p50_ms<'
      ? `p50 ${r.p50_ms.toFixed(3)} ms < ${r.target.value} ms`
      : r.target.kind === 'startup_s<'
        ? `${(r.startup_s * 1000).toFixed(0)} ms < ${r.target.value * 1000} ms`
        : `>= ${r.target.value}x`,
  r.target_met ? 'met' : 'NOT met',
  `${r.peak_rss_mb.toFixed(0)} MB`,
  `${r.baseline.peak_rss_mb.toFixed(0)} MB`,
]);
const header = ['path (whole process)', 'ewp', 'baseline', 'ratio', 'CPU ratio', 'target', '', 'peak RSS', 'baseline RSS'];
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(
  `\nuser paths, whole process — ${machine.cpu} x${machine.cores}, ${machine.memory_gb} GB, Node ${machine.node}, load ${machine.load_average_1_5_15.join(' ')}\n`,
);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of table) console.log(line(r));
for (const r of rows) console.log(`  ${r.path}: baseline = ${r.baseline.what}`);
console.log(`\nwritten ${OUT}`);
