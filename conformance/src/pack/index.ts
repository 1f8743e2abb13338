/**
 * The EWP-0.2.0 / reference-v2 conformance pack as data: 52 fixtures with expected axes
 * (14 canonical, 12 pathological, 26 hardening), 35 views that must be refused, and 26 golden
 * normalized WarrantViews. Files are read with Python's number semantics (`parseJson`).
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareCodePoints, parseJson } from '@ewp/core';

/** Absolute path of the pack directory shipped with this package (from src/ or a bundled dist/). */
export const PACK_DIR = ['../pack/', '../../pack/']
  .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
  .find((dir) => existsSync(`${dir}manifest.json`)) as string;

export type Family = 'canonical' | 'pathological' | 'hardening' | 'invalid';

export interface ExpectedAxes {
  acceptance: string;
  conflict: string;
  verification: string;
  currency: string;
  sufficiency: string;
}

/** One valid view of the pack, with what the reference answers for it. */
export interface PackFixture {
  name: string;
  family: Exclude<Family, 'invalid'>;
  description: string;
  /** The view as parsed from the file (it carries an extra `evaluated_at` key, ignored by decoding). */
  view: Record<string, unknown>;
  /** The file's exact text. */
  text: string;
  evaluatedAt: string;
  expected: ExpectedAxes & { protocol_version: string; policy_version: string; evaluated_at: string };
  /** The normalized WarrantView, for the 26 canonical and pathological fixtures. */
  golden?: Record<string, unknown>;
}

/** One view that every conforming implementation must refuse. */
export interface PackInvalidView {
  name: string;
  description: string;
  view: unknown;
  text: string;
  evaluatedAt: unknown;
  /** The refusal this project's kernel gives (class and code); informative for other evaluators. */
  refusal: { class: string; code: string };
}

interface ManifestEntry {
  family: Family;
  name: string;
  view: string;
  expected: string | ExpectedAxes;
  golden?: string;
  evaluated_at: string;
  description: string;
  refusal?: { class: string; code: string };
}

function readPackFile(relative: string): { text: string; value: unknown } {
  const text = readFileSync(PACK_DIR + relative, 'utf8');
  return { text, value: parseJson(text) };
}

// Expected files and goldens are the reference's output: plain JSON, numbers as JS numbers.
function readPlainJson(relative: string): unknown {
  return JSON.parse(readFileSync(PACK_DIR + relative, 'utf8'));
}

let manifestCache: ManifestEntry[] | undefined;
function manifest(): ManifestEntry[] {
  manifestCache ??= JSON.parse(readFileSync(`${PACK_DIR}manifest.json`, 'utf8')) as ManifestEntry[];
  return manifestCache;
}

/** The 52 valid fixtures, in manifest order (canonical, pathological, hardening). */
export function loadFixtures(): PackFixture[] {
  return manifest()
    .filter((e) => e.family !== 'invalid')
    .map((e) => {
      const { text, value } = readPackFile(e.view);
      const view = value as Record<string, unknown>;
      return {
        name: e.name,
        family: e.family as PackFixture['family'],
        description: e.description,
        view,
        text,
        evaluatedAt: view.evaluated_at as string,
        expected: readPlainJson(e.expected as string) as PackFixture['expected'],
        ...(e.golden ? { golden: readPlainJson(e.golden) as Record<string, unknown> } : {}),
      };
    });
}

/** The 35 views that must be refused. */
export function loadInvalidViews(): PackInvalidView[] {
  return manifest()
    .filter((e) => e.family === 'invalid')
    .map((e) => {
      const { text, value } = readPackFile(e.view);
      const evaluatedAt = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).evaluated_at : undefined;
      return { name: e.name, description: e.description, view: value, text, evaluatedAt, refusal: e.refusal ?? { class: '', code: '' } };
    });
}

/** The reference's ingest example: three views (docs/spec/store-contract.md §4). */
export function loadQuickstartViews(): unknown[] {
  return (readPackFile('examples/quickstart.json').value as { views: unknown[] }).views;
}

/**
 * H(dir) of the pack README: SHA-256 over, for each `.json` file in code point order of its
 * relative path, the path's UTF-8 bytes followed by the file's bytes with CR LF → LF.
 */
export function directoryHash(dir: string): string {
  const files = readdirSync(PACK_DIR + dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.split('\\').join('/'))
    .sort(compareCodePoints);
  const hash = createHash('sha256');
  for (const f of files) {
    hash.update(Buffer.from(f, 'utf8'));
    hash.update(Buffer.from(readFileSync(`${PACK_DIR}${dir}/${f}`, 'latin1').replaceAll('\r\n', '\n'), 'latin1'));
  }
  return hash.digest('hex');
}

/** The pack hashes that the lock file pins, recomputed from the files. */
export function computePackHashes(): { golden_set_sha256: string; implementer_pack_sha256: string; parts: Record<string, string> } {
  const parts = {
    fixtures: directoryHash('fixtures'),
    expected: directoryHash('expected'),
    invalid: directoryHash('invalid'),
    goldens: directoryHash('goldens'),
    examples: directoryHash('examples'),
    manifest: createHash('sha256').update(readFileSync(`${PACK_DIR}manifest.json`)).digest('hex'),
  };
  const implementer = createHash('sha256').update(parts.fixtures + parts.expected + parts.invalid, 'ascii').digest('hex');
  return { golden_set_sha256: parts.goldens, implementer_pack_sha256: implementer, parts };
}

/** The lock file of this project's copy of the pack (`pack/PACK.lock.json`). */
export function readPackLock(): {
  pack_version: string;
  protocol: string;
  policy: string;
  golden_set_sha256: string;
  implementer_pack_sha256: string;
  parts: Record<string, string>;
} {
  return JSON.parse(readFileSync(`${PACK_DIR}PACK.lock.json`, 'utf8'));
}
