/**
 * `ewp ingest` onto a full disk: a real, tiny tmpfs (mounting needs root; skipped, saying why, where it
 * cannot be mounted; the JSON store's own test injects ENOSPC at the fs boundary everywhere).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { ingestCommand } from './ingest.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-disk-full-'));
const disk = join(dir, 'disk');
mkdirSync(disk);
const mounted = process.platform === 'linux' && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk]).status === 0;
if (!mounted) console.log('ingest-disk-full: skipped: cannot mount a tmpfs here (needs root on Linux)');
afterAll(() => {
  if (mounted) spawnSync('umount', [disk]);
  rmSync(dir, { recursive: true, force: true });
});

const input = join(dir, 'views.jsonl');
writeFileSync(
  input,
  `${Array.from({ length: 4000 }, (_, i) =>
    JSON.stringify({
      proposition_id: `P-${i}`,
      view_id: 'v1',
      assertions: [
        {
          assertion_id: 'a',
          proposition_id: `P-${i}`,
          text: 'x'.repeat(200),
          asserted_by: 'agent',
          assertion_confidence: 0.5,
          asserted_at: '2026-01-01T00:00:00Z',
          source: {
            source_id: 's',
            lineage_id: 'L',
            origin_type: 'extract',
            origin_locator: 'l',
            snapshot_id: 's',
            content_hash: 'h',
            observed_at: '2026-01-01T00:00:00Z',
          },
        },
      ],
    }),
  ).join('\n')}\n`,
);

describe.skipIf(!mounted)('ewp ingest on a full disk', () => {
  for (const [name, ledger] of [
    ['JSON-file', ['--json-dir', join(disk, 'j')]],
    ['SQLite', ['--db', join(disk, 'l.sqlite')]],
  ] as const) {
    it(`${name}: stops at the first failed write with one line, exit 2, no temporary file left`, async () => {
      const r = await runCaptured((io) => ingestCommand([input, ...ledger, '--batch', '50'], io), { cwd: dir });
      expect(r.code).toBe(2);
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^ewp ingest: unusable ledger: .*(ENOSPC|full).*; stopped after [\d,]+ view\(s\) read: [\d,]+ stored/i);
      expect((readdirSync(disk, { recursive: true }) as string[]).filter((f) => f.includes('.tmp-'))).toEqual([]);
      rmSync(ledger[1], { recursive: true, force: true });
    });
  }
});
