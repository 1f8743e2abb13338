// The workspace's packages, discovered when a script runs (never a hard-coded list), so a package
// added under one of pnpm-workspace.yaml's globs is covered by every release and quality check.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The repository root (this file lives in <root>/scripts). */
export const ROOT = resolve(import.meta.dirname, '..');

/** The globs listed under `packages:` in pnpm-workspace.yaml: `dir` or `dir/*`, nothing fancier. */
function workspaceGlobs() {
  const text = readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [];
  let inPackages = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inPackages = line.startsWith('packages:');
    else if (inPackages) {
      const m = /^\s+-\s+['"]?([^'"#\s]+)['"]?/.exec(line);
      if (m) globs.push(m[1]);
    }
  }
  for (const glob of globs) {
    if (/[*?{[]/.test(glob.replace(/\/\*$/, ''))) {
      throw new Error(`pnpm-workspace.yaml: glob "${glob}" is not supported by scripts/workspace.mjs (only "dir" and "dir/*"); extend workspaceGlobs()`);
    }
  }
  return globs;
}

/**
 * Every workspace package: `{ name, version, private, dir (relative to the root, posix), path, manifest }`,
 * sorted by directory.
 */
export function workspacePackages() {
  const dirs = [];
  for (const glob of workspaceGlobs()) {
    if (glob.endsWith('/*')) {
      const parent = join(ROOT, glob.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) dirs.push(join(parent, entry.name));
      }
    } else dirs.push(join(ROOT, glob));
  }
  const packages = [];
  for (const path of dirs) {
    const manifestPath = join(path, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    packages.push({
      name: manifest.name,
      version: manifest.version,
      private: manifest.private === true,
      dir: relative(ROOT, path).split('\\').join('/'),
      path,
      manifest,
    });
  }
  return packages.sort((a, b) => a.dir.localeCompare(b.dir));
}

/** The packages that are published (not `"private": true`). */
export function publicPackages() {
  return workspacePackages().filter((p) => !p.private);
}

/**
 * The entry points a package exports with types: `{ subpath, types, import }` for each `exports` key
 * whose target has a `types` and an `import` condition (`./package.json` and the like are skipped).
 */
export function typedEntryPoints(pkg) {
  const exportsMap = pkg.manifest.exports ?? {};
  const entries = [];
  for (const [subpath, target] of Object.entries(exportsMap)) {
    if (target && typeof target === 'object' && typeof target.types === 'string' && typeof target.import === 'string') {
      entries.push({ subpath, types: target.types, import: target.import });
    }
  }
  return entries;
}
