/** Real SQLite ledgers for the inspector's tests, built from the conformance pack. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEvidenceStore } from '@ewp/sqlite';

const pack = (p: string) => new URL(`../../../conformance/pack/${p}`, import.meta.url);

/** The quick-start evidence (what `pnpm quickstart` ingests into ./ewp.sqlite). */
export function quickstartViews(): unknown[] {
  return (JSON.parse(readFileSync(pack('examples/quickstart.json'), 'utf8')) as { views: unknown[] }).views;
}

/** One pack fixture (an EvidenceView as JSON). */
export function packFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(pack(`fixtures/${name}.json`), 'utf8')) as Record<string, unknown>;
}

/**
 * A SQLite ledger file holding `views`, stored the way `ewp ingest` stores them (each view put
 * through the store, which decodes and validates it), closed and reopened read-only like `ewp inspect`.
 */
export async function sqliteLedger(
  views: readonly unknown[],
  tamper?: (store: SqliteEvidenceStore) => void,
): Promise<{ store: SqliteEvidenceStore; file: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'ewp-inspect-')), 'ewp.sqlite');
  const writer = new SqliteEvidenceStore(file);
  for (const view of views) await writer.put(view);
  tamper?.(writer);
  await writer.close();
  return { store: new SqliteEvidenceStore(file, { readOnly: true }), file };
}
