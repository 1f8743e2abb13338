/**
 * A full disk under the JSON-file store, injected at the fs boundary (every write fails with ENOSPC
 * once armed): each failed write leaves no temporary file and the ledger as it was; temporary files
 * that killed writers left are swept when the ledger is opened for writing.
 */
import fs, { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { JsonFileEvidenceStore } from '../src/json-file-store.js';
import { bigView, seedView } from '../test-support/fault-views.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-json-enospc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const table = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
const originalWriteSync = table.writeSync as (...args: unknown[]) => unknown;
/** Writes left before the disk is full (undefined: not full). */
let writesLeft: number | undefined;
function fillDiskAfter(writes: number | undefined): void {
  writesLeft = writes;
  table.writeSync = (...args: unknown[]) => {
    if (writesLeft !== undefined && writesLeft-- <= 0) {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    }
    return originalWriteSync(...args);
  };
  syncBuiltinESMExports();
}
afterEach(() => {
  table.writeSync = originalWriteSync;
  syncBuiltinESMExports();
});

/** Every file under `root`, as paths relative to it. */
function files(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).sort();
}

describe('a full disk', () => {
  it('fails each write at its first ENOSPC, leaves no temporary file, and the ledger as it was', async () => {
    for (let writes = 0; writes < 12; writes += 1) {
      const root = join(dir, `full${++n}`);
      const store = new JsonFileEvidenceStore(root);
      await store.put(seedView('P-1'));
      const before = files(root);
      fillDiskAfter(writes);
      const outcome = await store.putMany([bigView('P-2', 20), seedView('P-3')]).then(
        () => 'stored',
        (error: NodeJS.ErrnoException) => error.code,
      );
      fillDiskAfter(undefined);
      expect(
        files(root).filter((f) => f.includes('.tmp-')),
        `full after ${writes} writes`,
      ).toEqual([]);
      if (outcome === 'stored') break;
      expect(outcome).toBe('ENOSPC');
      // The next write (disk freed) recovers what the failed one left past the anchor.
      const again = new JsonFileEvidenceStore(root);
      expect((await again.put(seedView('P-4'))).status).toBe('stored');
      expect((await again.listPropositions()).map((p) => p.proposition_id).sort()).toEqual(['P-1', 'P-4']);
      expect(await again.verifyChain()).toMatchObject({ ok: true });
      expect(files(root).some((f) => f.includes('.tmp-')) || before.some((f) => f.includes('.tmp-'))).toBe(false);
    }
  });

  it('sweeps temporary files of writers that are gone when opened for writing, and keeps a live one’s', async () => {
    const root = join(dir, `sweep${++n}`);
    await new JsonFileEvidenceStore(root).put(seedView('P-1'));
    const deadPid = 2 ** 22 + 12345;
    writeFileSync(join(root, `anchor.json.tmp-${deadPid}-abc`), '{');
    writeFileSync(join(root, `anchor.json.tmp-${process.ppid}-def`), '{');
    new JsonFileEvidenceStore(root, { readOnly: true });
    expect(files(root).filter((f) => f.includes('.tmp-'))).toHaveLength(2);
    new JsonFileEvidenceStore(root);
    expect(files(root).filter((f) => f.includes('.tmp-'))).toEqual([`anchor.json.tmp-${process.ppid}-def`]);
  });
});
