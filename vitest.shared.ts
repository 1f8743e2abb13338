import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject, mergeConfig, type Plugin, type UserWorkspaceConfig } from 'vitest/config';

// Tests run against the TypeScript sources of workspace packages (their `@ewp/source` export), never
// a stale build. This is a resolver plugin rather than a resolve condition: Vitest hands SSR
// conditions to Node as `--conditions`, which would also change what dependencies load (some publish
// a `source` condition pointing at TypeScript; pg would load pg-pool's ESM build).
const root = dirname(fileURLToPath(import.meta.url));
const sources = new Map<string, string>();
for (const dir of [...readdirSync(join(root, 'packages')).map((d) => join(root, 'packages', d)), join(root, 'conformance')]) {
  let pkg: { name?: string; exports?: Record<string, { '@ewp/source'?: string } | string> };
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
    const source = typeof target === 'object' ? target['@ewp/source'] : undefined;
    if (source) sources.set(`${pkg.name}${sub.slice(1)}`, join(dir, source));
  }
}

/** Resolves `@ewp/*` imports (and their subpaths) to the package's TypeScript source. */
export const workspaceSources: Plugin = {
  name: 'ewp-workspace-sources',
  enforce: 'pre',
  resolveId: (id) => sources.get(id),
};

/** The vitest project every package uses; `extra` is merged in for package-specific needs. */
export function ewpProject(extra: UserWorkspaceConfig = {}) {
  return defineProject(
    mergeConfig(
      {
        plugins: [workspaceSources],
        test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 60_000, setupFiles: [join(root, 'vitest.setup.ts')] },
      },
      extra,
    ),
  );
}
