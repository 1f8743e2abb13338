import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJson } from '@ewp/core';
import * as pack from '../pack/index.js';

/** One conformance fixture as the adapter suite uses it: the raw view and its T. */
export interface AdapterFixture {
  name: string;
  /** The fixture's JSON value (an EvidenceView plus `evaluated_at`). */
  raw: unknown;
  evaluatedAt: string;
}

function fromPackModule(): AdapterFixture[] | undefined {
  const load = (pack as Record<string, unknown>).loadFixtures;
  if (typeof load !== 'function') return undefined;
  const entries = (load as () => unknown)();
  if (!Array.isArray(entries)) return undefined;
  const out: AdapterFixture[] = [];
  for (const entry of entries as Record<string, unknown>[]) {
    const raw = entry.view ?? entry.raw;
    const evaluatedAt = entry.evaluated_at ?? entry.evaluatedAt ?? (raw as Record<string, unknown> | undefined)?.evaluated_at;
    if (typeof entry.name !== 'string' || raw === undefined || typeof evaluatedAt !== 'string') return undefined;
    out.push({ name: entry.name, raw, evaluatedAt });
  }
  return out;
}

function packDirCandidates(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const list = [resolve(here, '../../pack'), resolve(here, '../pack')];
  if (process.env.EWP_PACK_DIR) list.unshift(process.env.EWP_PACK_DIR);
  return list;
}

function fromFiles(): AdapterFixture[] {
  const dir = packDirCandidates().find((d) => existsSync(join(d, 'fixtures')));
  if (dir === undefined) throw new Error(`conformance pack not found (looked in ${packDirCandidates().join(', ')}; set EWP_PACK_DIR)`);
  return readdirSync(join(dir, 'fixtures'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const raw = parseJson(readFileSync(join(dir, 'fixtures', file), 'utf8'));
      const evaluatedAt = (raw as Record<string, unknown>).evaluated_at;
      if (typeof evaluatedAt !== 'string') throw new Error(`fixture ${file} has no evaluated_at`);
      return { name: file.replace(/\.json$/, ''), raw, evaluatedAt };
    });
}

/** The 52 pack fixtures, from `@ewp/conformance/pack` when it exports `loadFixtures()`, else from the pack files. */
export function adapterFixtures(): AdapterFixture[] {
  return fromPackModule() ?? fromFiles();
}
