import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

// The lowest-versions lane's test run (scripts/user-lanes.mjs, testsOnLowestPeers): each binding's own
// tests, from the workspace's sources, with every package its scratch project installs (the oldest
// allowed framework peers, the rest of its devDependencies) loaded from that project instead of the
// workspace. EWP_LOWEST_PEERS is JSON: [{ dirs: ['packages/x', ...], project: '/tmp/...' }].
interface LowestPeersRun {
  dirs: string[];
  project: string;
}
const runs = JSON.parse(process.env.EWP_LOWEST_PEERS ?? '[]') as LowestPeersRun[];
if (runs.length === 0) throw new RangeError('vitest.lowest-peers.config.ts: EWP_LOWEST_PEERS names no binding (run it through scripts/lowest-peers.mjs)');
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Resolve the scratch project's packages (and their subpaths) as if imported from the project; only
 * for importers outside node_modules (our sources and tests): inside a package, Node resolves from
 * where it is installed. Each package redirected is appended to `<project>/redirected.txt`, so the
 * lane can tell a peer the tests never loaded from one they loaded at its oldest version.
 */
function fromProject(project: string): Plugin {
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const names = new Set(Object.keys(manifest.dependencies));
  const seen = new Set<string>();
  return {
    name: 'ewp-lowest-peers',
    enforce: 'pre',
    async resolveId(id, importer, options) {
      if (importer === undefined || importer.includes('/node_modules/') || id.startsWith('.') || id.startsWith('/')) return null;
      const name = id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0];
      if (!names.has(name)) return null;
      const resolved = await this.resolve(id, join(project, 'package.json'), { ...options, skipSelf: true });
      if (resolved && !seen.has(name)) {
        seen.add(name);
        appendFileSync(join(project, 'redirected.txt'), `${name}\n`);
      }
      return resolved;
    },
  };
}

export default defineConfig({
  test: {
    projects: runs.flatMap(({ dirs, project }) =>
      dirs.map((dir) => ({
        extends: here(`${dir}/vitest.config.ts`),
        plugins: [fromProject(project)],
        test: {
          name: `${JSON.parse(readFileSync(here(`${dir}/package.json`), 'utf8')).name} (oldest peers)`,
          root: here(dir),
          // Two bindings' suites run at once here: this lane checks what passes on old peers, not how fast,
          // and a long contract test (every tool × every malformed value) outlived the default 60 s under that load.
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      })),
    ),
  },
});
