/**
 * `ewp checkpoint create|verify|invalidate` through the command table over a real SQLite receipt store:
 * a checkpoint and one that depends on it, verified, an operation applied once, a stale one blocked,
 * the recovery plan after an invalidation, and typed refusals.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteReceiptStore } from '@ewp/receipts';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../commands.js';
import { runCaptured } from '../testing/captured-io.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-checkpoint-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const receipts = join(dir, 'receipts.sqlite');
const NOW = '2026-12-06T12:00:00Z';

async function checkpoint(args: string[]) {
  const command = await COMMANDS.checkpoint!.load();
  return runCaptured((io) => command([...args, '--receipts', receipts], io), { cwd: dir });
}
const file = (name: string, value: unknown) => {
  writeFileSync(join(dir, name), JSON.stringify(value));
  return name;
};
const evidence = (id: string, valid_until: string | null = null) => ({
  evidence_id: id,
  payload: { text: `fact ${id}` },
  provenance: { source: 'tool:probe', locator: 'probe://server01', retrieved_at: '2026-12-06T11:00:00Z', content_type: 'application/json' },
  observed_at: '2026-12-06T11:00:00Z',
  valid_until,
});
const policy = { policy_id: 'ops', version: '1' };

describe('ewp checkpoint', () => {
  it('creates, verifies and plans recovery; an operation is applied once', async () => {
    const root = await checkpoint([
      'create',
      file('root.json', { agent: 'planner', evidence: [evidence('e1')], output: { plan: 'restart' }, policy }),
      '--now',
      NOW,
    ]);
    expect(root.code).toBe(0);
    const rootResult = JSON.parse(root.stdout);
    expect(rootResult).toMatchObject({ integrity: 'VERIFIED', action: 'ALLOW' });
    const id = rootResult.checkpoint_id as string;
    const child = { agent: 'executor', evidence: [evidence('e2')], output: { done: true }, policy, depends_on: [id], operation_id: 'op-1' };
    const made = await checkpoint(['create', file('child.json', child), '--now', NOW]);
    expect(made.code).toBe(0);
    const childId = JSON.parse(made.stdout).checkpoint_id as string;
    expect(JSON.parse(made.stdout).operation).toBe('APPLIED');
    // The same operation again: the same bundle, already applied; nothing is written twice.
    expect(JSON.parse((await checkpoint(['create', 'child.json', '--now', NOW])).stdout).operation).toBe('ALREADY_APPLIED');
    expect(await checkpoint(['create', file('conflict.json', { ...child, output: { done: false } }), '--now', NOW])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('nothing written'),
    });
    expect(JSON.parse((await checkpoint(['verify', id, '--now', NOW])).stdout)).toMatchObject({ checkpoint_id: id, action: 'ALLOW' });
    const plan = await checkpoint(['invalidate', id, '--reason', 'evidence_changed', '--consequential', childId]);
    expect(plan.code).toBe(0);
    const body = JSON.parse(plan.stdout);
    // The invalidated checkpoint and the one that depends on it are affected; nothing is reusable.
    expect([...body.invalidated].sort()).toEqual([id, childId].sort());
    expect(body.reusable).toEqual([]);
    const store = await openSqliteReceiptStore(receipts);
    expect(store.rowCounts()).toMatchObject({ eb_checkpoints: 2, eb_replay: 1 });
    store.close();
  });

  it('a stale checkpoint does not allow its action (exit 1); refusals are typed, unknown ids exit 2', async () => {
    const stale = await checkpoint([
      'create',
      file('stale.json', { agent: 'a', evidence: [evidence('e9', '2026-12-01T00:00:00Z')], output: 1, policy }),
      '--now',
      NOW,
    ]);
    expect(stale.code).toBe(1);
    expect(JSON.parse(stale.stdout).action).not.toBe('ALLOW');
    expect(await checkpoint(['create', file('dup.json', { agent: 'a', evidence: [evidence('x'), evidence('x')], output: 1, policy })])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('DUPLICATE_EVIDENCE_IDS'),
    });
    expect(await checkpoint(['create', file('dep.json', { agent: 'a', evidence: [], output: 1, policy, depends_on: ['cp-missing'] })])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('UNKNOWN_DEPENDENCIES'),
    });
    expect(await checkpoint(['verify', 'cp-missing'])).toMatchObject({ code: 2, stderr: expect.stringContaining('UNKNOWN_CHECKPOINT') });
    expect(await checkpoint(['invalidate', 'cp-missing', '--reason', 'evidence_changed'])).toMatchObject({ code: 2 });
    expect(await checkpoint(['invalidate', 'x'])).toMatchObject({ code: 2, stderr: expect.stringContaining('invalidate needs --reason') });
  });
});
