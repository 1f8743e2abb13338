/** The repository's own files, for the tests that scan its sources and docs. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Tracked and new (not ignored) files, relative to the root, that still exist in the working tree. */
export function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: repositoryRoot,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return out.split('\0').filter((f) => f !== '' && existsSync(join(repositoryRoot, f)));
}
