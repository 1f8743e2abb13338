import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACK_DIR } from '@ewp/conformance';
import { JsonFileEvidenceStore } from '@ewp/ledger';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { auditCommand } from './audit.js';
import { ingestCommand } from './ingest.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-ingest-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quickstart = join(PACK_DIR, 'examples', 'quickstart.json');
const T = '2026-09-23T12:00:00Z';
let n = 0;

function run(command: typeof ingestCommand, args: string[], tty = false) {
  return runCaptured((io) => command(args, io), { cwd: dir, stderrIsTTY: tty });
}

describe('ewp ingest', () => {
  it('refuses trusted origins without the attestation, stores the rest, exits 1', async () => {
    const db = `q${++n}.sqlite`;
    const r = await run(ingestCommand, [quickstart, '--db', db, '--evaluated-at', T]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^stored P-api-key-rotated view=\S+ +acceptance=\w+ conflict=\w+ verification=NONE /m);
    expect(r.stderr).toMatch(/FAIL .*quickstart\.json\[0\]: EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN at \$\.\w+\[\d+\]\.source\.origin_type/);
    expect(r.stderr).toContain('2 view(s) not stored');
    const store = new SqliteEvidenceStore(join(dir, db), { readOnly: true });
    expect((await store.listPropositions()).map((p) => p.proposition_id)).toEqual(['P-api-key-rotated']);
    await store.close();
  });

  it('stores every quickstart view with --attest-trusted-origins and prints the five axes at T', async () => {
    const db = `q${++n}.sqlite`;
    const r = await run(ingestCommand, [quickstart, '--db', db, '--evaluated-at', T, '--attest-trusted-origins']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/stored P-prod-db-version view=\S+ +acceptance=TENTATIVE conflict=OPEN /);
    expect(r.stdout).toMatch(/stored P-deploys-from-main view=\S+ +acceptance=ACCEPTED /);
    expect(r.stdout).toMatch(/stored P-api-key-rotated view=\S+ .*verification=NONE/);
    expect(r.stdout).toContain(`warrant at ${T}`);
    expect(r.stdout).toMatch(/proposition +view +status +acceptance +conflict +verification +currency +sufficiency/);
    // Re-ingesting identical snapshots is fine.
    const again = await run(ingestCommand, [quickstart, '--db', db, '--evaluated-at', T, '--attest-trusted-origins']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('(unchanged)');
    const audit = await run(auditCommand, ['verify', '--db', db]);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/^chain length \d+\nhead [0-9a-f]{64}\nOK\n$/);
  });

  it('reports a bad view with its file, index, code and path, and stores the others', async () => {
    const file = join(dir, 'mixed.json');
    const good = { proposition_id: 'P-ok', view_id: 'v1', assertions: [] };
    writeFileSync(file, JSON.stringify({ note: 'x', views: [good, { proposition_id: 'P-bad', view_id: 'v1', degraded: 'yes' }] }));
    const r = await run(ingestCommand, [file, '--json-dir', `j${++n}`, '--evaluated-at', T]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/FAIL \S*mixed\.json\[1\]: WRONG_TYPE at \$\.degraded: /);
    expect(r.stdout).toContain('stored P-ok view=v1');
    const store = new JsonFileEvidenceStore(join(dir, `j${n}`), { readOnly: true });
    expect(await store.get('P-ok')).toBeDefined();
    expect(await store.get('P-bad')).toBeUndefined();
  });

  it('reads JSONL, and reports an unparsable line as one failed view', async () => {
    const file = join(dir, 'views.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ proposition_id: 'P-1', view_id: 'a' })}\n{not json\n\n${JSON.stringify({ proposition_id: 'P-2', view_id: 'b' })}\n`,
    );
    const r = await run(ingestCommand, [file, '--db', `l${++n}.sqlite`, '--evaluated-at', T]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/FAIL \S*views\.jsonl\[1\]: JSON_SYNTAX/);
    expect(r.stdout).toContain('stored P-1 view=a');
    expect(r.stdout).toContain('stored P-2 view=b');
  });

  it.skipIf(process.platform === 'win32')('ingests from a named pipe (the built binary: the ledger opens after the pipe was examined)', async () => {
    const fifo = join(dir, 'views.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const bin = new URL('../../dist/bin.js', import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, 'ingest', fifo, '--db', join(dir, `p${++n}.sqlite`), '--evaluated-at', T, '--attest-trusted-origins'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    await writeFile(fifo, readFileSync(quickstart));
    const [code] = await once(child, 'close');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/stored P-api-key-rotated view=\S+ /);
  });

  it('refuses a bad --evaluated-at before opening the ledger, creating nothing (exit 2)', async () => {
    const db = `none${++n}/deep/ewp.sqlite`;
    const r = await run(ingestCommand, [quickstart, '--db', db, '--evaluated-at', 'yesterday']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--evaluated-at: .*; nothing stored/);
    expect(existsSync(join(dir, `none${n}`))).toBe(false);
  });

  it('exits 2 for a ledger of another schema, for no ledger and for two ledgers', async () => {
    const foreign = join(dir, 'foreign.sqlite');
    const other = new SqliteEvidenceStore(foreign);
    other.db.pragma('user_version = 99');
    await other.close();
    const r = await run(ingestCommand, [quickstart, '--db', foreign]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('start a new ledger');
    expect((await run(ingestCommand, [quickstart])).code).toBe(2);
    expect((await run(ingestCommand, [quickstart, '--db', 'a.sqlite', '--json-dir', 'b'])).code).toBe(2);
    expect((await run(ingestCommand, ['--db', 'a.sqlite'])).code).toBe(2);
  });

  it('draws a progress bar on a terminal instead of per-view lines', async () => {
    const r = await run(ingestCommand, [quickstart, '--db', `t${++n}.sqlite`, '--evaluated-at', T, '--attest-trusted-origins'], true);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\] 3 views, 100% of /);
    expect(r.stdout).not.toMatch(/^stored /m);
    expect(r.stdout).toContain('P-deploys-from-main');
  });
});

describe('ewp audit verify', () => {
  it('reports the first bad index and exits 1 on a tampered log; exits 2 for a missing ledger', async () => {
    const db = `a${++n}.sqlite`;
    await run(ingestCommand, [quickstart, '--db', db, '--attest-trusted-origins']);
    const store = new SqliteEvidenceStore(join(dir, db));
    store.db.exec("UPDATE ewp_chain SET event = replace(event, 'P-', 'Q-') WHERE idx = 1");
    await store.close();
    const r = await run(auditCommand, ['verify', '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL at index 1: hash_mismatch');
    const missing = await run(auditCommand, ['verify', '--db', 'missing.sqlite']);
    expect(missing.code).toBe(2);
    expect(existsSync(join(dir, 'missing.sqlite'))).toBe(false);
    expect((await run(auditCommand, ['check', '--db', db])).code).toBe(2);
  });

  it("runs SQLite's integrity_check: a row missing from an index fails the audit", async () => {
    const db = `ix${++n}.sqlite`;
    await run(ingestCommand, [quickstart, '--db', db, '--attest-trusted-origins']);
    // The same ledger's owner index without one proposition's rows, spliced into the original: the
    // table is intact and every row matches its event, but reads through the index miss that proposition.
    const path = join(dir, db);
    const copy = join(dir, `ix${++n}.sqlite`);
    const raw = new SqliteEvidenceStore(path);
    raw.db.pragma('wal_checkpoint(TRUNCATE)');
    const { rootpage } = raw.db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'ewp_snapshots_by_owner'").get() as { rootpage: number };
    const pageSize = raw.db.pragma('page_size', { simple: true }) as number;
    await raw.close();
    copyFileSync(path, copy);
    const edited = new SqliteEvidenceStore(copy);
    edited.db.pragma('foreign_keys = OFF');
    edited.db.exec("DELETE FROM ewp_snapshots WHERE owner = 'P-deploys-from-main'");
    edited.db.pragma('wal_checkpoint(TRUNCATE)');
    await edited.close();
    const original = readFileSync(path);
    readFileSync(copy).copy(original, (rootpage - 1) * pageSize, (rootpage - 1) * pageSize, rootpage * pageSize);
    writeFileSync(path, original);
    const r = await run(auditCommand, ['verify', '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL at index 0: storage_damaged \(SQLite integrity_check: .*ewp_snapshots_by_owner/);
  });

  it('verifies a JSON-file ledger', async () => {
    const jd = `ja${++n}`;
    await run(ingestCommand, [quickstart, '--json-dir', jd, '--attest-trusted-origins']);
    const r = await run(auditCommand, ['verify', '--json-dir', jd, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true });
  });
});
