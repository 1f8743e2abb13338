// The salience side file under anonymous `POST /v1/recall` on `ewp serve --http`: stores
// EWP_FLOOD_MEMORIES memories (default 300) through `POST /v1/store` (the ingest token's principal,
// operator, granted observations with --observer), then 8 clients recall for EWP_FLOOD_SECONDS
// (default 10) without a token. Halfway through, `ewp recall` runs on the same ledger beside the
// server. Prints one JSON line: recalls answered, the side file's lines and bytes each second and after
// the server stopped, whether the server held a deleted side file open (Linux), and the recall counts
// the file holds after the stop against the rows the server's recalls answered (each row bumps one
// memory's count: the two are equal when no bump was lost).
//
// Run: `node packages/memory/bench/serve-recall-flood.mjs [path to the ewp bin, default packages/cli/dist/bin.js]`.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'cli', 'dist', 'bin.js');
const MEMORIES = Number(process.env.EWP_FLOOD_MEMORIES ?? 300);
const SECONDS = Number(process.env.EWP_FLOOD_SECONDS ?? 10);
const CLIENTS = 8;
const TOKEN = 'flood-token-0123456789abcdef0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'ewp-recall-flood-'));
const db = join(dir, 'ledger.sqlite');
const side = `${db}.salience.jsonl`;
writeFileSync(join(dir, 'token'), `${TOKEN}\n`, { mode: 0o600 });

const size = () => {
  const stat = statSync(side, { throwIfNoEntry: false });
  return stat === undefined ? { lines: 0, bytes: 0 } : { lines: readFileSync(side, 'utf8').split('\n').length - 1, bytes: stat.size };
};
/** Whether process `pid` holds a deleted salience file open (Linux; null elsewhere). */
const holdsDeleted = (pid) => {
  if (!existsSync(`/proc/${pid}/fd`)) return null;
  return readdirSync(`/proc/${pid}/fd`).some((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.includes('salience.jsonl') && target.endsWith('(deleted)');
    } catch {
      return false;
    }
  });
};

const server = spawn(
  process.execPath,
  [bin, 'serve', '--http', '127.0.0.1:0', '--db', db, '--ingest-token-file', join(dir, 'token'), '--observer', 'operator'],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let err = '';
server.stderr.setEncoding('utf8').on('data', (d) => {
  err += d;
});
try {
  const started = Date.now();
  while (!/listening on (\S+)/.test(err)) {
    if (server.exitCode !== null || Date.now() - started > 30_000) throw new Error(`the server did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = new URL(/listening on (\S+)/.exec(err)[1]).origin;
  let rows = 0;
  const post = async (path, body, token) => {
    const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const answer = await res.text();
    if (res.status === 200 && path === '/v1/recall') rows += JSON.parse(answer).rows.length;
    return res.status;
  };
  for (let i = 0; i < MEMORIES; i += 1) {
    const status = await post(
      '/v1/store',
      { text: `tok${i} sensor ${i % 23} reads ${(i * 7919) % 1000} units at station ${i % 13}`, class: 'observation' },
      TOKEN,
    );
    if (status !== 200) throw new Error(`store answered ${status}`);
  }
  let answered = 0;
  const end = Date.now() + SECONDS * 1000;
  const client = async (c) => {
    for (let r = c; Date.now() < end; r += CLIENTS) {
      if ((await post('/v1/recall', { query: `sensor ${r % 23} station ${r % 13}`, limit: 5 })) === 200) answered += 1;
    }
  };
  const each = [];
  let cli;
  const sampler = (async () => {
    for (let s = 1; s <= SECONDS; s += 1) {
      await new Promise((r) => setTimeout(r, 1000));
      each.push({ s, ...size() });
      if (s === Math.floor(SECONDS / 2)) cli = spawnSync(process.execPath, [bin, 'recall', 'sensor', '--db', db], { encoding: 'utf8' });
    }
  })();
  await Promise.all([...Array.from({ length: CLIENTS }, (_, c) => client(c)), sampler]);
  await new Promise((r) => setTimeout(r, 200));
  const deleted = holdsDeleted(server.pid);
  server.kill('SIGTERM');
  await once(server, 'exit');
  const counts = new Map();
  for (const line of readFileSync(side, 'utf8').split('\n')) {
    if (line === '') continue;
    const { h, r } = JSON.parse(line);
    counts.set(h, r.recall_count);
  }
  process.stdout.write(
    `${JSON.stringify({
      memories: MEMORIES,
      seconds: SECONDS,
      recalls_answered: answered,
      each_second: each,
      after_stop: size(),
      cli_recall: { status: cli?.status, stderr: cli?.stderr.trim() },
      server_held_deleted_file: deleted,
      rows_recalled_by_server: rows,
      recall_counts_in_file: [...counts.values()].reduce((a, b) => a + b, 0),
    })}\n`,
  );
} finally {
  if (server.exitCode === null) server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
