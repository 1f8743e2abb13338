// The Node 22 lane: run the vitest projects that need Node 22 (scripts/node22-lane.mjs) under the npm
// registry's `node@22` package, installed with npm into .ci/node22/ (gitignored, reused), never
// downloaded from anywhere else. The rest of the suite stays on the machine's Node. Our SQLite store runs
// here on the built-in node:sqlite; for offline Mem0 (mem0ai loads better-sqlite3 itself) the lane builds
// better-sqlite3 for Node 22 once (scripts/node22-better-sqlite3.mjs) and preloads a redirect to it
// (scripts/node22-preload.cjs) into the lane's processes only.
//
//   node scripts/test-node22.mjs [vitest arguments]   ends with `N passed, N failed`
//
// scripts/test-all.mjs (the root `npm test`) runs this lane after the main run and adds its counts.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBetterSqlite22 } from './node22-better-sqlite3.mjs';
import { installNode, NODE_LANES } from './node-runtime.mjs';
import { vitestCounts } from './vitest-counts.mjs';
import { ROOT as root } from './workspace.mjs';

/** The Node 22 binary (the runtime lanes' pinned 22.x, installed into .ci/node22/ when missing). */
export function ensureNode22() {
  return installNode(NODE_LANES[22]);
}

/** Run the lane; returns `{ passed, failed }`. */
export function runNode22Lane(args = []) {
  let node;
  try {
    node = ensureNode22();
  } catch (error) {
    console.error(`Node 22 lane: ${error.message}`);
    return { passed: 0, failed: 1 };
  }
  const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
  try {
    env.EWP_NODE22_BETTER_SQLITE3 = ensureBetterSqlite22(node);
    env.EWP_NODE22_BETTER_SQLITE3_FOR = `v${NODE_LANES[22]}`;
    env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${join(root, 'scripts', 'node22-preload.cjs')}`.trim();
  } catch (error) {
    // The offline Mem0 tests then say why they are skipped; everything else runs.
    console.error(`Node 22 lane: could not build better-sqlite3 for Node 22 (${error.message.split('\n')[0]})`);
  }
  const results = join(root, '.vitest-node22-results.json');
  rmSync(results, { force: true });
  const run = spawnSync(
    node,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'vitest.node22.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${results}`,
      ...args,
    ],
    { cwd: root, stdio: 'inherit', env },
  );
  return vitestCounts(results, run.status);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { passed, failed } = runNode22Lane(process.argv.slice(2));
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
