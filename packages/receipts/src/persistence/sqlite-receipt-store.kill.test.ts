import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type SqliteReceiptStore, openSqliteReceiptStore } from './sqlite-receipt-store.js';

// A real process kill mid-transaction (docs/spec/receipts.md §9.4 asks for more than in-process exceptions). The
// store's source is bundled with the workspace's esbuild so a plain `node` child can run it.
const HERE = fileURLToPath(new URL('.', import.meta.url));
const ESBUILD = join(HERE, '../../node_modules/.bin/esbuild');
const dir = mkdtempSync(join(tmpdir(), 'ewp-receipts-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const v = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/persistence-sqlite.json', import.meta.url)), 'utf8'));

describe('SQLite receipt store survives SIGKILL mid-commit', () => {
  const bundle = join(dir, 'store.mjs');
  it('bundles the store for a child process', () => {
    execFileSync(ESBUILD, [
      join(HERE, 'sqlite-receipt-store.ts'),
      '--bundle',
      '--format=esm',
      '--platform=node',
      '--external:better-sqlite3',
      // Workspace packages (@ewp/canonical, @ewp/core) from their TypeScript sources: the child
      // runs from a temporary directory, where no node_modules would resolve them.
      '--conditions=@ewp/source',
      `--outfile=${bundle}`,
      '--log-level=warning',
    ]);
    expect(existsSync(bundle)).toBe(true);
  });

  for (const point of ['after_checkpoint_write', 'after_verification_write', 'after_replay_write'] as const) {
    it(`killed at ${point}: no row of the bundle survives, the operation applies afresh`, async () => {
      const file = join(dir, `${point}.sqlite`);
      const driver = join(dir, `${point}.mjs`);
      writeFileSync(
        driver,
        `import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(join(HERE, '../../package.json'))});
globalThis.__sqlite = require('better-sqlite3');
const { SqliteReceiptStore } = await import(${JSON.stringify(bundle)});
const v = ${JSON.stringify({ cp: v.checkpoints['A-op'], result: v.verification_results['A-op'], payload: v.operation_payload })};
const store = new SqliteReceiptStore(new globalThis.__sqlite(${JSON.stringify(file)}), {
  onCrashPoint: (p) => { if (p === ${JSON.stringify(point)}) process.kill(process.pid, 'SIGKILL'); },
});
store.commitBundle(v.cp, v.result, 'op-1', v.payload);
console.log('not killed');
`,
      );
      const child = spawnSync(process.execPath, [driver], { encoding: 'utf8' });
      expect(child.signal).toBe('SIGKILL');
      expect(child.stdout).not.toContain('not killed');
      let store: SqliteReceiptStore | undefined;
      try {
        store = await openSqliteReceiptStore(file);
        expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(store.rowCounts()).toEqual({ eb_checkpoints: 0, eb_receipts: 0, eb_verifications: 0, eb_replay: 0 });
        expect(store.applyOperation('op-1', v.operation_payload)).toBe('APPLIED');
      } finally {
        store?.close();
      }
    });
  }
});
