/**
 * `ewp keys` and `ewp decisions run` through the CLI's command table over real SQLite ledgers: the key
 * lifecycle with its refusals, a signed decision verifying (or not) by the ledger's key states, and a
 * recorded decision executed once under the replay guard with its outcome recorded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ed25519Signer } from '@ewp/receipts';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { decideGate, decisionHistory } from '@ewp/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../commands.js';
import { runCaptured } from '../testing/captured-io.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-keys-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const verified = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url)), 'utf8'));
const T0 = () => new Date('2026-09-21T21:00:00Z');
const LATER = () => new Date('2026-10-05T00:00:00Z');
/** Decisions made by the operator's own code (no binding): recorded under the `library` gate. */
const call = { gate: 'library', tool: 'restart', callId: undefined };
let ledgers = 0;

/** A fresh SQLite ledger holding P-win. */
async function ledger(): Promise<string> {
  const db = join(dir, `ewp-${++ledgers}.sqlite`);
  const store = new SqliteEvidenceStore(db);
  await store.put(structuredClone(verified));
  await store.close();
  return db;
}

/** `ewp <verb> ...args --db <db>` through the command table. */
async function ewp(verb: string, args: string[], db: string) {
  const command = await COMMANDS[verb]!.load();
  const dash = args.indexOf('--');
  const withDb = dash === -1 ? [...args, '--db', db] : [...args.slice(0, dash), '--db', db, ...args.slice(dash)];
  return runCaptured((io) => command(withDb, io), { cwd: dir });
}

const seed = (n: number) => Buffer.alloc(32, n).toString('hex');

describe('ewp keys', () => {
  it('add, rotate, retire, revoke, list: each change on the ledger; refused changes write nothing', async () => {
    const db = await ledger();
    const k1 = new Ed25519Signer('k1', seed(1));
    const k2 = new Ed25519Signer('k2', seed(2));
    expect(await ewp('keys', ['add', 'k1', '--public-hex', k1.publicKeyHex()], db)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^k1\tACTIVE\t/) });
    const added = await ewp('keys', ['add', 'k1', '--public-hex', k2.publicKeyHex()], db);
    expect(added).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('EWP_REFUSE_INVALID_ARGUMENTS: $[0].state: key "k1" is already registered (ACTIVE)'),
    });
    writeFileSync(join(dir, 'k2.pub'), `${k2.publicKeyHex()}\n`);
    const rotated = await ewp('keys', ['rotate', 'k1', 'k2', '--public-file', 'k2.pub'], db);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^k2\tACTIVE\t.*\nk1\tRETIRED\t/);
    expect(await ewp('keys', ['retire', 'k1'], db)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('$[0].state: key "k1" is RETIRED and cannot become RETIRED'),
    });
    expect(await ewp('keys', ['revoke', 'k1'], db)).toMatchObject({ code: 0 });
    expect(await ewp('keys', ['revoke', 'k9'], db)).toMatchObject({ code: 1, stderr: expect.stringContaining('no key "k9" is registered; add it first') });
    expect(await ewp('keys', ['add', 'k3', '--public-hex', 'ABC'], db)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('$[0].public_key_hex: public_key_hex must be 64 lowercase hex digits'),
    });
    const listed = await ewp('keys', ['list', '--json'], db);
    const keys = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(keys.map((k: { key_id: string; state: string; history: { state: string }[] }) => [k.key_id, k.state, k.history.map((h) => h.state)])).toEqual([
      ['k1', 'REVOKED', ['ACTIVE', 'RETIRED', 'REVOKED']],
      ['k2', 'ACTIVE', ['ACTIVE']],
    ]);
    expect(await ewp('keys', ['rotate', 'k1'], db)).toMatchObject({ code: 2, stderr: expect.stringContaining('rotate takes the old and the new key id') });
    expect(await ewp('keys', ['retire', 'k2', '--public-hex', k2.publicKeyHex()], db)).toMatchObject({ code: 2 });
    const store = new SqliteEvidenceStore(db, { readOnly: true });
    expect((await store.verifyChain()).ok).toBe(true);
    await store.close();
  });

  it('a decision signed by a key verifies while the key is active or retired, and no longer once it is revoked', async () => {
    const db = await ledger();
    const signer = new Ed25519Signer('ops-1', seed(7));
    expect((await ewp('keys', ['add', 'ops-1', '--public-hex', signer.publicKeyHex()], db)).code).toBe(0);
    const store = new SqliteEvidenceStore(db);
    const d = await decideGate({ store, proposition: 'P-win', action: { id: 'a', kind: 'restart', risk: 'low' }, now: T0, record: { signer } }, {}, call);
    await store.close();
    const verify = () => ewp('decisions', ['verify', d.decisionId as string], db);
    expect(JSON.parse((await verify()).stdout)).toMatchObject({ ok: true });
    expect((await ewp('keys', ['retire', 'ops-1'], db)).code).toBe(0);
    expect(JSON.parse((await verify()).stdout)).toMatchObject({ ok: true });
    expect((await ewp('keys', ['revoke', 'ops-1'], db)).code).toBe(0);
    const revoked = await verify();
    expect(revoked.code).toBe(1);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ ok: false });
  });
});

describe('ewp decisions run', () => {
  it('runs a MAY_ACT decision’s command once, records succeeded; a second run is refused and runs nothing', async () => {
    const db = await ledger();
    const store = new SqliteEvidenceStore(db);
    const d = await decideGate({ store, proposition: 'P-win', action: { id: 'restart', kind: 'restart', risk: 'high', reversible: true }, now: T0 }, {}, call);
    await store.close();
    const marker = join(dir, `ran-${ledgers}.txt`);
    const script = `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'x'); console.log('restarted')`;
    const first = await ewp('decisions', ['run', d.decisionId as string, '--', process.execPath, '-e', script], db);
    expect(first).toMatchObject({ code: 0, stdout: 'restarted\n', stderr: expect.stringContaining('ran and succeeded (recorded)') });
    const second = await ewp('decisions', ['run', d.decisionId as string, '--', process.execPath, '-e', script], db);
    expect(second).toMatchObject({ code: 1, stderr: expect.stringContaining('EWP_REFUSE_DECISION_NOT_EXECUTABLE') });
    expect(readFileSync(marker, 'utf8')).toBe('x');
    const shown = JSON.parse((await ewp('decisions', ['show', d.decisionId as string], db)).stdout);
    expect(shown).toMatchObject({ execution: { body: { decision_id: d.decisionId } }, outcome: { body: { status: 'succeeded', error: null } } });
  });

  it('a failing command is recorded failed with its exit code; a DENY is refused; REQUIRE_CONFIRMATION needs --confirmed-by, recorded', async () => {
    const db = await ledger();
    const store = new SqliteEvidenceStore(db);
    const may = await decideGate({ store, proposition: 'P-win', action: { id: 'a1', kind: 'restart', risk: 'low' }, now: T0 }, {}, call);
    const deny = await decideGate({ store, proposition: 'P-none', action: { id: 'a2', kind: 'restart', risk: 'low' }, now: T0 }, {}, call);
    const ask = await decideGate(
      { store, proposition: 'P-win', action: { id: 'a3', kind: 'restart', risk: 'medium', reversible: true }, now: LATER },
      {},
      call,
    );
    await store.close();
    expect(ask.decision).toBe('REQUIRE_CONFIRMATION');
    const failed = await ewp('decisions', ['run', may.decisionId as string, '--', process.execPath, '-e', 'process.exit(3)'], db);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('ran and failed (recorded)') });
    const denied = await ewp('decisions', ['run', deny.decisionId as string, '--', process.execPath, '-e', ''], db);
    expect(denied).toMatchObject({ code: 1, stderr: expect.stringContaining(`decision ${deny.decisionId} was DENY; nothing ran`) });
    expect(await ewp('decisions', ['run', ask.decisionId as string, '--', process.execPath, '-e', ''], db)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('needs a recorded confirmation'),
    });
    expect(await ewp('decisions', ['run', ask.decisionId as string, '--confirmed-by', 'alice', '--', process.execPath, '-e', ''], db)).toMatchObject({
      code: 0,
    });
    const reopened = new SqliteEvidenceStore(db, { readOnly: true });
    expect((await decisionHistory(reopened, may.decisionId as string)).outcome?.body).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('exited with 3'),
    });
    expect((await decisionHistory(reopened, ask.decisionId as string)).confirmation?.body).toMatchObject({ confirmed_by: 'alice' });
    expect((await decisionHistory(reopened, deny.decisionId as string)).execution).toBeNull();
    await reopened.close();
    expect(await ewp('decisions', ['run', 'dec_unknown', '--', 'true'], db)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('EWP_REFUSE_DECISION_UNKNOWN'),
    });
    expect(await ewp('decisions', ['run', may.decisionId as string], db)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('run needs a decision id and the command after --'),
    });
    expect(await ewp('decisions', ['list', '--', 'true'], db)).toMatchObject({ code: 2, stderr: expect.stringContaining('list takes no command') });
  });
});
