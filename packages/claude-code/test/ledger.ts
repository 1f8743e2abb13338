/** A SQLite ledger file with the pack's fixtures (P-win verified at T0, stale at LATER; P-x disputed). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFixtures } from '@ewp/conformance/pack';
import { SqliteEvidenceStore } from '@ewp/sqlite';

export const T0 = new Date('2026-09-21T21:00:00Z');
export const LATER = new Date('2026-10-05T00:00:00Z');

export async function fixtureLedger(): Promise<{ dir: string; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ewp-claude-'));
  const file = join(dir, 'ewp.sqlite');
  const store = new SqliteEvidenceStore(file);
  const fixtures = loadFixtures();
  for (const name of ['08-verified-now', '02-fork-x']) await store.put(structuredClone(fixtures.find((f) => f.name === name)!.view));
  await store.close();
  return { dir, file };
}

/** The mapping the tests and the example use: deploys depend on P-win, database drops on P-x. */
export const MAPPING_JSON = {
  unmapped: 'ask',
  tools: [
    { match: 'mcp__ops__restart', proposition: 'P-win', action: { kind: 'restart', risk: 'medium', reversible: true } },
    { match: 'mcp__ops__drop_*', proposition: 'P-x', action: { action_id: 'drop:{tool_input.table}', kind: 'drop', risk: 'high', reversible: false } },
    { match: 'Read', proposition: 'P-win', action: { kind: 'read', risk: 'low' } },
    { match: 'mcp__ops__ticket', proposition: 'P-ticket-{tool_input.id}', action: { kind: 'ticket', risk: 'low' } },
  ],
};
