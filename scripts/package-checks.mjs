// The scripted checks of the published packages, run by scripts/test-all.mjs after the vitest runs:
// package quality, runtime lanes, installs as a user, the README's agent snippets and shell commands, the API reference. Each writes its counted results to a file;
// their sum joins the closing `N passed, N failed` line (skipped checks are not counted as passed).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './workspace.mjs';

export const PACKAGE_CHECKS = [
  'scripts/package-quality.mjs',
  'scripts/runtime-lanes.mjs',
  'scripts/install-as-user.mjs',
  'scripts/hook-path-install.mjs',
  'scripts/readme-snippets.mjs',
  'scripts/readme-commands.mjs',
  'scripts/api-docs.mjs',
];

/** Run every check script in turn; returns `{ passed, failed, seconds: { script: s } }`. */
export function runPackageChecks() {
  let passed = 0;
  let failed = 0;
  const seconds = {};
  for (const script of PACKAGE_CHECKS) {
    const resultsFile = join(ROOT, `.check-results-${script.replace(/\W+/g, '-')}.json`);
    rmSync(resultsFile, { force: true });
    console.log(`\n== ${script}`);
    const started = performance.now();
    const run = spawnSync(process.execPath, [join(ROOT, script), '--results', resultsFile], { cwd: ROOT, stdio: 'inherit' });
    seconds[script] = Math.round((performance.now() - started) / 100) / 10;
    if (existsSync(resultsFile)) {
      const counts = JSON.parse(readFileSync(resultsFile, 'utf8'));
      passed += counts.passed;
      failed += counts.failed;
      if (run.status !== 0 && counts.failed === 0) failed += 1;
    } else failed += 1; // the script died before reporting
    rmSync(resultsFile, { force: true });
  }
  console.log(
    `package checks took ${Object.entries(seconds)
      .map(([s, t]) => `${s} ${t} s`)
      .join(', ')}`,
  );
  return { passed, failed, seconds };
}
