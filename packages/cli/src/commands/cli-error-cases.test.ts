/**
 * The error cases a user meets first, each answered with one clear line and its documented exit
 * code: the built binary where the process matters (--version, EPIPE), the verbs in process otherwise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACK_DIR } from '@ewp/conformance';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { evalCommand } from './eval.js';
import { ingestCommand } from './ingest.js';
import { receiptCommand } from './receipt.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-cli-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = new URL('../../dist/bin.js', import.meta.url).pathname;
const fixture = join(PACK_DIR, 'fixtures', '08-verified-now.json');
const quickstart = join(PACK_DIR, 'examples', 'quickstart.json');
const T = '2026-09-23T12:00:00Z';

describe('ewp (the process)', () => {
  it('--version prints the package name and version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const r = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${pkg.name} ${pkg.version}\n`);
  });

  it('exits quietly when the reader of stdout goes away (eval --jsonl | head)', async () => {
    const line = JSON.stringify({ view: JSON.parse(readFileSync(fixture, 'utf8')) });
    const child = spawn(process.execPath, [bin, 'eval', '--jsonl'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${line}\n`.repeat(5_000));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  });
});

describe('ewp eval', () => {
  it('`-` reads the view from stdin', async () => {
    const r = await runCaptured((io) => evalCommand(['-', '--json'], io), { stdin: readFileSync(fixture) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ warrant: { verification: expect.any(String) } });
  });

  it('--jsonl names the missing {"view": …} wrapper for a bare view', async () => {
    const bare = JSON.stringify(JSON.parse(readFileSync(fixture, 'utf8')));
    const r = await runCaptured((io) => evalCommand(['--jsonl'], io), { stdin: `${bare}\n` });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({ ok: false, error: { code: 'MISSING_FIELD', path: '$.view', message: expect.stringContaining('bare view') } });
  });
});

describe('ewp ingest', () => {
  it('creates no ledger when no view is valid', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"proposition_id": 1}\n{"nope": true}\n');
    const r = await runCaptured((io) => ingestCommand([bad, '--db', 'none.sqlite', '--evaluated-at', T], io), { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no ledger was opened or created');
    expect(existsSync(join(dir, 'none.sqlite'))).toBe(false);
  });

  it('a ledger path the OS cannot create fails at once with one line and exit 2 (no hang under /proc)', async () => {
    const r = await runCaptured((io) => ingestCommand([quickstart, '--db', '/proc/ewp-x/y.sqlite', '--attest-trusted-origins', '--evaluated-at', T], io), {
      cwd: dir,
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot create directory/);
  });

  it('a refused view inside a batch never rolls back its neighbours', async () => {
    const db = join(dir, 'batch.sqlite');
    const [a, b, c] = JSON.parse(readFileSync(quickstart, 'utf8')).views;
    const first = await runCaptured((io) => ingestCommand(['-', '--db', db, '--evaluated-at', T, '--attest-trusted-origins'], io), {
      cwd: dir,
      stdin: JSON.stringify(b),
    });
    expect(first.code).toBe(0);
    // b's (proposition, view) id again with other content is refused; a and c must be stored.
    const clash = { ...b, assertions: b.assertions.map((x: { text: string }) => ({ ...x, text: `${x.text} (edited)` })) };
    const r = await runCaptured((io) => ingestCommand(['-', '--db', db, '--batch', '10', '--evaluated-at', T, '--attest-trusted-origins'], io), {
      cwd: dir,
      stdin: JSON.stringify([a, clash, c]),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/FAIL -\[1\]: EWP_REFUSE_IMMUTABLE_RECORD/);
    const store = new SqliteEvidenceStore(db, { readOnly: true });
    expect((await store.listPropositions()).map((p) => p.proposition_id).sort()).toEqual([a.proposition_id, b.proposition_id, c.proposition_id].sort());
    expect((await store.listSnapshots(b.proposition_id)).length).toBe(1);
    await store.close();
  });
});

describe('usage errors are one line', () => {
  it('receipt verify without its view file: one line naming the mistake, exit 2', async () => {
    const r = await runCaptured((io) => receiptCommand(['verify', fixture], io), { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('ewp receipt: verify needs a receipt file and a view file (usage: ewp receipt --help)\n');
  });

  it('receipt verify of a file that does not exist: one line, exit 2', async () => {
    const r = await runCaptured((io) => receiptCommand(['verify', join(dir, 'nope.json'), fixture], io), { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^ewp receipt: cannot read .*nope\.json: ENOENT/);
  });

  it('receipt verify of a receipt that does not match its view: one stderr line with the status, exit 1', async () => {
    const issued = await runCaptured((io) => receiptCommand(['issue', fixture], io), { cwd: dir });
    writeFileSync(join(dir, 'receipt.json'), issued.stdout);
    const other = join(PACK_DIR, 'fixtures', '01-reinforcement.json');
    const r = await runCaptured((io) => receiptCommand(['verify', 'receipt.json', other], io), { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^ewp receipt verify: (MISMATCH|INVALID_VIEW): /);
  });

  it('an unknown flag of audit: one line, exit 2', async () => {
    const r = spawnSync(process.execPath, [bin, 'audit', 'verify', '--frobnicate'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("'--frobnicate'");
  });
});

/**
 * A ledger whose folder this process cannot write: a clean WAL ledger has no `-shm` file, and a
 * plain read-only open would need to create one. Tests run as root, which writes through any mode
 * bits, so the folder is made read-only with a read-only bind mount inside a private mount
 * namespace (`unshare -m`), which undoes itself when the command exits; other users get `chmod 555`.
 */
const asRoot = process.getuid?.() === 0;
const canMountReadOnly = !asRoot || spawnSync('unshare', ['-m', 'true']).status === 0;

function runInReadOnlyFolder(folder: string, args: string[], input = ''): { status: number | null; stdout: string; stderr: string } {
  if (!asRoot) {
    spawnSync('chmod', ['555', folder]);
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input });
    spawnSync('chmod', ['755', folder]);
    return r;
  }
  const q = (x: string) => `'${x.replaceAll("'", "'\\''")}'`;
  const script = `mount --bind ${q(folder)} ${q(folder)} && mount -o remount,bind,ro ${q(folder)} && touch ${q(join(folder, 'probe'))} 2>/dev/null && echo 'folder still writable' >&2 && exit 99; exec ${q(process.execPath)} ${[bin, ...args].map(q).join(' ')}`;
  return spawnSync('unshare', ['-m', 'sh', '-c', script], { encoding: 'utf8', input });
}

describe.runIf(canMountReadOnly)('a ledger in a folder that is not writable', () => {
  const folder = join(dir, 'ro-ledger');
  const db = join(folder, 'ewp.sqlite');

  it('ingest leaves a clean WAL ledger (no -shm file) behind', async () => {
    const r = await runCaptured((io) => ingestCommand([quickstart, '--db', db, '--attest-trusted-origins', '--evaluated-at', T], io), { cwd: dir });
    expect(r.code).toBe(0);
    expect(existsSync(`${db}-shm`)).toBe(false);
  });

  it('audit verify reads it and verifies the chain (exit 0)', () => {
    const r = runInReadOnlyFolder(folder, ['audit', 'verify', '--db', db]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^chain length \d+\nhead [0-9a-f]{64}\nOK\n$/);
  });

  it('read-only serve answers a tool call over stdio from it', () => {
    const call = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const input = [
      call(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      call(2, 'tools/call', { name: 'ewp_list_propositions', arguments: {} }),
      '',
    ].join('\n');
    const r = runInReadOnlyFolder(folder, ['serve', '--db', db], input);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('(read-only)');
    const reply = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((m) => m.id === 2);
    expect(reply.result.isError).toBeFalsy();
    expect(reply.result.structuredContent.propositions).toHaveLength(3);
  });

  it('a -wal file holding commits the ledger file lacks is refused with one line and exit 2', async () => {
    const store = new SqliteEvidenceStore(db);
    store.db.pragma('wal_autocheckpoint = 0');
    const [a] = JSON.parse(readFileSync(quickstart, 'utf8')).views;
    await store.put({ ...a, view_id: 'late' });
    // Leave the -wal file behind as a crashed writer would, without the -shm file.
    const { copyFileSync } = await import('node:fs');
    copyFileSync(`${db}-wal`, join(dir, 'saved-wal'));
    store.db.close();
    copyFileSync(join(dir, 'saved-wal'), `${db}-wal`);
    rmSync(`${db}-shm`, { force: true });
    const r = runInReadOnlyFolder(folder, ['audit', 'verify', '--db', db]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/folder is not writable .*-wal holds commits/);
  });
});

describe('usage mistakes of eval and ingest: one line, exit 2', () => {
  it.each([
    ['eval with no file', () => runCaptured((io) => evalCommand([], io)), 'ewp eval: which view? give a file, or - for stdin (usage: ewp eval --help)\n'],
    [
      'eval --jsonl with a file',
      () => runCaptured((io) => evalCommand(['--jsonl', fixture], io)),
      'ewp eval: --jsonl reads stdin; do not pass files (usage: ewp eval --help)\n',
    ],
    [
      'ingest with no file',
      () => runCaptured((io) => ingestCommand(['--db', join(dir, 'u.sqlite')], io)),
      'ewp ingest: no input files (give files, or - for stdin) (usage: ewp ingest --help)\n',
    ],
    [
      'ingest --batch 0',
      () => runCaptured((io) => ingestCommand([fixture, '--db', join(dir, 'u.sqlite'), '--batch', '0'], io)),
      'ewp ingest: --batch must be a positive integer, got "0" (usage: ewp ingest --help)\n',
    ],
  ])('%s', async (_label, run, line) => {
    const r = await run();
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(line);
    expect(existsSync(join(dir, 'u.sqlite'))).toBe(false);
  });
});
