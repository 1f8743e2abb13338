// The README's test command: build every package, run every test of the workspace in one
// vitest run, and print the plain closing line `N passed, N failed` that CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { pnpm } from './pnpm.mjs';

if (!existsSync('node_modules/.modules.yaml')) pnpm(['install', '--frozen-lockfile']);
pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);

const results = '.vitest-results.json';
rmSync(results, { force: true });
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);

let passed = 0;
let failed = 0;
if (existsSync(results)) {
  const report = JSON.parse(readFileSync(results, 'utf8'));
  passed = report.numPassedTests;
  // Failed tests, plus test files that failed before running any test (import or syntax errors).
  const brokenFiles = report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0);
  failed = report.numFailedTests + brokenFiles.length;
} else {
  failed = 1; // vitest itself failed before reporting
}
if (run.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
