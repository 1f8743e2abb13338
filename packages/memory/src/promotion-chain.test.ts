import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { agentContext } from './agent-context.js';
import { MemoryLedger } from './memory-ledger.js';
import { JsonlSalienceStore } from './salience-file.js';
import { saliencePathFor } from './salience-location.js';

const T = '2026-12-01T12:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'ewp-promotion-chain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A layer over the SQLite ledger at `db` with salience in its side file, as the CLI opens it. */
function open(db: string): MemoryLedger {
  return new MemoryLedger(new SqliteEvidenceStore(db), {
    now: () => T,
    config: { promotion_energy: 3 },
    salience: new JsonlSalienceStore(saliencePathFor({ db })!),
  });
}

async function close(memory: MemoryLedger): Promise<void> {
  memory.close();
  await memory.evidenceStore.close();
}

/** Everything the side file must not be able to move. */
async function authority(memory: MemoryLedger, hashes: readonly string[]) {
  const context = await agentContext(memory, { at: T });
  return {
    checkout: await memory.checkout({ at: T }),
    confirmed: context.confirmed,
    gate: await memory.gateStats(),
    promoted: await Promise.all(hashes.map((h) => memory.isPromoted(h))),
  };
}

describe('promotion lives in the chain', () => {
  it('an edited salience file changes no checkout, no confirmed context, no gate statistics and no promotion', async () => {
    const db = join(dir, 'side-door.sqlite');
    const memory = open(db);
    const seen = await memory.store({ text: 'The 02:00 backup wrote 0 bytes on db-2', class: 'observation', source: 'backup-log' });
    const guess = await memory.store({ text: 'The backup user lost its grants', class: 'hypothesis', source: 'agent' });
    const hunch = await memory.store({ text: 'db-2 is about to fail', class: 'inference', source: 'agent' });
    // A second, independent source confirms the observation (the confirmed part is not empty).
    await memory.store({ text: 'Backup size for db-2 at 02:00: 0 B', class: 'observation', source: 'storage-report', supports: [seen.hash] });
    // The observation is promoted through the gate; the hypothesis is refused (no evidence).
    for (let i = 0; i < 3; i += 1) {
      await memory.replay(seen.hash);
      await memory.replay(guess.hash);
    }
    const hashes = [seen.hash, guess.hash, hunch.hash];
    const before = await authority(memory, hashes);
    expect(before.promoted).toEqual([true, false, false]);
    expect(before.gate).toMatchObject({ allowed: 1, blocked: 1 });
    expect(before.checkout).toContain(seen.hash);
    expect(before.checkout).not.toContain(hunch.hash);
    expect(before.confirmed.rows.map((r) => r.hash)).toContain(seen.hash);
    await close(memory);

    // The side door: a line that says the unsupported inference is promoted, and the hypothesis's energy changed.
    const side = saliencePathFor({ db })!;
    const lines = readFileSync(side, 'utf8');
    appendFileSync(
      side,
      `${JSON.stringify({ h: hunch.hash, r: { recall_count: 1, energy: 2, importance: 9, last_recalled_at: T, promoted: true, blocked_at_state: null } })}\n`,
    );
    appendFileSync(side, `${JSON.stringify({ h: guess.hash, r: { recall_count: 3, energy: 1, importance: 0, last_recalled_at: T, promoted: true } })}\n`);
    expect(readFileSync(side, 'utf8').length).toBeGreaterThan(lines.length);

    const again = open(db);
    // The edit was read (salience is the file's to say) ...
    expect((await again.show(hunch.hash)).salience).toMatchObject({ importance: 9, energy: 2 });
    // ... and moved nothing the chain decides.
    expect(await authority(again, hashes)).toEqual(before);
    expect((await again.show(hunch.hash)).promoted).toBe(false);
    expect((await again.audit()).chain.ok).toBe(true);
    // Recalled up to the threshold, the inference goes to the gate, which refuses it: it stays out.
    await again.replay(hunch.hash);
    expect(await again.isPromoted(hunch.hash)).toBe(false);
    expect(await again.checkout({ at: T })).not.toContain(hunch.hash);
    expect((await again.gateStats()).by_reason).toEqual({ promotion_allowed: 1, 'promotion_blocked:no_evidence': 2 });
    await close(again);
  });

  it('a promotion recorded in the chain holds with no salience file at all', async () => {
    const db = join(dir, 'no-file.sqlite');
    const memory = open(db);
    const seen = await memory.store({ text: 'Port 5432 on db-3 refuses connections', class: 'observation', source: 'probe' });
    for (let i = 0; i < 3; i += 1) await memory.replay(seen.hash);
    const checkout = await memory.checkout({ at: T });
    expect(await memory.isPromoted(seen.hash)).toBe(true);
    await close(memory);
    writeFileSync(saliencePathFor({ db })!, '');
    const again = open(db);
    expect(await again.isPromoted(seen.hash)).toBe(true);
    expect(await again.checkout({ at: T })).toBe(checkout);
    // Already promoted by the chain: recalls put it to the gate no more.
    for (let i = 0; i < 4; i += 1) await again.replay(seen.hash);
    expect((await again.gateStats()).allowed).toBe(1);
    await close(again);
  });
});
