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
    const r = await runCaptured((io) => ingestCommand([quickstart, '--db', '/proc/ewp-x/y.sqlite', '--attest-trusted-origins', '--evaluated-at', T], io), { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot create directory/);
  });

  it('a refused view inside a batch never rolls back its neighbours', async () => {
    const db = join(dir, 'batch.sqlite');
    const [a, b, c] = JSON.parse(readFileSync(quickstart, 'utf8')).views;
    const first = await runCaptured((io) => ingestCommand(['-', '--db', db, '--evaluated-at', T, '--attest-trusted-origins'], io), { cwd: dir, stdin: JSON.stringify(b) });
    expect(first.code).toBe(0);
    // b's (proposition, view) id again with other content is refused; a and c must be stored.
    const clash = { ...b, assertions: b.assertions.map((x: { text: string }) => ({ ...x, text: `${x.text} (edited)` })) };
    const r = await runCaptured(
      (io) => ingestCommand(['-', '--db', db, '--batch', '10', '--evaluated-at', T, '--attest-trusted-origins'], io),
      { cwd: dir, stdin: JSON.stringify([a, clash, c]) },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/FAIL -\[1\]: EWP_REFUSE_IMMUTABLE_RECORD/);
    const store = new SqliteEvidenceStore(db, { readOnly: true });
    expect((await store.listPropositions()).map((p) => p.proposition_id).sort()).toEqual([a.proposition_id, b.proposition_id, c.proposition_id].sort());
    expect((await store.listSnapshots(b.proposition_id)).length).toBe(1);
    await store.close();
  });
});
