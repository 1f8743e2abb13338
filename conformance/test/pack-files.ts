/**
 * Reads the conformance pack and the vectors as raw files for the oracle's tests: from this
 * package's own `pack/` and `vectors/` copies, or from EWP_SHARED_DIR when set. Raw text on
 * purpose: the oracle reads it with its own JSON reader, not the kernel's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const SHARED_DIR = process.env.EWP_SHARED_DIR ?? fileURLToPath(new URL('..', import.meta.url));
export const PACK_DIR = join(SHARED_DIR, 'pack');
export const VECTORS_DIR = join(SHARED_DIR, 'vectors');
export const SHARED_AVAILABLE = existsSync(join(PACK_DIR, 'fixtures'));

export interface PackFile {
  readonly name: string;
  readonly text: string;
}

export function packFiles(family: 'fixtures' | 'expected' | 'invalid' | 'goldens'): PackFile[] {
  const dir = join(PACK_DIR, family);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ''), text: readFileSync(join(dir, f), 'utf8') }));
}

export function vectorText(name: string): string {
  return readFileSync(join(VECTORS_DIR, name), 'utf8');
}

export function evaluateVectorLines(): string[] {
  return gunzipSync(readFileSync(join(VECTORS_DIR, 'evaluate.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}
