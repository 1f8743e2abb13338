import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { decideGate, runGuarded } from '@ewp/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { decisionsCommand } from './decisions.js';
import { recoverCommand } from './recover.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-decisions-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const verified = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url)), 'utf8'));
const db = join(dir, 'ewp.sqlite');
const action = { id: 'restart-server01', kind: 'restart', risk: 'high' as const, reversible: false };
const now = () => new Date('2026-09-21T21:00:00Z');
/** Decisions made by the operator's own code (no binding): recorded under the `library` gate. */
const call = { gate: 'library', tool: 'restart', callId: undefined };

const decisions = (args: string[]) => runCaptured((io) => decisionsCommand([...args, '--db', db], io), { cwd: dir });
const recover = (args: string[]) => runCaptured((io) => recoverCommand([...args, '--db', db], io), { cwd: dir });

describe('ewp decisions / ewp recover', () => {
  it('lists, shows and verifies recorded decisions; plans recovery after a retraction; re-evaluation lifts the hold', async () => {
    const store = new SqliteEvidenceStore(db);
    await store.put(verified);
    const run = await runGuarded({ store, proposition: 'P-win', action, now }, {}, call, () => 'restarted');
    await store.close();
    const id = run.decisionId as string;

    const list = await decisions(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${id}\trestart-server01\tMAY_ACT\tMAY_ACT\thigh.warranted\tP-win\t`);
    const shown = await decisions(['show', id]);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      decision: { decision_id: id, record: { decision: 'MAY_ACT' } },
      outcome: { body: { status: 'succeeded' } },
    });
    const verified1 = await decisions(['verify', id]);
    expect(verified1.code).toBe(0);
    expect(JSON.parse(verified1.stdout)).toMatchObject({ decision_id: id, ok: true, status: 'VERIFIED' });
    expect((await decisions(['verify', '--all'])).stdout).toContain('1 verified, 0 failed');
    expect(await recover(['plan'])).toMatchObject({ code: 0, stdout: expect.stringContaining('decisions examined 1, clear 1, held 0') });

    expect((await recover(['retract', 'P-win', 'check:k1', '--note', 'probe misconfigured'])).stdout).toMatch(/^inv_[0-9a-f]{32}\n$/);
    const plan = await recover(['plan', '--json']);
    expect(plan.code).toBe(1);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      changed: { 'P-win': 'evidence_refuted' },
      reevaluate: ['P-win'],
      held: [{ decision_id: id, requirements: ['P-win'] }],
    });
    const recorded = await recover(['plan', '--record']);
    expect(recorded.stdout).toMatch(/held\tdec_.*until P-win re-evaluated\nrecorded as plan_/);
    // The snapshot still holds the retracted check: re-evaluation does not lift the hold.
    expect(await recover(['reevaluate', 'P-win'])).toMatchObject({ code: 1, stdout: expect.stringContaining('\tBLOCK\t') });

    const again = new SqliteEvidenceStore(db);
    await again.put({ ...verified, view_id: 'v-2', checks: [] });
    const held = await decideGate({ store: again, proposition: 'P-win', action, now }, {}, call);
    expect(held.decision).toBe('DENY');
    await again.close();
    expect(await recover(['reevaluate', 'P-win'])).toMatchObject({ code: 0, stdout: expect.stringContaining('P-win\tv-2\tALLOW\tev_') });
    // Re-evaluated: the old decision is no longer held waiting on anything; a later use decides again.
    const after = await recover(['plan', '--json']);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({
      held: [],
      changed: {},
      reevaluate: [],
      reevaluated: [{ decision_id: id, action_id: 'restart-server01' }],
    });
    const afterText = await recover(['plan']);
    expect(afterText.stdout).toContain(`re-evaluated\t${id}\trestart-server01\ta later use decides the action again\n`);
    expect(afterText.stdout).not.toContain('until  re-evaluated');
    expect(
      (await decisions(['list', '--proposition', 'P-win', '--json'])).stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).held),
    ).toEqual([false, true]);
    expect((await decisions(['verify', '--all'])).stdout).toContain('2 verified, 0 failed');
  });

  it('refuses bad arguments and unknown ids with exit 2', async () => {
    expect((await decisions(['frob'])).code).toBe(2);
    expect((await decisions(['verify'])).code).toBe(2);
    expect(await decisions(['list', '--since', 'x'])).toMatchObject({
      code: 2,
      stderr: 'ewp decisions: --since must be a non-negative integer, got "x" (usage: ewp decisions --help)\n',
    });
    expect(await decisions(['show', 'dec_nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('EWP_REFUSE_DECISION_UNKNOWN') });
    expect((await recover(['plan', '--since', 'yesterday'])).code).toBe(2);
    expect((await recover(['retract', 'P-win'])).code).toBe(2);
    expect(await recover(['retract', 'P-win', 'k1'])).toMatchObject({ code: 2, stderr: expect.stringContaining('EWP_REFUSE_INVALID_ARGUMENTS') });
    // A typo is refused in one line and nothing is recorded: no proposition, or no snapshot holding the record.
    const entries = async () => {
      const store = new SqliteEvidenceStore(db, { readOnly: true });
      const n = (await store.readEntries({ kind: 'invalidation' })).length;
      await store.close();
      return n;
    };
    const before = await entries();
    expect(await recover(['retract', 'P-win', 'check:K-WRONG'])).toEqual(
      expect.objectContaining({
        code: 2,
        stderr: 'ewp recover: EWP_REFUSE_INVALID_ARGUMENTS: $.records[0]: no snapshot of "P-win" holds "check:K-WRONG" (nothing recorded)\n',
      }),
    );
    expect(await recover(['retract', 'P-win', 'check:k1', 'evidence:nope'])).toMatchObject({ code: 2, stderr: expect.stringContaining('$.records[1]') });
    expect(await recover(['retract', 'P-typo', 'check:k1'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('$.proposition_id: no snapshot of "P-typo"'),
    });
    expect(await entries()).toBe(before);
    writeFileSync(join(dir, 'keys.json'), '{}');
    expect((await decisions(['verify', '--all', '--keys', 'keys.json'])).code).toBe(1); // unsigned records do not verify against keys
  });
});
