// Reads a vitest JSON report into the counts of the closing line CI reads (`N passed, N failed`).
import { existsSync, readFileSync } from 'node:fs';

/**
 * Passed and failed tests of one vitest run: failed counts failed tests plus test files that failed
 * before running any test (import or syntax errors); a run that exited non-zero without a report,
 * or with one that shows no failure, counts one failure.
 */
export function vitestCounts(reportFile, exitStatus) {
  let passed = 0;
  let failed = 0;
  /** `file > test name` of each failure, so the tail of a CI log names what failed. */
  const failures = [];
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    passed = report.numPassedTests;
    const brokenFiles = report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0);
    failed = report.numFailedTests + brokenFiles.length;
    const root = process.cwd() + '/';
    for (const file of report.testResults) {
      const name = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
      if (file.status === 'failed' && file.assertionResults.length === 0) failures.push(`${name} (did not load)`);
      for (const test of file.assertionResults) {
        if (test.status === 'failed') failures.push(`${name} > ${test.fullName}`);
      }
    }
  } else {
    failed = 1; // vitest itself failed before reporting
  }
  if (exitStatus !== 0 && failed === 0) failed = 1;
  return { passed, failed, failures };
}
