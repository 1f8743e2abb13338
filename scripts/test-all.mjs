// The README's test command: build every package, run every test of the workspace in one
// vitest run on the machine's Node, then the Node 22 and Node 24 lanes side by side
// (scripts/test-node-lane.mjs: the projects that need Node 22, and the Node 24 list of
// scripts/node-lanes.mjs, under the npm registry's node@22 and node@24), and print the plain closing line
// `N passed, N failed` that CI reads, summed over them and the package checks (scripts/package-checks.mjs:
// package quality, installs as a user, runtime lanes).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { runPackageChecks } from './package-checks.mjs';
import { pnpm } from './pnpm.mjs';
import { LANE_MAJORS, runNodeLanes } from './test-node-lane.mjs';
import { vitestCounts } from './vitest-counts.mjs';

if (!existsSync('node_modules/.modules.yaml')) pnpm(['install', '--frozen-lockfile']);
pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);

const results = '.vitest-results.json';
rmSync(results, { force: true });
const args = process.argv.slice(2);
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...args],
  { stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);
const main = vitestCounts(results, run.status);
// Arguments narrow the main run (a project, a file); the lanes run on a full run only.
const lanes = args.length === 0 ? await runNodeLanes() : {};
const laneCounts = Object.values(lanes);
// The published packages' checks (scripts/package-checks.mjs), also on a full run only.
const checks = args.length === 0 ? runPackageChecks() : { passed: 0, failed: 0 };
if (args.length === 0) {
  console.log(
    [
      `main run: ${main.passed} passed, ${main.failed} failed`,
      ...LANE_MAJORS.map((major) => `Node ${major} lane: ${lanes[major].passed} passed, ${lanes[major].failed} failed`),
      `package checks: ${checks.passed} passed, ${checks.failed} failed`,
    ].join('; '),
  );
}
for (const failure of [...main.failures, ...laneCounts.flatMap((lane) => lane.failures)]) console.log(`failed: ${failure}`);
const sum = (key) => laneCounts.reduce((total, lane) => total + lane[key], 0);
const passed = main.passed + sum('passed') + checks.passed;
const failed = main.failed + sum('failed') + checks.failed;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
